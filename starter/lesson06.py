"""Lesson 6, your edit: the executor's write-ahead step.

``execute`` (core/run/execute.py) first records an act's action, so the
policy and the selection decide whether it runs at all. You write what
happens once the door has admitted it, as one function:

    write_ahead(act, record, fetch) -> dict

* ``act`` is the admitted act, as data: ``{"run_id": ..., "action_id": ...,
  "url": ...}``, where ``url`` is the one URL its request may fetch.
* ``record(kind, payload)`` asks the check's door to record a payload, and
  returns the door's answer: ``{"recorded": True, "kind": ..., "id": ...}``,
  or ``{"recorded": False, "reason": ...}``.
* ``fetch(url)`` asks the check's adapter. It returns the response as data,
  ``{"status": 404, "headers": [["Content-Type", "text/html"], ...],
  "body": "..."}``, or it raises: ``NotSent`` (import it from
  ``core.run.execute``, the one name of that module you may import) when
  nothing was sent, any other exception when the request may have reached
  the target (a timeout, a connection reset while the answer came back).

The payloads are lesson 2's. An outcome is ``{"run_id", "action_id",
"status", "capture_id", "detail"}``: ``status`` is ``"unresolved"``,
``"succeeded"`` or ``"failed"``; ``capture_id`` is ``""`` unless the outcome
cites a capture; ``detail`` says what happened, in words. A capture is
``{"run_id", "action_id", "status", "body"}``, whose ``body`` is the response
as ``render_response`` (core/run/observe.py) writes it.

The rules your step keeps:

1. The ledger says an act started before anything acts: record an
   unresolved outcome first, and ask the adapter only once the door has
   admitted it. If the door refuses it, the act is never attempted.
2. Ask the adapter once, for the act's own URL.
3. A response, whatever its status, is what the act found: record it as the
   capture and settle the act ``succeeded``, citing the capture the door
   named. Keep what the adapter reported; never record a response it did not
   give.
4. Nothing sent (``NotSent``): settle the act ``failed``, naming the error.
5. Anything else that goes wrong once the request may have left: the act is
   in doubt. Record a second unresolved outcome naming the error, and settle
   nothing: nobody here knows how the act ended.
6. An act is settled at most once, and never ``succeeded`` without a capture
   the door admitted.

Return how your step left the act: ``{"status": ..., "capture_id": ...,
"detail": ...}``, with the status it settled the act with (``"unresolved"``
when the act is in doubt, or when the door refused its start or its
settlement), the capture
the settlement cites (``""`` when there is none) and a detail in words.

The check runs your file in a process of its own, with the reference
executor unavailable. Check your work with ``course check 6``; print what the
door recorded for each act of a small run with ``python3
starter/lesson06_test.py``. The worked answer is ``solutions/lesson06.py``:
read it after your attempt.
"""

from core.run.execute import NotSent  # noqa: F401  (you will need them)
from core.run.observe import render_response  # noqa: F401


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act: the start written ahead, the adapter asked, the act settled once."""
    raise NotImplementedError("TODO 1: write the start ahead, ask the adapter, settle the act once")
