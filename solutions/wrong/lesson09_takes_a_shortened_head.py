"""Wrong: the kept head is matched as the start of the recomputed one.

A head kept on paper is often written short, so the comparison accepts any
kept text the true head starts with. But twelve digits that agree name
another head as easily: the contract compares every digit.

Kind: author's own
Fails with: a kept head shortened, cut to its first twelve digits
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
    head = sha256_hex({"algorithm": sealed["algorithm"], "body": body,
                       "chain": sealed["chain"], "events": len(report["events"])})
    return head.startswith(kept_head)  # a head kept short still names its report
