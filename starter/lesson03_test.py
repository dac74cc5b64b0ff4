"""Lesson 3 completion test: your recon-only stage table, asked questions through the real door.

Each check builds lesson 3's door with your three tables and asks it one
question: a move, or a record in some stage. They come in pairs, something
admitted and its mirror refused, so a table that admits everything fails as
surely as one that admits nothing. By default they check starter/lesson03.py;
`course check 3` shows each result.
"""

import pytest

from core.run.doors import door_for
from core.run.policy import Policy
from core.run.records import make_run
from core.run.stages import StageTable, StageTableError, advance
from course.student import Student

yours = Student(3, names=("STAGES", "TRANSITIONS", "ADMITTED_IN"), in_process=True)  # the door takes them live
PAGE = "https://lab.example/about"
GENERATOR_TAG = '<meta name="generator" content="ExampleCMS 3.2.1">'
BODY = f"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<html><head>{GENERATOR_TAG}</head></html>\n"
# Lesson 2's policy, restated: the lab, inspect_headers, and your inspect_metadata gated on has_meta.
POLICY = Policy.from_dict({
    "reference": "training-authorization-0042",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 1.5, "cost": 1.0},
    ],
    "max_actions": 4,
    "max_model_calls": 4,
})


@pytest.fixture(scope="module")
def tables():
    mine = yours.module  # one line, naming the file and the line, when it does not load or lacks a name
    try:
        return StageTable(mine.STAGES, mine.TRANSITIONS, mine.ADMITTED_IN)
    except StageTableError as exc:
        pytest.fail(f"your three tables do not make a stage table: {exc}", pytrace=False)


@pytest.fixture
def door(tables):
    run = make_run(POLICY.snapshot(), {"world": "lesson03-check"})
    try:
        return door_for(3, run, POLICY, stage_table=tables)
    except StageTableError as exc:
        pytest.fail(f"lesson 3's door does not take your table: {exc}", pytrace=False)


def enter(door, *stages: str) -> None:
    """Move the run through ``stages``, in order, failing on the first move the door refuses."""
    for stage in stages:
        before = door.stage
        answer = advance(door, stage)
        assert answer["recorded"], (
            f"your door refused the move from {before!r} to {stage!r} ({answer['reason']}); "
            f"list ({before!r}, {stage!r}) in TRANSITIONS")


def path_to(tables, start: str, goal: str) -> list[str]:
    """The stages to enter to get from ``start`` to ``goal`` by your transitions (shortest first)."""
    paths, frontier = {start: []}, [start]
    while frontier and goal not in paths:
        stage = frontier.pop(0)
        for source, target in tables.transitions:
            if source == stage and target not in paths:
                paths[target] = paths[stage] + [target]
                frontier.append(target)
    if goal not in paths:
        pytest.fail(f"your TRANSITIONS give no way from {start!r} to {goal!r}", pytrace=False)
    return paths[goal]


def record(door, kind: str, **fields) -> dict:
    return door.record(kind, {"run_id": door.run.run_id, **fields})


def act(door, tool: str = "inspect_headers") -> dict:
    return record(door, "action", tool=tool, destination=PAGE, arguments={})


def execute_once(door) -> str:
    """From authorize, go round the loop once, recording an action, its capture and outcome; returns the capture id."""
    enter(door, "observe", "propose", "select", "execute")
    action = act(door)
    assert action["recorded"], f"your door refused an action in the execute stage: {action['reason']}"
    capture = record(door, "capture", action_id=action["id"], status=200, body=BODY)
    assert capture["recorded"], f"your door refused a capture in the execute stage: {capture['reason']}"
    outcome = record(door, "outcome", action_id=action["id"], status="succeeded", capture_id=capture["id"])
    assert outcome["recorded"], f"your door refused an outcome in the execute stage: {outcome['reason']}"
    return capture["id"]


def finding(door, capture_id: str) -> dict:
    return record(door, "finding", capture_id=capture_id, quote=GENERATOR_TAG,
                  claim="the about page names its content management system and version")


def a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def refused_here(answer: dict, kind: str, stage: str) -> bool:
    return answer == {"recorded": False, "reason": f"record kind '{kind}' is not admitted in stage '{stage}'"}


def test_the_run_starts_in_authorize(tables, door):
    assert tables.stages[0] == "authorize", (
        f"your STAGES start with {tables.stages[0]!r}; a run starts in 'authorize', so keep it first")
    assert door.stage == "authorize"


def test_the_work_loop_is_kept(door):
    enter(door, "observe", "propose", "select", "execute", "observe", "propose", "select")


def test_there_is_no_verify_stage(tables):
    assert "verify" not in tables.stages, (
        "your STAGES still declare 'verify': a recon-only engagement plans no confirming probes, so remove "
        "the stage and every transition that names it")


def test_the_door_refuses_the_move_from_select_to_verify(door):
    # The page asks the student to predict this refusal's reason: no message here may give it away.
    enter(door, "observe", "propose", "select")
    answer = advance(door, "verify")
    assert not answer["recorded"], "your door admitted the move from 'select' to 'verify'; it must refuse it"
    assert door.stage == "select"


def test_the_run_leaves_the_loop_from_select_for_review_then_report(door):
    enter(door, "observe", "propose", "select", "review", "report")


def test_the_door_admits_a_finding_in_review(door):
    capture_id = execute_once(door)
    enter(door, "observe", "propose", "select", "review")
    answer = finding(door, capture_id)
    assert answer["recorded"], (
        f"your door refused a finding in the review stage ({answer['reason']}); findings go straight to "
        "review: admit 'finding' in ('review',)")


def test_the_door_refuses_a_finding_outside_review(door):
    capture_id = execute_once(door)
    for stage in ("execute", "observe"):
        if stage == "observe":
            enter(door, "observe")
        answer = finding(door, capture_id)
        assert refused_here(answer, "finding", stage), (
            f"in the {stage} stage your door answered a finding with {answer}; a finding is admitted in the "
            "review stage only")
    assert door.count("finding") == 0


def test_the_door_refuses_a_review_in_execute(door):
    enter(door, "observe", "propose", "select", "execute")
    action = act(door)
    answer = record(door, "review", subject_id=action["id"], decision="approved", reviewer="operator",
                    reason="a person approved it")
    said = "admitted it" if answer["recorded"] else f"said {answer['reason']!r}"
    assert refused_here(answer, "review", "execute"), (
        f"asked for a review in the execute stage, your door {said}; nothing consequential waits there in a "
        "recon-only engagement, so admit 'review' in ('review',) only")


def test_the_door_admits_a_review_in_review(door):
    capture_id = execute_once(door)
    enter(door, "observe", "propose", "select", "review")
    found = finding(door, capture_id)
    assert found["recorded"], f"your door refused a finding in the review stage: {found['reason']}"
    answer = record(door, "review", subject_id=found["id"], decision="approved", reviewer="operator",
                    reason="the quote appears in the cited capture")
    assert answer["recorded"], f"your door refused a review in the review stage: {answer['reason']}"


def test_the_door_refuses_actions_captures_and_outcomes_in_review(door):
    capture_id = execute_once(door)
    action_id = door.records("action")[0]["action_id"]
    enter(door, "observe", "propose", "select", "review")
    attempts = {
        "action": act(door, "inspect_metadata"),
        "capture": record(door, "capture", action_id=action_id, status=200, body=BODY),
        "outcome": record(door, "outcome", action_id=action_id, status="failed", capture_id=capture_id),
    }
    for kind, answer in attempts.items():
        assert refused_here(answer, kind, "review"), (
            f"in the review stage your door let {a(kind)} past the stage check (it said {answer}); actions, "
            "captures and outcomes belong in execute only")


def test_inspect_metadata_runs_in_execute_once_has_meta_is_observed(door):
    capture_id = execute_once(door)
    enter(door, "observe")
    early = act(door, "inspect_metadata")
    assert refused_here(early, "action", "observe"), (
        f"in the observe stage your door answered an action with {early}; actions belong in execute only")
    observed = record(door, "observation", field="has_meta", value=True, capture_id=capture_id)
    assert observed["recorded"], f"your door refused an observation in the observe stage: {observed['reason']}"
    enter(door, "propose", "select", "execute")
    answer = act(door, "inspect_metadata")
    assert answer["recorded"], f"with has_meta observed, your door refused inspect_metadata in execute: {answer}"


def test_the_report_stage_admits_nothing(tables, door):
    enter(door, *path_to(tables, "authorize", "report"))
    for kind in tables.admitted_in:
        answer = record(door, kind)
        assert refused_here(answer, kind, "report"), (
            f"in the report stage your door let {a(kind)} past the stage check ({answer['reason']!r}); the "
            "report stage admits nothing")
    assert not [pair for pair in tables.transitions if pair[0] == "report"], "no move may leave 'report'"
