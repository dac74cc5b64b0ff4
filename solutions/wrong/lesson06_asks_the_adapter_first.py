"""Wrong: asks the adapter first and writes the whole story down afterwards.

The ledger ends up with the same four records, in the same order, so it
looks right after the fact. But while the request was in flight the ledger
said nothing: had the process died then, nothing would show that an act was
ever started.

Kind: skips the edge
Fails with: the ledger must say the act started
"""

from core.run.execute import NotSent
from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, recording it once the adapter has answered."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status, detail, capture_id=""):
        return record("outcome", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "capture_id": capture_id, "detail": detail})

    try:
        response = fetch(act["url"])
        body = render_response(response["status"], response["headers"], response["body"])
    except NotSent as error:
        outcome("unresolved", "handed to the adapter")
        outcome("failed", f"not sent: {error}")
        return {"status": "failed", "capture_id": "", "detail": f"not sent: {error}"}
    except Exception as error:  # noqa: BLE001
        outcome("unresolved", "handed to the adapter")
        outcome("unresolved", f"in doubt: {error!r}")
        return {"status": "unresolved", "capture_id": "", "detail": f"in doubt: {error!r}"}
    outcome("unresolved", "handed to the adapter")
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": response["status"],
                                  "body": body})
    if not captured["recorded"]:
        outcome("unresolved", f"capture refused: {captured['reason']}")
        return {"status": "unresolved", "capture_id": "", "detail": captured["reason"]}
    outcome("succeeded", "", captured["id"])
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
