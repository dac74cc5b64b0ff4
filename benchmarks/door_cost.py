"""What one event costs the door, per kind, as the run it guards grows.

    python3 -m benchmarks.door_cost                  # 10^3, 10^4 and 10^5 records held
    python3 -m benchmarks.door_cost --sizes 1000 --batch 100

The final door (every row and guard) is filled with N records of every kind,
then a batch of new records of each kind is timed, and a batch of a mixed
run's events. A door whose questions cost more as the run grows would show
it here: the figure at 10^5 would be far above the one at 10^3. The stage and
selection guards are left out of this door, so that records of any kind can
be added in any order; they cost the same at any size (a table lookup and a
comparison). Every proposal is carried out after it is made: selection ranks
the proposals still open, so its cost follows the open set, which a real run
keeps small, and not the history, which is what this measures. The figures are wall-clock and machine-dependent: they compare
sizes on one machine, never anything in an artifact.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from core.run.doors import final_door
from core.run.gate import Gating
from core.run.policy import Policy
from core.run.recorder import Recorder
from core.run.records import make_run

POLICY = {
    "reference": "benchmark",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "probe_reflection", "activity": "probe.active_light", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
    ],
    "max_actions": 10**7,
    "max_model_calls": 10**7,
}
GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10**7}, "fail_open_classes": []}
KINDS = ("observation", "action", "capture", "outcome", "finding", "review", "model_call", "proposal",
         "selection", "feedback", "verdict")


class Bench:
    """A final door without its stage and selection guards, and a counter for fresh names."""

    def __init__(self) -> None:
        policy = Policy.from_dict(POLICY)
        door = final_door(make_run(policy.snapshot(), {"world": "bench"}), policy, Gating.from_dict(GATING))
        guards = [guard for guard in door.guards if guard.__name__ not in ("in_its_stage", "is_the_selection")]
        self.door = Recorder(door.run, door.policy, door.kinds.values(), guards, **door.parts)
        self.run_id = self.door.run.run_id
        self.counter = itertools.count()
        self.asked = 0  # events written: each question to the door writes exactly one
        self.call = self.ask("model_call", prompt_digest="0" * 64, capture_ids=[])
        self.page = self.act()

    def ask(self, kind: str, **fields) -> str:
        answer = self.door.record(kind, {"run_id": self.run_id, **fields})
        self.asked += 1
        assert answer["recorded"], (kind, answer)
        return answer["id"]

    def act(self) -> dict:
        """A fresh passive act with its capture and settled outcome: the ids later records cite."""
        n = next(self.counter)
        action = self.ask("action", tool="inspect_headers", destination=f"https://lab.example/p{n}", arguments={})
        capture = self.ask("capture", action_id=action, status=200, body=f"HTTP/1.1 200 OK\n\n<p>page {n}</p>")
        self.ask("outcome", action_id=action, status="unresolved", detail="started")
        outcome = self.ask("outcome", action_id=action, status="succeeded", capture_id=capture)
        return {"action": action, "capture": capture, "outcome": outcome, "n": n}

    def one(self, kind: str) -> None:
        """Record one new record of ``kind`` (with whatever it must cite)."""
        n = next(self.counter)
        page = self.page
        if kind == "observation":
            self.ask(kind, field=f"f{n}", value=n, capture_id=page["capture"])
        elif kind == "action":  # settled at once: an unsettled act would make the gate's view stale
            action = self.ask(kind, tool="inspect_headers", destination=f"https://lab.example/a{n}", arguments={})
            self.ask("outcome", action_id=action, status="succeeded")
        elif kind == "capture":
            self.ask(kind, action_id=page["action"], status=200, body=f"HTTP/1.1 200 OK\n\n{n}")
        elif kind == "outcome":
            action = self.ask("action", tool="inspect_headers", destination=f"https://lab.example/o{n}", arguments={})
            self.ask(kind, action_id=action, status="succeeded")
        elif kind == "finding":
            self.ask(kind, capture_id=page["capture"], quote=f"page {page['n']}", claim=f"claim {n}")
        elif kind == "review":
            finding = self.ask("finding", capture_id=page["capture"], quote="200 OK", claim=f"review {n}")
            self.ask(kind, subject_id=finding, decision="approved", reviewer="r", reason="seen")
        elif kind == "model_call":
            self.ask(kind, prompt_digest=f"{n:064x}", capture_ids=[page["capture"]])
        elif kind == "proposal":  # then carried out, so it does not stay open for every later selection
            self.ask(kind, model_call_id=self.call, tool="inspect_headers", destination=f"https://lab.example/q{n}",
                     arguments={}, why="bench")
            action = self.ask("action", tool="inspect_headers", destination=f"https://lab.example/q{n}", arguments={})
            self.ask("outcome", action_id=action, status="succeeded")
        elif kind == "selection":
            self.ask("proposal", model_call_id=self.call, tool="inspect_headers",
                     destination=f"https://lab.example/s{n}", arguments={}, why="bench")
            chosen = self.door.stored("selection", self.ask(kind)).action_id
            action = self.ask("action", tool="inspect_headers", destination=chosen.split(" -> ")[1], arguments={})
            self.ask("outcome", action_id=action, status="succeeded")
        elif kind == "feedback":
            self.ask(kind, outcome_id=self.act()["outcome"])
        elif kind == "verdict":
            finding = self.ask("finding", capture_id=page["capture"], quote="200 OK", claim=f"verdict {n}")
            self.ask(kind, finding_id=finding, expect="200 OK", confirming_capture_id="", control_capture_id="")


def fill(bench: Bench, size: int) -> None:
    """Hold ``size`` records, spread over every kind, as a long run would."""
    kinds = itertools.cycle(KINDS)
    while len(bench.door) < size:  # len(door) counts events; door.events would build every one anew
        bench.one(next(kinds))


def per_event(bench: Bench, kind: str, batch: int) -> float:
    """Microseconds per ledger event for ``batch`` new records of ``kind`` (with what they cite)."""
    before = len(bench.door)
    started = time.perf_counter()
    for _ in range(batch):
        bench.one(kind)
    elapsed = time.perf_counter() - started
    return elapsed / (len(bench.door) - before) * 1e6


def mixed_batch(bench: Bench, batch: int) -> float:
    """Microseconds per ledger event for a batch of every kind in turn, as a run mixes them."""
    before, started = len(bench.door), time.perf_counter()
    for kind in KINDS * max(1, batch // len(KINDS)):
        bench.one(kind)
    return (time.perf_counter() - started) / (len(bench.door) - before) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.door_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**3, 10**4, 10**5])
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    benches = {}
    for size in args.sizes:
        benches[size] = Bench()
        fill(benches[size], size)
    # Sizes take turns batch by batch, so a noisy moment on the machine lands on every size alike.
    runs = {(size, kind): [] for size in args.sizes for kind in (*KINDS, "mixed")}
    for _ in range(args.repeat):
        for kind in (*KINDS, "mixed"):
            for size, bench in benches.items():
                value = mixed_batch(bench, args.batch) if kind == "mixed" else per_event(bench, kind, args.batch)
                runs[(size, kind)].append(value)
    sizes = args.sizes
    print(f"microseconds per ledger event: median of {args.repeat} batches of {args.batch} records, sizes in turn")
    print(f"{'kind':<12}" + "".join(f"{f'{size:,} held':>14}" for size in sizes) + f"{'ratio':>9}")
    for kind in (*KINDS, "mixed"):
        row = [statistics.median(runs[(size, kind)]) for size in sizes]
        print(f"{kind:<12}" + "".join(f"{value:>14.1f}" for value in row) + f"{row[-1] / row[0]:>8.2f}x")
    return 0


def rows(rounds: int, sizes: tuple[int, ...] = (10**3, 10**4, 10**5), batch: int = 110) -> list:
    """For `make bench`: a mixed run's events with 10^4 and 10^5 records held, against 10^3 held."""
    from benchmarks.measure import Row, side_by_side

    def mixed(bench: Bench):
        def timed() -> float:
            before, started = len(bench.door), time.perf_counter()
            for kind in KINDS * (batch // len(KINDS) or 1):
                bench.one(kind)
            return (time.perf_counter() - started) / (len(bench.door) - before)
        return timed

    benches = {}
    for size in sizes:
        benches[size] = Bench()
        fill(benches[size], size)
    seconds = side_by_side({size: mixed(bench) for size, bench in benches.items()}, rounds)
    smallest = sizes[0]
    return [Row(f"final door, a mixed run's events with {size:,} held", f"with {smallest:,} held", seconds[size],
                seconds[smallest], "event") for size in sizes[1:]]


if __name__ == "__main__":
    raise SystemExit(main())
