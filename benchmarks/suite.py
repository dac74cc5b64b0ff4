"""How long the course's own checks take: `make test` and `make test-fast`, each run once, as whole commands.

    python3 -m benchmarks.suite                 # both, once each (about six minutes here)

Each is measured against its goal (six minutes and one minute, on this 2-core
machine with the virtual environment built) and `make test` also against the
figure before the suite was split across processes: 547 s for 1,731 tests,
measured on this machine when the goal was set. A suite that fails
stops the benchmark: the time of a red run says nothing. One run each, not five:
each is minutes long, and its spread would cost half an hour to show.
"""

from __future__ import annotations

import argparse
import subprocess
import time

from benchmarks.measure import REPO, Row, print_table

GOALS = {"test": 360.0, "test-fast": 60.0}  # seconds
BEFORE = 547.0  # seconds: make test before it ran in two processes (1,731 tests)


def timed_make(target: str) -> float:
    """Wall seconds of ``make -s TARGET`` in the repository; a failing run raises SystemExit naming it."""
    start = time.perf_counter()
    finished = subprocess.run(["make", "-s", target], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
    seconds = time.perf_counter() - start
    if finished.returncode != 0:
        said = finished.stderr.strip().splitlines()
        raise SystemExit(f"suite: make {target} failed (exit {finished.returncode}), so its time is not a figure"
                         f"{': ' + said[-1] if said else ''}")
    return seconds


def rows() -> list[Row]:
    seconds = {target: timed_make(target) for target in GOALS}
    return [Row("make test (whole command, once)", f"the {GOALS['test']:.0f} s goal", [seconds["test"]],
                [GOALS["test"]], "run"),
            Row("make test (whole command, once)", f"before: {BEFORE:.0f} s for 1,731 tests in one process",
                [seconds["test"]], [BEFORE], "run"),
            Row("make test-fast (whole command, once)", f"the {GOALS['test-fast']:.0f} s goal",
                [seconds["test-fast"]], [GOALS["test-fast"]], "run")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.suite", description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    print_table(rows(), 1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
