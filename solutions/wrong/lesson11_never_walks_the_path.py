"""Wrong: is_published trusts the proof's leaf and root fields and never walks the path.

root_from_path is right, but is_published only compares the report's leaf
with the proof's ``leaf_hash`` and the proof's ``root_hash`` with the trusted
root: a forger who writes both fields passes. Found by a helper in the
attacker's seat.

Kind: skips the edge
Fails with: the proof's own leaf and root fields prove nothing
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
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise ValueError("the path is too long: it goes past the root")
        if fn % 2 == 1 or fn == sn:  # a right child, or the last of its level:
            r = node_hash(p, r)  # the sibling is on the left
            while fn % 2 == 0 and fn != 0:  # no sibling here: move up unchanged
                fn, sn = fn // 2, sn // 2
        else:
            r = node_hash(r, p)
        fn, sn = fn // 2, sn // 2
    if sn != 0:
        raise ValueError("the path is too short: it stops below the root")
    return r


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Trust the proof's own leaf and root fields: the path is never walked."""
    leaf = leaf_hash(report["run"]["run_id"], report["seal"]["head"])
    return leaf == base64.b64decode(proof["leaf_hash"]) and base64.b64decode(proof["root_hash"]) == root


def decode(path: list[str]) -> list[bytes]:
    return [base64.b64decode(item) for item in path]
