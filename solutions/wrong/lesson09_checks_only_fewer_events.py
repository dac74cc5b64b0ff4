"""Wrong: after the walk it compares only one end with the seal: a ledger shorter than the seal.

The walk is right, and so is "fewer events than the seal names the first
missing one". But a ledger longer than the seal covers, and a last link that
is not seal.chain, both get None: an event added at the end, or a seal whose
count or last link was edited, passes as intact.

Kind: skips the edge
Fails with: the first event the seal does not cover
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    events = report["events"]
    prev = sha256_hex({"run_id": report["run"]["run_id"]})
    for position, event in enumerate(events, start=1):
        if event.get("seq") != position:
            return position
        link = sha256_hex({"event": {k: v for k, v in event.items() if k != "chain"}, "prev": prev})
        if event.get("chain") != link:
            return position
        prev = link
    if len(events) < report["seal"]["events"]:
        return len(events) + 1
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    if first_altered_event(report) is not None:
        return False
    sealed = report["seal"]
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    return sha256_hex({"algorithm": sealed["algorithm"], "body": body, "chain": sealed["chain"],
                       "events": len(report["events"])}) == kept_head
