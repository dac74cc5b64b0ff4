"""A student's loop: `course check N` and `python3 -m pytest starter/lessonNN_test.py -q`, as whole commands.

    python3 -m benchmarks.student_loop                # lessons 1 and 2, 5 rounds
    python3 -m benchmarks.student_loop --goals        # `course check N` against its goals, wall and CPU

`course check N` is measured against its goal of 0.5 s (below 1.0x is
under it), and so is `course watch N`'s answer to a save: the seconds from writing
the file to the last line of the check it makes. The student's own pytest run, which starter/pytest.ini keeps free of
plugins, is measured against the same run with the repository's configuration
(`-c pyproject.toml`), which loads every installed plugin and the root conftest.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.measure import REPO, Row, command, constant, print_table, side_by_side

GOAL = 0.5  # seconds: a check answers a save within half a second


def rows(rounds: int, lessons: tuple[int, ...] = (1, 2)) -> list[Row]:
    """`course check N` for each of ``lessons`` (its fresh starter) against the goal; `course watch` and pytest on
    the last one."""
    last = lessons[-1]
    test = f"starter/lesson{last:02d}_test.py"
    contenders = {f"check {lesson}": command("-m", "course", "check", str(lesson)) for lesson in lessons}
    with tempfile.TemporaryDirectory() as folder, Watcher(last, Path(folder)) as watcher:
        seconds = side_by_side({
            **contenders,
            "watch": watcher.save_and_wait,
            "goal": constant(GOAL),
            "pytest": command("-m", "pytest", test, "-q"),
            "pytest, every plugin": command("-m", "pytest", "-c", "pyproject.toml", "--rootdir", ".", test, "-q"),
        }, rounds)
    return [*(Row(f"course check {lesson} (whole command, the starter as committed)", f"the {GOAL} s goal",
                  seconds[f"check {lesson}"], seconds["goal"], "run") for lesson in lessons),
            Row(f"course watch {last}: a save to the end of its check's answer", f"the {GOAL} s goal",
                seconds["watch"], seconds["goal"], "save"),
            Row(f"pytest {test} -q", "the same with every plugin loaded", seconds["pytest"],
                seconds["pytest, every plugin"], "run")]


PASSING_GOAL = 2.0  # seconds: `course check N` on a file that passes, its every check run to the end
CHECKED = (1, 5, 7, 9, 11)  # the lessons whose checks ask every edge class (and lesson 1, the slowest)
TARGETS = (("pristine", "the fresh starter", GOAL), ("solution", "a file that passes (the worked answer)", PASSING_GOAL))


@dataclass(frozen=True)
class CheckTimes:
    """`course check N` on one file, timed as a whole command in each round: wall and CPU seconds against a goal.

    CPU is the command's and every process it waited for (its check's
    interpreter, the student's child): on a machine shared with other work
    the wall time grows with the load, the CPU time much less.
    """

    lesson: int
    target: str  # COURSE_TARGET: pristine or solution
    file: str
    goal: float
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "course", "check", str(self.lesson)], cwd=REPO, check=False,
                       env={**os.environ, "COURSE_TARGET": self.target}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.wall.append(wall)
        self.cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return wall


@dataclass(frozen=True)
class CheckGoals:
    """Every lesson's `course check` on each target, timed side by side, and the load average around them."""

    times: list[CheckTimes]
    rounds: int
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]


def check_goals(rounds: int, lessons: tuple[int, ...] = CHECKED) -> CheckGoals:
    """`course check N` on the fresh starter (0.5 s goal) and on the worked answer (2 s goal), side by side."""
    times = [CheckTimes(n, target, file, goal) for n in lessons for target, file, goal in TARGETS]
    load = os.getloadavg()
    side_by_side({f"{t.target} {t.lesson}": t for t in times}, rounds)
    for t in times:  # side_by_side's uncounted first round is in each list too
        del t.wall[0], t.cpu[0]
    return CheckGoals(times, rounds, load, os.getloadavg())


def check_rows(rounds: int, lessons: tuple[int, ...] = CHECKED, goals: CheckGoals | None = None) -> list[Row]:
    """`course check N` on the fresh starter against the 0.5 s goal, and on the worked answer against 2 s (wall)."""
    goals = goals or check_goals(rounds, lessons)
    return [Row(f"course check {t.lesson} on {t.file}", f"the {t.goal:g} s goal", t.wall, [t.goal] * len(t.wall),
                "run") for t in goals.times]


def goals_table(goals: CheckGoals) -> Table:
    """One row per lesson and file: the goal, the median wall and CPU seconds (lowest-highest), and whether the
    median wall time is within the goal."""
    grid = Table(title=f"course check against its goals, {goals.rounds} rounds each, whole commands; load average "
                       f"{goals.load_before[0]:.2f} before, {goals.load_after[0]:.2f} after", title_justify="left")
    for column, justify in (("lesson", "right"), ("file checked", "left"), ("goal", "right"), ("wall (median)", "right"),
                            ("wall spread", "right"), ("CPU (median)", "right"), ("CPU spread", "right"),
                            ("within the goal", "left")):
        grid.add_column(column, justify=justify)
    for t in goals.times:
        wall, cpu = statistics.median(t.wall), statistics.median(t.cpu)
        grid.add_row(str(t.lesson), t.file, f"{t.goal:g} s", f"{wall:.2f} s", f"{min(t.wall):.2f}-{max(t.wall):.2f}",
                     f"{cpu:.2f} s", f"{min(t.cpu):.2f}-{max(t.cpu):.2f}",
                     "yes" if wall <= t.goal else f"no: {wall / t.goal:.2f}x the goal")
    return grid


def print_goals(goals: CheckGoals) -> None:
    Console(width=160, highlight=False).print(goals_table(goals))


class Watcher:
    """`course watch N` over a copy of the lesson's starter (COURSE_TARGET), its answers read as they come."""

    def __init__(self, lesson: int, folder: Path) -> None:
        self.copy = folder / f"lesson{lesson:02d}.py"
        self.source = (REPO / "starter" / f"lesson{lesson:02d}.py").read_text(encoding="utf-8")
        self.copy.write_text(self.source, encoding="utf-8")
        self.saves = 0
        self.process = subprocess.Popen([sys.executable, "-m", "course", "watch", str(lesson)], cwd=REPO,
                                        env={**os.environ, "COURSE_TARGET": str(self.copy), "COLUMNS": "200"},
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._answer()  # the check it makes when it starts

    def save_and_wait(self) -> float:
        """Save the copy (a new comment at its end) and return the seconds until the check's last line."""
        self.saves += 1
        start = time.perf_counter()
        self.copy.write_text(f"{self.source}\n# save {self.saves}\n", encoding="utf-8")
        self._answer()
        return time.perf_counter() - start

    def _answer(self) -> None:
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("student_loop: course watch ended before it answered")
            if line.rstrip().endswith("checks pass.") or "lesson" in line and "is complete" in line:
                return

    def __enter__(self) -> Watcher:
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.communicate(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.student_loop", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lesson", type=int, action="append", help="a lesson to check (again for more; default 1 and 2)")
    parser.add_argument("--goals", action="store_true",
                        help=f"only `course check N` against its goals, wall and CPU (default lessons {CHECKED})")
    args = parser.parse_args(argv)
    if args.goals:
        print_goals(check_goals(args.rounds, tuple(args.lesson or CHECKED)))
        return 0
    print_table(rows(args.rounds, tuple(args.lesson or (1, 2))), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
