"""Lesson 6, worked answer: write the start ahead, ask the adapter once, settle once.

The order is the whole idea. The unresolved outcome goes into the ledger
before the adapter is asked, so the ledger says an act was started before
anything acts; if the door refuses that start, the adapter is never asked.
Then the adapter's answer decides the rest:

* a response, whatever its status (a 404 and a 503 are answers too): the
  capture, rendered as ``render_response`` writes every capture, then one
  settled outcome, ``succeeded``, citing it;
* ``NotSent``: nothing left, so the act is settled ``failed``, naming why;
* any other error, or an answer that is not a response: the request may have
  reached the target, so the act stays in doubt. A second unresolved outcome
  names the error; nobody here knows how the act ended, so nothing settles it.

A capture the door refuses leaves the act in doubt the same way: a response
came back, but the ledger holds no evidence of it, so ``succeeded`` would cite
nothing. The step never records a response the adapter did not give, and
never settles an act twice.
"""

from core.run.execute import NotSent
from core.run.observe import render_response


# student writes: begin
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
        return ended("unresolved", f"outcome refused: {settled['reason']}")
    return ended("succeeded", "", captured["id"])
# student writes: end
