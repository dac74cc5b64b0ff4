"""Lesson 3 completion test: your stage guard, asked about many tables, then put in lesson 3's door.

Your file runs in a process of its own (course/student.py) with the reference,
core.run.stages, unavailable to it. The check sends it stage tables as plain
data and judges what comes back here, in its own process: first your two
functions alone, on lesson 3's reference table, a recon-only table and tables
made from a seed this run draws and prints (`COURSE_SEED=N course check 3`
makes the same tables again); then lesson 3's door, built here with your two
functions in place of the reference's stage guard and move check, walked
through a run beside the reference door, event for event. By default the
checks load starter/lesson03.py; `course check 3` shows each.
"""

from __future__ import annotations

import random

from core.run.doors import door_for, stage_table
from core.run.policy import Policy
from core.run.recorder import Kind, Recorder, Refusal
from core.run.records import make_run
from core.run.stages import TRANSITION_KIND, StageTable, Transition, advance, in_its_stage, start, table_of
from course.student import Student, seed

yours = Student(3, names=("refuse_record", "refuse_move"), blocked=("core.run.stages",), unreadable=("data",))

CODES = ("out_of_stage", "unknown_stage", "move_not_listed")
KINDS = ("observation", "action", "capture", "outcome", "finding", "review")  # lesson 2's kinds
POLICY = Policy.from_dict({
    "reference": "training-authorization-0042",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [{"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
               "weight": 2.0, "cost": 1.0}],
    "max_actions": 4,
    "max_model_calls": 4,
})
RECON_ONLY = StageTable(
    ("authorize", "observe", "propose", "select", "execute", "review", "report"),
    (("authorize", "observe"), ("observe", "propose"), ("propose", "select"), ("select", "execute"),
     ("execute", "observe"), ("select", "review"), ("review", "report")),
    {"observation": ("authorize", "observe"), "action": ("execute",), "capture": ("execute",),
     "outcome": ("execute",), "finding": ("review",), "review": ("review",)},
)
POOL = ("scope", "survey", "probe", "triage", "confirm", "sign_off", "archive", "brief", "plan", "debrief",
        "hold", "handover")
FRESH_TABLES = 24
WALKS, STEPS = 10, 60


# --- the tables: the reference run's, a recon-only one, and fresh ones -------------------------


def door_table(table: StageTable) -> StageTable:
    """``table`` as lesson 3's door holds it: with the move admitted in every stage."""
    return table_of(door_for(3, make_run(POLICY.snapshot(), {"world": "lesson03-table"}), POLICY,
                             stage_table=table))


def fresh_table(rng: random.Random) -> StageTable:
    """A stage table of 2 to 7 stages from POOL, every stage reachable, some moves back or to itself,
    each of some of lesson 2's kinds admitted in some of its stages (or none)."""
    stages = rng.sample(POOL, rng.randint(2, 7))
    moves = [(rng.choice(stages[:i]), stages[i]) for i in range(1, len(stages))]  # each reachable
    for _ in range(rng.randint(0, len(stages) + 1)):
        pair = (rng.choice(stages), rng.choice(stages))
        if pair not in moves:
            moves.append(pair)
    rng.shuffle(moves)
    admitted_in = {kind: tuple(rng.sample(stages, rng.randint(0, len(stages))))
                   for kind in rng.sample(KINDS, rng.randint(1, len(KINDS)))}
    return StageTable(tuple(stages), tuple(moves), admitted_in)


def tables() -> list[tuple[str, StageTable]]:
    """Every table the check asks about, each as the door holds it, with the words that name it."""
    chosen = seed()
    rng = random.Random(chosen)
    named = [("lesson 3's reference table", stage_table(3)), ("the recon-only table", door_table(RECON_ONLY))]
    return named + [(f"table {n} of the {FRESH_TABLES} made from seed {chosen} "
                     f"(COURSE_SEED={chosen} course check 3 makes them again)", door_table(fresh_table(rng)))
                    for n in range(1, FRESH_TABLES + 1)]


def as_data(table: StageTable) -> dict:
    """A table as your functions get it: plain JSON data."""
    return {"stages": list(table.stages), "transitions": [list(pair) for pair in table.transitions],
            "admitted_in": {kind: list(where) for kind, where in table.admitted_in.items()}}


def shown(table: StageTable) -> str:
    moves = ", ".join(f"{a} -> {b}" for a, b in table.transitions)
    return f"stages {list(table.stages)}; moves {moves}"


# --- asking your functions, and reading what they say ---------------------------------------------


def ask(name: str, table: StageTable, stage: str, what: object) -> dict | None:
    """Your ``name`` on ``table``; its answer if it is None or a refusal with a known code, else a failure."""
    answer = yours.call(name, as_data(table), stage, what)
    call = f"{name}(table, {stage!r}, {what!r})"
    if answer is None:
        return None
    if not isinstance(answer, dict) or sorted(answer) != ["code", "reason"]:
        yours.fail(f"{call} returned {answer!r:.120}: it returns None to let the request on, or a refusal, "
                   "a dict with exactly the keys 'code' and 'reason'")
    if answer["code"] not in CODES:
        yours.fail(f"{call} refused with the code {answer['code']!r:.40}; the stage machine's codes are "
                   f"{', '.join(CODES)}")
    if not isinstance(answer["reason"], str) or not answer["reason"].strip():
        yours.fail(f"{call} refused with no reason: every refusal carries a reason the ledger keeps")
    return answer


def said(answer: dict | None) -> str:
    return "None (let it through)" if answer is None else f"the code {answer['code']!r}"


def odd_names(rng: random.Random, table: StageTable) -> list[object]:
    """What a caller may ask to move to that is no stage of ``table``: other names, other spellings, other types."""
    declared = rng.choice(table.stages)
    unused = [name for name in POOL if name not in table.stages]
    return [rng.choice(unused) if unused else "nowhere", declared.capitalize(), declared.upper(), f" {declared}",
            f"{declared} ", "", None, 3, [declared], {"stage": declared}]


# --- the checks: refuse_record ---------------------------------------------------------------------


def test_a_kind_is_admitted_in_every_stage_its_table_lists():
    for which, table in tables():
        for kind, where in table.admitted_in.items():
            for stage in where:
                answer = ask("refuse_record", table, stage, kind)
                assert answer is None, (
                    f"refuse_record(table, {stage!r}, {kind!r}) on {which} returned {said(answer)}: the table lists "
                    f"{stage!r} among the stages of {kind!r} ({list(where)}), so the record is let through (None)")


def test_a_kind_is_refused_in_every_stage_its_table_does_not_list():
    for which, table in tables():
        for kind, where in table.admitted_in.items():
            for stage in (s for s in table.stages if s not in where):
                answer = ask("refuse_record", table, stage, kind)
                assert answer is not None and answer["code"] == "out_of_stage", (
                    f"refuse_record(table, {stage!r}, {kind!r}) on {which} returned {said(answer)}: a kind is "
                    f"recorded only in the stages its table lists for it ({list(where) or 'none'} for {kind!r}), "
                    "and anywhere else it is refused with the code 'out_of_stage'")


def test_a_kind_the_table_does_not_name_is_admitted_nowhere():
    for which, table in tables():
        unnamed = [kind for kind in KINDS if kind not in table.admitted_in] + ["deploy", "Finding"]
        for kind in unnamed:
            for stage in table.stages:
                answer = ask("refuse_record", table, stage, kind)
                assert answer is not None and answer["code"] == "out_of_stage", (
                    f"refuse_record(table, {stage!r}, {kind!r}) on {which} returned {said(answer)}, but its "
                    f"admitted_in does not name {kind!r}: a kind the table does not name is admitted nowhere, "
                    "and is refused with the code 'out_of_stage'")


# --- the checks: refuse_move -----------------------------------------------------------------------


def test_a_move_the_table_lists_from_the_current_stage_is_let_through():
    for which, table in tables():
        for origin, target in table.transitions:
            answer = ask("refuse_move", table, origin, target)
            assert answer is None, (
                f"refuse_move(table, {origin!r}, {target!r}) on {which} returned {said(answer)}: the table lists "
                f"the move [{origin!r}, {target!r}], so the run in {origin!r} may move to {target!r} (None)")


def test_a_move_not_listed_from_the_current_stage_is_refused():
    for which, table in tables():
        for origin in table.stages:
            for target in table.stages:
                if (origin, target) in table.transitions:
                    continue
                answer = ask("refuse_move", table, origin, target)
                if answer is not None and answer["code"] == "move_not_listed":
                    continue
                sources = [a for a, b in table.transitions if b == target]
                because = (f"the table lists moves to {target!r} only from {sources}" if sources
                           else f"the table lists no move to {target!r} at all")
                assert False, (
                    f"refuse_move(table, {origin!r}, {target!r}) on {which} ({shown(table)}) returned "
                    f"{said(answer)}: {target!r} is a stage the table declares, and {because}. A move is judged "
                    "from the stage the run is in: the pair [from, to] must be listed, or the move is refused "
                    "with the code 'move_not_listed'")


def test_a_move_to_a_stage_the_table_does_not_declare_is_refused_first_as_unknown():
    rng = random.Random(seed())
    for which, table in tables():
        for origin in table.stages:
            for to in odd_names(rng, table):
                answer = ask("refuse_move", table, origin, to)
                assert answer is not None and answer["code"] == "unknown_stage", (
                    f"refuse_move(table, {origin!r}, {to!r}) on {which} (stages {list(table.stages)}) returned "
                    f"{said(answer)}: {to!r} is not a stage the table declares (stage names are compared exactly: "
                    "another spelling, a list or None is not a stage), so the move is refused with the code "
                    "'unknown_stage', asked before whether the move is listed")


def refused(name: str, table: StageTable, stage: str, what: object, which: str) -> str:
    """The reason of a refusal the rows above expect; a failure if your function lets it through."""
    answer = ask(name, table, stage, what)
    if answer is None:
        yours.fail(f"{name}(table, {stage!r}, {what!r}) on {which} let through what the table does not allow "
                   "there, so it gives no reason to read: see the rows above")
    return answer["reason"]


def test_each_refusal_names_what_it_refuses():
    rng = random.Random(seed())
    for which, table in tables()[:6]:
        stage = rng.choice(table.stages)
        for kind in [kind for kind in KINDS if stage not in table.admitted_in.get(kind, ())][:2]:
            reason = refused("refuse_record", table, stage, kind, which)
            assert kind in reason and stage in reason, (
                f"refuse_record(table, {stage!r}, {kind!r}) on {which} refused with the reason {reason!r:.100}: "
                "the reason names the kind and the stage, so the ledger says what was refused where")
        for target in [t for t in table.stages if (stage, t) not in table.transitions][:1]:
            reason = refused("refuse_move", table, stage, target, which)
            assert stage in reason and target in reason, (
                f"refuse_move(table, {stage!r}, {target!r}) on {which} refused with the reason {reason!r:.100}: "
                "a move that is not listed is refused with a reason that names both stages")
        unknown = odd_names(rng, table)[0]
        reason = refused("refuse_move", table, stage, unknown, which)
        assert unknown in reason, (
            f"refuse_move(table, {stage!r}, {unknown!r}) on {which} refused with the reason {reason!r:.100}: "
            "a move to a stage the table does not declare is refused with a reason that names what was asked for")


# --- the checks: your functions in lesson 3's door --------------------------------------------------


def your_stage_guard(door: Recorder, request) -> None:
    """Lesson 3's stage guard, asked of your refuse_record."""
    answer = ask("refuse_record", table_of(door), door.stage, request.row.name)
    if answer is not None:
        raise Refusal(answer["code"], answer["reason"])


def your_move(door: Recorder, payload: dict) -> Transition:
    """Lesson 3's move check, asked of your refuse_move."""
    to = payload["to"]
    answer = ask("refuse_move", table_of(door), door.stage, to)
    if answer is not None:
        raise Refusal(answer["code"], answer["reason"])
    return Transition(door.stage, to)


def doors(table: StageTable, world: str) -> tuple[Recorder, Recorder]:
    """Lesson 3's reference door for ``table``, and the same door with your two functions in its place."""
    own = StageTable(table.stages, table.transitions,
                     {kind: where for kind, where in table.admitted_in.items() if kind != TRANSITION_KIND})
    reference = door_for(3, make_run(POLICY.snapshot(), {"world": world}), POLICY, stage_table=own)
    guards = [your_stage_guard if guard is in_its_stage else guard for guard in reference.guards]
    kinds = [Kind(row.name, row.fields, row.store, row.id_field, your_move, row.hooks)
             if row.name == TRANSITION_KIND else row for row in reference.kinds.values()]
    mine = Recorder(reference.run, POLICY, kinds, guards, **dict(reference.parts))
    start(mine)
    return reference, mine


def step(rng: random.Random, table: StageTable, stage: str) -> tuple[str, object]:
    """One thing to ask a door in ``stage``: mostly a listed move or a record, sometimes a move it must refuse."""
    listed = [b for a, b in table.transitions if a == stage]
    roll = rng.random()
    if roll < 0.4 and listed:
        return "move", rng.choice(listed)
    if roll < 0.55:
        return "move", rng.choice(table.stages)
    if roll < 0.65:
        return "move", rng.choice(odd_names(rng, table))
    return "record", rng.choice(KINDS + ("deploy",))


def asked(door: Recorder, question: tuple[str, object]) -> tuple[str, str]:
    what, value = question
    answer = advance(door, value) if what == "move" else door.record(value, {"run_id": door.run.run_id})
    event = door.events[-1]
    assert answer["recorded"] == (event["status"] == "admitted")
    return event["status"], event["code"]


def told(decision: tuple[str, str]) -> str:
    status, code = decision
    return "admitted it" if status == "admitted" else f"refused it ({code})"


def rule_broken(question: tuple[str, object], stage: str, theirs: tuple[str, str]) -> str:
    what, value = question
    if what == "record":
        if theirs[1] == "out_of_stage":
            return f"a kind is recorded only in the stages its table lists for it, and {value!r} is not listed in {stage!r}"
        return f"the table admits {value!r} in {stage!r}, so it is let past the stage check"
    if theirs == ("admitted", ""):
        return f"the table lists the move [{stage!r}, {value!r}]"
    if theirs[1] == "unknown_stage":
        return (f"{value!r} is not a stage the table declares (stage names are compared exactly), so the move is "
                "refused with the code 'unknown_stage', asked before whether the move is listed")
    return (f"a move is judged from the stage the run is in: [{stage!r}, {value!r}] is not listed, so it is "
            "refused with the code 'move_not_listed'")


def test_the_door_with_your_functions_decides_each_step_of_a_walk_as_the_reference_door_does():
    chosen = seed()
    rng = random.Random(chosen)
    named = tables()
    for walk in range(WALKS):
        which, table = named[walk % len(named)] if walk < 2 else rng.choice(named[2:])
        reference, mine = doors(table, f"lesson03-walk-{walk}")
        for number in range(1, STEPS + 1):
            stage, question = reference.stage, step(rng, table, reference.stage)
            theirs, got = asked(reference, question), asked(mine, question)
            if theirs == got and reference.stage == mine.stage:
                continue
            what = f"a move to {question[1]!r}" if question[0] == "move" else f"a record of kind {question[1]!r}"
            assert False, (
                f"in step {number} of a run walked through lesson 3's door over {which}, the run in {stage!r} "
                f"asked for {what}: the reference door {told(theirs)}, the door with your functions {told(got)}"
                f"{'' if theirs != got else f' but left the run in {mine.stage!r}, not {reference.stage!r}'}. "
                f"{rule_broken(question, stage, theirs)} (walk {walk + 1} of seed {chosen}: "
                f"COURSE_SEED={chosen} course check 3 walks it again)")
        assert mine.snapshot()["stage"] == reference.snapshot()["stage"]
