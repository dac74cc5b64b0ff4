"""Lesson 1, your edit: derive a report's sections again from its ledger, and name the first that disagrees.

A sealed report is its ledger, ``report["events"]``, and sections the harness
derived from it. Anyone holding the file can redo that derivation and compare.
Write it for four sections, from the events alone (a section of the report
is what you check, never what you copy):

1. ``derive_sections(report)`` returns a dict with the keys:

   - ``"counts"``: ``{"admitted": N, "refusals": M}``; every event is one or
     the other, by its ``status``.
   - ``"stage"``: the stage the run ended in. A run starts in ``"authorize"``;
     an admitted event of kind ``"transition"`` moves it to the stage its
     payload names (``payload["to"]``); a refused one moves nothing.
   - ``"closed"``: from the admitted event of kind ``"close"``,
     ``{"how": ..., "reason": ...}`` as its payload says and ``"seq"``, the
     event's own; ``None`` when the run was never closed.
   - ``"findings"``: one dict per admitted ``"finding"`` event, in ledger
     order, with the keys ``finding_id`` (the event's ``id``), ``capture_id``,
     ``quote`` and ``claim`` (from its payload) and ``verdict``. A verdict is
     not written in the ledger: an admitted ``"verdict"`` event's payload
     names its finding (``finding_id``), the text the evidence should show
     (``expect``) and two captures (``confirming_capture_id``,
     ``control_capture_id``; ``""`` when none was made), and you judge it
     again, in this order, from those captures' texts (the ``body`` in the
     payload of the admitted ``"capture"`` event whose ``id`` it is):

       no confirming capture                  -> "inconclusive"
       the confirming capture's status >= 500 -> "inconclusive"
       the confirming text lacks ``expect``   -> "refuted"
       no control capture, or status >= 500   -> "inconclusive"
       the control text shows ``expect`` too  -> "inconclusive"
       otherwise                              -> "confirmed"

     (a capture's ``status`` is in its payload too: a server error, 500 or
     more, answered no question, so it neither refutes nor controls).

     A finding with no admitted verdict event is ``"unverified"``.

   A refused event adds one to the refusals and nothing else (a refused
   finding is no finding; a refused verdict judges nothing; a refusal written
   by the harness itself may have no payload at all).

2. ``first_disagreeing_section(report)`` returns the name of the first of
   ``"closed"``, ``"counts"``, ``"findings"``, ``"stage"`` (in that order, the
   order ``seal verify`` uses) whose value in the report is not what
   ``derive_sections`` gives, or ``None`` when all four agree. A finding in the
   report carries more keys than yours: compare the five above.

The check runs this file in a process of its own, with the harness (``core``)
and the course's data unavailable to it, and asks it about reports it makes
fresh: other runs, runs closed early, sections edited at random. Check your
work with ``course check 1`` (or ``python3 -m pytest starter/lesson01_test.py
-q``). The worked answer is ``solutions/lesson01.py``: read it after your
attempt.
"""


def derive_sections(report: dict) -> dict:
    """closed, counts, findings and stage, from the report's events alone."""
    raise NotImplementedError("TODO 1: derive the four sections from report['events']")


def first_disagreeing_section(report: dict) -> str | None:
    """The first of closed, counts, findings and stage that its ledger does not derive; else None."""
    raise NotImplementedError("TODO 2: compare each section with what its ledger derives")
