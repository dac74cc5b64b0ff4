"""Lesson 9, your edit: find the first altered event of a sealed report, from the chain alone.

Write ``first_altered_event(report)`` from the algorithm on the lesson page
("Implement it", the chain). Do not import ``core.run.seal`` (or anything
that hands you its functions): the point is that anyone holding the report
can recompute the chain by hand. ``core.run.canon.canonical_bytes`` writes
canonical JSON (RFC 8785), and ``sha256_hex`` below hashes it.

The chain, in short:

    h_0 = SHA-256 of the canonical JSON of {"run_id": <the report's run.run_id>}
    h_i = SHA-256 of the canonical JSON of {"event": <event i without "chain">, "prev": h_(i-1)}

and each event i carries h_i as its ``chain``; the seal holds the event count
(``seal.events``) and the last link (``seal.chain``).

Your function returns the sequence number of the first event that is
altered, or None when the chain and the seal agree:

1. walk the events in order, position 1, 2, ...: an event whose ``seq`` is
   not its position is the answer (moved, inserted or removed);
2. otherwise compute h_i; an event whose ``chain`` is not h_i is the answer
   (edited, or copied from another run);
3. after the walk, compare with the seal: fewer events than ``seal.events``
   names the first missing one (count + 1); more names the first one the
   seal does not cover (seal.events + 1); a last link that is not
   ``seal.chain`` names the last event.

Your check (``course check 9``) runs your function on every file of the
tamper lab, data/course/tamper/, and on altered copies it makes itself.
Read the worked answer, ``solutions/lesson09.py``, after your attempt.
"""

import hashlib

from core.run.canon import canonical_bytes


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    # TODO 1: h_0 from the report's run identifier
    # TODO 2: walk the events: the position check, then the link check
    # TODO 3: compare the end of the walk with the seal
    raise NotImplementedError("first_altered_event is not written yet")
