"""The Merkle tree of a transparency log: RFC 6962's hashing and RFC 9162's proofs (section 2.1).

A log is a list of leaves in the order they were appended. Its **tree head**
(the root) is one hash that commits to every leaf and to their order:

    leaf hash      = SHA-256(0x00 || leaf data)
    node hash      = SHA-256(0x01 || left || right)
    MTH of {}      = SHA-256 of nothing (the empty tree)
    MTH of {d}     = the leaf hash of d
    MTH of D[0:n]  = node hash(MTH of D[0:k], MTH of D[k:n]),  k the largest power of two below n

The 0x00 and 0x01 in front keep a leaf from ever being read as a node.

Two proofs let someone who holds only a root check a claim against it:

* **inclusion**: leaf ``index`` is in the tree of ``size`` leaves whose root
  is R. The proof is the path: one sibling hash per level, from the leaf up.
* **consistency**: the tree of ``old_size`` leaves is a prefix of the tree of
  ``new_size`` leaves, so the log only grew. The proof is the few subtree
  hashes that rebuild both roots at once.

This module makes both proofs from the leaves (RFC 9162 2.1.3.1 and 2.1.4.1)
and checks them from hashes alone (2.1.3.2 and 2.1.4.2): a verifier needs no
leaf but its own. Every function takes and gives hashes as raw bytes. The
inclusion verifier refuses a leaf hash that is not 32 bytes; roots and path
hashes it only compares and hashes, as the published vectors expect, so the
places that read hashes from outside (a checkpoint, a proof file) check that
each is 32 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

HASH_SIZE = 32
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()

# A consistency proof from the empty tree (old size 0) is outside RFC 9162, and the two published
# vector sets answer it differently. The verifier names its rule, and the caller picks one:
REFUSE_FROM_EMPTY = "refuse"  # transparency-dev/merkle: "a consistency proof from an empty tree is meaningless"
ACCEPT_FROM_EMPTY = "accept"  # CCTV: the empty tree is a prefix of every tree, shown by an empty proof
FROM_EMPTY_RULES = (REFUSE_FROM_EMPTY, ACCEPT_FROM_EMPTY)


class ProofError(ValueError):
    """A proof does not hold; the message says which check it failed."""


# --- hashing ---------------------------------------------------------------------------------


def leaf_hash(data: bytes) -> bytes:
    """The hash of one leaf: SHA-256(0x00 || data)."""
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an interior node: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def split_point(n: int) -> int:
    """k, the largest power of two smaller than ``n`` (n >= 2): where MTH splits D[0:n]."""
    return 1 << ((n - 1).bit_length() - 1)


def tree_root(leaves: Sequence[bytes]) -> bytes:
    """MTH of ``leaves`` (leaf hashes, in order): the root a checkpoint signs."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = split_point(len(leaves))
    return node_hash(tree_root(leaves[:k]), tree_root(leaves[k:]))


def running_roots(leaves: Sequence[bytes]) -> Iterator[bytes]:
    """The root after each leaf in turn, without rebuilding the tree each time.

    The tree of n leaves is a row of perfect subtrees, largest first (one for
    each bit set in n). Appending a leaf adds a subtree of one and merges
    equal neighbours, like carrying in binary addition; the root folds the row
    from the right. Each root equals ``tree_root(leaves[:i + 1])``.
    """
    row: list[tuple[int, bytes]] = []  # (size, hash) of each perfect subtree
    for leaf in leaves:
        row.append((1, leaf))
        while len(row) > 1 and row[-1][0] == row[-2][0]:
            (size, right), (_, left) = row.pop(), row.pop()
            row.append((2 * size, node_hash(left, right)))
        root = row[-1][1]
        for _, left in reversed(row[:-1]):
            root = node_hash(left, root)
        yield root


# --- making proofs (RFC 9162 2.1.3.1 and 2.1.4.1) -----------------------------------------------


def inclusion_path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(index, D[0:n]): the sibling hashes from leaf ``index`` up to the root, lowest first."""
    if not 0 <= index < len(leaves):
        raise ProofError(f"leaf {index} is not in a tree of {len(leaves)} leaves")
    if len(leaves) == 1:
        return []
    k = split_point(len(leaves))
    if index < k:
        return inclusion_path(index, leaves[:k]) + [tree_root(leaves[k:])]
    return inclusion_path(index - k, leaves[k:]) + [tree_root(leaves[:k])]


def consistency_path(old_size: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(old_size, D[0:n]): the hashes that show the first ``old_size`` leaves are a prefix of all n.

    Empty when the sizes are equal, and from the empty tree (which only the
    accepting rule verifies).
    """
    if not 0 <= old_size <= len(leaves):
        raise ProofError(f"a tree of {len(leaves)} leaves has no prefix of {old_size}")
    if old_size in (0, len(leaves)):
        return []
    return _subproof(old_size, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    """SUBPROOF(m, D[0:n], b): ``whole`` says D[0:m] is a subtree the verifier already has the root of."""
    n = len(leaves)
    if m == n:
        return [] if whole else [tree_root(leaves)]
    k = split_point(n)
    if m <= k:
        return _subproof(m, leaves[:k], whole) + [tree_root(leaves[k:])]
    return _subproof(m - k, leaves[k:], False) + [tree_root(leaves[:k])]


# --- checking proofs (RFC 9162 2.1.3.2 and 2.1.4.2) ---------------------------------------------


def _size(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProofError(f"{what} must be a whole number of leaves, not {value!r}")
    return value


def root_from_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes]) -> bytes:
    """The root that ``path`` leads to from ``leaf`` at ``index`` in a tree of ``size``.

    RFC 9162 2.1.3.2: fn is the leaf's position and sn the last position, in
    binary. At each level, a node that is a right child (fn odd), or the last
    node of its level with no right sibling (fn == sn), takes its sibling from
    the left; any other node takes it from the right. A last node with no
    sibling is promoted unchanged until it becomes a right child: the loop
    shifts past those levels. When the path ends, sn must be 0 (the root).
    """
    index, size = _size(index, "the leaf index"), _size(size, "the tree size")
    if not isinstance(leaf, bytes) or len(leaf) != HASH_SIZE:
        raise ProofError(f"a leaf hash is {HASH_SIZE} bytes, not {len(leaf) if isinstance(leaf, bytes) else leaf!r}")
    if index >= size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn, r = index, size - 1, leaf
    for position, p in enumerate(path):
        if sn == 0:
            raise ProofError(f"the path is too long: hash {position + 1} of {len(path)} is past the root")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError(f"the path is too short: {len(path)} hashes do not reach the root of {size} leaves")
    return r


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes) -> None:
    """Raise ProofError unless ``path`` proves ``leaf`` is leaf ``index`` of the tree of ``size`` with ``root``."""
    if root_from_inclusion(index, size, leaf, path) != root:
        raise ProofError("the path does not lead to the root: this leaf is not at this place in this tree")


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       path: Sequence[bytes], *, from_empty: str = REFUSE_FROM_EMPTY) -> None:
    """Raise ProofError unless ``path`` proves the tree of ``old_size`` is a prefix of the tree of ``new_size``.

    RFC 9162 2.1.4.2, with the cases around it made explicit: a tree that
    shrank is refused; equal sizes need an empty path and equal roots; from
    the empty tree, ``from_empty`` decides (REFUSE_FROM_EMPTY or
    ACCEPT_FROM_EMPTY, above).
    """
    old_size, new_size = _size(old_size, "the old size"), _size(new_size, "the new size")
    if from_empty not in FROM_EMPTY_RULES:
        raise ValueError(f"from_empty is one of {FROM_EMPTY_RULES}, not {from_empty!r}")
    if old_size > new_size:
        raise ProofError(f"the tree shrank, from {old_size} leaves to {new_size}")
    if old_size == new_size:
        if path:
            raise ProofError(f"two trees of the same size need an empty proof, not {len(path)} hashes")
        if old_root != new_root:
            raise ProofError(f"two trees of {old_size} leaves with different roots: a fork")
        if old_size == 0 and from_empty == REFUSE_FROM_EMPTY:
            raise ProofError(f"a consistency proof from the empty tree is refused (from_empty={REFUSE_FROM_EMPTY})")
        if old_size == 0 and old_root != EMPTY_ROOT:
            raise ProofError("a tree of 0 leaves has the empty tree's root, SHA-256 of nothing")
        return
    if old_size == 0:
        if from_empty == REFUSE_FROM_EMPTY:
            raise ProofError(f"a consistency proof from the empty tree is refused (from_empty={REFUSE_FROM_EMPTY})")
        if path:
            raise ProofError("the empty tree is a prefix of every tree by an empty proof, not one of hashes")
        if old_root != EMPTY_ROOT:
            raise ProofError("a tree of 0 leaves has the empty tree's root, SHA-256 of nothing")
        return
    if not path:
        raise ProofError("an empty proof cannot show a tree grew")
    fr, sr = _roots_from_consistency(old_size, new_size, old_root, list(path))
    if fr != old_root:
        raise ProofError("the proof does not rebuild the old root: the old tree is not a prefix of the new")
    if sr != new_root:
        raise ProofError("the proof does not rebuild the new root: the new tree does not extend the old")


def _roots_from_consistency(first: int, second: int, first_hash: bytes, path: list[bytes]) -> tuple[bytes, bytes]:
    """Both roots rebuilt from a consistency proof, 0 < first < second (RFC 9162 2.1.4.2, steps 2 to 7)."""
    if first & (first - 1) == 0:  # the old tree is one perfect subtree: its root starts the walk
        path = [first_hash] + path
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for position, c in enumerate(path[1:], start=2):
        if sn == 0:
            raise ProofError(f"the proof is too long: hash {position} of {len(path)} is past the root")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError(f"the proof is too short: it does not reach the root of {second} leaves")
    return fr, sr
