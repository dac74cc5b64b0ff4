"""Wrong: is_published lets root_from_path's refusal out as an exception.

A proof that does not fit its tree is an answer to the question "is this
report published?": the answer is no. Raising instead hands the caller an
error where the contract promises a boolean.

Kind: returns early
Fails with: a proof that does not fit its tree
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
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    # the leaf from the report you hold, never the one the proof names
    leaf = leaf_hash(report["run"]["run_id"], report["seal"]["head"])
    path = decode(proof["inclusion_path"])
    found = root_from_path(leaf, proof["leaf_index"], proof["tree_size"], path)
    return found == root


def decode(path: list[str]) -> list[bytes]:
    """A proof's base64 hashes as bytes."""
    return [base64.b64decode(item) for item in path]
