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
* ``ADMITTED_IN`` says in which stages each of lesson 2's kinds may be
  recorded. Later lessons add their kinds' stages in their own modules (and
  may admit an earlier kind in a stage of theirs: lesson 7's verification
  acts, lesson 8's reviews of held acts); ``doors.door_for`` adds up every
  lesson's list into the door's table.

The three tables together are one ``StageTable``. A door keeps its table
among its parts, so another engagement (a recon-only one, say) can run
under a table of its own: ``doors.door_for(3, run, policy, stage_table=...)``.
A table is checked when it is built, so a stage it forgets to declare, a
repeated move or a stage no run can reach stops the table, not a run
halfway through.

A move is a record of its own kind, ``transition``, so it passes the same
door and is an event in the same ledger: the ledger shows where each record
was made. It is admitted in every stage (``EVERY_STAGE``): a move obeys the
transitions alone. A move the table does not list, and a record outside its
stages, are refusals recorded through the same door, and they change
nothing.

The machine joins the door as one row (``TRANSITION``), one guard
(``in_its_stage``) and one start (``start``, which puts a new run in the
table's first stage); ``doors.door_for`` puts them in. The door itself is
not rewritten: the stage the run is in is this lesson's state, kept in the
door's ``state`` (``stage_of``), which the snapshot shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

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

EVERY_STAGE = "every stage"  # a kind admitted in whatever stages the door's table has

# Where lesson 2's kinds are admitted once a run has stages. The report stage admits
# nothing: the report is written from the ledger, not added to it.
ADMITTED_IN = {
    "observation": ("authorize", "observe"),  # the operator's own facts, then facts read from captures
    "action": ("execute",),
    "capture": ("execute",),
    "outcome": ("execute",),
    "finding": ("verify",),
    "review": ("review",),
    "transition": EVERY_STAGE,  # this module's own row: a move obeys the transitions alone
}

TRANSITION_KIND = "transition"  # the ledger kind of a stage move; an event, not a stored record


class StageTableError(ValueError):
    """A stage table that cannot drive a run; the message says what is wrong with it."""


@dataclass(frozen=True)
class StageTable:
    """One engagement's stage machine as data: its stages, the moves between them, and where each kind is admitted.

    ``stages`` lists every stage, the first is where a run starts;
    ``transitions`` lists every allowed move as a (from, to) pair;
    ``admitted_in`` maps a record kind to the stages it may be recorded in;
    a kind the table does not name is admitted nowhere. Lists are accepted
    and kept as tuples.
    """

    stages: tuple[str, ...]
    transitions: tuple[tuple[str, str], ...]
    admitted_in: Mapping[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        stages = _names("stages", self.stages)
        if not stages:
            raise StageTableError("a stage table needs at least one stage: the run starts in the first")
        for stage in stages:
            if stages.count(stage) > 1:
                raise StageTableError(f"stage {shown(stage)} is declared twice")
        transitions = []
        for pair in _sequence("transitions", self.transitions):
            if isinstance(pair, str) or not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise StageTableError(f"a transition is a (from, to) pair of stages, not {shown(pair)}")
            for stage in pair:
                if stage not in stages:
                    raise StageTableError(f"transition {shown(tuple(pair))} names stage {shown(stage)}, "
                                          "which the table does not declare")
            if tuple(pair) in transitions:
                raise StageTableError(f"transition {shown(tuple(pair))} is listed twice")
            transitions.append(tuple(pair))
        if not isinstance(self.admitted_in, Mapping):
            raise StageTableError(f"admitted_in maps each record kind to its stages, not {shown(self.admitted_in)}")
        admitted_in = {}
        for kind, where in self.admitted_in.items():
            if not isinstance(kind, str) or not kind:
                raise StageTableError(f"admitted_in names a record kind {shown(kind)}: kinds are names")
            where = _names(f"the stages of {kind!r}", where)
            for stage in where:
                if stage not in stages:
                    raise StageTableError(f"record kind {shown(kind)} is admitted in stage {shown(stage)}, "
                                          "which the table does not declare")
            admitted_in[kind] = where
        unreachable = [stage for stage in stages if stage not in _reachable(stages[0], transitions)]
        if unreachable:
            raise StageTableError(f"no run can reach stage {shown(unreachable[0])} from {shown(stages[0])}")
        object.__setattr__(self, "stages", stages)
        object.__setattr__(self, "transitions", tuple(transitions))
        object.__setattr__(self, "admitted_in", MappingProxyType(admitted_in))

    @property
    def start(self) -> str:
        """The stage a run starts in: the first."""
        return self.stages[0]

    def about(self, kind: str) -> str:
        """Where ``kind`` is admitted, as a printed door says it."""
        return f"admitted in {', '.join(self.admitted_in.get(kind, ())) or 'no stage'}"


def _sequence(what: str, value: object) -> tuple:
    if isinstance(value, str) or not isinstance(value, (tuple, list)):
        raise StageTableError(f"{what} must be a tuple or list, not {shown(value)}")
    return tuple(value)


def _names(what: str, value: object) -> tuple[str, ...]:
    names = _sequence(what, value)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise StageTableError(f"{what} must be non-empty stage names, not {shown(name)}")
    return names


def _reachable(start: str, transitions: Iterable[tuple[str, str]]) -> set[str]:
    """Every stage a run can get to from ``start`` by the listed moves."""
    seen, frontier = {start}, [start]
    while frontier:
        stage = frontier.pop()
        for source, target in transitions:
            if source == stage and target not in seen:
                seen.add(target)
                frontier.append(target)
    return seen


def admitting(table: StageTable, kinds: Mapping[str, object]) -> StageTable:
    """``table`` with each of ``kinds`` admitted where it says: its stages, or EVERY_STAGE of the table.

    The stages add up: a kind the table already admits somewhere keeps those
    stages and gains the new ones, in the table's order.
    """
    admitted_in = {kind: list(where) for kind, where in table.admitted_in.items()}
    for kind, where in kinds.items():
        stages = table.stages if where == EVERY_STAGE else _names(f"the stages of {kind!r}", where)
        admitted_in[kind] = [stage for stage in table.stages if stage in stages or stage in admitted_in.get(kind, ())]
    return StageTable(table.stages, table.transitions, admitted_in)


STAGE = "stage"  # lesson 3's state on a door (door.state[STAGE]): the stage the run is in; the snapshot shows it


def stage_of(door: Recorder) -> str:
    """The stage the run is in: "" for a door with no stages (lesson 2's), as its snapshot shows."""
    return door.state.get(STAGE, "")


def table_of(door: Recorder) -> StageTable:
    """The stage table ``door`` runs under (doors.door_for gives every door from lesson 3 on its own)."""
    return door.parts["stage_table"]


@dataclass(frozen=True)
class Transition:
    """One stage move, named ``"<from> -> <to>"``."""

    from_stage: str
    to_stage: str

    @property
    def transition_id(self) -> str:
        return f"{self.from_stage} -> {self.to_stage}"


def build_transition(door: Recorder, payload: dict) -> Transition:
    """A move the door's table lists, from the stage the run is in."""
    table, to_stage = table_of(door), payload["to"]
    if to_stage not in table.stages:
        raise Refusal("unknown_stage", f"unknown stage {shown(to_stage)}")
    stage = stage_of(door)
    if (stage, to_stage) not in table.transitions:
        raise Refusal("move_not_listed", f"transition from {shown(stage)} to {shown(to_stage)} is not allowed")
    return Transition(stage, to_stage)


def note_move(door: Recorder, move: Transition) -> None:
    door.state[STAGE] = move.to_stage


TRANSITION = Kind(TRANSITION_KIND, ("run_id", "to"), "", "transition_id", build_transition, (note_move,))
STAGE_TABLE = admitting(StageTable(STAGES, TRANSITIONS, {}), ADMITTED_IN)  # lesson 3's; later lessons add to it

CODES = {
    "out_of_stage": "the kind is not admitted in the run's current stage",
    "unknown_stage": "the move names a stage the table does not declare",
    "move_not_listed": "the table does not list the move from the current stage",
}


def in_its_stage(door: Recorder, request: Request) -> None:
    """A kind is recorded only in the stages the door's table admits it in."""
    stage = stage_of(door)
    if stage not in table_of(door).admitted_in.get(request.row.name, ()):
        raise Refusal("out_of_stage", f"record kind {shown(request.kind)} is not admitted in stage {shown(stage)}")


def start(door: Recorder) -> None:
    """A new run starts in its table's first stage."""
    door.state[STAGE] = table_of(door).start


def stage_of_each_event(events: list[dict], start: str) -> list[str]:
    """The stage each event was made in, from the ledger alone: only an admitted transition moves the run."""
    stage, made_in = start, []
    for event in events:
        made_in.append(stage)
        if event["kind"] == TRANSITION_KIND and event["status"] == "admitted":
            stage = event["id"].split(" -> ")[1]
    return made_in


def advance(door: Recorder, to_stage: str) -> dict:
    """Ask the door to move the run to ``to_stage``; the answer has record()'s shape.

    An admitted move is named ``"<from> -> <to>"``; a refused one carries its
    reason, and the stage stays as it was.
    """
    return door.record(TRANSITION_KIND, {"run_id": door.run.run_id, "to": to_stage})
