"""Wrong: knows the tamper lab's seven answers by heart, and nothing else.

Each file of the lab is recognised by a fingerprint of its content and given
the answer the lab's page shows; any other report is called intact, and only
intact.json matches its head. Reports the check seals for the run are not in
its table.

Kind: hard-codes the demo
Fails with: is the first altered one
"""

import hashlib
import json

ANSWERS = {
    "0dd5da924055588e": None,  # intact.json
    "beaac0f19ccc1b41": 12,  # flipped-byte.json
    "14607364072cf0e8": 14,  # deleted-event.json
    "8d5e3993adc99396": 16,  # swapped-events.json
    "50540b0930b8653e": 9,  # spliced-run.json
    "d43902373519a754": 41,  # truncated.json
    "c6f64218f3ef34fe": None,  # resealed-section.json
}
INTACT = "0dd5da924055588e"


def _fingerprint(report: dict) -> str:
    return hashlib.sha256(json.dumps(report, sort_keys=True).encode()).hexdigest()[:16]


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    return ANSWERS.get(_fingerprint(report))


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    return _fingerprint(report) == INTACT and kept_head == report["seal"]["head"]
