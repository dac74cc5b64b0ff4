"""Lesson 9, worked answer: the first altered event, and the kept head, by hand.

Walk the events in order, recomputing the chain from h_0, exactly as the
sealer did; the first event that is out of place or whose chain hash does not
follow is the answer. Then compare the ends with the seal: a ledger shorter
than the seal lost its tail, one longer gained events, and a last link that
is not the sealed one means the seal itself was edited.

A resealed report passes all of this: its chain was recomputed over the lie.
So the chain alone says only that the report agrees with itself. Which report
it is, the head says: recompute it from the report's own content (never take
the seal's word for it) and compare it, whole, with the head kept elsewhere.
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


# student writes: begin
def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    events, sealed = report["events"], report["seal"]
    prev = sha256_hex({"run_id": report["run"]["run_id"]})  # h_0
    for position, event in enumerate(events, start=1):
        if event.get("seq") != position:
            return position  # moved, inserted or removed
        bare = {key: value for key, value in event.items() if key != "chain"}
        link = sha256_hex({"event": bare, "prev": prev})  # h_i
        if event.get("chain") != link:
            return position  # edited, or from another run
        prev = link
    if len(events) < sealed["events"]:
        return len(events) + 1  # the first event that is missing
    if len(events) > sealed["events"]:
        return sealed["events"] + 1  # the first event the seal does not cover
    if prev != sealed["chain"]:
        return len(events)  # the seal's last link was edited
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever it claims."""
    if first_altered_event(report) is not None:
        return False  # then seal.chain is not this ledger's last link
    sealed = report["seal"]
    if sealed["algorithm"] != "sha256-jcs-chain/2":
        return False  # the one algorithm the course seals under; verify refuses others
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    head = sha256_hex({"algorithm": sealed["algorithm"], "body": body,
                       "chain": sealed["chain"], "events": len(report["events"])})
    return head == kept_head  # all 64 digits: twelve that agree name another head
# student writes: end
