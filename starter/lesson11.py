"""Lesson 11, your edit: check an inclusion proof, and catch what lesson 9 could not.

``root_from_path(leaf, index, size, path)`` must answer the root of the RFC 9162
Merkle tree (section 2.1.3.2) that an inclusion ``path`` leads to from the hash of
leaf ``index`` in a tree of ``size`` leaves, for every size and every index,
including a leaf whose node is the last of its level with no sibling there. A
path that cannot belong to such a tree (an index outside it, a path too long or
too short for its place) raises ValueError, because such a proof proves nothing.
The page's "Implement it" draws the tree and the walk.

``is_published(report, proof, root)`` must answer True exactly when the sealed
``report`` you hold is the one the log holds: the leaf of its run id and of the
head its own content hashes to (lesson 9's chain, body and head), placed by the
inclusion ``proof`` (as ``python -m tlog prove`` prints it, hashes in base64),
leads to ``root``, the 32-byte root of a checkpoint you trust. Every other
report, proof or root answers False, and none raises: a report whose content no
longer hashes to the head its seal states (events deleted, or a body section
edited, the seal left as it was), a seal that names another algorithm than
lesson 9's, another head or run, a proof with a field missing or of another
kind, a proof whose own leaf or root fields say otherwise, a path that does not
fit. Why: the head the seal states is the report's word about itself, and the
proof's fields are its bearer's; neither is evidence.

Do not import tlog (the check blocks it while your file loads and runs): a
client checks a proof with nothing but hashlib and canonical JSON. Your check
(``course check 11``) runs your functions on the demo's log and on trees and
sealed reports it makes itself. The hints on the page go from a nudge to
nearly the answer; read the worked answer, ``solutions/lesson11.py``, after
your attempt.
"""

import base64
import hashlib

from core.run.canon import canonical_bytes


def leaf_hash(run_id: str, head: str) -> bytes:
    """A log leaf's hash: SHA-256(0x00 || the run id's 32 bytes || the head's 32)."""
    data = bytes.fromhex(run_id) + bytes.fromhex(head)
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """An interior node's hash: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex, as lesson 9 hashes."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def root_from_path(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes:
    """The root ``path`` leads to from ``leaf`` at ``index`` of a tree of ``size``.

    A path that cannot belong to such a tree raises ValueError.
    """
    # TODO 1: the root this path leads to, or ValueError for a path that cannot fit
    raise NotImplementedError("root_from_path is not written yet")


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    # TODO 2: True only for the report whose own content the trusted root holds
    raise NotImplementedError("is_published is not written yet")


def decode(path: list[str]) -> list[bytes]:
    """A proof's base64 hashes as bytes."""
    return [base64.b64decode(item) for item in path]
