"""Stages: an operational stage machine over the door.

Lesson 2's door checks what a record is; it does not check when it arrives.
A capture that turns up while the run is still being authorized, or a finding
written before anything was executed, is a sign that something drives the run
out of order. So a run moves through named stages, and the stages are data a
reader can check by eye:

* ``STAGES`` names them; a run starts in the first one, ``authorize``.
* ``TRANSITIONS`` lists every move allowed, as (from, to) pairs. The work
  loops observe -> propose -> select -> execute -> observe, and leaves the
  loop from select (nothing left worth doing) for verify, review and report.
* ``ADMITTED_IN`` says in which stages each record kind may be recorded.

Every move is a ledger event, so the ledger shows where each record was made.
A move the table does not list, and a record outside its stages, are refusals
recorded through the same door, and they change nothing.

The machine plugs into the door through the one hook lesson 2 left for it,
``Recorder._check_stage``: the door itself is not rewritten.
"""

from __future__ import annotations

from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import Run, shown

STAGES = ("authorize", "observe", "propose", "select", "execute", "verify", "review", "report")
START_STAGE = STAGES[0]

TRANSITIONS = (
    ("authorize", "observe"),
    ("observe", "propose"),
    ("propose", "select"),
    ("select", "execute"),
    ("execute", "observe"),
    ("select", "verify"),
    ("verify", "review"),
    ("review", "report"),
)

# Which stages admit each record kind. A kind missing here is admitted nowhere
# (fail closed). model_call and proposal arrive in lesson 4 (propose.py),
# selection and feedback in lesson 5 (select.py), verdict in lesson 7
# (verify.py). The report stage admits nothing: the report is written from
# the ledger, not added to it.
ADMITTED_IN = {
    "observation": ("authorize", "observe"),  # the operator's own facts, then facts read from captures
    "model_call": ("propose",),
    "proposal": ("propose",),
    "selection": ("select",),
    "action": ("execute", "verify"),  # verification acts too (lesson 7), through the same door
    "capture": ("execute", "verify"),
    "outcome": ("execute", "verify"),
    "feedback": ("execute",),  # right after the outcome it credits; verification earns no credit
    "finding": ("verify",),
    "verdict": ("verify",),
    "review": ("execute", "verify", "review"),  # a held action waits for its review where it was tried (lesson 8)
}

TRANSITION_KIND = "transition"  # the ledger kind of a stage move; it is an event, not a stored record


class StagedRecorder(Recorder):
    """The door of lesson 2 with a stage machine in front of it."""

    def __init__(self, run: Run, policy: Policy) -> None:
        super().__init__(run, policy)
        self.stage = START_STAGE

    def advance(self, to_stage: str) -> dict:
        """Move to ``to_stage`` if the table allows it; either way the ledger says what happened.

        The answer has the shape of record()'s: an admitted move names itself
        ``"<from> -> <to>"``; a refused one carries its reason. A closed run
        (lesson 9) refuses every move.
        """
        payload = {"to": to_stage}  # kept in the event, so a replay can ask the same question
        reason = self._check_open() or self._check_transition(to_stage)
        if reason:
            return self.refuse(TRANSITION_KIND, reason, payload)
        move = f"{self.stage} -> {to_stage}"
        self.stage = to_stage
        self._append(TRANSITION_KIND, "admitted", move, "", payload)
        return {"recorded": True, "kind": TRANSITION_KIND, "id": move}

    def _check_transition(self, to_stage: object) -> str:
        """A reason to refuse the move to ``to_stage``, or "" if the table lists it."""
        if to_stage not in STAGES:
            return f"unknown stage {shown(to_stage)}"
        if (self.stage, to_stage) not in TRANSITIONS:
            return f"transition from {shown(self.stage)} to {shown(to_stage)} is not allowed"
        return ""

    def _check_stage(self, kind: str) -> str:
        """The door's stage hook: refuse a kind outside the stages ADMITTED_IN lists for it."""
        if self.stage not in ADMITTED_IN.get(kind, ()):
            return f"record kind {shown(kind)} is not admitted in stage {shown(self.stage)}"
        return ""
