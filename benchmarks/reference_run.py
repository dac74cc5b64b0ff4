"""The reference run behind lesson 1, in process and over loopback HTTP, each as a whole command.

    python3 -m benchmarks.reference_run               # 5 rounds

Each round runs `python3 -m core.run.main --out FILE` once in process and
once with `--transport http` (the lab served by a real server on loopback), as a
student runs them: interpreter start-up, the run, sealing and writing the report.
Both reports must come out byte-identical to data/course/report.json.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.measure import REPO, Row, command, print_table, side_by_side

COMMITTED = REPO / "data" / "course" / "report.json"


def rows(rounds: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        local, remote = Path(folder) / "inprocess.json", Path(folder) / "http.json"
        seconds = side_by_side({
            "http": command("-m", "core.run.main", "--out", str(remote), "--transport", "http"),
            "inprocess": command("-m", "core.run.main", "--out", str(local)),
        }, rounds)
        for report in (local, remote):
            if not report.exists() or report.read_bytes() != COMMITTED.read_bytes():
                raise SystemExit(f"reference_run: {report.name} is not data/course/report.json byte for byte")
    return [Row("reference run over HTTP (whole command)", "the same in process", seconds["http"],
                seconds["inprocess"], "run")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.reference_run", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print_table(rows(args.rounds), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
