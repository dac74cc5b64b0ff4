"""Wrong: writes the start ahead, then lets an adapter's error stop everything.

With no ``except``, a refused connection or a timeout leaves the step, and
the run with it: the ledger keeps the unresolved start, but nothing says what
went wrong, and no later act runs.

Kind: author's own
Fails with: the run goes on
"""

from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act; an adapter's error is not this step's business."""
    run_id, action_id = act["run_id"], act["action_id"]
    outcome = {"run_id": run_id, "action_id": action_id}
    if not record("outcome", {**outcome, "status": "unresolved", "capture_id": "",
                              "detail": "handed to the adapter"})["recorded"]:
        return {"status": "unresolved", "capture_id": "", "detail": "the start was refused"}
    response = fetch(act["url"])
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": response["status"],
                                  "body": render_response(response["status"], response["headers"],
                                                          response["body"])})
    if not captured["recorded"]:
        record("outcome", {**outcome, "status": "unresolved", "capture_id": "", "detail": captured["reason"]})
        return {"status": "unresolved", "capture_id": "", "detail": captured["reason"]}
    record("outcome", {**outcome, "status": "succeeded", "capture_id": captured["id"], "detail": ""})
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
