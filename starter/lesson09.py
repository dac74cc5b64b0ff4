"""Lesson 9, your edit: check a sealed report by hand, the chain first, then the head you kept.

Anyone holding a sealed report can check it without the harness's code. Write
the two checks from the algorithm on the lesson page ("Implement it", the
chain), with ``hashlib`` and canonical JSON only: ``sha256_hex`` below hashes
a value's canonical JSON (RFC 8785, ``core.run.canon.canonical_bytes``).

The chain, in short, for a report whose ``run.run_id`` is R:

    h_0 = sha256_hex({"run_id": R})
    h_i = sha256_hex({"event": <event i without its "chain" key>, "prev": h_(i-1)})

Each event i carries h_i as its ``chain``. The seal holds ``algorithm``,
``events`` (the count), ``chain`` (the last link), ``body`` and ``head``:

    body = sha256_hex(<the report without its "events" and "seal" keys>)
    head = sha256_hex({"algorithm": ..., "body": ..., "chain": ..., "events": ...})

1. ``first_altered_event(report)``: the ``seq`` of the first event the chain
   says was altered, or None when the chain and the seal's ends agree:

   - walk the events in order, position 1, 2, ...: an event whose ``seq`` is
     not its position is the answer (moved, inserted or removed); otherwise
     an event whose ``chain`` is not h_i is the answer (edited, or copied
     from another run);
   - after the walk, compare its ends with the seal: fewer events than
     ``seal.events`` names the first missing one (the count + 1); more names
     the first one the seal does not cover (``seal.events`` + 1); a last link
     that is not ``seal.chain`` names the last event.

2. ``matches_kept_head(report, kept_head)``: True only when ``report`` is the
   report whose head was kept elsewhere (``kept_head``, 64 hex digits).
   A chain has no secret in it: whoever rewrites a report can seal it again,
   and the result agrees with itself. So what the report's seal *says* proves
   nothing. Recompute the head from the report itself (its chain, its body,
   its count) and compare that, every digit of it, with the kept head.

The check seals reports of its own (other runs, altered at positions it draws
from a seed it prints) and sends them to your functions as plain data, in a
process of their own; the reference's sealing and verifying code
(``core.run.seal``, ``core.run.report``, ``core.run.doors``,
``core.run.rederive``, ``core.audit``) and the committed reports are
unavailable to your file while it runs. Check
your work with ``course check 9``; read the worked answer,
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
