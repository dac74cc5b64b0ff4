"""Lesson 1, your edit: derive a report's sections again from its ledger, and name the first that disagrees.

A sealed report is its ledger, ``report["events"]``, and sections the harness
derived from it. Anyone holding the file can redo that derivation and compare;
that is what ``seal verify`` does, and what you write here for four sections,
from the events alone (a section of the report is what you check, never what
you copy).

``derive_sections(report)`` must answer a dict with the keys:

- ``"counts"``: ``{"admitted": N, "refusals": M}``, every event counted by its
  ``status``;
- ``"stage"``: the stage the run ended in. A run starts in ``"authorize"``,
  and each admitted ``"transition"`` event enters the stage its payload names
  (``payload["to"]``); a refused event moves nothing;
- ``"closed"``: ``{"how": ..., "reason": ..., "seq": ...}`` from the admitted
  ``"close"`` event (its payload and its own ``seq``), or ``None`` for a run
  never closed;
- ``"findings"``: one dict per admitted ``"finding"`` event, in ledger order,
  with ``finding_id`` (the event's ``id``), ``capture_id``, ``quote`` and
  ``claim`` (from its payload) and ``verdict``.

A verdict is not written in the ledger; it is judged again from the evidence
the ledger holds. An admitted ``"verdict"`` event's payload names its finding
(``finding_id``), the text the evidence should show (``expect``) and two
captures (``confirming_capture_id``, ``control_capture_id``; ``""`` when none
was made), whose texts and HTTP statuses are the ``body`` and ``status`` in
the payloads of the admitted ``"capture"`` events with those ids. The
verdict is

- ``"confirmed"`` exactly when the confirming capture exists, answered (a
  status under 500) and shows ``expect``, and the control capture exists,
  answered and does not show it;
- ``"refuted"`` when the confirming capture exists and answered but lacks
  ``expect``;
- ``"inconclusive"`` otherwise: a server error answered no question, so it
  neither refutes nor controls;
- ``"unverified"`` for a finding no admitted verdict event names.

A refused event adds one to the refusals and nothing else: a refused finding is
no finding, a refused verdict judges nothing, and a refusal the harness wrote
itself may carry no payload at all.

``first_disagreeing_section(report)`` must answer the name of the earliest of
``"closed"``, ``"counts"``, ``"findings"``, ``"stage"`` (the order ``seal
verify`` reports them in) whose value in the report is not what
``derive_sections`` gives, or ``None`` when all four agree. A finding in the
report carries more keys than yours; only the five above are compared.

The check runs this file in a process of its own, with the harness (``core``)
and the course's data unavailable to it, and asks it about reports it makes
fresh: other runs, runs closed early, sections edited at random. Check your
work with ``course check 1`` (or ``python3 -m pytest starter/lesson01_test.py
-q``). The page's hints go from a nudge to nearly the answer; the worked answer
is ``solutions/lesson01.py``: read it after your attempt.
"""


def derive_sections(report: dict) -> dict:
    """closed, counts, findings and stage, from the report's events alone."""
    raise NotImplementedError("TODO 1: derive the four sections from report['events']")


def first_disagreeing_section(report: dict) -> str | None:
    """The first of closed, counts, findings and stage that its ledger does not derive; else None."""
    raise NotImplementedError("TODO 2: compare each section with what its ledger derives")
