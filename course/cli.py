"""The `course` command: status, check N, verify, lint.

Bad input gets one line on stderr and exit 2; a check that fails exits 1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from course import lint as lint_module
from course import manifest
from course.check import run_check
from course.manifest import Lesson, ManifestError
from course.target import ENV
from course.verify import verify as verify_artifacts

ROOT = manifest.course_root()
out = Console(highlight=False, soft_wrap=False)


class CourseError(Exception):
    """Input the course cannot act on; reported as one line with exit 2."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Work through the course: see where you are, check your lesson, verify the artifacts."""


@cli.command()
def status() -> None:
    """Which parts of each lesson exist, and whether your starter passes its check."""
    table = Table(title="Course status",
                  caption="Nb: notebook. Sol: worked solution. Data: committed artifacts. ✓ exists, - not yet.")
    table.add_column("#", justify="right")
    table.add_column("Lesson", ratio=1, min_width=14)
    for column in ("Page", "Nb", "Starter", "Sol", "Data"):
        table.add_column(column, justify="center")
    table.add_column("Your check")
    for lesson in manifest.load(ROOT):
        table.add_row(str(lesson.number), lesson.title, *_parts(lesson), _your_check(lesson))
    out.print(table)


def _parts(lesson: Lesson) -> list[str]:
    mark = lambda *paths: "✓" if all((ROOT / p).is_file() for p in paths) else "-"  # noqa: E731
    committed = sum((ROOT / a.path).is_file() for a in lesson.artifacts)
    artifacts = f"{committed}/{len(lesson.artifacts)}" if lesson.artifacts else "none"
    return [mark(lesson.page), mark(lesson.notebook), mark(lesson.starter, lesson.starter_test),
            mark(lesson.solution), artifacts]


def _your_check(lesson: Lesson) -> str:
    if not lesson.ready:
        return "planned"
    results = run_check(lesson, ROOT)
    passed = sum(r.passed for r in results)
    return "passes" if results and passed == len(results) else f"{passed}/{len(results)} pass"


@cli.command()
@click.argument("number", type=int)
def check(number: int) -> None:
    """Run lesson NUMBER's completion test against your starter file."""
    lesson = manifest.find(number, ROOT)
    if not lesson.ready or not (ROOT / lesson.starter_test).is_file():
        raise CourseError(f"lesson {number} is not built yet: {lesson.starter_test} does not exist")
    results = run_check(lesson, ROOT)
    table = Table(title=f"Lesson {lesson.number}: {lesson.title} ({_checked_file(lesson)})")
    table.add_column("Check", ratio=2)
    table.add_column("Result", no_wrap=True)
    table.add_column("What is missing", ratio=3)
    for result in results:
        table.add_row(_readable(result.name), "passed" if result.passed else "FAILED", result.message)
    out.print(table)
    passed = sum(r.passed for r in results)
    out.print(f"{passed} of {len(results)} checks pass.")
    if not results or passed != len(results):
        sys.exit(1)


def _readable(test_name: str) -> str:
    """`test_door_refuses_x` reads as "door refuses x"."""
    return test_name.removeprefix("test_").replace("_", " ")


def _checked_file(lesson: Lesson) -> str:
    """The file the check loads, as the student would name it."""
    choice = os.environ.get(ENV, "starter")
    return {"starter": lesson.starter, "solution": lesson.solution, "pristine": f"{lesson.starter} as committed"}.get(choice, choice)


@cli.command()
def verify() -> None:
    """Regenerate every committed artifact and compare it byte for byte."""
    failures = 0
    for verdict in verify_artifacts(manifest.load(ROOT), ROOT):
        a = verdict.artifact
        out.print(f"{verdict.status:9} {a.path}")
        if verdict.status in ("differs", "failed"):
            failures += 1
            if verdict.detail:
                out.print(verdict.detail.rstrip("\n"), markup=False)
            out.print(f"          regenerate with: {a.command.format(out=a.path)}", markup=False)
    if failures:
        out.print(f"{failures} artifact(s) do not reproduce.")
        sys.exit(1)


@cli.command()
def lint() -> None:
    """Check every ready lesson against the lesson contract."""
    problems = lint_module.lint(ROOT)
    for problem in problems:
        out.print(problem, markup=False)
    ready = sum(lesson.ready for lesson in manifest.load(ROOT))
    out.print(f"{len(problems)} problem(s) in {ready} ready lesson(s).")
    if problems:
        sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    """Entry point: turn every input error into one line and exit 2."""
    try:
        cli.main(args=argv, prog_name="course", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else "usage: course status|check N|verify|lint")
    except click.UsageError as exc:
        _die(exc.format_message())
    except (CourseError, ManifestError) as exc:
        _die(str(exc))
    except click.exceptions.Abort:
        _die("aborted")
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)


def _die(message: str) -> None:
    click.echo(f"course: {' '.join(message.split())}", err=True)
    sys.exit(2)
