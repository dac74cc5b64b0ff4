"""Lesson 2's demo: one admitted chain and five refusals through one door.

    python3 -m core.run.demo_records --out data/course/records-demo.json

The chain is observation -> action -> capture -> outcome -> finding ->
review, each record carrying the identifier the next one binds to. Five
refusals are interleaved with it, so the ledger shows declined work in order
between admitted work. Everything is fixed data (no lab, no clock), so the
artifact is byte-identical on every machine.
"""

from __future__ import annotations

import sys

from core.run.commandline import demo_main
from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import make_run

POLICY = {
    "reference": "training-authorization-0001",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [{"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
               "weight": 2.0, "cost": 1.0}],
    "max_actions": 4,
    "max_model_calls": 4,
}
WORLD = {"world": "records-demo"}
OTHER_WORLD = {"world": "another-run"}

# A fixed, HTTP-like response standing in for what an adapter would capture.
CAPTURE_BODY = (
    "HTTP/1.1 200 OK\n"
    "Content-Type: text/html; charset=utf-8\n"
    "Server: lab-fixture/1.0\n"
    "\n"
    "<html><head><title>Fixture lab</title></head><body>Welcome.</body></html>\n"
)


def build_policy() -> Policy:
    """The operator's policy for the demo: one origin, one passive tool, small budgets."""
    return Policy.from_dict(POLICY)


def run_demo() -> dict:
    """Drive the chain and the refusals through the door; return the artifact as data."""
    policy = build_policy()
    run = make_run(policy.snapshot(), WORLD)
    other_run = make_run(policy.snapshot(), OTHER_WORLD)
    door = Recorder(run, policy)
    refused: list[dict] = []

    def attempt(operation: str, kind: str, payload: object) -> None:
        answer = door.record(kind, payload)
        if answer["recorded"]:
            raise RuntimeError(f"the demo expected the door to refuse: {operation}")
        refused.append({"operation": operation, "kind": kind, **answer})

    def admit(kind: str, payload: dict) -> str:
        answer = door.record(kind, payload)
        if not answer["recorded"]:
            raise RuntimeError(f"the demo's {kind} was refused: {answer['reason']}")
        return answer["id"]

    run_id, lab, other = run.run_id, "https://lab.example/", "https://other.example/"
    admit("observation", {"run_id": run_id, "field": "lab_online", "value": True})
    action_id = admit("action", {"run_id": run_id, "tool": "inspect_headers", "destination": lab, "arguments": {}})
    attempt("inspect_headers aimed at an origin outside the authorization", "action",
            {"run_id": run_id, "tool": "inspect_headers", "destination": other, "arguments": {}})
    attempt("a tool the catalogue does not declare", "action",
            {"run_id": run_id, "tool": "shell", "destination": lab, "arguments": {}})
    capture_id = admit("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": CAPTURE_BODY})
    attempt("a capture bound to another run", "capture",
            {"run_id": other_run.run_id, "action_id": action_id, "status": 200, "body": CAPTURE_BODY})
    admit("outcome", {"run_id": run_id, "action_id": action_id, "status": "succeeded", "capture_id": capture_id,
                      "detail": ""})
    attempt("an outcome with a status outside the vocabulary", "outcome",
            {"run_id": run_id, "action_id": action_id, "status": "done"})
    attempt("a finding quoting text its capture does not contain", "finding",
            {"run_id": run_id, "capture_id": capture_id, "quote": "X-Debug-Mode: on",
             "claim": "the lab exposes a debug mode"})
    finding_id = admit("finding", {"run_id": run_id, "capture_id": capture_id, "quote": "Server: lab-fixture/1.0",
                                   "claim": "the lab names its server software in a response header"})
    admit("review", {"run_id": run_id, "subject_id": finding_id, "decision": "approved", "reviewer": "operator",
                     "reason": "the quote appears in the cited capture"})

    report = door.snapshot()
    return {"admitted": _admitted_chain(door), "refused": refused, "report": report}


def _admitted_chain(door: Recorder) -> list[dict]:
    """Each admitted event with the full record it admitted, in ledger order."""
    return [{"kind": event["kind"], "id": event["id"], "record": door.get(event["kind"], event["id"])}
            for event in door.events if event["status"] == "admitted"]


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_records", "Write lesson 2's demo artifact: an admitted chain and five recorded refusals.", run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
