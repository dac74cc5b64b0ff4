"""Edge cases of the action taxonomy: one case per malformed table, files, and gate corners.

Not completion sentences (those are in tests/test_run_taxonomy.py). Every
case works on an in-memory or tmp_path copy of the committed table.
"""

from __future__ import annotations

import json
import shutil

import pytest

from types import MappingProxyType

from core.run.canon import artifact_text
from core.run.gate import GateDecision, GateState, Gating, decide
from core.run.taxonomy import (
    CARRIED_DIGESTS,
    ROW_KEYS,
    TAXONOMY_DIR,
    TaxonomyError,
    carried_taxonomy,
    current_table,
    load_table,
    parse_table,
)


def committed() -> dict:
    return json.loads((TAXONOMY_DIR / "action_taxonomy.json").read_text(encoding="utf-8"))


def row(raw: dict, name: str) -> dict:
    return next(entry for entry in raw["classes"] if entry["name"] == name)


def drop(key):
    return lambda raw: raw.pop(key)


def pop_from_row(name, key):
    return lambda raw: row(raw, name).pop(key)


def set_row(name, key, value):
    return lambda raw: row(raw, name).__setitem__(key, value)


def add_row(**changes):
    def edit(raw):
        raw["classes"].append({**row(raw, "recon.passive"), "legacy_aliases": [], **changes})
    return edit


MALFORMED = {
    **{f"row without {key}": (pop_from_row("exploit.attempt", key), f"does not declare {key}; every key must be declared")
       for key in ROW_KEYS},
    "row with an unknown key": (set_row("recon.passive", "approver", "x"), "has unknown field(s) approver"),
    "row that is not an object": (lambda raw: raw["classes"].append("recon.extra"), "classes[7] must be an object"),
    "consequential given as text": (
        set_row("exploit.attempt", "consequential", "yes"),
        "consequential must be true or false",
    ),
    "fail_open_allowed given as a number": (
        set_row("recon.passive", "fail_open_allowed", 1),
        "fail_open_allowed must be true or false",
    ),
    "approver role that is a number": (
        set_row("probe.active_light", "approver_role", 3),
        "approver_role must be a non-empty word",
    ),
    "approver role that is empty": (
        set_row("probe.active_light", "approver_role", ""),
        "approver_role must be a non-empty word",
    ),
    "class name with a space": (set_row("recon.passive", "name", "recon passive"), "name must be a non-empty word"),
    "class name that is empty": (set_row("recon.passive", "name", ""), "classes[0] name must be a non-empty word"),
    "reserved class name": (set_row("recon.passive", "name", "unclassified"), "uses the reserved name"),
    "legacy aliases given as a string": (
        set_row("recon.passive", "legacy_aliases", "passive"),
        "legacy_aliases must be a list",
    ),
    "legacy alias that is not a word": (
        set_row("recon.passive", "legacy_aliases", [None]),
        "legacy_aliases entry must be a non-empty word",
    ),
    "legacy alias listed twice in a row": (
        set_row("recon.passive", "legacy_aliases", ["passive", "passive"]),
        "legacy_aliases lists a name more than once",
    ),
    "duplicate class name": (add_row(), "is declared more than once"),
    "alias equal to another class name": (
        set_row("recon.passive", "legacy_aliases", ["exploit.attempt"]),
        "legacy alias 'exploit.attempt' of class 'recon.passive' collides",
    ),
    "alias shared by two classes": (
        set_row("recon.enumerate", "legacy_aliases", ["passive"]),
        "legacy alias 'passive' of class 'recon.enumerate' collides",
    ),
    "alias using the reserved name": (
        set_row("recon.passive", "legacy_aliases", ["unclassified"]),
        "legacy alias 'unclassified'",
    ),
    "consequential class with no trigger": (
        set_row("exploit.attempt", "trigger_class", None),
        "so its trigger_class must be one of",
    ),
    "consequential class with an undeclared trigger": (
        set_row("exploit.attempt", "trigger_class", "mischief"),
        "got 'mischief'",
    ),
    "consequential class that may fail open": (
        set_row("exploit.attempt", "fail_open_allowed", True),
        "is consequential and may not fail open",
    ),
    "non-consequential class with a trigger": (
        set_row("recon.passive", "trigger_class", "active_testing"),
        "so its trigger_class must be null",
    ),
    "table without taxonomy_version": (drop("taxonomy_version"), "the table does not declare taxonomy_version"),
    "table without about": (drop("about"), "the table does not declare about"),
    "about given as a number": (lambda raw: raw.__setitem__("about", 2), "about must say"),
    "table with an unknown key": (lambda raw: raw.__setitem__("notes", "x"), "the table has unknown field(s) notes"),
    "version given as a string": (
        lambda raw: raw.__setitem__("taxonomy_version", "2"),
        "taxonomy_version must be a positive integer",
    ),
    "version given as a boolean": (
        lambda raw: raw.__setitem__("taxonomy_version", True),
        "taxonomy_version must be a positive integer",
    ),
    "version zero": (
        lambda raw: raw.__setitem__("taxonomy_version", 0),
        "taxonomy_version must be a positive integer",
    ),
    "no trigger classes": (
        lambda raw: raw.__setitem__("trigger_classes", []),
        "trigger_classes must name at least one",
    ),
    "trigger class listed twice": (
        lambda raw: raw["trigger_classes"].append("disclosure"),
        "trigger_classes lists a name more than once",
    ),
    "no classes": (lambda raw: raw.__setitem__("classes", []), "classes must be a non-empty list"),
    "classes given as an object": (lambda raw: raw.__setitem__("classes", {}), "classes must be a non-empty list"),
    "table with no canonical JSON form": (lambda raw: raw.__setitem__("about", "\ud800"), "no canonical JSON form"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_each_malformed_table_is_rejected_with_a_typed_error(case):
    edit, fragment = MALFORMED[case]
    raw = committed()
    edit(raw)
    with pytest.raises(TaxonomyError) as caught:
        parse_table(raw, "edited table")
    assert str(caught.value).startswith("edited table: ") and fragment in str(caught.value)


def test_a_table_that_is_not_an_object_is_rejected():
    with pytest.raises(TaxonomyError, match="must be a JSON object"):
        parse_table([], "edited table")


def test_missing_key_message_names_row_and_key():
    raw = committed()
    row(raw, "report.publish").pop("approver_role")
    with pytest.raises(TaxonomyError) as caught:
        parse_table(raw, "edited table")
    assert str(caught.value) == ("edited table: class 'report.publish' does not declare approver_role; "
                                 "every key must be declared")


@pytest.mark.parametrize("text, expected", [
    ("", "not JSON (Expecting value at line 1 column 1)"),
    ("{not json", "not JSON (Expecting property name"),
    ('{"about": "a", "about": "b"}', "the key 'about' appears twice"),
    ("[]", "must be a JSON object"),
])
def test_bad_files_raise_one_clear_message(tmp_path, text, expected):
    path = tmp_path / "action_taxonomy.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TaxonomyError) as caught:
        load_table(path)
    message = str(caught.value)
    assert message.startswith("action_taxonomy.json: ") and expected in message
    assert str(tmp_path) not in message and "\n" not in message


def test_a_missing_file_names_it_relative_to_the_repository(tmp_path):
    with pytest.raises(TaxonomyError, match=r"^data/taxonomy/action_taxonomy_v7\.json: no such taxonomy file$"):
        load_table(TAXONOMY_DIR / "action_taxonomy_v7.json")
    with pytest.raises(TaxonomyError, match="^action_taxonomy.json: no such taxonomy file$"):
        current_table(tmp_path)


def test_committed_tables_are_canonical_artifacts_and_the_pin_matches():
    for path in sorted(TAXONOMY_DIR.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert artifact_text(json.loads(text)) == text, path.name
    assert sorted(CARRIED_DIGESTS) == [1, 3]
    for version, pinned in CARRIED_DIGESTS.items():
        assert carried_taxonomy(version).digest == pinned


@pytest.mark.parametrize("version", ["1", True, None, 1.0, [1]])
def test_carried_versions_are_integers(version):
    with pytest.raises(TaxonomyError):
        carried_taxonomy(version)


def test_a_carried_file_must_declare_its_own_version(tmp_path):
    folder = tmp_path / "taxonomy"
    shutil.copytree(TAXONOMY_DIR, folder)
    raw = json.loads((folder / "action_taxonomy_v1.json").read_text(encoding="utf-8"))
    raw["taxonomy_version"] = 3
    (folder / "action_taxonomy_v1.json").write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(TaxonomyError, match="declares taxonomy_version 3"):
        carried_taxonomy(1, folder)


def _decide(declared, decided=None, stale_view=False, fail_open=(), caps=None, used=None):
    table = current_table()
    gating = Gating(table.version, table, MappingProxyType(caps or {"recon.passive": 1}), tuple(fail_open))
    state = GateState(decided=dict(decided or {}), used=dict(used or {}))
    return decide(gating, declared, "probe_reflection -> https://lab.example:443/debug", "act", state, stale_view)


def test_a_rejection_by_the_approver_denies_and_reviews_of_others_do_not_count():
    decision = _decide("probe.active_light", {"act": ("rejected", "engagement-lead", "r1")})
    assert decision.verdict == "deny" and decision.reason.endswith("engagement-lead rejected this exact act in review r1")
    by_another = _decide("probe.active_light", {"act": ("approved", "tester", "r2")})
    assert by_another.verdict == "hold"


def test_a_fail_open_list_written_with_a_legacy_name_binds_its_canonical_class():
    gating = Gating.from_dict({"taxonomy_version": 2, "caps": {}, "fail_open_classes": ["passive"]})
    assert gating.fail_open_classes == ("recon.passive",)
    assert _decide("recon.passive", stale_view=True, fail_open=["passive"]).verdict == "deny"  # names are canonical here
    assert _decide("recon.passive", stale_view=True, fail_open=gating.fail_open_classes).verdict == "allow"


def test_failing_open_never_lifts_a_cap():
    configured = ("recon.passive",)
    assert _decide("recon.passive", stale_view=True, fail_open=configured).verdict == "allow"
    past = _decide("recon.passive", stale_view=True, fail_open=configured, used={"recon.passive": 1})
    assert past.verdict == "deny" and past.reason.endswith("may fail open, but not past its cap: fail closed")
    unset = _decide("recon.passive", stale_view=True, fail_open=configured, caps={"recon.enumerate": 3})
    assert unset.verdict == "deny"  # a class with no configured cap has a cap of 0


def test_gate_decisions_are_deterministic_and_validated():
    first, second = _decide("active"), _decide("active")
    assert first == second
    assert (first.verdict, first.action_class, first.trigger_class) == ("hold", "probe.active_light", "active_testing")
    assert first.reason == ("probe.active_light (legacy name 'active') is consequential; "
                            "it waits for an approved review of this exact act by engagement-lead")
    with pytest.raises(ValueError):
        GateDecision("maybe", "x", None, "y")
