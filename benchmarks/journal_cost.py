"""What writing the ledger ahead costs: the reference run with --journal, against the same run without.

    python3 -m benchmarks.journal_cost               # 5 rounds

Each round runs `python3 -m core.run.main --out FILE` once with `--journal`
(every event appended, flushed and fsynced before the door answers) and once
without, as whole commands. Both reports must come out byte-identical to
data/course/report.json. The fsyncs are the cost, so the figure depends on
the disk the journal is on (here, the system's temporary folder).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.measure import REPO, Contender, Row, command, print_table, side_by_side

COMMITTED = REPO / "data" / "course" / "report.json"


def journaled(folder: Path, out: Path) -> Contender:
    """The run with a journal: a new journal file each time (an existing one is never overwritten)."""
    runs = iter(range(10**6))

    def timed() -> float:
        return command("-m", "core.run.main", "--out", str(out), "--journal", str(folder / f"{next(runs)}.jsonl"))()
    return timed


def rows(rounds: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        plain, kept = Path(folder) / "plain.json", Path(folder) / "journaled.json"
        seconds = side_by_side({
            "journal": journaled(Path(folder), kept),
            "plain": command("-m", "core.run.main", "--out", str(plain)),
        }, rounds)
        for report in (plain, kept):
            if not report.exists() or report.read_bytes() != COMMITTED.read_bytes():
                raise SystemExit(f"journal_cost: {report.name} is not data/course/report.json byte for byte")
    return [Row("reference run with --journal (whole command)", "the same without", seconds["journal"],
                seconds["plain"], "run")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.journal_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print_table(rows(args.rounds), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
