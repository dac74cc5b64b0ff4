"""Lesson 6, your edit: the executor's write-ahead, one admitted act at a time.

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

What must hold of every act, because a run that is killed or resumed can only
trust what its ledger says:

- the ledger holds an unresolved outcome for the act before the adapter is
  asked, and an act whose unresolved outcome the door refuses is never
  attempted;
- the adapter is asked once, for the act's own URL;
- a response, whatever its status, is what the act found: the ledger keeps it
  as the capture, exactly as the adapter reported it (never a response it did
  not give), and the act is settled ``succeeded``, citing the capture the door
  named;
- an act with nothing sent (``NotSent``) is settled ``failed``, with a detail
  naming the error;
- an act that went wrong once the request may have left is in doubt: the
  ledger gets a second unresolved outcome naming the error, and nothing is
  settled, since nobody here knows how the act ended;
- an act is settled at most once, and never ``succeeded`` without a capture
  the door admitted.

``write_ahead`` answers how the act was left: ``{"status": ..., "capture_id": ...,
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
