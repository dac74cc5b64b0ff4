"""Differential checks (course/differ.py): a failing row names its class and rule, shrinks, and replays by seed.

Each test writes a small student file, selects it with COURSE_TARGET, and
compares it with a rule over edge classes, as a lesson's completion test does.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from course.differ import UNCHANGED, Edge, Rule, compare
from course.student import Kept, Student, seed

RULE = "a status from 500 to 599 is a server error"


@pytest.fixture
def write(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_PROBLEM_FILE", raising=False)
    monkeypatch.setenv("COURSE_SEED", "4242")
    seed.cache_clear()  # the seed is read once per process: another test in this one may have drawn its own

    def make(source: str) -> Student:
        path = tmp_path / "lesson07.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        monkeypatch.setenv("COURSE_TARGET", str(path))
        return Student(7, names=("answer",))

    yield make
    seed.cache_clear()


def row(student: Student, edges, **options) -> str:
    with pytest.raises(pytest.fail.Exception) as caught:
        compare(student, "answer", edges, **options)
    return str(caught.value)


def server_error(question) -> Rule:
    return Rule(question >= 500, RULE)


STATUSES = Edge("every status from 100 to 599", fixed=lambda: [[status] for status in range(100, 600)])
OPTIONS = {"rule": server_error, "judged": lambda found: found, "shown": lambda question: f"status {question}",
           "arguments": lambda question: (question,)}


def test_a_file_that_agrees_on_every_class_passes(write):
    compare(write("def answer(status):\n    return status >= 500\n"), "answer", (STATUSES,), **OPTIONS)


def test_a_failing_row_names_the_class_the_rule_the_input_both_answers_and_the_seed(write):
    said = row(write("def answer(status):\n    return status in (500, 502, 503, 504)\n"), (STATUSES,), **OPTIONS)
    assert said == (f"every status from 100 to 599: {RULE}. For status 501, your answer gives False where the rule "
                    "gives True (COURSE_SEED=4242 course check 7 asks it again)")


def test_fixed_inputs_of_every_class_come_before_any_drawn_one(write):
    from hypothesis import strategies as st

    drawn_first = Edge("drawn", fixed=lambda: [[200]], drawn=lambda: st.lists(st.integers(100, 599), min_size=1))
    said = row(write("def answer(status):\n    return status >= 500 and status != 599\n"),
               (drawn_first, STATUSES), **OPTIONS)
    assert said.startswith("every status from 100 to 599:") and "For status 599," in said


def test_a_drawn_disagreement_is_shrunk_to_its_smallest_input(write):
    from hypothesis import strategies as st

    huge = Edge("huge numbers", fixed=lambda: [[0]], drawn=lambda: st.lists(st.integers(0, 10**9), min_size=1))
    said = row(write("def answer(n):\n    return n * 2 if n <= 1000 else 0\n"), (huge,),
               rule=lambda n: Rule(n * 2, "twice the number"), judged=lambda found: found,
               shown=lambda n: f"the number {n}", arguments=lambda n: (n,))
    assert "For the number 1001, your answer gives 0 where the rule gives 2002" in said


def test_a_file_that_remembers_earlier_calls_is_told_not_a_flaky_error(write):
    from hypothesis import strategies as st

    again = Edge("asked again", fixed=lambda: [[1]], drawn=lambda: st.lists(st.integers(0, 50), min_size=1))
    said = row(write("CALLS = []\ndef answer(n):\n    CALLS.append(n)\n    return n * 2 if len(CALLS) % 7 else -1\n"),
               (again,), rule=lambda n: Rule(n * 2, "twice the number"), judged=lambda found: found,
               shown=lambda n: f"the number {n}", arguments=lambda n: (n,))
    assert said.startswith("asked again: twice the number. For the number ")


def test_a_function_that_raises_is_answered_by_its_line_at_the_first_question(write):
    said = row(write("def answer(status):\n    raise NotImplementedError('TODO 1: write it')\n"), (STATUSES,),
               **OPTIONS)
    assert said == "answer is not written yet: TODO 1 in " + said.rsplit(" in ", 1)[1]


def test_echo_hands_back_each_argument_as_the_function_left_it(write):
    student = write("def answer(report):\n    report.pop('chain')\n    return len(report)\n")
    kept = student.call("answer", {"chain": "ab", "seq": 1}, echo=True)
    assert kept == Kept(1, [{"seq": 1}])


def test_an_argument_changed_by_the_call_fails_the_row_however_right_the_answer(write):
    edge = Edge("a report", fixed=lambda: [[{"chain": "ab", "seq": 1}]])
    said = row(write("def answer(report):\n    report.pop('chain')\n    return 1\n"), (edge,),
               rule=lambda report: Rule(1, "one"), judged=lambda found: found, shown=lambda report: "a report",
               arguments=lambda report: (report,), unchanged=True)
    assert said.startswith(f"a report: {UNCHANGED}. For a report, your answer gives \"its argument back with "
                           "[0]['chain'] gone\"")


def test_each_answered_question_is_noted_in_the_trace_and_a_refused_one_is_not(write, tmp_path, monkeypatch):
    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv("COURSE_TRACE", str(trace))
    compare(write("def answer(status):\n    return status >= 500\n"), "answer", (STATUSES,), **OPTIONS)
    lines = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 1 + 500 and {tuple(line.values()) for line in lines} == {(7, "answer",
                                                                                   "every status from 100 to 599")}
    trace.unlink()
    row(write("def answer(status):\n    raise ValueError('no')\n"), (STATUSES,), **OPTIONS)
    assert not trace.exists()
