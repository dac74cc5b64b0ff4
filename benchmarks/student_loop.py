"""A student's loop: `course check N` and `python3 -m pytest starter/lessonNN_test.py -q`, as whole commands.

    python3 -m benchmarks.student_loop                # lessons 1 and 2, 5 rounds

`course check N` is measured against its goal of 0.5 s (below 1.0x is
under it), and so is `course watch N`'s answer to a save: the seconds from writing
the file to the last line of the check it makes. The student's own pytest run, which starter/pytest.ini keeps free of
plugins, is measured against the same run with the repository's configuration
(`-c pyproject.toml`), which loads every installed plugin and the root conftest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def checked(lesson: int, target: str):
    """A contender: `course check N` on ``target`` (starter, solution), as a whole command."""
    def timed() -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "course", "check", str(lesson)], cwd=REPO, check=False,
                       env={**os.environ, "COURSE_TARGET": target}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - start
    return timed


def check_rows(rounds: int, lessons: tuple[int, ...] = CHECKED) -> list[Row]:
    """`course check N` on the fresh starter against the 0.5 s goal, and on the worked answer against 2 s."""
    seconds = side_by_side({**{f"fresh {n}": checked(n, "pristine") for n in lessons},
                            **{f"passing {n}": checked(n, "solution") for n in lessons},
                            "goal": constant(GOAL), "passing goal": constant(PASSING_GOAL)}, rounds)
    return [row for n in lessons for row in (
        Row(f"course check {n} on the fresh starter", f"the {GOAL} s goal", seconds[f"fresh {n}"], seconds["goal"],
            "run"),
        Row(f"course check {n} on a file that passes (the worked answer)", f"the {PASSING_GOAL:g} s goal",
            seconds[f"passing {n}"], seconds["passing goal"], "run"))]


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
    args = parser.parse_args(argv)
    print_table(rows(args.rounds, tuple(args.lesson or (1, 2))), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
