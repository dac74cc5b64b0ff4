"""Lesson 11, your edit: check an inclusion proof, and catch what lesson 9 could not.

Write two functions from the page ("Implement it", the path walk):

``root_from_path(leaf, index, size, path)``: the root that an inclusion
path leads to, from the hash of leaf ``index`` in a tree of ``size``
leaves. RFC 9162, section 2.1.3.2, in short:

    fn = index, sn = size - 1, r = leaf
    for each hash p of the path, lowest level first:
        if sn is 0: the path is too long (refuse it)
        if fn is odd, or fn == sn:  r = node_hash(p, r)  (sibling on the left)
            then while fn is even and not 0: halve fn and sn
            (a node with no sibling at its level moves up unchanged)
        otherwise:                  r = node_hash(r, p)  (sibling on the right)
        halve fn and sn
    at the end sn must be 0 (else the path is too short); r is the root

Refuse a path that cannot belong to the tree (an index outside it, a
path too long or too short) by raising ValueError: such a proof proves
nothing.

``is_published(report, proof, root)``: whether the sealed ``report`` is the
one the log holds, given an inclusion ``proof`` as ``python -m tlog prove``
prints it (its hashes in base64) and the ``root`` of a checkpoint you trust
(32 bytes). The leaf must come from the report you hold: its run id and its
head (``leaf_hash`` below), never from what the proof says.

Do not import tlog (the check blocks it while your file loads and runs):
the point is that a client checks a proof with nothing but hashlib. Your
check (``course check 11``) runs your functions on the demo's log and on
trees it makes itself. Read the worked answer, ``solutions/lesson11.py``,
after your attempt.
"""

import base64
import hashlib


def leaf_hash(run_id: str, head: str) -> bytes:
    """A log leaf's hash: SHA-256(0x00 || the run id's 32 bytes || the head's 32)."""
    data = bytes.fromhex(run_id) + bytes.fromhex(head)
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """An interior node's hash: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes:
    """The root ``path`` leads to from ``leaf`` at ``index`` of a tree of ``size``.

    A path that cannot belong to such a tree raises ValueError.
    """
    # TODO 1: refuse an index outside the tree; start fn, sn and r
    # TODO 2: walk the path: the sibling joins from the left or from the right;
    #         a node with no sibling at its level moves up unchanged
    # TODO 3: refuse a path too long or too short; return the root
    raise NotImplementedError("root_from_path is not written yet")


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    # TODO 4: the leaf from the report (its run id and its head), the path from
    #         the proof (base64), and the root root_from_path finds, compared
    #         with the root you trust
    raise NotImplementedError("is_published is not written yet")


def decode(path: list[str]) -> list[bytes]:
    """A proof's base64 hashes as bytes."""
    return [base64.b64decode(item) for item in path]
