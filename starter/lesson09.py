"""Lesson 9, your edit: check a sealed report by hand: its chain, and the head you kept.

Anyone holding a sealed report can check it without the harness's code. The
page's "Implement it" defines the chain, the body and the head; ``sha256_hex``
below hashes a value's canonical JSON (RFC 8785,
``core.run.canon.canonical_bytes``), the one hash all three are made of.

``first_altered_event(report)`` must answer the ``seq`` of the first event the
chain shows altered, or None when the chain and its seal agree, so that an
auditor is sent to the first place where the ledger stops being the one that
was sealed:

- the first position whose event is not the one sealed there: its ``seq`` is
  not its position (an event moved, inserted or removed), or its ``chain`` is
  not the link that position's content gives (an event edited, or copied from
  another run);
- for a walk that holds but whose ends are not the seal's: the first missing
  event (the count + 1) when the ledger is shorter than ``seal.events``, the
  first event the seal does not cover (``seal.events`` + 1) when it is longer,
  and the last event when its last link is not ``seal.chain``.

``matches_kept_head(report, kept_head)`` must answer True only when ``report``
is the report whose head was kept elsewhere (``kept_head``, 64 hex digits),
every digit of it. A chain has no secret in it: whoever rewrites a report can
seal it again, and the result agrees with itself, so what the report's seal
*says* proves nothing. The head that counts is the one the report's own
content (its chain, its body, its count) hashes to, under the algorithm its
seal names. This course seals under one algorithm, ``sha256-jcs-chain/2``,
the chain the page defines: a seal that names any other is not one this
check can vouch for (``seal verify`` refuses it), so no kept head matches it.

The check seals reports of its own (other runs, altered at positions it draws
from a seed it prints) and sends them to your functions as plain data, in a
process of their own; the reference's sealing and verifying code
(``core.run.seal``, ``core.run.report``, ``core.run.doors``,
``core.run.rederive``, ``core.audit``) and the committed reports are
unavailable to your file while it runs. Check your work with ``course check 9``;
the page's hints go from a nudge to nearly the answer; read the worked answer,
``solutions/lesson09.py``, after your attempt.
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    # TODO 1: h_0 from the report's run identifier, then walk the events
    # TODO 2: compare the ends of the walk with the seal
    raise NotImplementedError("TODO 1: walk the chain from h_0 and name the first event that does not hold")


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    raise NotImplementedError("TODO 3: recompute the report's head from its content and compare it with the kept one")
