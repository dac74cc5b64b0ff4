"""`make bench`: every benchmark in benchmarks/, one table of ratios.

    python3 -m benchmarks.bench                 # what `make bench` runs (about ten minutes)
    python3 -m benchmarks.bench --quick         # smaller sizes, 3 rounds, no test suite: to try it out

A second table shows `course check N` (lessons 1, 5, 7, 9 and 11, on the fresh starter
and on the worked answer) against its goals, 0.5 s and 2 s: wall and CPU seconds of
the same runs, and the load average before and after them.

Without --quick the table ends with the course's own test commands, run once each
(suite.py: `make test` against its six-minute goal and the figure before), and is followed
by lesson 12's AgentDojo table (agentdojo_pairs.py, when the agentdojo extra is installed).

Each row is a ratio of two things measured side by side in the same rounds (see
measure.py): below 1.0x the measured side is faster than what it is against.
"""

from __future__ import annotations

import argparse
import time

from benchmarks import (agentdojo_pairs, canon_speed, catalogue, door_cost, door_throughput, journal_cost, lab_pass,
                        reference_run, seal_verify, student_loop, suite)
from benchmarks.measure import Row, print_table


def all_rows(rounds: int, quick: bool, goals: student_loop.CheckGoals | None = None) -> list[Row]:
    """Every benchmark's rows; ``goals`` are `course check`'s times when they were taken already."""
    return [
        *canon_speed.rows(rounds, 2_000 if quick else 10_000),
        *seal_verify.rows(rounds, (1_000, 10_000) if quick else (10_000, 100_000)),
        *door_throughput.rows(rounds, (1_000, 10_000) if quick else (1_000, 10_000, 100_000)),
        *door_cost.rows(rounds, (1_000, 10_000) if quick else (1_000, 10_000, 100_000)),
        *catalogue.rows(rounds, (500, 5_000) if quick else (2_000, 20_000)),
        *reference_run.rows(rounds),
        *journal_cost.rows(rounds),
        *lab_pass.rows(rounds),
        *student_loop.rows(rounds),
        *student_loop.check_rows(rounds, goals=goals),
        *([] if quick else suite.rows()),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=None, help="rounds per row (default 5, or 3 with --quick)")
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer rounds")
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 5)
    start = time.perf_counter()
    goals = student_loop.check_goals(rounds)
    rows = all_rows(rounds, args.quick, goals)
    print_table(rows, rounds)
    student_loop.print_goals(goals)  # the same runs: wall and CPU seconds beside each goal, and the load
    if not args.quick:
        print("\n".join(agentdojo_pairs.lines()))
    print(f"({time.perf_counter() - start:.0f} s; wall-clock times on this machine, for comparing changes here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
