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

The module also rebuilds a sealed report's door (``redo``): a fresh final
door asked every question of the ledger again, which verify (``verify``)
and lesson 10's replay share. It is the assembly, not a lesson: it may
import every lesson's module, and no lesson's module imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from core.run import gate, journal, observe, propose, recorder, report, seal, select, stages, verify
from core.run.canon import CanonError, digest
from core.run.policy import Policy, PolicyError
from core.run.recorder import BOUNDED, BY_CALLER, UNREPRESENTABLE, Guard, Hook, Kind, Recorder
from core.run.records import RecordError, Run, shown
from core.run.seal import Verification
from core.run.verify import PLAN, CheckError, Plan  # by name: this module's verify() is the report's
from core.safety import SafetyPackError, pack_as_sealed, safety_sections

RUN_FIELDS = ("policy_digest", "run_id", "world_digest")
LAST_LESSON = 10  # the reference run's door: every part of the harness


class DoorError(report.ReportError):
    """A report's door cannot be rebuilt from its run, policy, gating or pack; the message says why."""


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


PARTS = (
    Part(2, kinds=recorder.KINDS, codes=recorder.CODES),
    Part(3, kinds=(stages.TRANSITION,), admitted_in=stages.ADMITTED_IN, codes=stages.CODES, start=stages.start),
    Part(4, kinds=propose.KINDS, admitted_in=propose.ADMITTED_IN, codes={**observe.CODES, **propose.CODES}),
    Part(5, kinds=select.KINDS, hooks=select.HOOKS, admitted_in=select.ADMITTED_IN, codes=select.CODES),
    Part(7, kinds=verify.KINDS, admitted_in=verify.ADMITTED_IN, codes=verify.CODES,
         takes={PLAN: Plan()}),  # no plan given: nothing acts in the verify stage
    Part(8, hooks=gate.HOOKS, admitted_in=gate.ADMITTED_IN, codes=gate.CODES, needs=("gating",),
         start=gate.start),
    Part(9, kinds=(seal.CLOSE,), admitted_in=seal.ADMITTED_IN, codes=seal.CODES),
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

# The one table of codes: every part's, and the notes a run carried on from its journal writes.
CODES = {**{code: meaning for part in PARTS for code, meaning in part.codes.items()}, **journal.CODES}

# Each section of a report, derived from a door: lesson 9's, lesson 7's plan, lesson 10's safety verdict.
SECTIONS = (*report.SECTIONS, verify.plan_sections, safety_sections)


def stage_table(lesson: int = LAST_LESSON) -> stages.StageTable:
    """The stage machine of lesson ``lesson``'s door: lesson 3's table with each later part's kinds added."""
    table = _stage_table([part for part in PARTS if part.lesson <= lesson], None, lesson)
    if table is None:
        raise ValueError(f"the door of lesson {lesson} has no stages")
    return table


def door_for(lesson: int, run: Run, policy: Policy, gating: gate.Gating | None = None, *,
             plan: Plan | None = None, stage_table: stages.StageTable | None = None,
             without: Iterable[str] = (), sink: Callable[[bytes], None] | None = None) -> Recorder:
    """The door of ``lesson`` for ``run`` under ``policy``: every part and guard up to that lesson.

    ``gating`` is what lesson 8's part needs. ``plan`` is the operator's
    verification plan, which lesson 7's part holds the verify stage to (a
    door given none has an empty plan). ``stage_table`` replaces the
    reference stage machine (another engagement's; the stage moves and the
    close stay admitted everywhere). ``without`` names guards to leave out,
    for a page or a test that attacks one part with another out of the way.
    ``sink`` gets each event's bytes as it is written (a journal).
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
    door = Recorder(run, policy, _rows(parts), _guards(lesson, without), sink=sink, **given)
    for part in parts:
        if part.start is not None:
            part.start(door)
    return door


def final_door(run: Run, policy: Policy, gating: gate.Gating, **options) -> Recorder:
    """The reference run's door: every part and every guard."""
    return door_for(LAST_LESSON, run, policy, gating, **options)


def _rows(parts: list[Part]) -> list[Kind]:
    """Every part's rows, each with the hooks later parts add to it, in lesson order."""
    rows = {row.name: row for part in parts for row in part.kinds}
    for part in parts:
        for kind, hooks in part.hooks.items():
            rows[kind] = rows[kind].with_hooks(*hooks)
    return list(rows.values())


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


# --- asking a sealed ledger's questions again ----------------------------------------------


def setting_of(report: dict) -> tuple[Run, Policy, gate.Gating, Plan]:
    """The run, policy, gating and verification plan a report was made under, each checked as it is read.

    The gating names the taxonomy version; the table is loaded as that
    version shipped (taxonomy.carried_taxonomy) and its digest compared with
    the one the report recorded, so an edit to the table is named as such.
    """
    raw_run, taxonomy = report.get("run"), report.get("taxonomy")
    if not isinstance(raw_run, dict) or set(raw_run) != set(RUN_FIELDS):
        raise DoorError(f"the report's run must have exactly the fields {', '.join(RUN_FIELDS)}")
    try:
        run = Run(**raw_run)
        policy = Policy.from_dict(report.get("policy"))
        policy_digest = digest(policy.snapshot())
        gating = gate.Gating.from_dict(report.get("gating"))
        plan = Plan.from_dict(report.get("plan"), "the report's plan")
    except (RecordError, PolicyError, CanonError, gate.GatingError, CheckError) as exc:
        raise DoorError(f"the report's run, policy, gating or plan cannot be rebuilt: {exc}") from None
    if policy_digest != run.policy_digest:
        raise DoorError("the report's policy is not the one its run identifier was made from")
    if not isinstance(taxonomy, dict) or taxonomy.get("version") != gating.taxonomy_version:
        raise DoorError("the report's taxonomy section does not name its gating's taxonomy version")
    if taxonomy.get("digest") != gating.table.digest:
        raise DoorError(f"the taxonomy table, version {gating.taxonomy_version}, has changed since the report "
                        f"was sealed (its digest is now {gating.table.digest[:12]}, the report recorded "
                        f"{str(taxonomy.get('digest'))[:12]}): the table changed, not the report")
    return run, policy, gating, plan


@dataclass(frozen=True)
class Setting:
    """What an operator's configuration says a report of theirs was made under (drive.operator_setting builds it).

    A report carries its own policy, gating, reviews and pack, and verify
    and replay on their own judge it by those: a report made under another
    policy with the same reference name agrees with itself. Only the
    operator's own configuration, kept apart from the report, can say the
    report was made under it (``against``).
    """

    where: str  # how a message names the configuration
    policy: dict  # the policy's snapshot
    gating: dict  # the gating's snapshot
    minimum_taxonomy_version: int
    reviews: Mapping[str, dict]  # review subject -> the reviewer, decision and reason written down for it
    plan: list  # the verification plan's snapshot (verify.Plan)
    safety_pack: dict  # the summary of the ratified pack the harness loads
    run_id: str  # what the configuration's policy and world name a run
    world_digest: str


def against(report: dict, setting: Setting) -> str:
    """The first part of ``report``'s setting that is not the operator's, as one line; "" when every part is.

    The parts are compared in order: the taxonomy version (not below the
    operator's minimum: an older table may let run what today's holds), the
    policy, the gating, the reviews (each one the
    configuration wrote down), the verification plan, the safety pack (the one the harness loads,
    ratified) and the world (the lab as found and the rest of the
    configuration, through the run identifier they give).
    """
    where = setting.where
    version = _dict(report.get("gating")).get("taxonomy_version")
    if isinstance(version, int) and not isinstance(version, bool) and version < setting.minimum_taxonomy_version:
        return (f"the report was sealed under taxonomy version {version}, below the minimum version "
                f"{setting.minimum_taxonomy_version} that {where} accepts")
    policy = report.get("policy")
    if policy != setting.policy:
        return f"the report's policy is not the one in {where}: {_first_difference(policy, setting.policy)}"
    if report.get("gating") != setting.gating:
        return f"the report's gating is not the one in {where}: {_first_difference(report.get('gating'), setting.gating)}"
    for review in report.get("reviews") if isinstance(report.get("reviews"), list) else [None]:
        review = _dict(review)
        written = setting.reviews.get(review.get("subject_id")) if isinstance(review.get("subject_id"), str) else None
        said = {key: review.get(key) for key in ("reviewer", "decision", "reason")}
        if written is None:
            return f"the report holds a review of {shown(review.get('subject_id'))}, and {where} wrote down none"
        if written != said:
            return (f"the report's review of {shown(review.get('subject_id'))} is not the one {where} wrote down: "
                    f"{_first_difference(said, written)}")
    if report.get("plan") != setting.plan:
        found, wanted = report.get("plan"), setting.plan
        if isinstance(found, list) and len(found) == len(wanted):
            index = next(i for i, (a, b) in enumerate(zip(found, wanted)) if a != b)
            where_ = f"its check {index}: {_first_difference(found[index], wanted[index])}"
        else:
            where_ = f"it holds {len(found) if isinstance(found, list) else 'no list of'} checks, the configuration {len(wanted)}"
        return f"the report's verification plan is not the one in {where}: {where_}"
    pack = report.get("safety_pack")
    if pack != setting.safety_pack:
        return (f"the report's safety pack is not the ratified pack the harness loads: "
                f"{_first_difference(pack, setting.safety_pack)}")
    run = _dict(report.get("run"))
    if run.get("world_digest") != setting.world_digest or run.get("run_id") != setting.run_id:
        return (f"the report's run was not made in the world of {where} and its lab (its world digest is "
                f"{str(run.get('world_digest'))[:12]}, theirs {setting.world_digest[:12]}): a fixture, the "
                "model's script or another part of the configuration differs")
    return ""


def _first_difference(found: object, wanted: object) -> str:
    """Where two JSON values first differ: ``<field> is X in the report and Y in the configuration``."""
    if isinstance(found, dict) and isinstance(wanted, dict):
        for key in [*wanted, *sorted(set(found) - set(wanted), key=str)]:
            if found.get(key, _ABSENT) != wanted.get(key, _ABSENT):
                return (f"{key if isinstance(key, str) else shown(key)} is {_shown(found.get(key, _ABSENT))} "
                        f"in the report and {_shown(wanted.get(key, _ABSENT))} in the configuration")
    return f"it is {_shown(found)} in the report and {_shown(wanted)} in the configuration"


_ABSENT = object()


def _shown(value: object) -> str:
    return "absent" if value is _ABSENT else "absent" if value is None else shown(value)


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def redecidable(event: dict) -> bool:
    """Whether a fresh door can be asked ``event``'s question: the door decided it and kept its whole payload."""
    payload = event.get("payload")
    by_caller = isinstance(event.get("by"), str) and event["by"].startswith(BY_CALLER)
    kept_whole = not (isinstance(payload, dict) and list(payload) in ([UNREPRESENTABLE], [BOUNDED]))
    return not by_caller and payload is not None and kept_whole


def ask_again(door: Recorder, event: dict) -> None:
    """Ask ``door`` the question ``event`` recorded; the door writes its own answer into its ledger.

    A refusal with nothing to ask again (a caller's own refusal, a payload
    kept only as a note) is copied as it stands, so the sequence numbers stay
    in step; replay reports such events as not re-decided.
    """
    if redecidable(event) and isinstance(event.get("kind"), str):
        door.record(event["kind"], event["payload"])
        return
    code = event.get("code") if isinstance(event.get("code"), str) and event.get("code") else "not_redecided"
    if event.get("status") == "refused" and isinstance(event.get("reason"), str) and event["reason"].strip():
        by = event.get("by") if isinstance(event.get("by"), str) else ""
        door.refuse(event.get("kind"), event["reason"], code=code, by=by.removeprefix(BY_CALLER) or "unknown")
    else:
        door.refuse(event.get("kind"), "this event kept no payload to ask again with", code="not_redecided",
                    by="doors.ask_again")


def redo(report: dict) -> Recorder:
    """A fresh final door, rebuilt from the report's setting, asked every question of its ledger again."""
    run, policy, gating, plan = setting_of(report)
    door = final_door(run, policy, gating, plan=plan)
    for event in report["events"]:
        ask_again(door, event)
    return door


def given_by(report: dict) -> dict:
    """What the report's run was given besides its door, rebuilt from the report (its safety pack)."""
    try:
        return {"pack": pack_as_sealed(report.get("safety_pack"))}
    except SafetyPackError as exc:
        raise DoorError(f"the report's safety pack cannot be rebuilt: {exc}") from None


def verify(sealed: dict) -> Verification:
    """A sealed report checked whole: its chain and seal, then every section derived again from its ledger."""
    return report.verify_report(sealed, redo, SECTIONS, given_by)


def render(sealed: dict) -> str:
    """The Markdown report of ``sealed``, headed by what verifying it whole found (report.render_markdown)."""
    return report.render_markdown(sealed, verify(sealed))


REFERENCE_TABLE = stage_table()  # the reference run's stage machine: every lesson's kinds admitted
