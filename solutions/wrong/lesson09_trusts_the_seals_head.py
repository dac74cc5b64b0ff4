"""Wrong: compares the kept head with the head the report's seal claims, and stops there.

The chain walk is right. But ``report["seal"]["head"] == kept_head`` takes
the report's word for its own head: a report edited after sealing, its seal
left as it was, still shows the kept head. The head must be recomputed from
the report's own chain, body and count before it is compared.

Kind: returns early
Fails with: the head commits to the body
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
    return report["seal"]["head"] == kept_head
