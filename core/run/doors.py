"""Doors: each lesson's door, assembled in one place from the parts the lessons add.

A door is data (recorder.py): a table of record kinds and an ordered list of
guards. Each lesson's module contributes its part, and this module is the
one place that puts the parts together, so a reader can see the whole door,
and each lesson's tests and pages can build the door of their own lesson:

    door = door_for(5, run, policy)
    print(door)    # every row with its builder and hooks, every guard, in order

``PARTS`` lists each lesson's part: the rows it adds, the hooks it adds to
earlier rows (hooks add up; no lesson replaces another's builder or hook),
where its kinds are admitted (lesson 3's stage table, which the later
parts add to), its refusal codes, what it needs given (lesson 8's gating),
what it may be given (lesson 7's verification plan, empty unless given) and
what it does when a run starts. ``GUARDS`` lists every guard in the
order the door asks them, each with the lesson that adds it. A door for
lesson N has every part and guard of lessons up to N, nothing later.

It is the assembly, not a lesson: it may import every lesson's module, and
no lesson's module imports it. Asking a sealed report's questions again
through a fresh door (verify, replay) is rederive.py's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from core.run import decisions, gate, journal, observe, propose, recorder, seal, select, stages, verify
from core.run.policy import Policy
from core.run.recorder import Guard, Hook, Keeps, Kind, Knows, Recorder
from core.run.records import Run
from core.run.verify import PLAN, Plan

LAST_LESSON = 10  # the reference run's door: every part of the harness


@dataclass(frozen=True)
class Part:
    """What one lesson adds to the door."""

    lesson: int
    kinds: tuple[Kind, ...] = ()  # new rows
    hooks: Mapping[str, tuple[Hook, ...]] = field(default_factory=dict)  # kind -> hooks added to its row
    admitted_in: Mapping[str, object] = field(default_factory=dict)  # kind -> its stages, or stages.EVERY_STAGE
    codes: Mapping[str, str] = field(default_factory=dict)  # the refusal codes its guards and builders give
    needs: tuple[str, ...] = ()  # parts the door must be given (lesson 8's gating)
    takes: Mapping[str, object] = field(default_factory=dict)  # parts it may be given -> what it holds if not
    start: Callable[[Recorder], None] | None = None  # run once, when a door is built
    knows: Mapping[str, tuple[Knows, ...]] = field(default_factory=dict)  # kind -> what else its records may name
    keeps: Keeps | None = None  # whether the ledger still takes refusals (lesson 9's: while the run is open)


PARTS = (
    Part(2, kinds=recorder.KINDS, codes=recorder.CODES),
    Part(3, kinds=(stages.TRANSITION,), admitted_in=stages.ADMITTED_IN, codes=stages.CODES, start=stages.start),
    Part(4, kinds=propose.KINDS, admitted_in=propose.ADMITTED_IN, codes={**observe.CODES, **propose.CODES}),
    Part(5, kinds=select.KINDS, hooks=select.HOOKS, admitted_in=select.ADMITTED_IN, codes=select.CODES),
    Part(7, kinds=verify.KINDS, admitted_in=verify.ADMITTED_IN, codes=verify.CODES,
         takes={PLAN: Plan()}),  # no plan given: nothing acts in the verify stage
    Part(8, kinds=(decisions.SIGNED_ROW,), hooks=gate.HOOKS, codes=gate.CODES, needs=("gating",), start=gate.start,
         admitted_in={**gate.ADMITTED_IN, **decisions.ADMITTED_IN}, knows=gate.KNOWS),
    Part(9, kinds=(seal.CLOSE,), admitted_in=seal.ADMITTED_IN, codes=seal.CODES, keeps=seal.is_open),
)

# Every guard, in the order the door asks them, with the lesson that adds it.
GUARDS: tuple[tuple[int, Guard], ...] = (
    (9, seal.run_is_open),  # a closed run admits nothing (and appends nothing)
    (2, recorder.payload_is_object),
    (2, recorder.run_binding),  # another run's payload is turned away before anything else is read
    (2, recorder.kind_is_known),
    (3, stages.in_its_stage),
    (2, recorder.fields_are_declared),
    (4, observe.cites_a_held_capture),  # after authorize, a fact names the capture it was read from
    (5, select.is_the_selection),  # in the execute stage, only the chosen act
    (7, verify.in_the_plan),  # in the verify stage, only the operator's planned acts
    (8, gate.reviewed_by_its_approver),  # a held act's review comes from its class's approver role
    (2, recorder.kinds_contract),  # the kind's own builder: the policy for an action
    (8, gate.the_gate),  # last: an authorized act runs now, is held for review, or is denied
)

# The refusal a fresh door's caller writes when it copies an event it cannot ask again (rederive.ask_again).
ASSEMBLY_CODES = {"not_redecided": "the event kept no payload to ask a fresh door again with (copied by replay)"}


@dataclass(frozen=True)
class Code:
    """One refusal code: what it means, and who writes it.

    ``by`` names each writer: ``door: M`` when a guard, builder or policy
    check of module M raises it (the event's ``by`` then names the guard or
    builder), ``caller: M.F`` when function F writes it through door.refuse.
    """

    meaning: str
    by: tuple[str, ...]


# Who writes each code (tests/test_shape.py reads every module of core/ and holds this table to what it finds).
WRITTEN_BY = {
    "already_answered": ("door: propose",),
    "already_decided": ("door: decisions", "door: recorder",),
    "already_judged": ("door: verify",),
    "already_recorded": ("door: recorder",),
    "already_settled": ("door: recorder",),
    "bad_arguments": ("door: policy",),
    "budget_reserved": ("door: verify",),
    "budget_spent": ("door: policy", "door: propose", "door: select"),
    "capture_of_another_action": ("door: recorder",),
    "denied": ("door: gate",),
    "evidence_before_finding": ("door: verify",),
    "evidence_not_distinct": ("door: verify",),
    "expect_not_quoted": ("door: verify",),
    "held_for_review": ("door: gate",),
    "in_doubt_for_a_person": ("caller: drive.carry_on",),
    **{code: ("caller: drive.resume",) for code in decisions.CODES},
    "journal_not_trusted": ("caller: drive.resume",),
    "journal_torn_line": ("caller: drive.resume",),
    "invalid_destination": ("door: policy",),
    "malformed_payload": ("door: decisions", "door: recorder", "door: seal", "door: verify"),
    "model_failed": ("caller: propose.propose",),
    "move_not_listed": ("door: stages",),
    "not_its_id": ("door: recorder",),
    "not_planned": ("door: verify",),
    "not_in_the_reply": ("door: propose",),
    "not_redecided": ("caller: rederive.ask_again",),
    "not_selected": ("door: select",),
    "not_settled": ("door: select",),
    "not_the_approver": ("door: gate",),
    "not_the_proposed_arguments": ("door: select",),
    "nothing_to_quote": ("caller: verify.record_finding",),
    "nothing_to_select": ("door: select",),
    "out_of_scope": ("door: policy",),
    "out_of_stage": ("door: stages",),
    "payload_too_large": ("door: recorder",),
    "quote_not_verbatim": ("door: recorder",),
    "reply_not_json": ("door: propose",),
    "reply_too_large": ("caller: propose.propose", "door: propose"),
    "reply_wrong_shape": ("door: propose",),
    "reserved_for_the_plan": ("door: verify",),
    "run_closed": ("door: seal",),
    "uncited_observation": ("door: observe",),
    "unexpected_field": ("door: recorder",),
    "unknown_action": ("door: recorder",),
    "unknown_capture": ("caller: observe.observe", "door: propose", "door: recorder", "door: verify"),
    "unknown_finding": ("door: verify",),
    "unknown_kind": ("door: recorder",),
    "unknown_model_call": ("door: propose",),
    "unknown_outcome": ("door: select",),
    "unknown_stage": ("door: stages",),
    "unknown_subject": ("door: decisions", "door: recorder",),
    "unknown_tool": ("door: policy",),
    "unobserved_requirement": ("door: policy",),
    "wrong_run": ("door: recorder",),
}

# The one table of codes: every part's, the notes a run carried on from its journal writes, and this module's.
CODES = {code: Code(meaning, WRITTEN_BY.get(code, ()))
         for code, meaning in {**{code: meaning for part in PARTS for code, meaning in part.codes.items()},
                               **journal.CODES, **decisions.CODES, **ASSEMBLY_CODES}.items()}


class Door(Recorder):
    """A door assembled from the lessons' parts, where each lesson's state on it reads as an attribute.

    The state itself is the lesson's: lesson 3's stage (stages.stage_of) and
    lesson 9's close (seal.closed_of), each in ``door.state``; a door of an
    earlier lesson reads them empty, as its snapshot shows them.
    """

    stage = property(stages.stage_of)
    closed = property(seal.closed_of)


def stage_table(lesson: int = LAST_LESSON) -> stages.StageTable:
    """The stage machine of lesson ``lesson``'s door: lesson 3's table with each later part's kinds added."""
    table = _stage_table([part for part in PARTS if part.lesson <= lesson], None, lesson)
    if table is None:
        raise ValueError(f"the door of lesson {lesson} has no stages")
    return table


def door_for(lesson: int, run: Run, policy: Policy, gating: gate.Gating | None = None, *,
             plan: Plan | None = None, stage_table: stages.StageTable | None = None,
             without: Iterable[str] = (), replace: Mapping[str, Callable] | None = None,
             sink: Callable[[bytes], None] | None = None) -> Recorder:
    """The door of ``lesson`` for ``run`` under ``policy``: every part and guard up to that lesson.

    ``gating`` is what lesson 8's part needs. ``plan`` is the operator's
    verification plan, which lesson 7's part holds the verify stage to (a
    door given none has an empty plan). ``stage_table`` replaces the
    reference stage machine (another engagement's; the stage moves and the
    close stay admitted everywhere). ``without`` names guards to leave out,
    for a page or a test that attacks one part with another out of the way.
    ``replace`` maps the name of a guard, builder, hook, policy check or
    start step to what stands in its place (``course attack``'s student
    gate, an ablation's weaker check): it keeps the place, and the door
    prints it as what it is, under its own module and name. A name that is
    nowhere in the door is an error, so a misspelt stand-in never leaves the
    reference part silently in place. ``sink`` gets each event's bytes as it
    is written (a journal).
    """
    if not 2 <= lesson <= LAST_LESSON:
        raise ValueError(f"lessons 2 to {LAST_LESSON} have doors, not {lesson!r}")
    parts = [part for part in PARTS if part.lesson <= lesson]
    given = {name: value for name, value in (("gating", gating), (PLAN, plan)) if value is not None}
    needed = {need for part in parts for need in part.needs}
    taken = {name: default for part in parts for name, default in part.takes.items()}
    if needed - set(given) or set(given) - needed - set(taken):
        missing, unused = sorted(needed - set(given)), sorted(set(given) - needed - set(taken))
        raise ValueError(f"the door of lesson {lesson} needs {', '.join(missing) or 'nothing more'}"
                         + (f" and takes no {', '.join(unused)}" if unused else ""))
    if plan is not None and not isinstance(plan, Plan):
        raise TypeError(f"a door's plan is a verify.Plan, not {type(plan).__name__}")
    given = {**taken, **given}
    table = _stage_table(parts, stage_table, lesson)
    if table is not None:
        given["stage_table"] = table
    stand_ins = _StandIns(dict(replace or {}), lesson)
    rows = [dataclasses.replace(row, build=stand_ins(row.build), hooks=tuple(map(stand_ins, row.hooks)),
                                asks=tuple(map(stand_ins, row.asks)), knows=tuple(map(stand_ins, row.knows)))
            for row in _rows(parts)]
    guards = [stand_ins(guard) for guard in _guards(lesson, without)]
    starts = [stand_ins(part.start) for part in parts if part.start is not None]
    keeps = [stand_ins(part.keeps) for part in parts if part.keeps is not None]
    stand_ins.all_used()
    return Door(run, policy, rows, guards, sink=sink, starts=starts, keeps=keeps, **given)


def final_door(run: Run, policy: Policy, gating: gate.Gating, **options) -> Recorder:
    """The reference run's door: every part and every guard."""
    return door_for(LAST_LESSON, run, policy, gating, **options)


# What builds a run's door: final_door, or a door of the same shape assembled otherwise (door_for's
# ``without`` and ``replace``); the driver, verify and replay each take one.
FinalDoor = Callable[..., Recorder]


def final_door_with(*, without: Iterable[str] = (), replace: Mapping[str, Callable] | None = None) -> FinalDoor:
    """What builds a final door with the guards ``without`` names left out and ``replace``'s stand-ins in place.

    The driver (drive.run, drive.resume), verify and replay each take it in
    final_door's place: a variant of the harness is assembled, never patched.
    """
    without, replace = tuple(without), dict(replace or {})

    def door(run: Run, policy: Policy, gating: gate.Gating, **options) -> Recorder:
        return door_for(LAST_LESSON, run, policy, gating, without=without, replace=replace, **options)

    return door


def _rows(parts: list[Part]) -> list[Kind]:
    """Every part's rows, each with the hooks later parts add to it, in lesson order."""
    rows = {row.name: row for part in parts for row in part.kinds}
    for part in parts:
        for kind, hooks in part.hooks.items():
            rows[kind] = rows[kind].with_hooks(*hooks)
        for kind, knows in part.knows.items():
            rows[kind] = rows[kind].knowing(*knows)
    return list(rows.values())


class _StandIns:
    """``door_for``'s replacements: each part of the door by name, in its place, or itself; all must be used."""

    def __init__(self, replace: dict[str, Callable], lesson: int) -> None:
        for name, stand_in in replace.items():
            if not callable(stand_in):
                raise TypeError(f"what stands in for {name} must be a function, not {type(stand_in).__name__}")
        self.replace, self.lesson, self.used = replace, lesson, set()

    def __call__(self, function: Callable) -> Callable:
        name = function.__name__
        if name in self.replace:
            self.used.add(name)
            return self.replace[name]
        return function

    def all_used(self) -> None:
        unused = set(self.replace) - self.used
        if unused:
            raise ValueError(f"the door of lesson {self.lesson} has no guard, builder, hook, policy check or "
                             f"start step {', '.join(sorted(unused))} to replace")


def _guards(lesson: int, without: Iterable[str]) -> list[Guard]:
    without = set(without)
    guards = [guard for added, guard in GUARDS if added <= lesson]
    unknown = without - {guard.__name__ for guard in guards}
    if unknown:
        raise ValueError(f"the door of lesson {lesson} has no guard {', '.join(sorted(unknown))} to leave out")
    return [guard for guard in guards if guard.__name__ not in without]


def _stage_table(parts: list[Part], given: stages.StageTable | None, lesson: int) -> stages.StageTable | None:
    """The door's stage table: every part's admissions added up, or the one given plus the every-stage kinds."""
    admissions = [part.admitted_in for part in parts if part.admitted_in]
    if not admissions:
        if given is not None:
            raise ValueError(f"the door of lesson {lesson} has no stages, so it takes no stage table")
        return None
    if given is None:
        table = stages.StageTable(stages.STAGES, stages.TRANSITIONS, {})
        for admitted_in in admissions:
            table = stages.admitting(table, admitted_in)
        return table
    if not isinstance(given, stages.StageTable):
        raise stages.StageTableError(f"a door's stage table is a StageTable, not {type(given).__name__}")
    everywhere = {kind for admitted_in in admissions for kind, where in admitted_in.items()
                  if where == stages.EVERY_STAGE}
    kinds = {row.name for part in parts for row in part.kinds}
    for kind in given.admitted_in:
        if kind not in kinds:  # a misspelt kind would leave the real one admitted nowhere, silently
            raise stages.StageTableError(f"the stage table admits record kind {kind!r}, which this door does not have")
        if kind in everywhere:  # a move, or lesson 9's close: a run must always be able to abort
            raise stages.StageTableError(f"record kind {kind!r} is admitted in every stage; a stage table "
                                         "cannot restrict it")
    return stages.admitting(given, {kind: stages.EVERY_STAGE for kind in sorted(everywhere)})


REFERENCE_TABLE = stage_table()  # the reference run's stage machine: every lesson's kinds admitted
