"""Lesson 3 completion test: your stage guard, asked about many tables, then put in lesson 3's door.

Your file runs in a process of its own (course/student.py) with the reference,
core.run.stages, unavailable to it. The check sends it stage tables as plain
data and judges what comes back here, in its own process: first your two
functions alone, on lesson 3's reference table, a recon-only table and tables
made from a seed this run draws and prints (`COURSE_SEED=N course check 3`
makes the same tables again); then the edge classes of the two contracts
(EDGE_CLASSES below), tables no door would accept among them, each answer
compared with the reference's own question's; then lesson 3's door, built here with your two
functions in place of the reference's stage guard and move check, walked
through a run beside the reference door, event for event. By default the
checks load starter/lesson03.py; `course check 3` shows each.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from core.run.doors import Door, door_for, stage_table
from core.run.policy import Policy
from core.run.recorder import Kind, Recorder, Refusal
from core.run.records import make_run
from core.run.stages import (ADMITTED_IN, STAGE, STAGES, TRANSITION_KIND, TRANSITIONS, StageTable, Transition,
                             advance, build_transition, in_its_stage, start, table_of)
from course.differ import Edge, Rule, compare
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


# --- the edge classes of the two contracts, each asked in every run ------------------------------------
#
# Listed as data: questions every run asks, and more that Hypothesis draws from the seed. Each is asked of your
# function and of the reference's own question (core.run.stages: build_transition, in_its_stage) over the same
# table as plain data, so a table the reference would refuse to build (a move to a stage it does not declare) is
# asked too: your functions answer for any table handed to them. Only the code is compared; every argument must
# come back as it was sent.

UNKNOWN = ("a move to a stage the table does not declare (compared exactly: another spelling or another type is "
           "not a stage) is refused with the code 'unknown_stage', asked before whether the move is listed, "
           "whether or not some move lists it")
NOT_LISTED = ("a move to a declared stage is judged from the stage the run is in: unless the pair [from, to] is "
              "listed, it is refused with the code 'move_not_listed'")
LISTED = "a move the table lists from the stage the run is in, to a stage it declares, is let through (None)"
OUT_OF_STAGE = ("a kind is recorded only in the stages its table lists for it (a kind the table does not name, or "
                "names in other letters, nowhere), and elsewhere it is refused with the code 'out_of_stage'")
IN_STAGE = "a kind is let through (None) in exactly the stages its table lists for it"
UNDECLARED = ("archive", "Review", "review ", "verify", "sign-off")  # names a drawn table lists but never declares


def table_data(stages, transitions, admitted_in=None) -> dict:
    """A stage table as plain data, exactly as written: nothing checks it, as nothing checks a caller's."""
    return {"stages": list(stages), "transitions": [list(pair) for pair in transitions],
            "admitted_in": {kind: list(where) for kind, where in (admitted_in or {}).items()}}


def reference_door(table: dict, stage: object) -> SimpleNamespace:
    """What the reference's two questions read of a door (its stage, its table), over ``table`` as it is given."""
    held = SimpleNamespace(stages=tuple(table["stages"]), transitions=tuple(map(tuple, table["transitions"])),
                           admitted_in=table["admitted_in"])
    return SimpleNamespace(state={STAGE: stage}, parts={"stage_table": held})


def move_rule(question: tuple) -> Rule:
    table, stage, to = question
    try:
        build_transition(reference_door(table, stage), {"to": to})
    except Refusal as refusal:
        return Rule(refusal.code, UNKNOWN if refusal.code == "unknown_stage" else NOT_LISTED)
    return Rule(None, LISTED)


def record_rule(question: tuple) -> Rule:
    table, stage, kind = question
    try:
        in_its_stage(reference_door(table, stage), SimpleNamespace(row=SimpleNamespace(name=kind), kind=kind))
    except Refusal as refusal:
        return Rule(refusal.code, OUT_OF_STAGE)
    return Rule(None, IN_STAGE)


def code_answered(found) -> object:
    """The part of an answer the contract fixes: None, or the refusal's code."""
    if found is None:
        return None
    if isinstance(found, dict) and sorted(found) == ["code", "reason"]:
        return found["code"]
    return f"no answer (it returned {str(found)[:40]!r}, not None or a refusal)"


def move_shown(question: tuple) -> str:
    table, stage, to = question
    moves = ", ".join(f"{a!r} -> {b!r}" for a, b in table["transitions"]) or "none"
    return f"refuse_move(table, {stage!r}, {to!r}) over a table with the stages {table['stages']} and the moves {moves}"


def record_shown(question: tuple) -> str:
    table, stage, kind = question
    return (f"refuse_record(table, {stage!r}, {kind!r}) over a table with the stages {table['stages']} and "
            f"admitted_in {table['admitted_in']}")


RECON_DATA = as_data(RECON_ONLY)
REFERENCE_DATA = as_data(StageTable(STAGES, TRANSITIONS, {kind: where for kind, where in ADMITTED_IN.items()
                                                          if kind != TRANSITION_KIND}))


def beyond_the_table() -> list[list[tuple]]:
    """Tables whose moves name a stage they do not declare, asked for that stage from where the move is listed."""
    recon, reference = RECON_DATA, REFERENCE_DATA
    with_verify = {**recon, "transitions": recon["transitions"] + [["select", "verify"], ["verify", "review"]]}
    archived = {**reference, "transitions": reference["transitions"] + [["report", "archive"]]}
    spelt = {**recon, "transitions": recon["transitions"] + [["select", "Review"], ["execute", "review "]]}
    return [[(with_verify, "select", "verify"), (with_verify, "select", "review"), (with_verify, "verify", "review")],
            [(archived, "report", "archive"), (archived, "review", "archive"), (archived, "review", "report")],
            [(spelt, "select", "Review"), (spelt, "execute", "review "), (spelt, "select", "review")]]


def odd_asked() -> list[list[tuple]]:
    """Each table asked for what is no stage of it: other letters, spaces, no name, other JSON types."""
    return [[(table, stage, to) for to in ("Review", "REVIEW", " review", "review ", "", None, 3, ["review"],
                                           {"stage": "review"}, "reviews")]
            for table, stage in ((RECON_DATA, "select"), (REFERENCE_DATA, "verify"))]


def from_elsewhere() -> list[list[tuple]]:
    """Moves listed only from another stage, and moves back to the stage the run is in, listed or not."""
    looped = {**RECON_DATA, "transitions": RECON_DATA["transitions"] + [["observe", "observe"]]}
    return [[(RECON_DATA, "observe", "execute"), (RECON_DATA, "authorize", "report"), (RECON_DATA, "select", "select"),
             (looped, "observe", "observe"), (looped, "propose", "observe"), (REFERENCE_DATA, "select", "review"),
             (REFERENCE_DATA, "report", "report"), (REFERENCE_DATA, "execute", "observe")]]


def asked_again() -> list[list[tuple]]:
    """The same move asked under one table, then another that answers it otherwise, then the first again."""
    with_verify = {**RECON_DATA, "transitions": RECON_DATA["transitions"] + [["select", "verify"]]}
    return [[(REFERENCE_DATA, "select", "verify"), (RECON_DATA, "select", "verify"),
             (with_verify, "select", "verify"), (REFERENCE_DATA, "select", "verify"),
             (RECON_DATA, "select", "review"), (REFERENCE_DATA, "select", "review")]]


def drawn_moves(focus: str):
    """Hypothesis: a table of two to six stages whose moves may name stages it does not declare, and one move.

    ``focus`` says what the move asks for: a stage the table lists but never declares ("undeclared"), a name that
    is none of its stages ("odd"), a declared stage, listed from here or not ("declared").
    """
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        stages = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=6, unique=True))
        names = stages + list(UNDECLARED)
        moves = draw(st.lists(st.tuples(st.sampled_from(stages), st.sampled_from(names)), max_size=10, unique=True))
        stage = draw(st.sampled_from(stages))
        if focus == "undeclared":
            to = draw(st.sampled_from(UNDECLARED))
            if draw(st.booleans()) and (stage, to) not in moves:
                moves.append((stage, to))
        elif focus == "odd":
            declared = draw(st.sampled_from(stages))
            to = draw(st.sampled_from((declared.upper(), declared.capitalize(), f" {declared}", f"{declared} ", "",
                                       None, 0, [declared], {"stage": declared}, declared + "s")))
        else:
            to = draw(st.sampled_from(stages))
        table = table_data(stages, moves, {kind: draw(st.lists(st.sampled_from(stages), unique=True))
                                           for kind in draw(st.lists(st.sampled_from(KINDS), unique=True))})
        return [(table, stage, to)]

    return question()


def unnamed_kinds() -> list[list[tuple]]:
    """Kinds the table does not name, names in other letters, or names with no stage, asked in every stage."""
    table = {**RECON_DATA, "admitted_in": {**RECON_DATA["admitted_in"], "finding": []}}
    return [[(table, stage, kind) for kind in ("finding", "Review", "reviews", "deploy", "", "transition")]
            for stage in ("authorize", "execute", "review")]


def around_its_stages() -> list[list[tuple]]:
    """Each kind asked in every stage of the recon-only table, its own and every other."""
    return [[(RECON_DATA, stage, kind) for kind in RECON_DATA["admitted_in"] for stage in RECON_DATA["stages"]]]


def drawn_records():
    """Hypothesis: a table whose admitted_in names some kinds (in some stages, or none), and a kind asked in a stage."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        stages = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=6, unique=True))
        admitted_in = {kind: draw(st.lists(st.sampled_from(stages), unique=True))
                       for kind in draw(st.lists(st.sampled_from(KINDS), unique=True))}
        kind = draw(st.sampled_from(KINDS + ("Finding", "deploy", "")))
        return [(table_data(stages, [], admitted_in), draw(st.sampled_from(stages)), kind)]

    return question()


MOVE_EDGE_CLASSES = (
    Edge("a move the table lists to a stage it does not declare", fixed=beyond_the_table,
         drawn=lambda: drawn_moves("undeclared")),
    Edge("a stage asked for in other letters, with a space, empty, or as another JSON type", fixed=odd_asked,
         drawn=lambda: drawn_moves("odd")),
    Edge("a move listed only from another stage, or back to the stage the run is in", fixed=from_elsewhere,
         drawn=lambda: drawn_moves("declared")),
    Edge("the same move asked again, under a table that answers it otherwise", fixed=asked_again,
         drawn=lambda: drawn_moves("undeclared"), draws=5),
)
RECORD_EDGE_CLASSES = (
    Edge("a kind the table does not name, names in other letters, or admits in no stage", fixed=unnamed_kinds,
         drawn=drawn_records, draws=8),
    Edge("a kind asked in its own stages and in every other", fixed=around_its_stages, drawn=drawn_records,
         draws=8),
)
EDGE_CLASSES = MOVE_EDGE_CLASSES + RECORD_EDGE_CLASSES


def test_every_edge_class_of_the_two_contracts_gets_the_rules_code_and_its_arguments_back():
    compare(yours, "refuse_move", MOVE_EDGE_CLASSES, rule=move_rule, judged=code_answered,
            shown=move_shown, unchanged=True)
    compare(yours, "refuse_record", RECORD_EDGE_CLASSES, rule=record_rule, judged=code_answered,
            shown=record_shown, unchanged=True)


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
    mine = Door(reference.run, POLICY, kinds, guards, **dict(reference.parts))
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
