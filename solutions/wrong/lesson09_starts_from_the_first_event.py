"""Wrong: starts the walk from event 1's own chain instead of h_0, the hash of the run identifier.

Every later link is checked, so an edit anywhere after event 1 is found. But
nothing ties the chain to this run any more: event 1 is taken on trust, and a
ledger copied whole from another run of the same length walks cleanly until
the seal's last link, the wrong event.

Kind: skips the edge
Fails with: h_0 is the hash of
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    events, sealed = report["events"], report["seal"]
    prev = None
    for position, event in enumerate(events, start=1):
        if event.get("seq") != position:
            return position
        if prev is not None:
            link = sha256_hex({"event": {k: v for k, v in event.items() if k != "chain"}, "prev": prev})
            if event.get("chain") != link:
                return position
        prev = event.get("chain")
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
    return sha256_hex({"algorithm": sealed["algorithm"], "body": body, "chain": sealed["chain"],
                       "events": len(report["events"])}) == kept_head
