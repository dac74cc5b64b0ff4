"""Wrong: asks the adapter even when the door refused the start.

The door turned the unresolved outcome away (the act was already settled),
and the step carried on as if it had been written. The request then left
with nothing in the ledger saying so: exactly what writing ahead is for.

Kind: skips the edge
Fails with: without a written start the act is never attempted
"""

from core.run.execute import NotSent
from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, whatever the door said about its start."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status, detail, capture_id=""):
        return record("outcome", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "capture_id": capture_id, "detail": detail})

    outcome("unresolved", "handed to the adapter")  # its answer is never read
    try:
        response = fetch(act["url"])
        body = render_response(response["status"], response["headers"], response["body"])
    except NotSent as error:
        outcome("failed", f"not sent: {error}")
        return {"status": "failed", "capture_id": "", "detail": f"not sent: {error}"}
    except Exception as error:  # noqa: BLE001
        outcome("unresolved", f"in doubt: the request may have reached the target: {error!r}")
        return {"status": "unresolved", "capture_id": "", "detail": repr(error)}
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": response["status"],
                                  "body": body})
    if not captured["recorded"]:
        outcome("unresolved", f"capture refused: {captured['reason']}")
        return {"status": "unresolved", "capture_id": "", "detail": captured["reason"]}
    outcome("succeeded", "", captured["id"])
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
