"""How long verifying a seal takes: on a synthetic 100,000-event ledger, and on the reference report.

    python3 -m benchmarks.seal_verify                 # 100,000 events, five runs each
    python3 -m benchmarks.seal_verify --events 10000 --repeat 3

The synthetic ledger mixes the shapes a real run writes: admitted observations,
refused actions and stage moves, each with its payload. It is not a whole
report, so it is checked with ``verify_chain``, the part of ``seal verify`` whose
cost grows with the ledger: every event is encoded once and chained, then the
body and the head are digested. The reference report gets the whole of ``seal
verify`` (``verify_report``: the chain, then every section re-derived).

`make bench` takes its rows from ``rows``: verify_chain against a baseline that
does the same hashing with json.dumps and SHA-256 and checks nothing, at 10^4
and 10^5 events and on the reference report; the whole of ``seal verify`` on
the reference report against the same baseline, where most of the time is a
fresh door re-deciding every event (the replay lesson 9 teaches), and against
that door's own cost of recording the same events (``recorded``); the same as
whole commands (`python -m core.run.seal verify` against a script that loads
the report and runs the baseline), start-up and imports included; and the cost
per event at 10^5 against 10^4 (1.0x is linear growth). The numbers are wall-clock and machine-dependent: for comparing
changes on one machine, never for an artifact.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.measure import Row, command, per_unit, side_by_side
from core.run.canon import _key_bytes, digest
from core.run.rederive import redo
from core.run.rederive import verify as verify_report
from core.run.origins import _parsed
from core.run.seal import load_report, seal, verify_chain

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "course" / "report.json"
# The goals, as ratios in `make bench`: the chain against a json.dumps + SHA-256 chain that checks
# nothing, and the whole check against the door's own cost of recording the same events.
CHAIN_GOAL = 1.5
WHOLE_GOAL = 1.2
STAGES = ("observe", "propose", "select", "execute")


def synthetic_report(count: int) -> dict:
    """An unsealed report-shaped dict of ``count`` events: a third each of observations, refusals and moves."""
    run_id = digest({"benchmark": count})
    events = []
    for index in range(count):
        seq = index + 1
        if index % 3 == 0:
            payload = {"run_id": run_id, "field": f"field-{index}", "value": index}
            event = {"kind": "observation", "status": "admitted", "id": digest(payload), "reason": ""}
        elif index % 3 == 1:
            payload = {"run_id": run_id, "tool": "inspect_headers", "destination": f"https://other.example/{index}",
                       "arguments": {}}
            event = {"kind": "action", "status": "refused", "id": "",
                     "reason": "destination https://other.example:443 is outside the explicit authorized origins"}
        else:
            payload = {"to": STAGES[index % len(STAGES)]}
            event = {"kind": "transition", "status": "admitted", "id": f"select -> {payload['to']}", "reason": ""}
        events.append({"seq": seq, **event, "payload": payload})
    return {"run": {"run_id": run_id}, "events": events, "counts": {"events": count}}


# The baseline as a command of its own: a script that imports only json and hashlib (this module's
# json_chain, written out), so the whole-command row compares start-up as well as the work.
JSON_CHAIN_COMMAND = """
import hashlib, json, sys
def hashed(value):
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
with open(sys.argv[1], encoding="utf-8") as file:
    report = json.load(file)
head = hashed({"run_id": report["run"]["run_id"]})
for event in report["events"]:
    head = hashed({"prev": head, "event": {key: value for key, value in event.items() if key != "chain"}})
hashed({key: value for key, value in report.items() if key not in ("events", "seal")})
"""


def json_chain(report: dict) -> str:
    """The baseline: the seal's hashing with json.dumps in place of canonical JSON, and no checks.

    A chain h_i = sha256(json.dumps({"prev": h_(i-1), "event": event without its chain})),
    then one sha256 over json.dumps of the rest of the report, as verify_chain does with
    canonical bytes.
    """
    def hashed(value: object) -> str:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    head = hashed({"run_id": report["run"]["run_id"]})
    for event in report["events"]:
        head = hashed({"prev": head, "event": {key: value for key, value in event.items() if key != "chain"}})
    hashed({key: value for key, value in report.items() if key not in ("events", "seal")})
    return head


def recorded(report: dict) -> Callable[[], None]:
    """Work for one round: a fresh final door records every event of ``report``'s ledger, as its run's door did.

    The whole check's fair measure: the door's own cost of the same events,
    which seal verify pays again (it re-decides every one) before it compares
    the chain and the sections.
    """
    def work() -> None:
        _parsed.cache_clear()
        _key_bytes.cache_clear()
        redo(report)
    return work


def intact(check: Callable[[dict], object], report: dict) -> Callable[[], None]:
    """Work for one round: check ``report``, which must come out intact.

    Each round starts with core's memories empty (the origins it read, the keys
    it encoded), as a fresh `seal verify` process does: a memory warmed by the
    round before would measure a verifier no one runs.
    """
    def work() -> None:
        _parsed.cache_clear()
        _key_bytes.cache_clear()
        verification = check(report)
        if not verification.ok:
            raise SystemExit(f"seal_verify: the report did not verify: {verification.message}")
    return work


def rows(rounds: int, sizes: tuple[int, ...] = (10_000, 100_000)) -> list[Row]:
    per_event = {}
    found = []
    for count in sizes:
        sealed = seal(synthetic_report(count))
        seconds = side_by_side({"verify": per_unit(intact(verify_chain, sealed), count),
                                "baseline": per_unit(lambda sealed=sealed: json_chain(sealed), count)}, rounds)
        found.append(Row(f"seal verify_chain, {count:,} events (goal {CHAIN_GOAL}x)", "json.dumps + sha256 chain",
                         seconds["verify"], seconds["baseline"], "event"))
        per_event[count] = seconds["verify"]
    reference = load_report(REFERENCE)
    events = len(reference["events"])
    seconds = side_by_side({"verify": per_unit(intact(verify_report, reference), events),
                            "chain": per_unit(intact(verify_chain, reference), events),
                            "baseline": per_unit(lambda: json_chain(reference), events),
                            "door": per_unit(recorded(reference), events)}, rounds)
    found.append(Row(f"seal verify_chain, the reference report ({events} events)", "json.dumps + sha256 chain",
                     seconds["chain"], seconds["baseline"], "event"))
    found.append(Row("seal verify (chain, then the door re-decides every event), the reference report",
                     "json.dumps + sha256 chain", seconds["verify"], seconds["baseline"], "event"))
    found.append(Row(f"seal verify, the whole check, the reference report (goal {WHOLE_GOAL}x)",
                     "the door recording the same events (doors.redo)", seconds["verify"], seconds["door"], "event"))
    commands = side_by_side({"seal verify": command("-m", "core.run.seal", "verify", str(REFERENCE)),
                             "json chain": command("-c", JSON_CHAIN_COMMAND, str(REFERENCE))}, rounds)
    found.append(Row("python -m core.run.seal verify, the reference report (whole command)",
                     "a json.dumps + sha256 chain script over it (whole command)", commands["seal verify"],
                     commands["json chain"], "run"))
    smallest, largest = min(sizes), max(sizes)
    found.append(Row(f"seal verify_chain per event at {largest:,}", f"per event at {smallest:,}",
                     per_event[largest], per_event[smallest], "event"))
    return found


def median_seconds(work: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.seal_verify", description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the synthetic ledger (default 100000)")
    parser.add_argument("--repeat", type=int, default=5, help="verifications per report; the median is shown")
    args = parser.parse_args(argv)
    sealed = seal(synthetic_report(args.events))
    seconds = median_seconds(intact(verify_chain, sealed), args.repeat)
    print(f"synthetic ledger, {args.events} events: median of {args.repeat} verify_chain {seconds:.3f} s "
          f"({seconds / args.events * 1e6:.1f} us per event)")
    reference = load_report(REFERENCE)
    seconds = median_seconds(intact(verify_report, reference), args.repeat)
    print(f"data/course/report.json, {len(reference['events'])} events: "
          f"median of {args.repeat} seal verify (verify_report) {seconds * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
