"""A student's loop: `course check N` and `python3 -m pytest starter/lessonNN_test.py -q`, as whole commands.

    python3 -m benchmarks.student_loop                # lessons 1 and 2, 5 rounds

`course check N` is measured against the issue's goal of 0.5 s (below 1.0x is
under it). The student's own pytest run, which starter/pytest.ini keeps free of
plugins, is measured against the same run with the repository's configuration
(`-c pyproject.toml`), which loads every installed plugin and the root conftest.
"""

from __future__ import annotations

import argparse

from benchmarks.measure import Row, command, constant, print_table, side_by_side

GOAL = 0.5  # seconds: the goal issue 26 set


def rows(rounds: int, lessons: tuple[int, ...] = (1, 2)) -> list[Row]:
    """`course check N` for each of ``lessons`` (its fresh starter) against the goal; pytest on the last one."""
    test = f"starter/lesson{lessons[-1]:02d}_test.py"
    contenders = {f"check {lesson}": command("-m", "course", "check", str(lesson)) for lesson in lessons}
    seconds = side_by_side({
        **contenders,
        "goal": constant(GOAL),
        "pytest": command("-m", "pytest", test, "-q"),
        "pytest, every plugin": command("-m", "pytest", "-c", "pyproject.toml", "--rootdir", ".", test, "-q"),
    }, rounds)
    return [*(Row(f"course check {lesson} (whole command, the starter as committed)", f"the {GOAL} s goal",
                  seconds[f"check {lesson}"], seconds["goal"], "run") for lesson in lessons),
            Row(f"pytest {test} -q", "the same with every plugin loaded", seconds["pytest"],
                seconds["pytest, every plugin"], "run")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.student_loop", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lesson", type=int, action="append", help="a lesson to check (again for more; default 1 and 2)")
    args = parser.parse_args(argv)
    print_table(rows(args.rounds, tuple(args.lesson or (1, 2))), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
