"""Wrong: the walk pops each event's chain out of the report it was handed.

Popping the chain leaves the event as the chain hashes it, in one step. But
the report belongs to the caller: after the walk it has no chain at all, and
anything that reads it next (matches_kept_head's own walk, a second check)
reads a report nobody sealed.

Kind: author's own
Fails with: every argument comes back as it was sent
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    events, sealed = report["events"], report["seal"]
    prev = sha256_hex({"run_id": report["run"]["run_id"]})  # h_0
    for position, event in enumerate(events, start=1):
        if event.get("seq") != position:
            return position  # moved, inserted or removed
        given = event.pop("chain", None)  # what is left is the event as the chain hashes it
        link = sha256_hex({"event": event, "prev": prev})  # h_i
        if given != link:
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
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    head = sha256_hex({"algorithm": sealed["algorithm"], "body": body,
                       "chain": sealed["chain"], "events": len(report["events"])})
    return head == kept_head  # all 64 digits: twelve that agree name another head
