"""`course attack`: the attack suite with the student's own parts in the harness's place.

Each test runs the command as a student would, against the worked solutions,
wrong solutions of lessons 8 and 9, a fresh starter, and a file that tries to
reach the judge, and reads its answer and its results file (the exercism
test-runner format, version 3).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from course import attack as attacking
from lab import attacks

ROOT = Path(__file__).resolve().parent.parent
STATUSES = {"pass", "fail", "error"}


def course_attack(tmp_path: Path, *numbers: str, target: str = "solution") -> tuple[subprocess.CompletedProcess, dict]:
    results = tmp_path / "results.json"
    environment = {**os.environ, "COURSE_TARGET": target, "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "course", "attack", *numbers, "--results", str(results)],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)
    return done, json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}


def well_formed(results: dict) -> None:
    """The exercism results format, version 3: a status, a message only on error, and each test's status and task."""
    assert results["version"] == 3 and results["status"] in STATUSES
    assert (results["message"] is not None) == (results["status"] == "error")
    for test in results["tests"]:
        assert set(test) >= {"name", "status", "message", "test_code", "task_id"}, test
        assert test["status"] in STATUSES and isinstance(test["task_id"], int)
        assert (test["message"] is None) == (test["status"] == "pass"), test


def test_with_the_worked_solutions_no_attack_gets_through(tmp_path):
    """With the worked solutions in place, course attack runs every row that lessons 8 and 9 stop with the student's part in the harness's place, and none gets through: exit 0, and a results file of passes, one per row, its task id the lesson."""
    done, results = course_attack(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {adapter.lesson: attacking.rows_for(adapter) for adapter in attacking.ADAPTERS}
    total = sum(len(chosen) for chosen in rows.values())
    assert done.stdout.splitlines()[-1].startswith(f"0 of {total} attacks got through your parts")
    well_formed(results)
    assert results["status"] == "pass" and len(results["tests"]) == total
    assert {test["task_id"] for test in results["tests"]} == set(rows)
    assert all(len(chosen) >= 5 for chosen in rows.values())


@pytest.mark.parametrize(("wrong", "through"), [
    ("lesson08_allows_everything", {"reply-05", "reply-06"}),
    pytest.param("lesson09_accepts_every_report", {"t-01", "f-01", "f-02", "f-07"}, marks=pytest.mark.whole),
    pytest.param("lesson09_trusts_the_seals_head", {"f-07"}, marks=pytest.mark.whole),
])
def test_a_wrong_solution_of_lesson_8_or_9_names_the_attacks_it_lets_through(tmp_path, wrong, through):
    """With a wrong solution of lesson 8 or 9 in place, course attack names each attack that gets through, exits 1, and fails exactly those rows in the results file."""
    lesson = wrong[6:8].lstrip("0")
    done, results = course_attack(tmp_path, lesson, target=f"solutions/wrong/{wrong}.diff")
    assert done.returncode == 1, done.stdout + done.stderr
    failed = {test["name"].split(": ")[1] for test in results["tests"] if test["status"] == "fail"}
    assert through <= failed, failed
    for name in failed:
        assert f" {name} " in done.stdout, name
    well_formed(results)
    assert results["status"] == "fail"
    assert all(test["message"].startswith("your part let it through: ") for test in results["tests"]
               if test["status"] == "fail")


def test_a_starter_not_written_yet_gets_one_line_per_lesson_and_an_error_result(tmp_path):
    """A fresh starter is not run against the suite: its lesson says why in one line (a TODO not written yet), exit 1, and the results file's status is error with that message."""
    done, results = course_attack(tmp_path, "9", target="pristine")
    assert done.returncode == 1
    assert "lesson 9 (starter/lesson09.py): not run: first_altered_event is not written yet" in done.stdout, done.stdout
    well_formed(results)
    assert results["status"] == "error" and "not written yet" in results["message"]


def test_the_students_part_cannot_reach_the_judge(tmp_path):
    """A file that empties the suite's judges and table and patches its verdicts, from inside its own functions, changes nothing in the judge's process: every row still runs and is judged, and what the file let through is named."""
    cheat = tmp_path / "lesson09.py"
    cheat.write_text(
        "def _reach():\n"
        "    try:\n"
        "        from lab import attacks, judging\n"
        "        judging.KINDS.clear()\n"
        "        attacks.ATTACKS = ()\n"
        "        judging.Verdict.__init__ = lambda self, *a: None\n"
        "    except Exception:\n"
        "        pass\n\n"
        "def first_altered_event(report):\n"
        "    _reach()\n"
        "    return None\n\n"
        "def matches_kept_head(report, head):\n"
        "    _reach()\n"
        "    return True\n", encoding="utf-8")
    done, results = course_attack(tmp_path, "9", target=str(cheat))
    assert done.returncode == 1, done.stdout + done.stderr
    assert len(results["tests"]) == len(attacking.rows_for(attacking.ADAPTERS[1]))
    assert {test["status"] for test in results["tests"]} == {"pass", "fail"}
    assert "f-01" in done.stdout


def test_a_lesson_with_no_part_gets_one_line_and_exit_2(tmp_path):
    """Asking for a lesson whose starter has no part to put in the harness's place is one line and exit 2."""
    done, _ = course_attack(tmp_path, "3")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("course: lesson 3's starter has no part") and done.stderr.count("\n") == 1


def test_every_adapter_names_what_its_lessons_starter_exposes():
    """Each adapter row names functions the lesson's worked solution defines, and kinds the suite has rows of for that lesson."""
    import ast

    for adapter in attacking.ADAPTERS:
        tree = ast.parse((ROOT / f"solutions/lesson{adapter.lesson:02d}.py").read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert set(adapter.names) <= defined, (adapter.lesson, set(adapter.names) - defined)
        assert {attack.kind for attack in attacking.rows_for(adapter)} == set(adapter.kinds)
        assert set(adapter.kinds) <= {attack.kind for attack in attacks.ATTACKS}


def test_the_students_gate_stands_in_the_door_and_prints_as_the_students():
    """course attack's lesson 8 harness puts the student's gate where the reference's stands, last among the guards, and print(door) names it as the student's part (attack.the_gate), never as the reference's gate.the_gate; lesson 9's harness keeps the reference's door."""
    from core.run import drive
    from core.run.recorder import named

    config = drive.load_configuration()
    run = drive.identify(config)
    harness = attacking.gate_in_place(attacking.Part(student=None))
    door = drive.door_of(config, run, door=harness.door)
    assert named(door.guards[-1]) == "attack.the_gate" and door.guards[-1].__module__ == "course.attack"
    assert "gate.the_gate" not in str(door) and "  12. attack.the_gate" in str(door).splitlines()
    reference = drive.door_of(config, run, door=attacking.chain_in_place(attacking.Part(student=None)).door)
    assert named(reference.guards[-1]) == "gate.the_gate"
