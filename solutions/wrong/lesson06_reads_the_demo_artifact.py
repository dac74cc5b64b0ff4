"""Wrong: copies the ledger the lesson's demo wrote, instead of asking the adapter.

It looks the act's path up in the committed demo artifact and records the
capture the demo's run made for it. That is an answer written in advance: the
check's acts are made fresh, and its artifacts are not an input of the step.

Kind: reads the reference
Fails with: data is unavailable while the check runs
"""

import json
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "data" / "course" / "execution-demo.json"


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act from what the demo recorded."""
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    path = act["url"].partition(":443")[2]
    captures = [c for c in demo["report"]["captures"] if c["action_id"].endswith(path)]
    record("outcome", {"run_id": act["run_id"], "action_id": act["action_id"], "status": "unresolved",
                       "capture_id": "", "detail": "handed to the adapter"})
    if not captures:
        return {"status": "unresolved", "capture_id": "", "detail": "not in the demo"}
    captured = record("capture", {"run_id": act["run_id"], "action_id": act["action_id"],
                                  "status": captures[0]["status"], "body": captures[0]["body"]})
    record("outcome", {"run_id": act["run_id"], "action_id": act["action_id"], "status": "succeeded",
                       "capture_id": captured["id"], "detail": ""})
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
