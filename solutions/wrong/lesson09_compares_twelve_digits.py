"""Wrong: compares the first twelve digits of the head, as an older ``seal verify`` printed it.

Everything else is right: the walk, the ends, the head recomputed from the
report. But a head is 64 hex digits, and one that agrees in its first twelve
is another head: finding a report whose head starts with twelve chosen digits
takes about 2**48 tries, far fewer than the 2**256 the whole head asks.

Kind: author's own
Fails with: every one of its 64 digits
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    events, sealed = report["events"], report["seal"]
    prev = sha256_hex({"run_id": report["run"]["run_id"]})
    for position, event in enumerate(events, start=1):
        if event.get("seq") != position:
            return position
        link = sha256_hex({"event": {k: v for k, v in event.items() if k != "chain"}, "prev": prev})
        if event.get("chain") != link:
            return position
        prev = link
    if len(events) < sealed["events"]:
        return len(events) + 1
    if len(events) > sealed["events"]:
        return sealed["events"] + 1
    if prev != sealed["chain"]:
        return len(events)
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    if first_altered_event(report) is not None:
        return False
    sealed = report["seal"]
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    head = sha256_hex({"algorithm": sealed["algorithm"], "body": body, "chain": sealed["chain"],
                       "events": len(report["events"])})
    return head[:12] == kept_head[:12]
