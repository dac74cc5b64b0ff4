"""The `course` command: status, check N, watch N, hint N, reset N, verify, lint, attack.

Bad input gets one line on stderr and exit 2; a check that fails exits 1, and
a starter that cannot even be loaded gets one line naming its file and line.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import click

from course import manifest, progress
from course.check import CheckError, CheckResult, Checked, Running, check as check_lesson, start as start_check
from course.manifest import Lesson, ManifestError
from course.progress import ProgressError
from course.target import ENV, TargetError, target_path

# `hint`, `lint` and `verify` import what only they need when they run: `course check` is the
# student's loop, and it starts faster without Markdown rendering or the lint's checks loaded.
# The terminal printer (rich) loads on first use, and `course check` starts its child first.

ROOT = manifest.course_root()


class _Printer:
    """rich's Console, Table and Text, imported the first time a command prints with them."""

    @functools.cached_property
    def console(self):
        from rich.console import Console
        return Console(highlight=False, soft_wrap=False)

    def ready(self) -> None:
        """Import everything a check's table needs now (while something else runs), not when it prints."""
        self.console
        self.Table()
        self.Text("")

    def print(self, *args, **options) -> None:
        self.console.print(*args, **options)

    def Table(self, *args, **options):  # noqa: N802 (rich's own name)
        from rich.table import Table
        return Table(*args, **options)

    def Text(self, text: str):  # noqa: N802
        """Text from outside the course (a check's message quotes the student's values): never markup."""
        from rich.text import Text
        return Text(visible(text))


out = _Printer()


class CourseError(Exception):
    """Input the course cannot act on; reported as one line with exit 2."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Work through the course: see where you are, check your lesson, verify the artifacts."""


@cli.command()
def status() -> None:
    """Which parts of each lesson exist, and whether your starter passes its check."""
    table = out.Table(title="Course status",
                  caption="Nb: notebook. Sol: worked solution. Data: committed artifacts. ✓ exists, - not yet.")
    table.add_column("#", justify="right")
    table.add_column("Lesson", ratio=1, min_width=14)
    for column in ("Page", "Nb", "Starter", "Sol", "Data"):
        table.add_column(column, justify="center")
    table.add_column("Your check")
    done = progress.passed(ROOT)
    for lesson in manifest.load(ROOT):
        table.add_row(str(lesson.number), lesson.title, *_parts(lesson), _your_check(lesson, done))
    out.print(table)
    ready = [lesson.number for lesson in manifest.load(ROOT) if lesson.ready]
    finished = [n for n in ready if n in done]
    click.echo(f"Your progress: {len(finished)} of {len(ready)} ready lesson(s) passed"
               f"{' (' + ', '.join(map(str, finished)) + ')' if finished else ''}; saved in {progress.FILE}.")


def _parts(lesson: Lesson) -> list[str]:
    mark = lambda *paths: "✓" if all((ROOT / p).is_file() for p in paths) else "-"  # noqa: E731
    committed = sum((ROOT / a.path).is_file() for a in lesson.artifacts)
    artifacts = f"{committed}/{len(lesson.artifacts)}" if lesson.artifacts else "none"
    return [mark(lesson.page), mark(lesson.notebook), mark(lesson.starter, lesson.starter_test),
            mark(lesson.solution), artifacts]


def _your_check(lesson: Lesson, done: set[int]) -> str:
    if not lesson.ready:
        return "planned"
    try:
        _selected(lesson)
        checked = check_lesson(lesson, ROOT)
    except (CourseError, CheckError):
        return "does not run"
    if checked.problem:
        return "does not load"
    results = checked.results
    passed = sum(r.passed for r in results)
    if results and passed == len(results):
        return "passes" if lesson.number in done else "passes (not saved)"
    return f"{passed}/{len(results)} pass" + (" (passed before)" if lesson.number in done else "")


@cli.command()
@click.argument("number", type=int)
def check(number: int) -> None:
    """Run lesson NUMBER's completion test against your starter file."""
    if not _report(_ready(number)):
        sys.exit(1)


def _ready(number: int) -> Lesson:
    lesson = manifest.find(number, ROOT)
    if not lesson.ready or not (ROOT / lesson.starter_test).is_file():
        raise CourseError(f"lesson {number} is not built yet: {lesson.starter_test} does not exist")
    return lesson


def _selected(lesson: Lesson) -> Path:
    """The file the check will load, or a CourseError saying in one line why it cannot be read."""
    try:
        path = target_path(lesson.number, ROOT)
    except TargetError as exc:
        raise CourseError(str(exc)) from None
    if not path.is_file():
        raise CourseError(f"{ENV} selects {path}, which is not a Python file")
    return path


# Characters that are neither white space nor controls, yet render blank: a line padded with them
# would look like two, the second one written by the student's file.
BLANK_LOOKING = frozenset("\u115f\u1160\u2800\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
                          + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0xE0100, 0xE01F0))))


def visible(text: str) -> str:
    """``text`` as the screen shows what the check did not write: every character a terminal obeys, or
    draws blank, as an escape (records.printable, then white space but a lone space, fillers, private and
    unassigned characters), and a run of three or more spaces as escapes too."""
    from core.run.records import printable
    shown = "".join((f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
                    if c in BLANK_LOOKING or (unicodedata.category(c) in ("Zs", "Co", "Cn") and c != " ") else c
                    for c in printable(text))
    return re.sub(r" {3,}", lambda run: "\\x20" * len(run.group()), shown)


_plain = visible  # a line that quotes the student's text, as text: shown, never obeyed


STARTED: Running | None = None  # the check course/entry.py started early, until the check command takes it


def _started(lesson: Lesson) -> Running | None:
    global STARTED
    running, STARTED = STARTED, None
    return running if running is not None and running.lesson == lesson.number else None


def _report(lesson: Lesson) -> bool:
    """Check ``lesson`` and say what the student needs to read: one line, a table, or what to do next."""
    _selected(lesson)
    try:
        running = _started(lesson) or start_check(lesson, ROOT)
        out.ready()  # the printer loads while the check runs
        checked: Checked = running.result()
    except CheckError as exc:
        click.echo(_plain(str(exc)))
        return False
    if checked.problem:  # the file as a whole cannot be used: every check would say the same line
        click.echo(_plain(checked.problem))
        return False
    results = checked.results
    failed = [r for r in results if not r.passed]
    if len(results) > 1 and len(failed) == len(results) and len({r.message for r in failed}) == 1:
        click.echo(_plain(failed[0].message))  # one cause behind every failure: say it once
        return False
    if not results or failed:
        _table(lesson, results)
        out.print(f"{len(results) - len(failed)} of {len(results)} checks pass.")
        return False
    click.echo(f"All {len(results)} checks pass: lesson {lesson.number} is complete.")
    if os.environ.get(ENV, "starter") == "starter":
        progress.mark_passed(ROOT, lesson.number)
        click.echo(f"Saved in {progress.FILE}; `course status` shows your progress.")
    click.echo(_next_step(lesson))
    return True


def _table(lesson: Lesson, results: list[CheckResult]) -> None:
    # What to do next comes first: the pages show the table's end and the count as its last lines.
    if any(not r.passed for r in results):
        click.echo(f"Fix the first FAILED row below, then check again; `course hint {lesson.number}` gives a hint.")
    table = out.Table(title=f"Lesson {lesson.number}: {lesson.title} ({_checked_file(lesson)})")
    table.add_column("Check", ratio=2)
    table.add_column("Result", no_wrap=True)
    table.add_column("What is missing", ratio=3)
    for result in results:
        # A check's message quotes the student's values: text, never markup (records.printable).
        table.add_row(_readable(result.name), "passed" if result.passed else "FAILED",
                      out.Text(result.message))
    out.print(table)


def _next_step(lesson: Lesson) -> str:
    later = [l for l in manifest.load(ROOT) if l.number > lesson.number]
    if not later:
        return "Next: that was the last lesson. `make test` runs every check of the course."
    nxt = later[0]
    if nxt.ready:
        return f"Next: lesson {nxt.number}, {nxt.title}: read {nxt.page}, then run `course check {nxt.number}`."
    return f"Next: lesson {nxt.number}, {nxt.title}, is being written; meanwhile `make run` shows the whole harness."


@cli.command()
@click.argument("number", type=int)
@click.option("--interval", type=click.FloatRange(0.05, 60), default=0.2, show_default=True,
              help="Seconds between looks at the file.")
@click.option("--times", type=click.IntRange(1), default=None, hidden=True, help="Stop after this many checks (tests).")
def watch(number: int, interval: float, times: int | None) -> None:
    """Check lesson NUMBER now, then again each time your starter file changes (Ctrl-C stops)."""
    lesson = _ready(number)
    path = Path(os.environ.get(ENV, "")) if os.environ.get(ENV, "starter") not in ("starter", "solution", "pristine") \
        else ROOT / (lesson.solution if os.environ.get(ENV) == "solution" else lesson.starter)
    shown = lesson.starter if path == ROOT / lesson.starter else str(path)
    click.echo(f"Watching {shown} by looking at it every {interval:g} s (polling works on every file system); "
               "Ctrl-C stops.")
    checks = 0
    checked = _stamp(path)  # taken before the check, so an edit saved during a check is not missed
    try:
        while True:
            _report(lesson)
            checks += 1
            if times is not None and checks >= times:
                return
            missing_said = False
            while (now := _stamp(path)) == checked or now is None:
                if now is None and not missing_said:
                    click.echo(f"{shown} cannot be read right now; waiting for it to come back.")
                    missing_said = True
                time.sleep(interval)
            checked = now
            click.echo(f"{shown} changed: checking again.")
    except KeyboardInterrupt:
        click.echo("Stopped watching.")


def _stamp(path: Path) -> tuple | None:
    try:
        status = path.stat()
        return (status.st_mtime_ns, status.st_size, path.read_bytes())
    except OSError:
        return None


@cli.command()
@click.argument("number", type=int)
@click.argument("which", type=int, required=False)
def hint(number: int, which: int | None) -> None:
    """Show lesson NUMBER's next hint (or hint WHICH), one at a time, from the lesson page."""
    from rich.markdown import Markdown

    from course import hints as hints_module

    lesson = _ready(number)
    found = hints_module.hints((ROOT / lesson.page).read_text(encoding="utf-8"))
    if not found:
        raise CourseError(f"{lesson.page} has no hints")
    shown = progress.hints_shown(ROOT, number)
    if which is None:
        if shown >= len(found):
            click.echo(f"You have seen all {len(found)} hints for lesson {number}. The worked solution is "
                       f"{lesson.solution}: open it after your own attempt. `course hint {number} K` shows hint K again.")
            return
        which = shown + 1
    if not 1 <= which <= len(found):
        raise CourseError(f"lesson {number} has hints 1 to {len(found)}, not {which}")
    chosen = found[which - 1]
    out.print(f"[bold]{chosen.title}[/bold] ({which} of {len(found)})")
    out.print(Markdown(chosen.body))
    progress.set_hints_shown(ROOT, number, max(shown, which))
    if which < len(found):
        click.echo(f"Still stuck? `course hint {number}` again shows hint {which + 1}.")
    else:
        click.echo(f"That was the last hint. The worked solution is {lesson.solution}.")


@cli.command()
@click.argument("number", type=int)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def reset(number: int, yes: bool) -> None:
    """Put lesson NUMBER's starter back as committed, keeping a backup of your file."""
    lesson = _ready(number)
    path = ROOT / lesson.starter
    shown = subprocess.run(["git", "show", f"HEAD:{lesson.starter}"], cwd=ROOT, capture_output=True)
    if shown.returncode != 0:
        raise CourseError(f"cannot read the committed {lesson.starter} from git: "
                          f"{shown.stderr.decode(errors='replace').strip() or 'git failed'}")
    if path.is_file() and path.read_bytes() == shown.stdout:
        click.echo(f"{lesson.starter} is already as committed; nothing to do.")
        return
    if not yes and not click.confirm(f"Replace {lesson.starter} with the starter as committed? "
                                     f"Your file is kept in {progress.FOLDER}/backups/", default=False):
        click.echo("Nothing changed.")
        sys.exit(1)
    kept = progress.backup(ROOT, path) if path.is_file() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(shown.stdout)
    click.echo(f"{lesson.starter} is as committed again" +
               (f"; your file is kept as {kept.relative_to(ROOT).as_posix()}." if kept else "."))


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
    from course.verify import verify as verify_artifacts

    failures = 0
    for verdict in verify_artifacts(manifest.load(ROOT), ROOT):
        a = verdict.artifact
        out.print(f"{verdict.status:9} {a.path}")
        if verdict.status in ("differs", "failed"):
            failures += 1
            if verdict.detail:
                click.echo(verdict.detail.rstrip("\n"))  # a diff keeps its own lines: never re-wrapped
            out.print(f"          regenerate with: {a.command.format(out=a.path)}", markup=False)
    if failures:
        out.print(f"{failures} artifact(s) do not reproduce.")
        sys.exit(1)


@cli.command()
def lint() -> None:
    """Check every ready lesson against the lesson contract (its rules: CONTRIBUTING.md)."""
    from course import contract
    from course import lint as lint_module

    problems = lint_module.lint(ROOT)
    for problem in problems:
        out.print(problem, markup=False)
    ready = sum(lesson.ready for lesson in manifest.load(ROOT))
    out.print(f"{len(problems)} problem(s) in {ready} ready lesson(s).")
    if problems:
        out.print(f"The lesson contract's rules are stated in {contract.PAGE}.")
        sys.exit(1)


@cli.command()
@click.argument("numbers", type=int, nargs=-1)
@click.option("--results", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the results (exercism format, version 3); default .course/attack-results.json.")
def attack(numbers: tuple[int, ...], results: Path | None) -> None:
    """Run the attack suite with your own parts in the harness's place (lessons NUMBERS, or every one with a part)."""
    from course import attack as attacking

    known = {adapter.lesson: adapter for adapter in attacking.ADAPTERS}
    unknown = [number for number in numbers if number not in known]
    if unknown:
        raise CourseError(f"lesson {unknown[0]}'s starter has no part the attack suite can put in the harness's "
                          f"place (lessons with one: {', '.join(map(str, sorted(known)))})")
    runs = []
    for adapter in (known[number] for number in (numbers or sorted(known))):
        _selected(_ready(adapter.lesson))
        click.echo(f"Lesson {adapter.lesson}: the suite's rows its part stops, with {', '.join(adapter.names)} "
                   f"from {_checked_file(manifest.find(adapter.lesson, ROOT))} in the harness's place...")
        runs.append(attacking.run_lesson(adapter))
    table = out.Table(title="Attacks your parts let through", title_justify="left")
    for column in ("Lesson", "Attack", "What it tried", "Verdict"):
        table.add_column(column, overflow="fold", ratio=2 if column == "What it tried" else None)
    for run in runs:
        if run.problem:
            table.add_row(str(run.adapter.lesson), "-", out.Text(run.problem), "not run")
        for verdict in run.through:
            table.add_row(str(run.adapter.lesson), verdict.attack.name, out.Text(verdict.attack.tried),
                          out.Text(f"THROUGH: {verdict.evidence}"))
    through = sum(len(run.through) for run in runs)
    tried = sum(len(run.verdicts) for run in runs)
    if through or any(run.problem for run in runs):
        out.print(table)
    path = results or ROOT / attacking.RESULTS_FILE
    attacking.write_results(path, runs)
    for run in runs:
        state = f"not run: {run.problem}" if run.problem else f"{len(run.through)} of {len(run.verdicts)} through"
        out.print(out.Text(f"lesson {run.adapter.lesson} ({run.shown}): {state}"))
    shown = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    click.echo(f"{through} of {tried} attacks got through your parts; results in {shown}.")
    if through or any(run.problem for run in runs):
        sys.exit(1)


def main(argv: list[str] | None = None, started: Running | None = None) -> None:
    """Entry point: turn every input error into one line and exit 2.

    ``started`` is the check course/entry.py started for `course check N`
    before this module loaded; the check command takes it instead of starting one.
    """
    global STARTED
    STARTED = started
    try:
        cli.main(args=argv, prog_name="course", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else "usage: course status|check N|verify|lint")
    except click.UsageError as exc:
        _die(exc.format_message())
    except (CourseError, ManifestError, ProgressError) as exc:
        _die(str(exc))
    except click.exceptions.Abort:
        _die("aborted")
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)


def _die(message: str) -> None:
    click.echo(f"course: {' '.join(message.split())}", err=True)
    sys.exit(2)
