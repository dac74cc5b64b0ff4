"""Wrong: it reports the act failed even when the door refused the failed settlement.

The ledger then holds no settlement: the act is unresolved, and the step
must say so. Found by a helper in the attacker's seat.

Kind: skips the edge
Fails with: a settlement the door refuses leaves the act unresolved
"""

from core.run.execute import NotSent
from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act: write its start ahead, ask, settle it once."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status: str, detail: str, capture_id: str = "") -> dict:
        return record("outcome", {"run_id": run_id, "action_id": action_id,
                                  "status": status, "capture_id": capture_id,
                                  "detail": detail})

    def ended(status: str, detail: str = "", capture_id: str = "") -> dict:
        return {"status": status, "capture_id": capture_id, "detail": detail}

    started = outcome("unresolved", "handed to the adapter")
    if not started["recorded"]:  # without a written start, the act is never attempted
        return ended("unresolved", f"outcome refused: {started['reason']}")
    try:
        response = fetch(act["url"])
        body = render_response(response["status"], response["headers"],
                               response["body"])
    except NotSent as error:
        detail = f"not sent: {error}"
        settled = outcome("failed", detail)
        return ended("failed", detail)
    except Exception as error:  # it may have reached the target: in doubt, and said so
        detail = f"in doubt: the request may have reached the target: {error!r}"
        outcome("unresolved", detail)
        return ended("unresolved", detail)
    captured = record("capture", {"run_id": run_id, "action_id": action_id,
                                  "status": response["status"], "body": body})
    if not captured["recorded"]:
        detail = f"capture refused: {captured['reason']}"
        outcome("unresolved", detail)
        return ended("unresolved", detail)
    settled = outcome("succeeded", "", captured["id"])
    if not settled["recorded"]:
        return ended("unresolved", f"outcome refused: {settled['reason']}",
                     captured["id"])
    return ended("succeeded", "", captured["id"])
