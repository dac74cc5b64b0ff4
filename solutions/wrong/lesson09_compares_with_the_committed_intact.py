"""Wrong: no hashing at all: compares the report's events with the committed intact.json.

It finds the first event that differs from the tamper lab's intact copy,
which gives the right answer for every file of the lab and for every copy of
intact.json altered one event at a time. It says nothing true about any other
report, and it reads a committed file, which the check keeps out of reach.

Kind: reads the reference
Fails with: data/course is unavailable while the check runs
"""

import json
from pathlib import Path

INTACT = Path(__file__).resolve().parents[2] / "data" / "course" / "tamper" / "intact.json"


def _intact() -> dict:
    return json.loads(INTACT.read_text(encoding="utf-8"))


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    original, events = _intact()["events"], report["events"]
    for position, (mine, theirs) in enumerate(zip(events, original), start=1):
        if mine != theirs:
            return position
    if len(events) != len(original) or len(events) != report["seal"]["events"]:
        return min(len(events), report["seal"]["events"]) + 1
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    return report == _intact() and kept_head == report["seal"]["head"]
