"""How a policy's catalogue check grows with the catalogue: Policy.from_dict, and verifying a report that lists it.

    python3 -m benchmarks.catalogue                  # 2,000 and 20,000 tools, five rounds

A catalogue is the operator's data, but a report carries it too, and anyone
can hand verify a report with a catalogue of any size. Building the policy
checks for duplicate ids and indexes the tools once; every request then looks
its tool up in that index. `make bench` takes its rows from ``rows``: the cost
per tool of ``Policy.from_dict`` at 20,000 tools against 2,000 (1.0x is linear
growth), and of verifying a resealed reference report whose catalogue was
padded to that size (refused at its run identifier, after the policy is built).
The numbers are wall-clock and machine-dependent, never an artifact.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks.measure import Row, per_unit, print_table, side_by_side
from core.run.rederive import DoorError, verify
from core.run.policy import Policy, reference_policy
from core.run.seal import reseal

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "course" / "report.json"


def catalogue(count: int) -> list[dict]:
    return [{"tool_id": f"tool{index:06d}", "activity": "recon.passive", "requires": {}, "family": "fam",
             "weight": 1.0, "cost": 1.0} for index in range(count)]


def padded_report(count: int) -> dict:
    report = json.loads(REFERENCE.read_text(encoding="utf-8"))
    report["policy"]["tools"] += catalogue(count)
    return reseal(report)


def verify_refused(report: dict) -> None:
    try:
        verify(report)
    except DoorError:
        return
    raise AssertionError("a padded catalogue must not verify")


def rows(rounds: int, sizes: tuple[int, int] = (2_000, 20_000)) -> list[Row]:
    small, large = sizes
    base = reference_policy().snapshot()
    policies = {size: {**base, "tools": catalogue(size)} for size in sizes}
    reports = {size: padded_report(size) for size in sizes}
    seconds = side_by_side({
        ("policy", small): per_unit(lambda: Policy.from_dict(policies[small]), small),
        ("policy", large): per_unit(lambda: Policy.from_dict(policies[large]), large),
        ("verify", small): per_unit(lambda: verify_refused(reports[small]), small),
        ("verify", large): per_unit(lambda: verify_refused(reports[large]), large),
    }, rounds)
    return [
        Row(f"Policy.from_dict, {large:,} tools", f"{small:,} tools", seconds[("policy", large)],
            seconds[("policy", small)], "tool"),
        Row(f"seal verify, a report listing {large:,} tools", f"{small:,} tools", seconds[("verify", large)],
            seconds[("verify", small)], "tool"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.catalogue", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print_table(rows(args.rounds), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
