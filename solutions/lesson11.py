"""Lesson 11, worked solution: an inclusion-proof verifier with hashlib alone.

``is_published`` uses it to catch the resealed forgery that lesson 9 could not.
It recomputes the report's head from the report itself (lesson 9's walk): the
head written in the seal is only what the report says about itself, and a
report whose content no longer hashes to it (every refused event deleted, the
seal left as it was) must not borrow the published head's proof.
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


# student writes: begin
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


def sha256_hex(value) -> str:
    """SHA-256 of the canonical JSON (RFC 8785) of ``value``, in hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def recomputed_head(report: dict) -> str | None:
    """The head the report's content hashes to (lesson 9's walk), or None."""
    sealed, prev = report["seal"], sha256_hex({"run_id": report["run"]["run_id"]})
    if sealed["algorithm"] != "sha256-jcs-chain/2":
        return None  # the course seals under one algorithm (lesson 9)
    for position, event in enumerate(report["events"], start=1):
        bare = {key: value for key, value in event.items() if key != "chain"}
        prev = sha256_hex({"event": bare, "prev": prev})
        if event.get("seq") != position or event.get("chain") != prev:
            return None  # moved, removed, inserted or edited
    if len(report["events"]) != sealed["events"] or prev != sealed["chain"]:
        return None  # the seal's ends are not this ledger's
    body = sha256_hex({k: v for k, v in report.items() if k not in ("events", "seal")})
    head = sha256_hex({"algorithm": sealed["algorithm"], "body": body, "chain": prev,
                       "events": len(report["events"])})
    return head if head == sealed["head"] else None  # a seal that is not this report's


def is_published(report: dict, proof: dict, root: bytes) -> bool:
    """Whether the report's own leaf, by the proof's place and path, leads to root."""
    head = recomputed_head(report)  # never the head the seal claims: it proves nothing
    if head is None:
        return False
    # the leaf from the report you hold, never the one the proof names
    leaf = leaf_hash(report["run"]["run_id"], head)
    try:  # a proof not as `tlog prove` prints it proves nothing
        path = decode(proof["inclusion_path"])
        found = root_from_path(leaf, proof["leaf_index"], proof["tree_size"], path)
        named = decode([proof["leaf_hash"], proof["root_hash"]])
    except (KeyError, TypeError, ValueError):  # nor does a path that does not fit
        return False
    # a proof that names another leaf or another root is not this report's
    return found == root and named == [leaf, root]
# student writes: end


def decode(path: list[str]) -> list[bytes]:
    """A proof's base64 hashes as bytes."""
    return [base64.b64decode(item) for item in path]
