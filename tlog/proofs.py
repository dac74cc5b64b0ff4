"""Proofs as JSON: what ``prove`` and ``consistency`` print, and what ``verify --proof`` reads back.

An inclusion proof and a consistency proof each carry their sizes, their
roots and their path, hashes in standard base64, with the field names CCTV's
published vectors use:

    {"leaf_index": 3, "tree_size": 5, "root_hash": "...", "leaf_hash": "...", "inclusion_path": [...]}
    {"old_size": 4, "new_size": 5, "old_root": "...", "new_root": "...", "consistency_path": [...]}

Reading one back is strict: exactly these fields, whole numbers, and every
hash 32 bytes in base64's one standard spelling, so that a flipped bit in any
field is a different proof, never the same one read leniently.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from tlog.merkle import HASH_SIZE

INCLUSION_FIELDS = ("leaf_index", "tree_size", "root_hash", "leaf_hash", "inclusion_path")
CONSISTENCY_FIELDS = ("old_size", "new_size", "old_root", "new_root", "consistency_path")
MAX_COUNT = 2**64 - 1  # RFC 6962's tree_size and leaf_index are uint64s
MAX_PATH = 64  # a tree of 2**64 - 1 leaves has 64 levels


class ProofFormatError(ValueError):
    """A proof file is not the shape ``prove`` or ``consistency`` prints; the message says which field."""


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


@dataclass(frozen=True)
class InclusionProof:
    leaf_index: int
    tree_size: int
    root_hash: bytes
    leaf_hash: bytes
    inclusion_path: tuple[bytes, ...]

    def to_json(self) -> dict:
        return {"leaf_index": self.leaf_index, "tree_size": self.tree_size, "root_hash": b64(self.root_hash),
                "leaf_hash": b64(self.leaf_hash), "inclusion_path": [b64(h) for h in self.inclusion_path]}


@dataclass(frozen=True)
class ConsistencyProof:
    old_size: int
    new_size: int
    old_root: bytes
    new_root: bytes
    consistency_path: tuple[bytes, ...]

    def to_json(self) -> dict:
        return {"old_size": self.old_size, "new_size": self.new_size, "old_root": b64(self.old_root),
                "new_root": b64(self.new_root), "consistency_path": [b64(h) for h in self.consistency_path]}


def _fields(value: object, names: tuple[str, ...], what: str) -> dict:
    if not isinstance(value, dict) or set(value) != set(names):
        raise ProofFormatError(f"{what} is a JSON object with exactly the fields {', '.join(names)}")
    return value


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProofFormatError(f"{name} is a whole number, not {value!r:.40}")
    if value > MAX_COUNT:
        raise ProofFormatError(f"{name} is at most 2**64 - 1 (a tree size is a uint64), not {value}")
    return value


def _hash(value: object, name: str) -> bytes:
    try:
        raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != HASH_SIZE or b64(raw) != value:
        raise ProofFormatError(f"{name} is a {HASH_SIZE}-byte hash in standard base64")
    return raw


def _path(value: object, name: str) -> tuple[bytes, ...]:
    if not isinstance(value, list) or len(value) > MAX_PATH:
        raise ProofFormatError(f"{name} is a list of at most {MAX_PATH} hashes")
    return tuple(_hash(item, f"{name}[{i}]") for i, item in enumerate(value))


def inclusion_from_json(value: object) -> InclusionProof:
    v = _fields(value, INCLUSION_FIELDS, "an inclusion proof")
    return InclusionProof(_count(v["leaf_index"], "leaf_index"), _count(v["tree_size"], "tree_size"),
                          _hash(v["root_hash"], "root_hash"), _hash(v["leaf_hash"], "leaf_hash"),
                          _path(v["inclusion_path"], "inclusion_path"))


def consistency_from_json(value: object) -> ConsistencyProof:
    v = _fields(value, CONSISTENCY_FIELDS, "a consistency proof")
    return ConsistencyProof(_count(v["old_size"], "old_size"), _count(v["new_size"], "new_size"),
                            _hash(v["old_root"], "old_root"), _hash(v["new_root"], "new_root"),
                            _path(v["consistency_path"], "consistency_path"))
