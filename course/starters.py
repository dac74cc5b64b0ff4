"""Both directions of a starter: the pristine starter fails, the worked solution passes."""

from __future__ import annotations

from pathlib import Path

from course.check import run_check
from course.manifest import Lesson


def direction_problems(lesson: Lesson, root: Path) -> list[str]:
    """What breaks the starter contract for ``lesson``; empty when both directions hold."""
    problems = []
    solution = run_check(lesson, root, target="solution")
    if not solution:
        problems.append(f"{lesson.starter_test} collected no checks")
    problems += [f"the solution fails {r.name}: {r.message}" for r in solution if not r.passed]
    starter = run_check(lesson, root, target="pristine")
    if starter and all(r.passed for r in starter):
        problems.append(f"the pristine {lesson.starter} already passes {lesson.starter_test}; "
                        "it must fail until the student's edit")
    problems += [f"{r.name} fails on the pristine starter without saying what is missing"
                 for r in starter if not r.passed and r.message == "failed without a message"]
    return problems
