"""Lesson 9 completion test: your first_altered_event, run on the tamper lab.

The tamper lab (data/course/tamper/, written by ``python3 -m core.run.demo_seal
--tamper NAME``) holds the finished report of lesson 9's demo and six altered
copies of it, each altered in a different way, so each has a different right
answer. The last test alters every event of the intact report in turn, so no
list of answers written in advance can pass it, and neither can a function
that always gives the same answer.
By default this checks starter/lesson09.py; `course check 9` shows each result.
"""

import ast
import copy
import json
from pathlib import Path

import pytest

from course.manifest import course_root
from course.student import Student
from course.target import load_lesson

LAB = Path("data") / "course" / "tamper"
# Each file of the lab, what was done to it, and the event the chain names (None: the chain holds).
EXPECTED = {
    "intact": ("nothing was altered", None),
    "flipped-byte": ("one bit of event 12's capture body was flipped", 12),
    "deleted-event": ("event 14 was deleted", 14),
    "swapped-events": ("events 16 and 17 were swapped", 16),
    "spliced-run": ("events 9 to the end were taken from a twin run", 9),
    "truncated": ("the last three of 43 events were cut off", 41),
    "resealed-section": ("the counts section was edited and the report resealed", None),
}
# Modules that would hand you the reference's chain instead of your own.
REFERENCE = ("core.run.seal", "core.run.report", "core.run.doors", "core.audit")


yours = Student(9, names=("first_altered_event",), in_process=True)


@pytest.fixture(scope="module")
def module():
    return yours.module  # one line when the file does not load or lacks first_altered_event


@pytest.fixture(scope="module")
def function(module):
    return module.first_altered_event


def lab_file(name: str) -> dict:
    path = course_root() / LAB / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        pytest.fail(f"the tamper lab's {LAB.as_posix()}/{name}.json cannot be read ({exc}); "
                    f"write it again with: python3 -m core.run.demo_seal --tamper {name} --out {path}")


def answer(function, report: dict, name: str):
    """What the student's function says of ``report`` (a copy: it may not change the file's data)."""
    return yours.call("first_altered_event", copy.deepcopy(report))


def said(value) -> str:
    return "None (nothing altered)" if value is None else f"event {value!r}"


def check_file(function, name: str) -> None:
    what, expected = EXPECTED[name]
    got = answer(function, lab_file(name), f"{name}.json")
    if got != expected:
        advice = ""
        if name == "intact" and got == 1:
            advice = ('; h_1 is SHA-256 of the canonical {"event": event 1 without its "chain" field, '
                      '"prev": h_0}, and h_0 of the canonical {"run_id": run.run_id}')
        elif name == "intact" and isinstance(got, int):
            advice = f"; the links up to event {got - 1} hold, so check how the walk carries prev to the next event"
        pytest.fail(f"{name}.json ({what}): your function says {said(got)}; the chain names {said(expected)}"
                    + advice)


def test_your_function_recomputes_the_chain_itself(module, function):
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        leaning = [name for name in names if name.startswith(REFERENCE)]
        if leaning:
            pytest.fail(f"{yours.shown}, line {node.lineno} imports {leaning[0]}: recompute the chain "
                        "yourself, with hashlib and canonical_bytes")
    for name, value in vars(module).items():
        if str(getattr(value, "__module__", "") or getattr(value, "__name__", "")).startswith(REFERENCE):
            pytest.fail(f"{yours.shown} holds {name} from {REFERENCE[0]}'s family: recompute the chain yourself")


def test_an_intact_report_has_no_altered_event(function):
    check_file(function, "intact")


def test_a_flipped_byte_is_named_at_its_event(function):
    check_file(function, "flipped-byte")


def test_a_deleted_event_is_named_where_it_is_missing(function):
    check_file(function, "deleted-event")


def test_swapped_events_are_named_at_the_first_of_the_two(function):
    check_file(function, "swapped-events")


def test_a_splice_from_another_run_is_named_where_it_starts(function):
    check_file(function, "spliced-run")


def test_a_truncated_ledger_is_named_at_its_first_missing_event(function):
    check_file(function, "truncated")


def test_a_resealed_report_passes_the_chain(function):
    check_file(function, "resealed-section")


def test_every_event_of_the_report_can_be_named(function):
    intact = lab_file("intact")
    count = len(intact["events"])
    for seq in range(1, count + 1):
        edited = copy.deepcopy(intact)
        kind = edited["events"][seq - 1]["kind"]
        edited["events"][seq - 1]["kind"] = kind[0].swapcase() + kind[1:]
        got = answer(function, edited, f"intact.json with event {seq} edited")
        if got != seq:
            pytest.fail(f"intact.json with the kind of event {seq} edited ({kind!r} became "
                        f"{edited['events'][seq - 1]['kind']!r}): your function says {said(got)}; "
                        f"the chain names event {seq}")
        dropped = copy.deepcopy(intact)
        del dropped["events"][seq - 1]
        got = answer(function, dropped, f"intact.json without event {seq}")
        if got != seq:
            pytest.fail(f"intact.json with event {seq} of {count} deleted: your function says {said(got)}; "
                        f"the chain names event {seq}")


def tell(function, report: dict) -> str:
    """What ``function`` says of ``report``, as a few words; its error as one line."""
    try:
        return said(function(copy.deepcopy(report)))
    except Exception as exc:
        return f"raised {type(exc).__name__}"


def shorter_seal() -> dict:
    """The page's prediction: intact.json with nothing changed but the seal's count, 41 made 40."""
    report = lab_file("intact")
    report["seal"]["events"] -= 1
    return report


if __name__ == "__main__":  # python3 starter/lesson09_test.py: what your function says of each file
    from core.run.seal import verify_chain  # the reference, to compare with (never in your file)

    mine = load_lesson(9).first_altered_event
    for name, (what, expected) in EXPECTED.items():
        print(f"{name + '.json':22} yours: {tell(mine, lab_file(name)):27} ({what})")
    print("\nThe prediction: intact.json with its seal's event count made 40")
    print(f"  yours:  {tell(mine, shorter_seal())}")
    print(f"  verify: {verify_chain(shorter_seal()).message}")
