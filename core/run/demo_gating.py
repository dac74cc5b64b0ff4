"""Lesson 8's demo: the gate deciding, act by act, through lesson 8's door.

    python3 -m core.run.demo_gating --out data/course/gating-demo.json

Each scene (data/scenes/gating.json) is a run through ``door_for(8, ...)`` without lesson 7's
plan guard, in the verify stage, where no selection is asked for: the demo hands its acts to the
gate itself. ``classes``: a known, a legacy and an unknown class; ``exact_act``: a probe held,
reviewed, approved as that exact act, amended; ``cap``: a cap under a legacy name, and past it;
``fail_open_*``: what may run while an earlier outcome is unresolved. No lab and no clock, so
the artifact is byte-identical on every machine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import go_to
from core.run.gate import Gating, GatingError, GateState, act_subject, decide, decision_now, gate_state, subject_of
from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import action_identity, make_run
from core.run.stages import STAGE

SCENES = json.loads((Path(__file__).resolve().parents[2] / "data/scenes/gating.json").read_text(encoding="utf-8"))
LAB, TOOLS = SCENES["lab"], SCENES["tools"]
HEADERS, PROBE = TOOLS["inspect_headers"], TOOLS["probe_reflection"]  # the pages' own scenes use these two
WITHOUT = ("in_the_plan",)  # lesson 7's guard, which would ask whether the operator planned each act


def policy_of(*tools: dict) -> Policy:
    """The operator's policy for one scene: the lab origin, these tools, twelve actions at most."""
    return Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [f"{LAB}:443"],
                             "tools": list(tools), "max_actions": 12, "max_model_calls": 4})


def gating_of(caps: dict, fail_open: list | None = None) -> Gating:
    """The run's gating under taxonomy version 2."""
    return Gating.from_dict({"taxonomy_version": 2, "caps": caps, "fail_open_classes": fail_open or []})


def ask(door: Recorder, steps: list, step: dict) -> None:
    """Hand one step's request to the door and write down its answer; for an act, the gate's decision just before."""
    earlier = {done["key"]: done["answer"] for done in steps}
    if step.get("only_if") and not earlier[step["only_if"]]["recorded"]:
        return  # a step that follows only an admitted act
    kind, payload, seen = step["kind"], {"run_id": door.run.run_id, **step["request"]}, {}
    if "subject" in step:  # a review names one exact act: its identity and the digest of its arguments
        act = step["subject"]
        payload["subject_id"] = subject_of(act["tool"], act["arguments"], act["destination"])
    if "of" in step:  # an outcome names the act it settles
        payload["action_id"] = earlier[step["of"]]["id"]
    if kind == "action":
        identity = action_identity(payload["tool"], payload["destination"])
        gate = decision_now(door, payload["tool"], identity, payload["arguments"])
        seen = {"declared_class": TOOLS[payload["tool"]]["activity"], "gate": {
            "verdict": gate.verdict, "action_class": gate.action_class, "trigger_class": gate.trigger_class}}
    answer = door.record(kind, payload)
    steps.append({"key": step.get("key", ""), "note": step["note"], "kind": kind, "payload": payload, **seen,
                  "answer": answer, "seq": len(door.events)})
    # The door admits an act exactly when the gate allowed it just before, and every outcome the demo settles.
    if kind != "review" and answer["recorded"] != (kind == "outcome" or gate.verdict == "allow"):
        raise RuntimeError(f"the door's answer to the demo's {kind} is not what the demo expected: {answer}")


def play(scene: dict) -> dict:
    """One scene's run: its door walked to verify, every step with the door's answer, its ledger, the gate's counts."""
    policy, gating = policy_of(*(TOOLS[tool] for tool in scene["tools"])), gating_of(scene["caps"], scene["fail_open"])
    run, refused = make_run(policy.snapshot(), {"world": scene["world"]}), {}
    try:
        door = door_for(8, run, policy, gating, without=WITHOUT)
    except GatingError as exc:  # refused at start-up (gate.start): the same rows and guards, assembled by hand,
        refused["start_up_refusal"] = str(exc)  # show that the gate does not lean on that check
        reference = door_for(8, make_run(policy_of(HEADERS).snapshot(), {"world": "gating-demo-reference"}),
                             policy_of(HEADERS), gating, without=WITHOUT)
        door = Recorder(run, policy, reference.kinds.values(), reference.guards, **reference.parts)
        door.state[STAGE] = reference.stage  # lesson 3's state, where the door it copies starts
    go_to(door, "verify")
    first, steps = len(door.events), []
    for step in scene["steps"]:
        ask(door, steps, step)
    return {"scene": scene["name"], "run_id": run.run_id, "gating": gating.snapshot(), **refused, "steps": steps,
            "tools": {tool.tool_id: tool.activity for tool in policy.tools}, "ledger": door.events[first:],
            "counted": gate_state(door).counted()}


def the_amendment(steps: dict, gating: Gating) -> dict:
    """The approved act and its amendment; the amendment's trigger class on a fresh run and after the approval."""
    other, approved = steps["other_arguments"], steps["approved"]["payload"]["subject_id"]
    probe = action_identity(other["payload"]["tool"], other["payload"]["destination"])
    amended = act_subject(probe, other["payload"]["arguments"])
    fresh = decide(gating, other["declared_class"], probe, amended, GateState())
    return {"subjects": {"approved": approved, "amended": amended}, "change_from_state": {
        "on_a_fresh_run": fresh.trigger_class, "after_the_approval": other["gate"]["trigger_class"]}}


def run_demo() -> dict:
    """Every scene, and what the lesson looks for in each (``shows``), pointing at its ledger event."""
    scenes = {scene["name"]: play(scene) for scene in SCENES["scenes"]}
    steps = {name: {step["key"]: step for step in scene["steps"]} for name, scene in scenes.items()}
    scenes["exact_act"].update(the_amendment(steps["exact_act"], Gating.from_dict(scenes["exact_act"]["gating"])))
    shows = {"change_from_state": scenes["exact_act"]["change_from_state"],
             "cap_by_legacy_name": {"written": {"passive": 2}, "resolved": scenes["cap"]["gating"]["caps"]}}
    for key, (name, step_key, *also) in SCENES["shows"].items():  # also: the class judged, the one declared
        step = steps[name][step_key]
        fields = {"action_class": step.get("gate", {}).get("action_class"), "declared": step.get("declared_class")}
        shows[key] = {"note": step["note"], "seq": step["seq"], **step["answer"], **{f: fields[f] for f in also}}
    return {"scenes": list(scenes.values()), "shows": shows}


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_gating", "Write lesson 8's demo artifact: the gate's decisions through lesson 8's door.",
                     run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
