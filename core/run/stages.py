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
* each row of the door's kind table says in which stages its kind may be
  recorded. ``LESSON_2_STAGES`` gives lesson 2's six kinds theirs; the kinds
  later lessons add declare their stages in their own rows.

A move is a record of its own kind, ``transition``, so it passes the same
door and is an event in the same ledger: the ledger shows where each record
was made. A move the table does not list, and a record outside its stages,
are refusals recorded through the same door, and they change nothing.

The machine joins the door as one row (``TRANSITION``) and one guard
(``in_its_stage``); ``doors.door_for`` puts them in. The door itself is not
rewritten.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from core.run.recorder import Kind, Recorder, Refusal, Request
from core.run.records import shown

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

# Where lesson 2's kinds are admitted. The report stage admits nothing: the
# report is written from the ledger, not added to it.
LESSON_2_STAGES = {
    "observation": ("authorize", "observe"),  # the operator's own facts, then facts read from captures
    "action": ("execute", "verify"),  # verification acts too (lesson 7), through the same door
    "capture": ("execute", "verify"),
    "outcome": ("execute", "verify"),
    "finding": ("verify",),
    "review": ("execute", "verify", "review"),  # a held action waits for its review where it was tried (lesson 8)
}

TRANSITION_KIND = "transition"  # the ledger kind of a stage move; an event, not a stored record


@dataclass(frozen=True)
class Transition:
    """One stage move, named ``"<from> -> <to>"``."""

    from_stage: str
    to_stage: str

    @property
    def transition_id(self) -> str:
        return f"{self.from_stage} -> {self.to_stage}"


def build_transition(door: Recorder, payload: dict) -> Transition:
    """A move the table lists, from the stage the run is in."""
    to_stage = payload["to"]
    if to_stage not in STAGES:
        raise Refusal(f"unknown stage {shown(to_stage)}")
    if (door.stage, to_stage) not in TRANSITIONS:
        raise Refusal(f"transition from {shown(door.stage)} to {shown(to_stage)} is not allowed")
    return Transition(door.stage, to_stage)


def _enter(door: Recorder, move: Transition) -> None:
    door.stage = move.to_stage


TRANSITION = Kind(TRANSITION_KIND, ("run_id", "to"), "", "transition_id", build_transition,
                  stages=STAGES, admitted=_enter)


def in_its_stage(door: Recorder, request: Request) -> str:
    """A kind is recorded only in the stages its row lists."""
    if door.stage not in request.row.stages:
        return f"record kind {shown(request.kind)} is not admitted in stage {shown(door.stage)}"
    return ""


def staged(kinds: Iterable[Kind]) -> list[Kind]:
    """Lesson 2's rows with the stages LESSON_2_STAGES gives them; other rows as they are."""
    return [dataclasses.replace(row, stages=LESSON_2_STAGES[row.name]) if row.name in LESSON_2_STAGES else row
            for row in kinds]


def advance(door: Recorder, to_stage: str) -> dict:
    """Ask the door to move the run to ``to_stage``; the answer has record()'s shape.

    An admitted move is named ``"<from> -> <to>"``; a refused one carries its
    reason, and the stage stays as it was.
    """
    return door.record(TRANSITION_KIND, {"run_id": door.run.run_id, "to": to_stage})
