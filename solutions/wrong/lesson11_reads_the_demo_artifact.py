"""Wrong: it reads a committed artifact.

It looks the answer up in data/course/tlog-demo.json: right wherever the demo has one,
and the fresh trees the check makes are in no artifact.

Kind: reads the reference
Fails with: for every tree
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
    """The root the demo published, looked up in its artifact."""
    import json
    from pathlib import Path

    demo = Path(__file__).resolve().parents[2] / "data" / "course" / "tlog-demo.json"
    if not 0 <= index < size:
        raise ValueError("not in the tree")
    return base64.b64decode(json.loads(demo.read_text())["published"].split("\n")[2])


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    leaf = leaf_hash(report["run"]["run_id"], report["seal"]["head"])
    hashes = list(map(base64.b64decode, proof["inclusion_path"]))
    try:
        return root == root_from_path(leaf, proof["leaf_index"], proof["tree_size"], hashes)
    except ValueError:
        return False
