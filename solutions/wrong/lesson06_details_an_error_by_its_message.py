"""Wrong: the in-doubt detail is the error's message, and nothing else.

The message is what the error says, but an error may say nothing:
TimeoutError() has no message, and the ledger then holds an empty reason
for an act in doubt. Naming the error means its kind too.

Kind: author's own
Fails with: a second unresolved outcome names what went wrong
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
        return ended("failed" if settled["recorded"] else "unresolved", detail)
    except Exception as error:  # it may have reached the target: in doubt, and said so
        detail = str(error)  # what the error says happened
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
