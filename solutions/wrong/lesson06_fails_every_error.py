"""Wrong: settles every adapter error as failed, the timeouts included.

A connection refused never left, so ``failed`` is right for it. A timeout or
a reset may have come after the lab did the work: writing ``failed`` claims
knowledge the run does not have, and a later step could act again on an act
that already happened.

Kind: author's own
Fails with: the act is in doubt and stays unresolved
"""

from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act; any error means it failed."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status, detail, capture_id=""):
        return record("outcome", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "capture_id": capture_id, "detail": detail})

    if not outcome("unresolved", "handed to the adapter")["recorded"]:
        return {"status": "unresolved", "capture_id": "", "detail": "the start was refused"}
    try:
        response = fetch(act["url"])
        body = render_response(response["status"], response["headers"], response["body"])
    except Exception as error:  # noqa: BLE001  nothing came back, so it failed
        outcome("failed", f"not sent: {error}")
        return {"status": "failed", "capture_id": "", "detail": f"not sent: {error}"}
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": response["status"],
                                  "body": body})
    if not captured["recorded"]:
        outcome("failed", f"capture refused: {captured['reason']}")
        return {"status": "failed", "capture_id": "", "detail": captured["reason"]}
    outcome("succeeded", "", captured["id"])
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
