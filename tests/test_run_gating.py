"""Lesson 8 completion suite: gating consequential actions in the door.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). The taxonomy table and the gate on their own are tested in
tests/test_run_taxonomy.py; helper tests live in tests/test_run_lessons_6_8_edges.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.run.execute import AdapterResult, execute
from core.run.harness import Gating, GatedRecorder, GatingError, execute_reviewed, make_recorder
from core.run.policy import Policy
from core.run.records import make_run
from core.run.taxonomy import check_catalogue, current_table
from core.run.verify import Check, verify

from .lab_run import go_to

CONFIG = json.loads((Path(__file__).resolve().parent.parent / "data/policy/training-authorization-0001.json")
                    .read_text(encoding="utf-8"))
PROBE = "probe_reflection -> https://lab.example:443/debug"
HELD = "probe.active_light is consequential; it waits for an approved review by engagement-lead"
LIST_TOOL = {"tool_id": "list_directory", "activity": "recon.enumerate", "requires": {}, "family": "fam-recon",
             "weight": 1.0, "cost": 1.0}


class Lab:
    """An adapter that answers every URL with a small page and counts the calls."""

    def __init__(self):
        self.calls: list[str] = []

    def fetch(self, url: str) -> AdapterResult:
        self.calls.append(url)
        return AdapterResult(200, (("Content-Type", "text/html"),), f"<p>{url}</p>")


def gated(stage: str = "execute", caps: dict | None = None, fail_open: list | None = None, extra_tools: list = (),
          door=GatedRecorder, world: str = "lesson-8") -> GatedRecorder:
    """A gated door under the reference policy (with ``extra_tools``), moved to ``stage``."""
    policy = Policy.from_dict({**CONFIG["policy"], "tools": CONFIG["policy"]["tools"] + list(extra_tools)})
    gating = Gating.from_dict({"taxonomy_version": 2, "caps": {"recon.passive": 10} if caps is None else caps,
                               "fail_open_classes": fail_open or []})
    recorder = door(make_run(policy.snapshot(), {"world": world}), policy, gating)
    go_to(recorder, stage)
    return recorder


def action(recorder, tool: str, destination: str, arguments: dict | None = None) -> dict:
    return {"run_id": recorder.run.run_id, "tool": tool, "destination": destination, "arguments": arguments or {}}


def review(recorder, subject: str, reviewer: str = "engagement-lead", decision: str = "approved") -> dict:
    return recorder.record("review", {"run_id": recorder.run.run_id, "subject_id": subject, "decision": decision,
                                      "reviewer": reviewer, "reason": "scope checked"})


def stores(recorder) -> dict:
    return {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}


def test_a_held_action_runs_after_its_approver_role_approves_it():
    """A consequential action is refused as held with the gate's reason, and once its declared approver role records an approved review of that action identity, the same action is admitted and executed."""
    recorder, lab = gated(), Lab()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug", {"parameter": "q", "marker": "<i>7</i>"})
    before = stores(recorder)
    held = execute(recorder, probe, lab)
    assert (held.status, held.detail) == ("refused", HELD)
    assert stores(recorder) == before and lab.calls == []
    assert recorder.held_actions() == {PROBE: "probe.active_light"}
    approval = review(recorder, PROBE)
    assert approval["recorded"]
    done = execute(recorder, probe, lab)
    assert done.status == "succeeded" and done.action_id == PROBE
    assert lab.calls == ["https://lab.example:443/debug?q=%3Ci%3E7%3C%2Fi%3E"]
    ledger = [(e["kind"], e["status"]) for e in recorder.events if e["kind"] in ("action", "review")]
    assert ledger == [("action", "refused"), ("review", "admitted"), ("action", "admitted")]
    assert recorder.records("review")[0]["subject_id"] == PROBE


def test_a_review_by_another_role_does_not_release_a_held_action():
    """A review of a held action by any role other than its declared approver is refused, and the action stays held."""
    recorder = gated()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug")
    assert recorder.record("action", probe)["reason"] == HELD
    for reviewer in ("client-liaison", "operator", "Engagement-Lead"):
        answer = review(recorder, PROBE, reviewer=reviewer)
        assert answer == {"recorded": False, "reason": f"held action '{PROBE}' waits for a review by engagement-lead, "
                                                       f"not by '{reviewer}'"}
    assert recorder.records("review") == []
    assert recorder.record("action", probe) == {"recorded": False, "reason": HELD}
    other = "probe_reflection -> https://lab.example:443/search"
    assert review(recorder, other)["reason"] == f"review names subject '{other}' that this run does not hold"


def test_a_rejected_review_turns_the_hold_into_a_denial():
    """A rejected review by the approver role turns the hold into a denial, and no later review can undo it."""
    recorder = gated()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug")
    recorder.record("action", probe)
    rejection = review(recorder, PROBE, decision="rejected")
    assert rejection["recorded"]
    assert recorder.record("action", probe)["reason"] == (
        f"probe.active_light is consequential; engagement-lead rejected it in review {rejection['id']}")
    assert review(recorder, PROBE)["reason"] == f"subject '{PROBE}' already has a review decision"
    assert recorder.records("action") == []


def test_an_action_over_its_cap_with_no_approver_role_is_denied_not_held():
    """A non-consequential action over its class's cap is denied, not held, when its class declares no approver role, and is held for review when it declares one."""
    recorder = gated(caps={"recon.passive": 1, "recon.enumerate": 0}, extra_tools=[LIST_TOOL])
    assert recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/"))["recorded"]
    over = recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/about"))
    assert over["reason"] == ("recon.passive is not consequential but has used 1 of its cap of 1; no approver role "
                              "is declared for it, so it is denied, not held")
    about = "inspect_headers -> https://lab.example:443/about"
    assert about not in recorder.held_actions()
    assert review(recorder, about)["reason"] == f"review names subject '{about}' that this run does not hold"
    listing = recorder.record("action", action(recorder, "list_directory", "https://lab.example/backup/"))
    assert listing["reason"] == ("recon.enumerate is not consequential but has used 0 of its cap of 0; "
                                 "it waits for an approved review by engagement-lead")
    assert recorder.held_actions() == {"list_directory -> https://lab.example:443/backup/": "recon.enumerate"}


def test_fail_open_applies_only_where_configured():
    """While the gating view is stale, only a class the run configures to fail open proceeds and every other class is denied; a configuration asking a class the taxonomy forbids to fail open is refused."""

    class StaleView(GatedRecorder):
        def gating_view_is_stale(self) -> bool:
            return True

    configured = gated(fail_open=["recon.passive"], door=StaleView)
    assert configured.record("action", action(configured, "inspect_headers", "https://lab.example/"))["recorded"]
    assert configured.record("action", action(configured, "probe_reflection", "https://lab.example/debug"))["reason"] == (
        "the gating view is stale; probe.active_light may not fail open: fail closed")
    assert configured.held_actions() == {}
    unconfigured = gated(door=StaleView)
    assert unconfigured.record("action", action(unconfigured, "inspect_headers", "https://lab.example/"))["reason"] == (
        "the gating view is stale; recon.passive may fail open but this run does not configure it to: fail closed")
    with pytest.raises(GatingError, match="lists probe.active_light, which the taxonomy does not let fail open"):
        Gating.from_dict({"taxonomy_version": 2, "caps": {}, "fail_open_classes": ["probe.active_light"]})
    assert gated().gating_view_is_stale() is False


def test_every_catalogue_tool_declares_a_canonical_class():
    """Every tool in the reference run's catalogue declares a canonical action class, and no door is built for a catalogue with an unknown or legacy class."""
    policy = Policy.from_dict(CONFIG["policy"])
    assert check_catalogue({tool.tool_id: tool.activity for tool in policy.tools}, current_table()) == []
    assert {tool.tool_id: tool.activity for tool in policy.tools} == {
        "inspect_headers": "recon.passive", "inspect_metadata": "recon.passive", "probe_reflection": "probe.active_light"}
    gating = Gating.from_dict(CONFIG["gating"])
    run = make_run(policy.snapshot(), {"world": "catalogue"})
    assert isinstance(make_recorder(run, policy, gating), GatedRecorder)
    for activity, problem in (("passive", "declares the legacy class 'passive'; declare its canonical name"),
                              ("scan.everything", "declares 'scan.everything', which is not a class")):
        tools = [{**CONFIG["policy"]["tools"][0], "activity": activity}] + CONFIG["policy"]["tools"][1:]
        odd = Policy.from_dict({**CONFIG["policy"], "tools": tools})
        with pytest.raises(GatingError, match=problem):
            make_recorder(make_run(odd.snapshot(), {"world": "catalogue"}), odd, gating)


def test_the_gate_judges_only_what_the_policy_authorized():
    """The gate runs after the policy: an action the policy refuses gets the policy's reason and is never held."""
    recorder = gated()
    refusals = {
        ("probe_reflection", "https://other.example/debug"):
            "destination https://other.example:443 is outside the explicit authorized origins",
        ("exploit_debug", "https://lab.example/debug"): "tool 'exploit_debug' is not declared in the catalogue",
    }
    for (tool, destination), reason in refusals.items():
        assert recorder.record("action", action(recorder, tool, destination)) == {"recorded": False, "reason": reason}
    assert recorder.held_actions() == {}
    assert review(recorder, "probe_reflection -> https://other.example:443/debug")["recorded"] is False


def test_verification_actions_are_gated_like_any_other():
    """A confirming probe planned by verification is held like any other consequential action, and it runs only after its own approved review."""
    check = Check.from_dict({
        "claim": "The debug page echoes its q parameter.",
        "evidence": {"action": "inspect_headers -> https://lab.example:443/debug", "quote": "<p>"},
        "confirm": {"tool": "probe_reflection", "destination": "https://lab.example/debug?q=x", "arguments": {}},
        "control": {"tool": "inspect_headers", "destination": "https://lab.example/contact", "arguments": {}},
        "expect": "debug?q=x"})
    confirm_id = "probe_reflection -> https://lab.example:443/debug?q=x"
    approval = {"reviewer": "engagement-lead", "decision": "approved", "reason": "one light probe"}
    verdicts = {}
    for reviews in ({}, {confirm_id: approval}):
        recorder, lab = gated(world=f"verify-with-{len(reviews)}-reviews"), Lab()
        assert execute(recorder, action(recorder, "inspect_headers", "https://lab.example/debug"), lab).status == "succeeded"
        go_to(recorder, "verify")
        verify(recorder, check, lambda payload: execute_reviewed(recorder, payload, lab, reviews))
        assert confirm_id in recorder.held_actions()
        verdicts[len(reviews)] = recorder.records("verdict")[0]["verdict"]
        confirm_calls = [url for url in lab.calls if "q=x" in url]
        assert confirm_calls == ([] if not reviews else ["https://lab.example:443/debug?q=x"])
    assert verdicts == {0: "inconclusive", 1: "confirmed"}
