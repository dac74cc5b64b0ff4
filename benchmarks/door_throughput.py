"""How many records per second the door handles, admitted and refused.

    python3 -m benchmarks.door_throughput            # 10^3 and 10^5 events per workload
    python3 -m benchmarks.door_throughput --sizes 1000

Each workload runs against a fresh recorder so one workload's stores do not
slow the next.

`make bench` takes its rows from ``rows``: the cost per admitted event when the
door already holds 10^3, 10^4 and 10^5 records (1.0x against 10^3 is a cost that
does not grow with the run), and at 10^3 against digest() of the same payloads,
the least a door that names records by their digest must do. It uses only the
public door, ``Recorder(run, policy).record(kind, payload)``. Admitted work is dominated by canonical JSON and SHA-256 (every
content identifier is a digest); refusals stop early and cost less. The
numbers are wall-clock and machine-dependent: they are for comparing changes
on one machine, never for an artifact.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Iterator

from benchmarks.measure import Row, per_unit, side_by_side
from core.run.canon import digest
from core.run.demo_records import build_policy
from core.run.recorder import Recorder
from core.run.records import make_run

Workload = Callable[[Recorder, int], Iterator[tuple[str, object]]]


def admitted_observations(recorder: Recorder, count: int) -> Iterator[tuple[str, object]]:
    for index in range(count):
        yield "observation", {"run_id": recorder.run.run_id, "field": f"field-{index}", "value": index}


def admitted_captures(recorder: Recorder, count: int) -> Iterator[tuple[str, object]]:
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    action_id = recorder.record("action", action)["id"]
    for index in range(count):
        yield "capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": f"HTTP/1.1 200 OK\n\n{index}"}


def refused_by_policy(recorder: Recorder, count: int) -> Iterator[tuple[str, object]]:
    payload = {"run_id": recorder.run.run_id, "tool": "inspect_headers", "destination": "https://other.example/", "arguments": {}}
    for _ in range(count):
        yield "action", payload


def refused_as_malformed(recorder: Recorder, count: int) -> Iterator[tuple[str, object]]:
    payload = {"run_id": recorder.run.run_id}
    for _ in range(count):
        yield "outcome", payload


WORKLOADS: dict[str, tuple[str, Workload]] = {
    "observation (new field each time)": ("admitted", admitted_observations),
    "capture (new body each time)": ("admitted", admitted_captures),
    "action outside the origins": ("refused", refused_by_policy),
    "outcome missing action_id": ("refused", refused_as_malformed),
}


def measure(workload: Workload, expected: str, count: int) -> float:
    """Seconds to push ``count`` payloads through a fresh door; checks each answer."""
    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "benchmark"}), policy)
    payloads = list(workload(recorder, count))
    start = time.perf_counter()
    for kind, payload in payloads:
        answer = recorder.record(kind, payload)
        if answer["recorded"] != (expected == "admitted"):
            raise SystemExit(f"door_throughput: expected {expected}, got {answer}")
    return time.perf_counter() - start


def filled_door(held: int) -> Recorder:
    """A fresh door already holding ``held`` admitted observations."""
    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "benchmark"}), policy)
    for kind, payload in admitted_observations(recorder, held):
        recorder.record(kind, payload)
    return recorder


def more_observations(recorder: Recorder, held: int, count: int) -> Callable[[], object]:
    """Work for one round: ``count`` new admitted observations (new fields, so each is admitted)."""
    numbers = itertools.count(held)

    def work() -> None:
        for index in itertools.islice(numbers, count):
            answer = recorder.record("observation", {"run_id": recorder.run.run_id, "field": f"field-{index}",
                                                     "value": index})
            if not answer["recorded"]:
                raise SystemExit(f"door_throughput: an observation was refused: {answer}")
    return work


def rows(rounds: int, sizes: tuple[int, ...] = (1_000, 10_000, 100_000), per_round: int = 1_000) -> list[Row]:
    doors = {held: filled_door(held) for held in sizes}
    payloads = [{"run_id": doors[sizes[0]].run.run_id, "field": f"field-{index}", "value": index}
                for index in range(per_round)]
    contenders = {held: per_unit(more_observations(door, held, per_round), per_round) for held, door in doors.items()}
    contenders["digest"] = per_unit(lambda: [digest(payload) for payload in payloads], per_round)
    seconds = side_by_side(contenders, rounds)
    smallest = sizes[0]
    found = [Row(f"door, an observation with {smallest:,} held", "digest() of the payload", seconds[smallest],
                 seconds["digest"], "event")]
    for held in sizes[1:]:
        found.append(Row(f"door, an observation with {held:,} held", f"with {smallest:,} held", seconds[held],
                         seconds[smallest], "event"))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.door_throughput", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000], metavar="N")
    args = parser.parse_args(argv)
    print(f"{'workload':<36} {'answer':<9} {'events':>8} {'seconds':>9} {'records/s':>11}")
    for size in args.sizes:
        for name, (expected, workload) in WORKLOADS.items():
            seconds = measure(workload, expected, size)
            print(f"{name:<36} {expected:<9} {size:>8} {seconds:>9.3f} {size / seconds:>11,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
