"""Wrong: the head is recomputed under this course's algorithm name, whatever the seal names.

The seal names its algorithm, and the head commits to that name: a seal
whose name was edited hashes to another head, and a report sealed under
another name hashes to its own.

Kind: skips the edge
Fails with: a seal that names another algorithm than this course's
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
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    head = sha256_hex({"algorithm": "sha256-jcs-chain/2", "body": body,
                       "chain": sealed["chain"], "events": len(report["events"])})
    return head == kept_head  # all 64 digits: twelve that agree name another head
