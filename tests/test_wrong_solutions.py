"""Wrong work fails (rule 16): each wrong solution fails `course check N` with a row naming its idea, never a crash.

Every lesson held to rules 15 to 19 (``contract = 2`` in the manifest) has
plausible wrong answers under solutions/wrong/, each declaring in its docstring
the words its failing row must contain (course/wrong.py). Each is run as the
student's file through the real command, as a student would run it.
"""

from __future__ import annotations

import pytest

from course import manifest
from course.wrong import is_crash, names_the_idea, wrong_solutions

from .conftest import REPO, run_course

pytestmark = pytest.mark.whole  # make test runs it; make test-fast leaves it out

HELD = [lesson for lesson in manifest.load(REPO) if lesson.ready and lesson.contract >= 2]
CASES = [wrong for lesson in HELD for wrong in wrong_solutions(REPO, lesson.number)]


def failed_rows(stdout: str) -> list[str]:
    """The message of each FAILED row of `course check`'s table, or its one line when it printed only that."""
    rows = [line.split("│") for line in stdout.splitlines() if line.startswith("│")]
    failed = [" ".join(cells[3].split()) for cells in rows if len(cells) >= 5 and cells[2].strip() == "FAILED"]
    lines = stdout.strip().splitlines()
    return failed or (lines[:1] if len(lines) == 1 else [])


@pytest.mark.parametrize("wrong", CASES, ids=lambda wrong: wrong.path.stem)
def test_each_wrong_solution_fails_its_check_with_a_row_that_names_the_idea(wrong):
    done = run_course(REPO, "check", str(wrong.lesson), COURSE_TARGET=str(wrong.path), COLUMNS="1000")
    assert done.returncode == 1, f"course check {wrong.lesson} passed {wrong.path.name}:\n{done.stdout}"
    rows = failed_rows(done.stdout)
    assert rows, f"no failing row in:\n{done.stdout}{done.stderr}"
    naming = [row for row in rows if names_the_idea(row, wrong.words)]
    assert naming, f"no failing row says {wrong.words!r}; the rows say:\n" + "\n".join(rows)
    assert [row for row in naming if not is_crash(row)], f"only crash rows say {wrong.words!r}:\n" + "\n".join(naming)


def test_every_lesson_held_to_the_rules_has_wrong_solutions():
    assert HELD, "no lesson is held to rules 15 to 19 yet"
    for lesson in HELD:
        assert len(wrong_solutions(REPO, lesson.number)) >= 6, lesson.number


@pytest.mark.parametrize("message, crash", [
    ("read_has_meta raised: starter/lesson04.py, line 3: KeyError: 'body'", True),
    ("read_has_meta is not written yet: TODO 1 in starter/lesson04.py", True),
    ("starter/lesson04.py, line 3: SyntaxError: invalid syntax", True),
    ("/tmp/x.py: AttributeError: the file defines no 'read_has_meta'", True),
    ("read_has_meta ended the check's process (exit code 0) instead of returning", True),
    ("read_has_meta did not return within 10 s, so the check stopped it (an endless loop?)", True),
    ("read_has_meta returned True for a page whose only generator tag is inside an HTML comment", False),
    ("read_has_meta reached past the exercise: core.run.observe is unavailable while the check runs", False),
])
def test_a_crash_row_is_told_from_a_row_that_names_an_idea(message, crash):
    assert is_crash(message) is crash
