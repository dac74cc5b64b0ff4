"""Lesson 3's demo: a run walks its stages through lesson 3's door, and the door turns two steps away.

    python3 -m core.run.demo_stages --out data/course/stages-demo.json

The run goes twice round the work loop (observe, propose, select, execute,
back to observe), moved by the driver's own moves (drive.enter), then leaves
from select for verify, review and report. In the middle it tries two things
the stage machine refuses: a finding written while the run is still observing
(verification comes first), and a jump from observe straight to the report.
Each refusal is recorded with its reason, and the demo compares the run's
stores before and after it. The artifact's ``walk`` gives every ledger event
with the stage it was made in, read back from the ledger alone: a run starts
in the first stage and only an admitted transition moves it. Lessons 4 and 5
fill the propose and select stages; here they are passed through. Everything
is fixed data (no lab, no clock), so the artifact is byte-identical.
"""

from __future__ import annotations

import sys

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import enter
from core.run.policy import Policy, reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.stages import TRANSITION_KIND, stage_of_each_event, table_of

LESSON, WORLD, PAGE = 3, {"world": "stages-demo"}, "https://lab.example/about"
GENERATOR_TAG = '<meta name="generator" content="ExampleCMS 3.2.1">'

# Fixed, HTTP-like responses standing in for what an adapter would capture (lesson 6 runs real ones).
HEADERS_CAPTURE = ("HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\nServer: Apache/2.4.29 (Ubuntu)\n\n"
                   f"<html><head>{GENERATOR_TAG}<title>About us</title></head><body><h1>About us</h1></body></html>\n")
METADATA_CAPTURE = "HTTP/1.1 200 OK\nContent-Type: text/plain\n\ngenerator: ExampleCMS 3.2.1\n"


def build_policy() -> Policy:
    """The operator's policy: the lab, inspect_headers, and inspect_metadata gated on has_meta."""
    return reference_policy(tools=("inspect_headers", "inspect_metadata"), max_actions=4, max_model_calls=4)


def build_door() -> Recorder:
    """Lesson 3's door for the demo's run: lesson 2's kinds and guards, the stage row and the stage guard."""
    policy = build_policy()
    return door_for(LESSON, make_run(policy.snapshot(), WORLD), policy)


def run_demo() -> dict:
    """Walk the stages, try the two refused steps, and return the artifact as data."""
    door = build_door()
    run_id, refused, made_in = door.run.run_id, [], []  # made_in: the stage of each event, as the demo saw it

    def ask(kind: str, payload: dict) -> dict:
        made_in.append(door.stage)
        return door.record(kind, payload)

    def moving(step: str, door: Recorder) -> None:  # the driver's own move (drive.enter), seen before it is made
        made_in.append(door.stage)

    def admit(kind: str, payload: dict) -> str:
        answer = ask(kind, payload)
        if not answer["recorded"]:
            raise RuntimeError(f"the demo's {kind} was refused in stage {door.stage}: {answer['reason']}")
        return answer["id"]

    def stores() -> dict:  # the snapshot without the ledger and its counts: what a refusal must leave as it was
        return {key: value for key, value in door.snapshot().items() if key not in ("events", "counts")}

    def attempt(operation: str, kind: str, payload: dict) -> None:
        stage, before = door.stage, stores()
        answer = ask(kind, payload)
        if answer["recorded"]:
            raise RuntimeError(f"the demo expected the door to refuse: {operation}")
        refused.append({"operation": operation, "kind": kind, "stage": stage, **answer,
                        "stores_unchanged": stores() == before})

    def act(tool: str, body: str) -> str:  # what lesson 6's executor records, here from fixed responses
        action_id = admit("action", {"run_id": run_id, "tool": tool, "destination": PAGE, "arguments": {}})
        capture_id = admit("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": body})
        admit("outcome", {"run_id": run_id, "action_id": action_id, "status": "succeeded",
                          "capture_id": capture_id, "detail": ""})
        return capture_id

    admit("observation", {"run_id": run_id, "field": "lab_online", "value": True})  # the operator's own fact
    enter(door, "observe", "propose", "select", "execute", watch=moving)
    capture_id = act("inspect_headers", HEADERS_CAPTURE)
    enter(door, "observe", watch=moving)
    admit("observation", {"run_id": run_id, "field": "has_meta", "value": True, "capture_id": capture_id})
    finding = {"run_id": run_id, "capture_id": capture_id, "quote": GENERATOR_TAG,
               "claim": "the about page names its content management system and version"}
    attempt("a finding written while the run is still observing", "finding", finding)
    attempt("a jump from observe straight to the report", TRANSITION_KIND, {"run_id": run_id, "to": "report"})
    enter(door, "propose", "select", "execute", watch=moving)
    act("inspect_metadata", METADATA_CAPTURE)
    enter(door, "observe", "propose", "select", "verify", watch=moving)
    finding_id = admit("finding", finding)
    enter(door, "review", watch=moving)
    admit("review", {"run_id": run_id, "subject_id": finding_id, "decision": "approved", "reviewer": "operator",
                     "reason": "the quote appears in the cited capture"})
    enter(door, "report", watch=moving)

    table, events = table_of(door), door.events
    from_ledger = stage_of_each_event(events, table.start)
    if from_ledger != made_in:
        raise RuntimeError("the stages read back from the ledger differ from the stages the run was in")
    tables = {"stages": list(table.stages), "transitions": [list(pair) for pair in table.transitions],
              "admitted_in": {name: list(table.admitted_in.get(name, ())) for name in door.kinds}}
    return {"tables": tables, "walk": [{"stage": stage, **event} for stage, event in zip(from_ledger, events)],
            "refused": refused, "report": door.snapshot()}


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_stages", "Write lesson 3's demo artifact: a run walking its stages, and two recorded "
                     "refusals.", run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
