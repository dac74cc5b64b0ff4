"""Wrong: it imports the reference implementation.

It hands the work to tlog's own verifier, which a client holding only a proof does not
have (and which the check keeps out of reach).

Kind: reads the reference
Fails with: hashlib alone
"""

import base64
import hashlib

from tlog.merkle import ProofError, root_from_inclusion


def leaf_hash(run_id: str, head: str) -> bytes:
    """A log leaf's hash: SHA-256(0x00 || the run id's 32 bytes || the head's 32)."""
    return hashlib.sha256(b"\x00" + bytes.fromhex(run_id + head)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """An interior node's hash: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes:
    """The root, as tlog's own verifier finds it."""
    try:
        return root_from_inclusion(index, size, leaf, path)
    except ProofError as exc:
        raise ValueError(str(exc)) from None


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    try:  # tlog's verifier, from the report's own leaf
        return root_from_path(leaf_hash(report["run"]["run_id"], report["seal"]["head"]), proof["leaf_index"],
                              proof["tree_size"], [base64.b64decode(h) for h in proof["inclusion_path"]]) == root
    except ValueError:
        return False
