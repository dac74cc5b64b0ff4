"""Edge cases of the safety pack, its ratification report and the SafetyCheck.

Not completion sentences (those are in tests/test_safety.py). One case per
malformed pack and per broken report; every case works on a tmp_path copy.
"""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.run.canon import artifact_text, digest
from core.run.demo_records import run_demo
from core.run.gate import act_subject
from core.safety import OVERRIDE_ENV, SafetyCheck, SafetyContext, SafetyPackError, load_safety_pack
from core.safety.check import Judgement, not_judged
from core.safety.pack import DEFAULT_SAFETY_PACK, LINKS, PACK_DIR, REPORT_FIELDS, first_broken_link, seal_of
from core.safety.ratify import main as ratify_main

PACK_FILE = f"{DEFAULT_SAFETY_PACK}.json"
REPORT_FILE = f"{DEFAULT_SAFETY_PACK}.ratification.json"


@pytest.fixture(autouse=True)
def no_override(monkeypatch):
    monkeypatch.delenv(OVERRIDE_ENV, raising=False)


@pytest.fixture
def packs(tmp_path):
    folder = tmp_path / "safety"
    shutil.copytree(PACK_DIR, folder)
    return folder


def committed(name: str) -> dict:
    return json.loads((PACK_DIR / name).read_text(encoding="utf-8"))


def setting(key, value):
    return lambda document: document.__setitem__(key, value)


def dropping(key):
    return lambda document: document.pop(key)


# Each malformation stops start-up with or without the override; the fragment is what the message says.
MALFORMED_PACKS = {
    "pack without pack_id": (dropping("pack_id"), "lacks the field(s) pack_id"),
    "pack without boundaries": (dropping("boundaries"), "lacks the field(s) boundaries"),
    "pack without ratification_digest": (dropping("ratification_digest"), "lacks the field(s) ratification_digest"),
    "pack with an unknown field": (setting("owner", "ops"), "has unknown field(s) owner"),
    "pack naming another id": (setting("pack_id", "other_pack"), "names itself 'other_pack'"),
    "schema version from the future": (setting("schema_version", 2), "has schema_version 2"),
    "schema version given as a boolean": (setting("schema_version", True), "has schema_version True"),
    "empty description": (setting("description", " "), "needs a non-empty description"),
    "boundaries given as a list": (setting("boundaries", ["no_fabricated_quote"]), "boundaries must be an object"),
    "no boundaries": (setting("boundaries", {}), "declares no boundaries"),
    "boundary id that is not snake_case": (setting("boundaries", {"No-Quotes": "x"}), "is not a snake_case name"),
    "boundary with an empty description": (setting("boundaries", {"no_quotes": ""}), "needs a non-empty description"),
    "boundary described by a number": (setting("boundaries", {"no_quotes": 1}), "needs a non-empty description"),
    "ratification digest that is not hex": (setting("ratification_digest", "abc"), "must be a sha256 hex digest"),
    "ratification digest given as null": (setting("ratification_digest", None), "must be a sha256 hex digest"),
    "text with no canonical JSON form": (setting("description", "\ud800"), "has no canonical JSON form"),
}


@pytest.mark.parametrize("override", ["", "1"])
@pytest.mark.parametrize("case", sorted(MALFORMED_PACKS))
def test_each_malformed_pack_stops_startup(packs, monkeypatch, case, override):
    if override:
        monkeypatch.setenv(OVERRIDE_ENV, override)
    change, fragment = MALFORMED_PACKS[case]
    document = committed(PACK_FILE)
    change(document)
    (packs / PACK_FILE).write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SafetyPackError) as caught:
        load_safety_pack(packs)
    assert str(caught.value).startswith(f"safety pack {PACK_FILE} ") and fragment in str(caught.value)


@pytest.mark.parametrize("text, fragment", [
    ("", "not JSON (Expecting value at line 1 column 1)"),
    ("[]", "must be an object, got list"),
    ('{"pack_id": "a", "pack_id": "b"}', "the key 'pack_id' appears twice in one object"),
    (b"\xff\xfe", "not UTF-8 text"),
])
def test_unreadable_pack_files_stop_startup_with_one_line(packs, monkeypatch, text, fragment):
    monkeypatch.setenv(OVERRIDE_ENV, "1")
    path = packs / PACK_FILE
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(SafetyPackError) as caught:
        load_safety_pack(packs)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    assert str(packs) not in str(caught.value)


def reseal(report: dict) -> dict:
    return {**report, "seal": seal_of(report)}


# Each broken report makes the pack unratified; the fragment is the reason given.
BROKEN_REPORTS = {
    "report that is not JSON": ("{", "not JSON (Expecting property name"),
    "report that is a list": ("[]", "must be an object, got list"),
    "report without its seal": (lambda r: {k: v for k, v in r.items() if k != "seal"}, "lacks the field(s) seal"),
    "report with an extra field": (lambda r: reseal({**r, "signed_by": "x"}), "has unknown field(s) signed_by"),
    "report with a broken seal": (lambda r: {**r, "seal": "0" * 64}, "does not match its content"),
    "report for another pack, resealed": (lambda r: reseal({**r, "pack_id": "other"}), "ratifies another pack"),
    "report over another pack digest, resealed": (lambda r: reseal({**r, "pack_digest": "0" * 64}),
                                                  "the pack has changed since it was ratified"),
    "report with NaN in it": (lambda r: {**r, "statement": float("nan")}, "not JSON (NaN is not a JSON number)"),
    "report edited and resealed": (lambda r: reseal({**r, "statement": "Ratified in a hurry."}),
                                   "the pack names another ratification report"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_REPORTS))
def test_each_broken_report_leaves_the_pack_unratified(packs, monkeypatch, case):
    change, fragment = BROKEN_REPORTS[case]
    text = change if isinstance(change, str) else json.dumps(change(committed(REPORT_FILE)))
    (packs / REPORT_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(SafetyPackError) as caught:
        load_safety_pack(packs)
    assert str(caught.value).startswith(f"safety pack {DEFAULT_SAFETY_PACK} is not ratified: ")
    assert fragment in str(caught.value)
    monkeypatch.setenv(OVERRIDE_ENV, "1")
    pack = load_safety_pack(packs)
    assert pack.ratified is False and fragment in pack.unratified_reason


@pytest.mark.parametrize("pack_id", ["../harness_safety_v1", "a/b", "", ".hidden", "UPPER", None])
def test_pack_ids_are_plain_names(pack_id):
    with pytest.raises(SafetyPackError, match="is not a plain name"):
        load_safety_pack(pack_id=pack_id)


def test_committed_pack_files_are_canonical_artifacts():
    for name in (PACK_FILE, REPORT_FILE):
        text = (PACK_DIR / name).read_text(encoding="utf-8")
        assert artifact_text(json.loads(text)) == text, name
    assert committed(PACK_FILE)["ratification_digest"] == digest(committed(REPORT_FILE))


def test_ratify_main_in_process_writes_nothing_on_error(packs, capsys):
    document = committed(PACK_FILE)
    document["boundaries"] = {}
    (packs / PACK_FILE).write_text(json.dumps(document), encoding="utf-8")
    report_before = (packs / REPORT_FILE).read_bytes()
    assert ratify_main(["--pack-dir", str(packs)]) == 1
    assert capsys.readouterr().err.startswith("ratify: safety pack ")
    assert (packs / REPORT_FILE).read_bytes() == report_before
    with pytest.raises(SystemExit) as stopped:
        ratify_main(["one", "two"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == "ratify: unrecognized arguments: two (see --help)\n"


def test_ratify_makes_a_fresh_pack_loadable(packs):
    document = committed(PACK_FILE)
    document["ratification_digest"] = ""
    (packs / PACK_FILE).write_text(json.dumps(document), encoding="utf-8")
    (packs / REPORT_FILE).unlink()
    assert ratify_main(["--pack-dir", str(packs)]) == 0
    assert (packs / REPORT_FILE).read_bytes() == (PACK_DIR / REPORT_FILE).read_bytes()
    assert (packs / PACK_FILE).read_bytes() == (PACK_DIR / PACK_FILE).read_bytes()


# Snapshots that lack or garble a section: the boundary that needs it is not judged, and says why.
GARBLED_SNAPSHOTS = {
    "no policy": (lambda s: s.pop("policy"), "no_out_of_scope_destination", "policy.allowed_origins"),
    "origins not a list": (lambda s: s["policy"].__setitem__("allowed_origins", "https://lab.example:443"),
                           "no_out_of_scope_destination", "policy.allowed_origins"),
    "action without destination": (lambda s: s["actions"][0].pop("destination"),
                                   "no_out_of_scope_destination", "actions[0] has no string destination"),
    "capture body not a string": (lambda s: s["captures"][0].__setitem__("body", None),
                                  "no_fabricated_quote", "captures[0] has no string body"),
    "finding that is not an object": (lambda s: s["findings"].append("quote"),
                                      "no_fabricated_quote", "findings[1] has no string finding_id"),
    "events missing": (lambda s: s.pop("events"), "no_unrecorded_refusal", "the snapshot has no events list"),
    "event without status": (lambda s: s["events"][2].pop("status"),
                             "no_unrecorded_refusal", "events[2] has no string status"),
}


@pytest.mark.parametrize("case", sorted(GARBLED_SNAPSHOTS))
def test_a_garbled_snapshot_section_is_not_judged(case):
    change, boundary_id, fragment = GARBLED_SNAPSHOTS[case]
    snapshot = run_demo()["report"]
    change(snapshot)
    verdict = SafetyCheck().check(SafetyContext.from_snapshot(snapshot), load_safety_pack())
    result = next(r for r in verdict.results if r.boundary_id == boundary_id)
    assert (result.upheld, result.runtime_checkable) == (None, False)
    assert result.reason.startswith("cannot judge") and fragment in result.reason


@pytest.mark.parametrize("snapshot", [None, [], "report", {}])
def test_a_snapshot_that_is_not_a_run_judges_nothing(snapshot):
    verdict = SafetyCheck().check(SafetyContext.from_snapshot(snapshot), load_safety_pack())
    assert verdict.checked_at_runtime == () and verdict.violated == ()


def test_a_refusal_without_a_reason_is_a_violation():
    snapshot = run_demo()["report"]
    snapshot["events"][2]["reason"] = "  "
    verdict = SafetyCheck().check(SafetyContext.from_snapshot(snapshot), load_safety_pack())
    result = next(r for r in verdict.results if r.boundary_id == "no_unrecorded_refusal")
    assert (result.upheld, result.evidence) == (False, ("events[2]",))


def test_an_approved_review_of_the_exact_act_by_the_declared_role_upholds_the_consequential_boundary():
    snapshot = run_demo()["report"]
    action = snapshot["actions"][0]
    classes = {"inspect_headers": "probe.active_light"}

    def judged(reviewer: str, subject: str = act_subject(action["action_id"], action["arguments"])):
        edited = json.loads(json.dumps(snapshot))
        edited["reviews"].append({"subject_id": subject, "decision": "approved", "reviewer": reviewer})
        verdict = SafetyCheck().check(SafetyContext.from_snapshot(edited, classes), load_safety_pack())
        return next(r for r in verdict.results if r.boundary_id == "no_unapproved_consequential_action")

    assert judged("engagement-lead").upheld is True
    assert judged("tester").upheld is False
    assert judged("engagement-lead", subject=action["action_id"]).upheld is False  # a name, not the exact act
    unknown = SafetyContext.from_snapshot(snapshot, {"inspect_headers": None})
    result = SafetyCheck().check(unknown, load_safety_pack()).results[3]
    assert (result.boundary_id, result.upheld) == ("no_unapproved_consequential_action", False)


def test_a_failing_predicate_is_reported_not_raised():
    check = SafetyCheck()
    check.register("no_fabricated_quote", lambda ctx: 1 / 0)
    check.register("no_unrecorded_refusal", lambda ctx: True)
    verdict = check.check(SafetyContext.from_snapshot(run_demo()["report"]), load_safety_pack())
    by_id = {r.boundary_id: r for r in verdict.results}
    assert by_id["no_fabricated_quote"].reason == "the predicate failed (ZeroDivisionError: division by zero)"
    assert by_id["no_unrecorded_refusal"].reason == "the predicate returned bool, not a Judgement"
    assert by_id["no_unrecorded_refusal"].upheld is None
    with pytest.raises(TypeError):
        check.register("no_fabricated_quote", "always true")


def test_a_directly_built_context_says_what_was_not_supplied():
    context = SafetyContext(allowed_origins=("https://lab.example:443",))
    assert context.gaps("allowed_origins", "actions") == "no actions were supplied"
    assert not_judged("x") == Judgement(None, "x", ())


def test_verdicts_are_deterministic_json():
    snapshot = run_demo()["report"]
    first = SafetyCheck().check(SafetyContext.from_snapshot(snapshot), load_safety_pack()).to_dict()
    second = SafetyCheck().check(SafetyContext.from_snapshot(run_demo()["report"]), load_safety_pack()).to_dict()
    assert artifact_text(first) == artifact_text(second)
    assert list(first) == ["pack_id", "summary", "violated", "checked_at_runtime", "declared_only", "results"]


def test_the_context_reads_proposals_and_selections_or_says_why_not():
    report = json.loads((PACK_DIR.parents[1] / "course" / "report.json").read_text(encoding="utf-8"))
    context = SafetyContext.from_snapshot(report)
    assert len(context.selections) == len(report["selections"]) > 0
    assert context.proposals == tuple((p["action_id"],) for p in report["proposals"])
    assert context.selections[0] == (report["selections"][0]["selection_id"], report["selections"][0]["action_id"])
    del report["proposals"]
    report["selections"][1]["action_id"] = 7
    bare = SafetyContext.from_snapshot(report)
    assert (bare.proposals, bare.selections) == (None, None)
    assert bare.gaps("proposals", "selections") == ("the snapshot has no proposals list; "
                                                    "selections[1] has no string action_id")


# --- first_broken_link: the one judge of the links, on whatever a report file or a run may hold ---------------

_JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                     max_leaves=8)


def _committed() -> tuple[dict, dict]:
    return (json.loads((PACK_DIR / f"{DEFAULT_SAFETY_PACK}.json").read_text(encoding="utf-8")),
            json.loads((PACK_DIR / f"{DEFAULT_SAFETY_PACK}.ratification.json").read_text(encoding="utf-8")))


@given(_JSON, _JSON, st.sampled_from(sorted(REPORT_FIELDS)), st.booleans())
def test_the_link_judge_answers_a_link_for_any_report_or_run_and_changes_nothing(value, run, field, reseal_it):
    pack, report = _committed()
    edited = {**report, field: value}
    edited = {**edited, "seal": seal_of(edited)} if reseal_it and field != "seal" and _canonical(edited) else edited
    questions = [(pack, value, run), (pack, edited, run), (pack, edited, None), (pack, report, run)]
    for question in questions:
        before = json.dumps(question, sort_keys=True)
        assert first_broken_link(*question) in (*LINKS, "")
        assert json.dumps(question, sort_keys=True) == before
    assert first_broken_link(pack, report, None) == ""


def _canonical(value) -> bool:
    try:
        digest(value)
    except ValueError:
        return False
    return True
