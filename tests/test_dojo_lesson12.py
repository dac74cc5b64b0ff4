"""Lesson 12's exercise: the worked answer is the stand-in's rule, its check leaves AgentDojo alone, wrong answers fail."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from course.wrong import names_the_idea, wrong_solutions
from dojo.provenance import traces

from .conftest import REPO, run_course
from .test_wrong_solutions import failed_rows

LESSON = 12
CALLS = json.loads((REPO / "data" / "course" / "dojo-calls.json").read_text(encoding="utf-8"))["suites"]


@functools.cache
def worked():
    import importlib.util

    spec = importlib.util.spec_from_file_location("worked_lesson12", REPO / "solutions" / "lesson12.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_worked_answer_is_the_stand_ins_rule_on_every_question_of_agentdojos_calls():
    """The worked traces and the stand-in's rule (dojo/provenance.py:traces) agree on every value of AgentDojo's own ground-truth calls, against every request of its suite."""
    mine = worked().traces
    asked = 0
    for data in CALLS.values():
        for item in data["values"]:
            for request in data["requests"].values():
                assert mine(item["value"], [request], data["trusted"]) == traces(item["value"], [request],
                                                                                  data["trusted"]), item
                asked += 1
    assert asked > 4000


@given(st.text(max_size=12), st.lists(st.text(max_size=30), max_size=2), st.lists(st.text(max_size=12), max_size=2))
def test_the_worked_answer_is_the_stand_ins_rule_on_any_text(value, sources, trusted):
    """The worked traces and the stand-in's rule agree on any value, sources and trusted values Hypothesis draws."""
    assert worked().traces(value, sources, trusted) == traces(value, sources, trusted)


def test_the_check_reads_agentdojos_calls_from_the_committed_file_and_never_loads_agentdojo():
    """Lesson 12's check asks about AgentDojo's own calls from data/course/dojo-calls.json and never imports AgentDojo, a task, its ground truth or its injection."""
    script = ("import sys; sys.path.insert(0, 'starter'); import lesson12_test; "
              "print(sorted(name for name in sys.modules if name.split('.')[0] in ('agentdojo', 'dojo')))")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "['dojo', 'dojo.provenance']"


def test_the_calls_file_and_the_pairs_report_are_byte_identical_on_every_run(tmp_path):
    """`python -m dojo.calls` and `python -m dojo --pair` write data/course/dojo-calls.json and data/course/dojo-pair.json byte for byte as committed, under another hash seed, timezone and locale."""
    env = {**os.environ, "PYTHONHASHSEED": "12345", "TZ": "Pacific/Kiritimati", "LC_ALL": "C"}
    for args, name in ((["dojo.calls"], "dojo-calls.json"),
                       (["dojo", "--suite", "banking", "--pair", "user_task_3", "injection_task_4"], "dojo-pair.json")):
        done = subprocess.run([sys.executable, "-m", *args, "--out", str(tmp_path / name)], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / name).read_bytes() == (REPO / "data" / "course" / name).read_bytes(), name


@pytest.mark.whole
def test_every_wrong_answer_fails_course_check_naming_its_idea():
    """Each wrong answer in solutions/wrong/ fails `course check 12` with a row that names the idea it gets wrong, never a crash, on five seeds, and the worked solution passes every row."""
    found = wrong_solutions(REPO, LESSON)
    assert len(found) >= 6
    for seed in ("1", "2", "3", "4", "5"):
        done = run_course(REPO, "check", str(LESSON), COURSE_TARGET="solution", COURSE_SEED=seed)
        assert done.returncode == 0, done.stdout
        for wrong in found:
            done = run_course(REPO, "check", str(LESSON), COURSE_TARGET=str(wrong.path), COURSE_SEED=seed,
                              COLUMNS="1000")
            rows = failed_rows(done.stdout)
            assert done.returncode == 1 and any(names_the_idea(row, wrong.words) for row in rows), (
                seed, wrong.path.name, rows)
