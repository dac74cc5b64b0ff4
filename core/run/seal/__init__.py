"""Seal: close a run, then chain its ledger so that any later edit shows.

A report is only worth reading if nobody could have changed it after the
fact, so lesson 9 ends a run in two steps.

First the run is closed: ``finish`` when the work is done, ``abort`` when it
must stop early. Closing is one more record through the door, of the kind
``close``; its row writes how the run closed to the door's state
(``closed_of``, which the snapshot shows), and the guard ``run_is_open``,
first in every door from lesson 9 on, refuses everything after it. A refusal
after the close is not even appended (``is_open``, which the assembly gives
the door to ask before it appends one): the sealed ledger is final, and the
run cannot grow behind its report. An aborted run keeps
everything it admitted before the abort, and the abort's reason, because a
half-finished run is exactly the one someone will audit.

Then the report is sealed. Each event is hashed into a chain, over the
event's canonical JSON (RFC 8785) without its ``chain`` field:

    h_0 = SHA-256 of the canonical JSON of {"run_id": <run id>}
    h_i = SHA-256 of the canonical JSON of {"event": <event i>, "prev": h_(i-1)}

written in hex, and each event carries its h_i as ``chain``. Changing,
dropping, moving or adding an event breaks the chain from that event on,
and h_0 ties the chain to this run, so events copied in from another run
break it too. Everything else in the report (the stores, counts, findings,
safety verdict...) is the **body**; the seal records

    chain = h_n,  body = digest(report without events and seal),
    head  = digest({"algorithm", "body", "chain", "events"})

so the head commits to the whole report: change any byte and the head
changes.

What a hash chain cannot do: anyone who can rewrite the report can
recompute every hash and the seal. The chain proves the report is the one
whose head you hold; keep the head somewhere the report's owner cannot edit
and compare (``verify --head HEX``, or lesson 11's transparency log). And
because a resealed lie would still chain, verifying a report also re-derives
every section that comes from the ledger and names the first that disagrees
(report.py): that catches an edited section, never a ledger rewritten and
re-derived, which only the kept head catches.

    python3 -m core.run.seal verify PATH [--head HEX]
    python3 -m core.run.seal seal IN --out OUT     (reseal: how an instructor builds tamper exercises)
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from pathlib import Path

from core.run.canon import CanonError, canonical_bytes, digest
from core.run.jsonfile import read_json, shown_path
from core.run.recorder import Kind, Recorder, Refusal, Request
from core.run.records import shown
from core.run.stages import EVERY_STAGE, advance

ALGORITHM = "sha256-jcs-chain/2"
SEAL_FIELDS = ("algorithm", "events", "chain", "body", "head")
CLOSE_KIND = "close"
CLOSE_HOWS = ("finished", "aborted")


class SealError(ValueError):
    """The input is not a report that can be sealed or verified; the message says why."""


# --- closing a run ---------------------------------------------------------------------


@dataclass(frozen=True)
class Closing:
    """How a run ended: finished or aborted, and why."""

    how: str
    reason: str


def build_close(door: Recorder, payload: dict) -> Closing:
    how, reason = payload["how"], payload["reason"]
    if how not in CLOSE_HOWS:
        raise Refusal("malformed_payload", f"a run closes as {' or '.join(CLOSE_HOWS)}, not {shown(how)}")
    if not isinstance(reason, str) or not reason.strip():
        raise Refusal("malformed_payload", "closing a run needs a reason")
    return Closing(how, reason)


CLOSED = "closed"  # lesson 9's state on a door (door.state[CLOSED]): how the run was closed; the snapshot shows it


def closed_of(door: Recorder) -> dict | None:
    """How the run was closed (how, reason and the close's seq), or None while it is open."""
    return door.state.get(CLOSED)


def is_open(door: Recorder) -> bool:
    """Whether the run is open: a closed run's ledger is final, so the door appends not even a refusal."""
    return CLOSED not in door.state


def note_close(door: Recorder, closing: Closing) -> None:
    """The run is closed: the snapshot says how, and the ledger is final (``is_open``)."""
    door.state[CLOSED] = {"how": closing.how, "reason": closing.reason, "seq": door.seq_of[(CLOSE_KIND, closing.how)]}


CLOSE = Kind(CLOSE_KIND, ("run_id", "how", "reason"), "", "how", build_close, (note_close,))
ADMITTED_IN = {CLOSE_KIND: EVERY_STAGE}  # a run can always be finished or aborted
CODES = {"run_closed": "the run is closed; nothing more is recorded (and the refusal is not appended)"}


def run_is_open(door: Recorder, request: Request) -> None:
    """Nothing is recorded once the run is closed; the refusal is not even appended."""
    closed = closed_of(door)
    if closed is not None:
        raise Refusal("run_closed", f"run is closed ({closed['how']}): {closed['reason']}")


def finish(door: Recorder, reason: str) -> dict:
    """Close the run because its work is done; the door's answer says whether it closed."""
    return door.record(CLOSE_KIND, {"run_id": door.run.run_id, "how": "finished", "reason": reason})


def abort(door: Recorder, reason: str) -> dict:
    """Close the run early, for ``reason``; what it admitted before stays in the ledger."""
    return door.record(CLOSE_KIND, {"run_id": door.run.run_id, "how": "aborted", "reason": reason})


# --- the chain -------------------------------------------------------------------------


def chain_start(run_id: str) -> str:
    """h_0: the link that binds a chain to one run."""
    return digest({"run_id": run_id})


def chain_link(prev: str, event_bytes: bytes) -> str:
    """h_i from h_(i-1) and the canonical bytes of event i (without its chain field).

    The canonical JSON of {"event": E, "prev": P} is built around the
    event's own bytes, so an event is encoded once, whether the door just
    wrote it or a verifier just read it. ``prev`` is a hex digest, whose
    canonical JSON is itself in quotes, and the two keys are already in
    canonical order: the bytes are ``canonical_object``'s, with nothing to
    check or sort on the way (tests/test_seal_edges.py holds the two equal).
    """
    return hashlib.sha256(_LINK_HEAD + event_bytes + _LINK_PREV + prev.encode("ascii") + b'"}').hexdigest()


_LINK_HEAD, _LINK_PREV = b'{"event":', b',"prev":"'  # {"event": E, "prev": "P"}, keys in canonical order


def unchained(event: dict) -> dict:
    """An event as the chain hashes it: everything but the chain field itself."""
    return {key: value for key, value in event.items() if key != "chain"}


def body_digest(report: dict) -> str:
    """The digest of everything the chain does not cover: the report without its events and seal."""
    return digest({key: value for key, value in report.items() if key not in ("events", "seal")})


def head_of(seal_fields: dict) -> str:
    """The head: one digest committing to the algorithm, the event count, the chain and the body."""
    return digest({key: seal_fields[key] for key in ("algorithm", "events", "chain", "body")})


def seal(report: dict, event_bytes: tuple[bytes, ...] | None = None) -> dict:
    """A sealed copy of ``report``: each event gets its chain hash, and a seal commits to it all.

    ``event_bytes`` are the events' canonical bytes as the door wrote them
    (Recorder.event_bytes), so sealing a fresh run encodes nothing twice.
    ``report`` must name its run, list its events and not be sealed already:
    sealing twice would hide which seal to trust (``reseal`` strips one first).
    """
    _require_ledger(report)
    if "seal" in report or any("chain" in event for event in report["events"]):
        raise SealError("the report is already sealed")
    try:
        if event_bytes is None or len(event_bytes) != len(report["events"]):
            event_bytes = tuple(canonical_bytes(event) for event in report["events"])
        body = body_digest(report)
    except (CanonError, RecursionError, ValueError) as exc:
        raise SealError(f"the report has no canonical JSON form, so it cannot be sealed: {exc}") from None
    head = chain_start(report["run"]["run_id"])
    events = []
    for event, data in zip(report["events"], event_bytes):
        head = chain_link(head, data)
        events.append({**event, "chain": head})
    fields = {"algorithm": ALGORITHM, "events": len(events), "chain": head, "body": body}
    return {**report, "events": events, "seal": {**fields, "head": head_of(fields)}}


def reseal(report: dict) -> dict:
    """Strip a report's chain and seal and seal it again: whatever it now says gets a valid chain.

    That is the attack a chain alone cannot stop, which is why verify also
    re-derives every section from the ledger.
    """
    _require_ledger(report)
    bare = {key: value for key, value in report.items() if key != "seal"}
    bare["events"] = [unchained(event) for event in report["events"]]
    return seal(bare)


def _require_ledger(report: object) -> None:
    """The shape the chain needs: a run identifier and a list of event objects."""
    if not isinstance(report, dict):
        raise SealError("a report is a JSON object")
    run = report.get("run")
    if not isinstance(run, dict) or not isinstance(run.get("run_id"), str):
        raise SealError("the report names no run (run.run_id)")
    try:
        canonical_bytes(run["run_id"])  # the chain starts from it: h_0 is its digest
    except CanonError as exc:
        raise SealError(f"the report's run identifier has no canonical JSON form: {exc}") from None
    events = report.get("events")
    if not isinstance(events, list) or not all(isinstance(event, dict) for event in events):
        raise SealError("the report has no list of events")


# --- verifying the chain ----------------------------------------------------------------


@dataclass(frozen=True)
class Verification:
    """The verdict on a sealed report: intact or not, what is altered (an event, a section) and one line saying so."""

    ok: bool
    seq: int | None
    message: str
    section: str = ""


def verify_chain(report: object) -> Verification:
    """Check a sealed report's chain and seal; name the first event that does not hold.

    The events are walked in order, recomputing the chain from h_0. The first
    event whose sequence number is not its position (moved, inserted or
    removed) or whose chain hash does not follow (edited, or copied from
    another run) is the one named. Then the ends are checked (events missing
    or added at the end), then the body and last the head. Raises SealError
    when the input is not a sealed report at all.
    """
    _require_sealed(report)
    events, sealed = report["events"], report["seal"]
    prev = chain_start(report["run"]["run_id"])
    for position, event in enumerate(events, start=1):
        problem, link = _link_problem(position, event, prev)
        if problem:
            return _altered(position, problem)
        prev = link
    count = len(events)
    if count < sealed["events"]:
        return _altered(count + 1, f"missing: the ledger ends after event {count} but the seal "
                                   f"covers {sealed['events']} (events removed from the end)")
    if count > sealed["events"]:
        return _altered(sealed["events"] + 1, f"not covered by the seal, which ends at event {sealed['events']} "
                                              "(events added at the end)")
    if prev != sealed["chain"]:
        return _altered(count, "the chain's last link is not the sealed one (the ledger was rewritten, "
                               "or the seal was edited)")
    if _body_digest_or_none(report) != sealed["body"]:
        return Verification(False, None, "altered: the report's body was altered outside the ledger", "body")
    if head_of(sealed) != sealed["head"]:
        return Verification(False, None, "altered: the seal's head does not commit to its own fields", "seal")
    return Verification(True, None, f"intact: {count} events")


def _link_problem(position: int, event: dict, prev: str) -> tuple[str, str]:
    """What is wrong with the event at ``position`` given the hash before it ("" if nothing), and its link."""
    seq = event.get("seq")
    if seq != position:
        return (f"sequence number {shown(seq)} where {position} belongs "
                "(events reordered, inserted or removed)"), ""
    try:
        expected = chain_link(prev, canonical_bytes(unchained(event)))
    except (CanonError, RecursionError, ValueError):  # a sealed event always had a canonical form
        return "its content has no canonical JSON form, so it was altered after sealing", ""
    if event.get("chain") != expected:
        return ("its chain hash does not follow from the events before it "
                "(the event was altered, or it belongs to another run)"), ""
    return "", expected


def _body_digest_or_none(report: dict) -> str | None:
    """The body digest, or None when the body has no canonical form (so it cannot be the sealed one)."""
    try:
        return body_digest(report)
    except (CanonError, RecursionError, ValueError):
        return None


def _altered(seq: int, what: str) -> Verification:
    return Verification(False, seq, f"altered: event {seq}: {what}", "events")


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


def against_kept_head(verification: Verification, report: dict, kept: str) -> Verification:
    """``verification`` once the report's head is also compared, whole, with the head kept elsewhere.

    The chain and the sections say the report is consistent with itself;
    only a head kept where the report's owner cannot reach says it is the
    report that was sealed then, not a rewritten and resealed one.
    """
    if not verification.ok:
        return verification
    if kept != report["seal"]["head"]:
        return Verification(False, None, "altered: the report's head is not the head kept elsewhere "
                                         "(rewritten and resealed, or another run's report)", "seal")
    return Verification(True, None, f"{verification.message}, and its head is the head kept elsewhere")


def is_head(text: str) -> bool:
    """A head as a person copies it: 64 lower-case hex digits."""
    return len(text) == 64 and set(text) <= set("0123456789abcdef")


# --- what a closed run answers, and a lab of altered copies ------------------------------


def asked_after_the_close(door: Recorder) -> dict:
    """Ask a closed ``door`` for more: a record, a stage move, another abort and finish; the answers.

    Each is refused with the close's reason and none is appended:
    ``ledger_unchanged`` says whether the snapshot is byte for byte what it
    was before, and ``events`` how many the ledger holds.
    """
    run_id = door.run.run_id
    before = canonical_bytes(door.snapshot())
    asked = {
        "observation": door.record("observation", {"run_id": run_id, "field": "late", "value": True}),
        "stage move": advance(door, "observe"),
        "abort": abort(door, "one more try"),
        "finish": finish(door, "finished twice"),
    }
    unchanged = canonical_bytes(door.snapshot()) == before
    return {"asked": asked, "events": len(door.events), "ledger_unchanged": unchanged}


# The tamper lab: each file's name, and what was done to a finished report to make it.
TAMPERS = {
    "intact": "nothing: the finished report as it was sealed",
    "flipped-byte": "one bit of one byte flipped: the about page's capture says ExampleCMS 3.3.1, not 3.2.1",
    "deleted-event": "the first feedback event deleted",
    "swapped-events": "two observations read from one capture swapped",
    "spliced-run": "every event after the first selection taken from a twin run made in another world",
    "truncated": "the last three events cut off",
    "resealed-section": "the counts section edited (no refusals), then the report resealed",
}


def _first(events: list[dict], kind: str, where=lambda event: True) -> int:
    """The index of the first admitted event of ``kind`` that ``where`` accepts; SealError if there is none."""
    for index, event in enumerate(events):
        if event["kind"] == kind and event["status"] == "admitted" and where(event):
            return index
    raise SealError(f"the report has no {kind} event to tamper with")


def tamper(name: str, report: dict, twin: dict) -> dict:
    """The tamper lab's file ``name``: a copy of the sealed ``report`` altered as ``TAMPERS`` says.

    ``twin`` is a sealed report of the same run made in another world (the
    splice's source). ``report`` is left as it was; SealError names a tamper
    that does not exist, or a report with no event the tamper needs.
    """
    altered = copy.deepcopy(report)
    events = altered["events"]
    if name == "intact":
        pass
    elif name == "flipped-byte":
        capture = events[_first(events, "capture", lambda e: "ExampleCMS 3.2.1" in e["payload"]["body"])]["payload"]
        capture["body"] = capture["body"].replace("3.2.1", "3.3.1")  # '2' is 0x32, '3' is 0x33: one bit
    elif name == "deleted-event":
        del events[_first(events, "feedback")]
    elif name == "swapped-events":
        at = _first(events, "observation", lambda e: e["payload"].get("capture_id"))
        events[at], events[at + 1] = events[at + 1], events[at]
    elif name == "spliced-run":
        at = _first(events, "selection") + 1
        altered["events"] = events[:at] + copy.deepcopy(twin["events"][at:])
    elif name == "truncated":
        altered["events"] = events[:-3]
    elif name == "resealed-section":
        altered["counts"] = {**altered["counts"], "refusals": 0}
        altered = reseal(altered)
    else:
        raise SealError(f"no tamper named {name!r}")
    return altered
