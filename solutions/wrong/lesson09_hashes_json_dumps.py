"""Wrong: hashes ``json.dumps(..., sort_keys=True)`` instead of the canonical JSON the chain is defined over.

The two agree on the lab's reports, whose events hold no number such as 1.0
and no letter outside ASCII. RFC 8785 writes 1.0 as 1 and writes é as itself;
json.dumps writes 1.0 and \\u00e9. On a report that holds either, every link
it computes is another hash, and it names an event of a report nobody altered.

Kind: author's own
Fails with: a report nobody altered has no altered event
"""

import hashlib
import json


def sha256_hex(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


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
    return sha256_hex({"algorithm": sealed["algorithm"], "body": body, "chain": sealed["chain"],
                       "events": len(report["events"])}) == kept_head
