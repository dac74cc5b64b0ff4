"""Seal: close a run, then chain its ledger so that any later edit shows.

A report is only worth reading if nobody could have changed it after the
fact, so lesson 9 ends a run in two steps.

First the run is closed: ``finish`` when the work is done, ``abort`` when it
must stop early. Closing is one more ledger event, and from then on the door
refuses every record (recorder.py), so the run cannot grow behind the report.
An aborted run keeps everything it admitted before the abort, and the abort's
reason, because a half-finished run is exactly the one someone will audit.

Then the report is sealed with a hash chain over its events:

    h_0 = digest({"run_id": run_id})
    h_i = digest({"prev": h_(i-1), "event": event_i without its chain field})

Each event carries its h_i as ``chain``. Changing, dropping, moving or adding
an event breaks the chain from that event on, and h_0 ties the chain to this
run, so events copied in from another run break it too. The seal records the
number of events, the last hash (the head) and a digest of everything else in
the report (the body), so an edit outside the ledger shows as well.

What a hash chain cannot do: anyone who can rewrite the report can recompute
every hash and the seal. The chain proves the report is the one whose head you
hold; keep the head somewhere the report's owner cannot edit (the rendered
report prints it) and compare.

    python3 -m core.run.seal verify PATH
"""

from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from pathlib import Path

from core.run.canon import CanonError, digest
from core.run.commandline import OneLineParser
from core.run.jsonfile import read_json, shown_path
from core.run.recorder import Recorder
from core.run.records import shown

ALGORITHM = "sha256-jcs-chain/1"
SEAL_FIELDS = ("algorithm", "events", "head", "body")
HEAD_SHOWN = 12  # hex digits of the head a one-line answer prints


class SealError(ValueError):
    """The input is not a report that can be sealed or verified; the message says why."""


# --- closing a run ---------------------------------------------------------------------


def finish(recorder: Recorder, reason: str) -> dict:
    """Close the run because its work is done; the door's answer says whether it closed."""
    return recorder.close("finished", reason)


def abort(recorder: Recorder, reason: str) -> dict:
    """Close the run early, for ``reason``; what it admitted before stays in the ledger."""
    return recorder.close("aborted", reason)


# --- the chain -------------------------------------------------------------------------


def chain_start(run_id: str) -> str:
    """h_0: the link that binds a chain to one run."""
    return digest({"run_id": run_id})


def chain_link(prev: str, event: dict) -> str:
    """h_i: the hash of one event (without its own chain field) and the hash before it."""
    return digest({"prev": prev, "event": unchained(event)})


def unchained(event: dict) -> dict:
    """An event as the chain hashes it: everything but the chain field itself."""
    return {key: value for key, value in event.items() if key != "chain"}


def body_digest(report: dict) -> str:
    """The digest of everything the chain does not cover: the report without its seal and chain fields."""
    body = {key: value for key, value in report.items() if key != "seal"}
    body["events"] = [unchained(event) for event in report["events"]]
    return digest(body)


def seal(report: dict) -> dict:
    """A sealed copy of ``report``: each event gets its chain hash, and a seal binds head and body.

    ``report`` is left as it was. It must name its run and list its events,
    and must not be sealed already: sealing twice would hide which seal to
    trust.
    """
    _require_ledger(report)
    if "seal" in report or any("chain" in event for event in report["events"]):
        raise SealError("the report is already sealed")
    sealed = copy.deepcopy(report)
    head = chain_start(sealed["run"]["run_id"])
    for event in sealed["events"]:
        head = chain_link(head, event)
        event["chain"] = head
    sealed["seal"] = {"algorithm": ALGORITHM, "events": len(sealed["events"]), "head": head,
                      "body": body_digest(sealed)}
    return sealed


def _require_ledger(report: object) -> None:
    """The shape the chain needs: a run identifier and a list of event objects."""
    if not isinstance(report, dict):
        raise SealError("a report is a JSON object")
    run = report.get("run")
    if not isinstance(run, dict) or not isinstance(run.get("run_id"), str):
        raise SealError("the report names no run (run.run_id)")
    events = report.get("events")
    if not isinstance(events, list) or not all(isinstance(event, dict) for event in events):
        raise SealError("the report has no list of events")


# --- verifying -------------------------------------------------------------------------


@dataclass(frozen=True)
class Verification:
    """The verdict on a sealed report: intact or not, the first altered event (or None) and one line saying so."""

    ok: bool
    seq: int | None
    message: str


def verify(report: object) -> Verification:
    """Check a sealed report's chain and seal; name the first event that does not hold.

    The events are walked in order, recomputing the chain from h_0. The first
    event whose sequence number is not its position (moved, inserted or
    removed) or whose chain hash does not follow (edited, or copied from
    another run) is the one named. Then the ends are checked (events missing
    or added at the end), and last the body. Raises SealError when the input
    is not a sealed report at all.
    """
    _require_sealed(report)
    events, sealed = report["events"], report["seal"]
    prev = chain_start(report["run"]["run_id"])
    for position, event in enumerate(events, start=1):
        problem = _link_problem(position, event, prev)
        if problem:
            return _altered(position, problem)
        prev = event["chain"]
    count = len(events)
    if count < sealed["events"]:
        return _altered(count + 1, f"missing: the ledger ends after event {count} but the seal "
                                   f"covers {sealed['events']} (events removed from the end)")
    if count > sealed["events"]:
        return _altered(sealed["events"] + 1, f"not covered by the seal, which ends at event {sealed['events']} "
                                              "(events added at the end)")
    if prev != sealed["head"]:
        return _altered(count, "the chain's head is not the sealed head (the ledger was rewritten, "
                               "or the seal was edited)")
    if _body_digest_or_none(report) != sealed["body"]:
        return Verification(False, None, "altered: report body altered outside the ledger")
    return Verification(True, None, f"intact: {count} events, head {prev[:HEAD_SHOWN]}")


def _link_problem(position: int, event: dict, prev: str) -> str:
    """What is wrong with the event at ``position`` given the hash before it, or ""."""
    seq = event.get("seq")
    if seq != position:
        return (f"sequence number {shown(seq)} where {position} belongs "
                "(events reordered, inserted or removed)")
    try:
        expected = chain_link(prev, event)
    except CanonError:  # a sealed event always had a canonical form
        return "its content has no canonical JSON form, so it was altered after sealing"
    if event.get("chain") != expected:
        return ("its chain hash does not follow from the events before it "
                "(the event was altered, or it belongs to another run)")
    return ""


def _body_digest_or_none(report: dict) -> str | None:
    """The body digest, or None when the body has no canonical form (so it cannot be the sealed one)."""
    try:
        return body_digest(report)
    except CanonError:
        return None


def _altered(seq: int, what: str) -> Verification:
    return Verification(False, seq, f"altered: event {seq}: {what}")


def _require_sealed(report: object) -> None:
    _require_ledger(report)
    sealed = report.get("seal")
    if not isinstance(sealed, dict) or set(sealed) != set(SEAL_FIELDS):
        raise SealError(f"the report has no seal with the fields {', '.join(SEAL_FIELDS)}")
    if sealed["algorithm"] != ALGORITHM:
        raise SealError(f"the seal's algorithm is {shown(sealed['algorithm'])}, not {ALGORITHM}")
    if isinstance(sealed["events"], bool) or not isinstance(sealed["events"], int) or sealed["events"] < 0:
        raise SealError("the seal's event count is not a non-negative integer")


# --- reading a report from disk --------------------------------------------------------


def load_report(path: str | Path) -> dict:
    """The JSON object in the file at ``path``; SealError with one line saying what is wrong otherwise."""
    report = read_json(path, error=SealError)
    if not isinstance(report, dict):
        raise SealError(f"{shown_path(path)}: not a report (a report is a JSON object)")
    return report


# --- the command line ------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser("seal", prog="python3 -m core.run.seal",
                           description="Verify the hash chain of a sealed report.")
    parser.add_argument("command", choices=["verify"], help="verify: check the chain and the seal")
    parser.add_argument("path", metavar="PATH", help="the sealed report (JSON)")
    args = parser.parse_args(argv)
    try:
        verification = verify(load_report(args.path))
    except SealError as exc:
        print(f"seal: {exc}", file=sys.stderr)
        return 2
    print(verification.message)
    return 0 if verification.ok else 1


if __name__ == "__main__":
    sys.exit(main())
