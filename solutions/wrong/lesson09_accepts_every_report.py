"""Wrong: every report is intact, and every head is the kept one.

Kind: accepts everything
Fails with: is the first altered one
"""


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    return True
