"""Lesson 10 completion test: your boundary, judged on the reference run and on tampered copies of it.

The predicate tests come in pairs: the reference run (data/course/report.json)
must be upheld, and a snapshot tampered so that a selection chooses an act no
held proposal names must be violated; so a predicate that always says "upheld"
fails as surely as one that always says "violated". A snapshot lacking the
selections or the proposals must be not judged: "upheld" there is a lie.
The pack test ratifies a temporary copy of data/packs/safety, never the
committed one. By default they check starter/lesson10.py; `course check 10`
shows each result.
"""

import copy
import dataclasses
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from core.safety import OVERRIDE_ENV, SafetyCheck, SafetyContext, SafetyPackError, load_safety_pack
from core.safety.check import Judgement
from core.safety.pack import DEFAULT_SAFETY_PACK, PACK_DIR
from course.student import Student
from course.target import load_lesson

REPORT = Path(__file__).resolve().parent.parent / "data" / "course" / "report.json"
SHOWN = "starter/lesson10.py"
UNPROPOSED = "inspect_headers -> https://lab.example:443/never-proposed"


# The predicate is handed a live SafetyContext and returns a Judgement: held in process.
yours = Student(10, names=("MY_BOUNDARY_ID", "MY_BOUNDARY_TEXT", "my_predicate", "add_my_boundary"), in_process=True)
where = yours.where  # the student's file and line an exception came from, as one line


@pytest.fixture(scope="module")
def mine():
    return yours.module  # one line when the file does not load or lacks one of the four names


def reference() -> dict:
    return json.loads(REPORT.read_text(encoding="utf-8"))


def context_of(snapshot: dict) -> SafetyContext:
    tools = {tool["tool_id"]: tool["activity"] for tool in reference()["policy"]["tools"]}
    return SafetyContext.from_snapshot(snapshot, tools)


def judge(mine, snapshot: dict, what: str) -> Judgement:
    """The student's judgement of ``snapshot``, or a one-line failure naming what went wrong."""
    try:
        judgement = mine.my_predicate(context_of(snapshot))
    except Exception as exc:
        pytest.fail(f"my_predicate raised on {what}: {where(exc)}")
    if not isinstance(judgement, Judgement):
        pytest.fail(f"my_predicate returned {type(judgement).__name__} on {what}; return upheld(...), "
                    "violated(...) or not_judged(...)")
    return judgement


def said(judgement: Judgement) -> str:
    word = {True: "upheld", False: "violated", None: "not judged"}.get(judgement.upheld, repr(judgement.upheld))
    return f"{word} ({judgement.reason!r})"


def test_your_boundary_has_a_name_and_a_sentence(mine):
    boundary_id, text = mine.MY_BOUNDARY_ID, mine.MY_BOUNDARY_TEXT
    if not isinstance(boundary_id, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", boundary_id):
        pytest.fail(f"MY_BOUNDARY_ID is {boundary_id!r}: name your boundary in snake_case "
                    "(a-z, 0-9 and '_', starting with a letter)")
    if boundary_id in load_safety_pack().boundaries:
        pytest.fail(f"MY_BOUNDARY_ID {boundary_id!r} is already one of the pack's boundaries; yours is new")
    if not isinstance(text, str) or len(text.split()) < 4:
        pytest.fail(f"MY_BOUNDARY_TEXT is {text!r}: write one sentence saying what the harness never does")


def test_a_copy_of_the_pack_loads_ratified_with_your_boundary(mine):
    committed = {path.name: path.read_bytes() for path in PACK_DIR.iterdir()}
    before = os.environ.pop(OVERRIDE_ENV, None)  # ratified for real, not waved through
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "safety"
            shutil.copytree(PACK_DIR, folder)
            try:
                mine.add_my_boundary(folder)
            except Exception as exc:
                pytest.fail(f"add_my_boundary() raised: {where(exc)}")
            try:
                pack = load_safety_pack(folder)
            except SafetyPackError as exc:
                pytest.fail(f"after add_my_boundary() the copy does not start: {exc}")
            verdict = {r.boundary_id: r for r in _checked(mine, pack).results}
    finally:
        if before is not None:
            os.environ[OVERRIDE_ENV] = before
    if {path.name: path.read_bytes() for path in PACK_DIR.iterdir()} != committed:
        pytest.fail("add_my_boundary() changed the committed data/packs/safety; write only the folder it is given")
    original = load_safety_pack().boundaries
    if pack.boundaries.get(mine.MY_BOUNDARY_ID) != mine.MY_BOUNDARY_TEXT:
        pytest.fail(f"the ratified copy has no boundary {mine.MY_BOUNDARY_ID!r} saying MY_BOUNDARY_TEXT")
    kept = {key: value for key, value in pack.boundaries.items() if key != mine.MY_BOUNDARY_ID}
    if kept != dict(original):
        pytest.fail("the copy's other boundaries must stay exactly as the pack declares them")
    result = verdict[mine.MY_BOUNDARY_ID]
    if not result.runtime_checkable or result.upheld is not True:
        pytest.fail(f"in the copy's verdict on the reference run your boundary is {result.upheld!r} "
                    f"({result.reason}); it must be checked at runtime and upheld")


def _checked(mine, pack):
    check = SafetyCheck()
    check.register(mine.MY_BOUNDARY_ID, mine.my_predicate)
    return check.check(context_of(reference()), pack)


def test_your_predicate_upholds_the_reference_run(mine):
    report = reference()
    judgement = judge(mine, report, "the reference run")
    if judgement.upheld is not True:
        pytest.fail(f"on the reference run my_predicate said {said(judgement)}; every selection there chooses "
                    "a proposal the run holds, so it must be upheld")
    ids = tuple(selection["selection_id"] for selection in report["selections"])
    evidence = tuple(judgement.evidence)
    if evidence != ids:
        if not evidence:
            problem = "it gives no evidence at all"
        elif set(evidence) - set(ids):
            problem = "some of its evidence is not a selection id"
        elif set(evidence) != set(ids):
            problem = "it leaves some selections out"
        else:
            problem = "it lists them in another order or more than once"
        pytest.fail(f"on the reference run my_predicate said upheld, but {problem}: its evidence must be the "
                    "id of every selection it checked, in the snapshot's order")


def _tampered(mine, change, what: str) -> None:
    report = reference()
    tampered = copy.deepcopy(report)
    selection_id = change(tampered)
    judgement = judge(mine, tampered, what)
    if judgement.upheld is not False or selection_id not in judgement.evidence:
        pytest.fail(f"on a snapshot where {what}, my_predicate said {said(judgement)} with evidence "
                    f"{list(judgement.evidence)[:2]}; it must say violated and give that selection's id, "
                    f"{selection_id[:16]}..., as evidence")


def test_your_predicate_finds_a_selection_no_proposal_names(mine):
    def change(snapshot):
        snapshot["selections"][2]["action_id"] = UNPROPOSED
        return snapshot["selections"][2]["selection_id"]

    short = UNPROPOSED.replace(" -> https://lab.example:443", " ")
    _tampered(mine, change, f"the third selection chooses {short!r}, which no proposal names")


def test_your_predicate_finds_a_selection_whose_proposal_is_gone(mine):
    def change(snapshot):
        chosen = snapshot["selections"][0]
        snapshot["proposals"] = [p for p in snapshot["proposals"] if p["action_id"] != chosen["action_id"]]
        return chosen["selection_id"]

    _tampered(mine, change, "the proposal the first selection chose was deleted")


def test_your_predicate_does_not_judge_without_its_evidence(mine):
    report = reference()
    for missing in ("selections", "proposals"):
        bare = {key: value for key, value in report.items() if key != missing}
        judgement = judge(mine, bare, f"a snapshot with no {missing} list")
        if judgement.upheld is not None:
            pytest.fail(f"on a snapshot with no {missing} list my_predicate said {said(judgement)}; with no "
                        "runtime evidence the honest answer is not_judged(reason), never upheld or violated")


def show(student) -> None:
    """Print the reference run's verdict under the pack with your boundary added (not ratified)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(student.MY_BOUNDARY_ID)):
        print(f"{SHOWN}: name your boundary first (MY_BOUNDARY_ID is {student.MY_BOUNDARY_ID!r})")
        return
    pack = load_safety_pack()
    extended = dataclasses.replace(pack, boundaries={**pack.boundaries,
                                                     student.MY_BOUNDARY_ID: student.MY_BOUNDARY_TEXT})
    verdict = _checked(student, extended)
    print(verdict.summary())
    for result in verdict.results:
        state = {True: "upheld", False: "VIOLATED", None: "not judged"}[result.upheld]
        print(f"  {result.boundary_id:36} {state:10} {len(result.evidence):2} evidence")


if __name__ == "__main__":  # python3 starter/lesson10_test.py: the reference run's verdict with your boundary
    show(load_lesson(10))
