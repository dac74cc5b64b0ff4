"""Lesson 8 completion suite: the action taxonomy and the gate for consequential actions.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Edge cases and one case per malformed table live in
tests/test_taxonomy_edges.py.
"""

from __future__ import annotations

import json
import shutil

import pytest

from types import MappingProxyType

from core.run.gate import Gating, GateState, act_subject
from core.run.gate import decide as gate_decide
from core.run.records import make_review
from core.run.taxonomy import (
    ROW_KEYS,
    TAXONOMY_DIR,
    TaxonomyError,
    carried_taxonomy,
    check_catalogue,
    class_counts,
    current_table,
    parse_table,
    trigger_counts,
)

RUN = "0" * 64
PROBE = "probe_reflection -> https://lab.example:443/debug?q=lab-probe"
SUBJECT = act_subject(PROBE, {})
CAPS = {"recon.passive": 2, "recon.enumerate": 1, "probe.active_light": 3, "exploit.attempt": 1}


def committed_table() -> dict:
    return json.loads((TAXONOMY_DIR / "action_taxonomy.json").read_text(encoding="utf-8"))


def review(decision: str, reviewer: str, subject: str = SUBJECT) -> dict:
    return make_review(RUN, subject, decision, reviewer, "read the request first").to_dict()


def decide(action_class, reviews=(), used=None, stale_view=False, fail_open_classes=(), table=None):
    """The gate's decision for the act SUBJECT of ``action_class``, given these reviews and usage counts."""
    table = table or current_table()
    gating = Gating(table.version, table, MappingProxyType(CAPS), tuple(fail_open_classes))
    state = GateState(used=dict(used or {}))
    for entry in reviews:  # the latest review of the act stands, as the door keeps it
        if entry["subject_id"] == SUBJECT:
            state.decided[SUBJECT] = (entry["decision"], entry["reviewer"], entry["review_id"])
    return gate_decide(gating, action_class, PROBE, SUBJECT, state, stale_view)


def test_every_row_declares_every_key():
    """A taxonomy row that leaves out any of its six keys is rejected when the table loads, and the error names the row and the missing key."""
    assert parse_table(committed_table()).version == 2
    for key in ROW_KEYS:
        raw = committed_table()
        row = next(row for row in raw["classes"] if row["name"] == "probe.active_light")
        del row[key]
        with pytest.raises(TaxonomyError) as caught:
            parse_table(raw)
        where = "classes[2]" if key == "name" else "'probe.active_light'"
        assert where in str(caught.value) and f"does not declare {key}" in str(caught.value)


def test_undeclared_or_unknown_class_is_consequential_and_denied():
    """An action with no declared class, or with a class the table does not know, is classified as consequential and denied."""
    table = current_table()
    for name in (None, "probe.aggressive", "", 7):
        row = table.classify(name)
        assert row.consequential and row.name == "unclassified" and row.approver_role is None
    unknown = decide("probe.aggressive", reviews=[review("approved", "engagement-lead")])
    assert unknown.verdict == "deny" and unknown.action_class == "unclassified"
    assert "unknown class 'probe.aggressive' is consequential by default (fail-closed)" in unknown.reason
    assert decide(None).verdict == "deny" and "an undeclared class" in decide(None).reason


def test_legacy_alias_resolves_to_its_canonical_row():
    """A legacy class name resolves to its canonical row, so an old name is governed by today's rules."""
    table = current_table()
    assert table.resolve("active") is table.classes["probe.active_light"]
    assert table.resolve("passive").name == "recon.passive"
    assert table.resolve("exploit").approver_role is None
    held = decide("active")
    assert (held.verdict, held.action_class) == ("hold", "probe.active_light")
    assert "probe.active_light (legacy name 'active')" in held.reason
    assert class_counts(["active", "probe.active_light", "passive"]) == {"probe.active_light": 2, "recon.passive": 1}


def test_consequential_action_needs_approval_by_its_declared_role():
    """A consequential action is held until its declared approver role approves it, and a review by another role, or about another action, does not release it."""
    held = decide("probe.active_light")
    assert held.verdict == "hold" and "waits for an approved review of this exact act by engagement-lead" in held.reason
    assert decide("probe.active_light", reviews=[review("approved", "tester")]).verdict == "hold"
    about_another_action = review("approved", "engagement-lead", subject="other")
    assert decide("probe.active_light", reviews=[about_another_action]).verdict == "hold"
    approval = review("approved", "engagement-lead")
    allowed = decide("probe.active_light", reviews=[review("approved", "tester"), approval])
    assert allowed.verdict == "allow" and approval["review_id"] in allowed.reason
    assert decide("report.publish", reviews=[approval]).verdict == "hold"


def test_non_consequential_action_runs_within_its_cap():
    """A non-consequential action runs without any review while its class is within its cap."""
    allowed = decide("recon.passive", used={"recon.passive": 1})
    assert allowed.verdict == "allow"
    assert allowed.reason == "recon.passive is not consequential and has used 1 of its cap of 2"
    assert decide("recon.enumerate").verdict == "allow"
    assert decide("recon.enumerate", used={"recon.enumerate": 1}).verdict == "hold"


def test_cap_exceeded_without_approver_is_denied_not_held():
    """An action over its class cap is denied, not held, when its class has no approver role."""
    denied = decide("recon.passive", used={"recon.passive": 2}, reviews=[review("approved", "engagement-lead")])
    assert denied.verdict == "deny"
    assert denied.reason == ("recon.passive is not consequential but has used 2 of its cap of 2; "
                             "no approver role is declared for it, so it is denied, not held")
    lead_approval = [review("approved", "engagement-lead")]
    exploit = decide("exploit.attempt", used={"exploit.attempt": 1}, reviews=lead_approval)
    assert exploit.verdict == "deny" and "denied, not held" in exploit.reason


def test_fail_open_only_where_explicitly_configured():
    """On a stale gating view only a class that the table allows to fail open and the run lists in its fail-open classes proceeds; every other class fails closed."""
    configured = ("recon.passive", "recon.enumerate", "probe.active_light")
    assert decide("recon.passive", stale_view=True, fail_open_classes=configured).verdict == "allow"
    assert decide("recon.passive", stale_view=True).verdict == "deny"
    for name in ("recon.enumerate", "probe.active_light", "unknown.class"):
        decision = decide(name, stale_view=True, fail_open_classes=configured)
        assert decision.verdict == "deny" and decision.reason.endswith("fail closed")
    approved = [review("approved", "engagement-lead")]
    stale = decide("probe.active_light", reviews=approved, stale_view=True, fail_open_classes=configured)
    assert stale.verdict == "deny"


def test_trigger_classes_count_what_should_have_been_checked():
    """Every consequential action counts toward its trigger class, an unknown one counts as unclassified, and a non-consequential one counts toward none."""
    acts = ["recon.passive", "active", "probe.active_intrusive", "exploit.attempt", "mystery", None,
            "recon.enumerate"]
    assert trigger_counts(acts) == {
        "CHANGE": 0, "active_testing": 2, "data_handling": 0, "disclosure": 0, "exploitation": 1, "unclassified": 2,
    }
    assert current_table().trigger_class("recon.passive") is None
    assert trigger_counts(["recon.passive"]) == {
        "CHANGE": 0, "active_testing": 0, "data_handling": 0, "disclosure": 0, "exploitation": 0, "unclassified": 0,
    }


def test_sealed_version_replays_under_its_own_table(tmp_path):
    """A sealed record's taxonomy version gives back the exact table it was sealed under, so an earlier version decides by its own rules."""
    assert carried_taxonomy(2) == current_table()
    v1 = carried_taxonomy(1)
    assert v1.version == 1 and "exploit" in v1.classes
    approval = [review("approved", "engagement-lead")]
    assert decide("exploit", reviews=approval, table=v1).verdict == "allow"
    assert decide("exploit", reviews=approval).verdict == "deny"
    folder = tmp_path / "taxonomy"
    shutil.copytree(TAXONOMY_DIR, folder)
    edited = json.loads((folder / "action_taxonomy_v1.json").read_text(encoding="utf-8"))
    edited["classes"][2]["approver_role"] = "tester"
    (folder / "action_taxonomy_v1.json").write_text(json.dumps(edited), encoding="utf-8")
    with pytest.raises(TaxonomyError, match="action_taxonomy_v1.json has changed since it shipped"):
        carried_taxonomy(1, folder)
    with pytest.raises(TaxonomyError, match="taxonomy version 9 is not carried"):
        carried_taxonomy(9)


def test_every_catalogue_tool_declares_a_canonical_class():
    """Every catalogue tool must declare a canonical action class, and the check names each tool that does not."""
    good = {"inspect_headers": "recon.passive", "probe_reflection": "probe.active_light"}
    assert check_catalogue(good) == []
    bad = {**good, "inspect_metadata": "passive", "shell": None, "fuzz": "probe.fuzz"}
    assert check_catalogue(bad) == [
        "tool 'fuzz' declares 'probe.fuzz', which is not a class in taxonomy version 2",
        "tool 'inspect_metadata' declares the legacy class 'passive'; declare its canonical name 'recon.passive'",
        "tool 'shell' declares no action class",
    ]


def test_change_is_derived_from_state_and_no_table_may_declare_it():
    """A consequential act that amends one already approved counts as CHANGE, which only the run's state can say, so no table may declare CHANGE and a non-consequential act never counts as one."""
    table = current_table()
    assert table.trigger_class("probe.active_light", after_prior_approval=True) == "CHANGE"
    assert table.trigger_class("probe.active_light") == "active_testing"
    assert table.trigger_class("recon.passive", after_prior_approval=True) is None
    counts = trigger_counts([("probe.active_light", True), ("probe.active_light", False), ("recon.passive", True)])
    assert (counts["CHANGE"], counts["active_testing"]) == (1, 1)
    raw = committed_table()
    raw["trigger_classes"].append("CHANGE")
    with pytest.raises(TaxonomyError, match="'CHANGE' is derived from state; no table may declare it"):
        parse_table(raw)


def test_a_table_needs_a_class_that_runs_without_review():
    """A table in which every class is consequential is rejected when it loads, since every act of a run would then wait for a person."""
    raw = committed_table()
    for row in raw["classes"]:
        if not row["consequential"]:
            row.update(consequential=True, trigger_class="active_testing", fail_open_allowed=False)
    with pytest.raises(TaxonomyError, match="every class is consequential"):
        parse_table(raw)
