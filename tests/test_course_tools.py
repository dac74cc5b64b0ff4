"""The course tools catch every broken promise: each test breaks one on the fixture course."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course import lint, manifest
from course.starters import direction_problems

from .conftest import FIXTURE_SENTENCE, run_course


def problems(root: Path) -> list[str]:
    return lint.lint(root)


def test_lint_accepts_the_complete_fixture(fixture_course):
    assert problems(fixture_course) == []
    done = run_course(fixture_course, "lint")
    assert done.returncode == 0, done.stdout + done.stderr


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture has no {old!r} to replace"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_lint_reports_a_missing_section(fixture_course):
    edit(fixture_course, "lessons/01-fixture.md", "## Break it\n", "")
    assert any("lacks the section(s) 'Break it'" in p for p in problems(fixture_course))
    done = run_course(fixture_course, "lint")
    assert done.returncode == 1 and "Break it" in done.stdout


def test_lint_reports_sections_out_of_order(fixture_course):
    edit(fixture_course, "lessons/01-fixture.md", "## Run it", "## Run it later")
    edit(fixture_course, "lessons/01-fixture.md", "## Continue", "## Run it\n\nx\n\n## Continue")
    assert any("the contract's order" in p for p in problems(fixture_course))


def test_lint_reports_an_unresolved_reference(fixture_course):
    edit(fixture_course, "lessons/01-fixture.md", "`core/greet.py:greet`", "`core/greet.py:farewell`")
    assert any("`core/greet.py:farewell`, which resolves to no definition" in p for p in problems(fixture_course))


def test_lint_reports_a_bullet_without_its_test(fixture_course):
    edit(fixture_course, "lessons/01-fixture.md", f"- {FIXTURE_SENTENCE}", f"- {FIXTURE_SENTENCE}\n- Nobody tests this.")
    assert any("'Nobody tests this.' is the docstring of 0 tests" in p for p in problems(fixture_course))


def test_lint_reports_a_test_without_its_bullet(fixture_course):
    with open(fixture_course / "tests/test_fixture.py", "a", encoding="utf-8") as f:
        f.write('\n\ndef test_unlisted():\n    """A claim the page never makes."""\n    assert 1 + 1 == 2\n')
    assert any("test_fixture.py::test_unlisted has no bullet" in p for p in problems(fixture_course))


def test_lint_reports_an_unexecuted_notebook_cell(fixture_course):
    path = fixture_course / "notebooks/lesson01.ipynb"
    notebook = json.loads(path.read_text())
    notebook["cells"][1]["execution_count"] = None
    path.write_text(json.dumps(notebook))
    assert any("not executed top to bottom" in p for p in problems(fixture_course))


@pytest.mark.parametrize("noise, what", [
    ("/home/student/course/data.json", "an absolute path"),
    ("2026-11-29T15:21:39", "a timestamp"),
    ("<object at 0x7f3a2c1b9d00>", "a memory address"),
])
def test_lint_reports_noise_in_artifacts_and_notebook_outputs(fixture_course, noise, what):
    (fixture_course / "data/course/greeting.json").write_text(json.dumps({"greeting": noise}) + "\n")
    path = fixture_course / "notebooks/lesson01.ipynb"
    notebook = json.loads(path.read_text())
    notebook["cells"][0]["outputs"][0]["text"] = noise + "\n"
    path.write_text(json.dumps(notebook))
    found = problems(fixture_course)
    assert any("greeting.json: contains " + what in p for p in found), found
    assert any("code cell 1: contains " + what in p for p in found), found


def test_lint_reports_a_starter_without_its_solution(fixture_course):
    (fixture_course / "solutions/lesson01.py").unlink()
    assert problems(fixture_course) == ["lesson 1: solutions/lesson01.py is missing"]


def test_verify_passes_when_every_artifact_reproduces(fixture_course):
    done = run_course(fixture_course, "verify")
    assert done.returncode == 0, done.stdout
    assert "identical data/course/greeting.json" in " ".join(done.stdout.split())


def test_verify_fails_on_one_changed_byte_and_says_how_to_regenerate(fixture_course):
    path = fixture_course / "data/course/greeting.json"
    path.write_bytes(path.read_bytes().replace(b"hello", b"hellO"))
    done = run_course(fixture_course, "verify")
    assert done.returncode == 1
    assert "differs" in done.stdout and '-  "greeting": "hellO world"' in done.stdout
    assert "regenerate with: python3 make_greeting.py --out data/course/greeting.json" in done.stdout


def test_check_shows_each_failure_with_its_message_then_passes_on_the_solution(fixture_course):
    failing = run_course(fixture_course, "check", "1")
    assert failing.returncode == 1
    assert "FAILED" in failing.stdout and "write greet" in failing.stdout
    passing = run_course(fixture_course, "check", "1", COURSE_TARGET="solution")
    assert passing.returncode == 0, passing.stdout
    assert "1 of 1 checks pass." in passing.stdout


def test_starter_switch_holds_on_the_fixture(fixture_course):
    lesson = manifest.find(1, fixture_course)
    assert direction_problems(lesson, fixture_course) == []


def test_starter_switch_catches_a_starter_that_already_passes(fixture_course):
    (fixture_course / "starter/lesson01.py").write_text("def greet(name):\n    return 'hello ' + name\n")
    lesson = manifest.find(1, fixture_course)
    assert any("already passes" in p for p in direction_problems(lesson, fixture_course))


def test_starter_switch_catches_a_solution_that_fails(fixture_course):
    (fixture_course / "solutions/lesson01.py").write_text("def greet(name):\n    return name\n")
    lesson = manifest.find(1, fixture_course)
    assert any("the solution fails" in p for p in direction_problems(lesson, fixture_course))


@pytest.mark.parametrize("args, says", [
    (["check", "42"], "there is no lesson 42"),
    (["check", "two"], "'two' is not a valid integer"),
    (["check"], "Missing argument 'NUMBER'"),
    (["frobnicate"], "No such command 'frobnicate'"),
])
def test_bad_input_gets_one_line_and_exit_2(args, says):
    done = run_course(Path(__file__).resolve().parent.parent, *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_broken_manifest_gets_one_line_and_exit_2(fixture_course):
    (fixture_course / "course/manifest.toml").write_text("[[lesson]]\nnumber = 1\n")
    done = run_course(fixture_course, "status")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "lacks or mistypes" in done.stderr
