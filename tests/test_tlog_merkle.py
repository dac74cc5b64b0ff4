"""tlog/merkle.py: RFC 6962 hashing and RFC 9162's proofs, made and checked, and attacked.

The proofs are also checked by a second verifier written here, straight from
RFC 9162's pseudo-code and sharing no code with tlog, so that a bug the
maker and the checker share cannot hide.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlog import merkle

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- an independent verifier, from RFC 9162 section 2.1.3.2 and 2.1.4.2 -----------------------


def _hash(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def rfc_verify_inclusion(leaf_index, tree_size, leaf, inclusion_path, root_hash) -> bool:
    if leaf_index >= tree_size:
        return False
    fn, sn, r = leaf_index, tree_size - 1, leaf
    for p in inclusion_path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = _hash(b"\x01", p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn //= 2
                    sn //= 2
        else:
            r = _hash(b"\x01", r, p)
        fn //= 2
        sn //= 2
    return sn == 0 and r == root_hash


def rfc_verify_consistency(first, second, first_hash, second_hash, consistency_path) -> bool:
    """For 0 < first < second (the RFC's case); equal sizes need an empty path and equal roots."""
    if first == second:
        return not consistency_path and first_hash == second_hash
    if not 0 < first < second or not consistency_path:
        return False
    path = list(consistency_path)
    if first & (first - 1) == 0:
        path.insert(0, first_hash)
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn //= 2
        sn //= 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr = _hash(b"\x01", c, fr)
            sr = _hash(b"\x01", c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn //= 2
                    sn //= 2
        else:
            sr = _hash(b"\x01", sr, c)
        fn //= 2
        sn //= 2
    return fr == first_hash and sr == second_hash and sn == 0


def rfc_root(leaves: list[bytes]) -> bytes:
    """MTH, RFC 9162 2.1.1, written out again."""
    if not leaves:
        return _hash()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return _hash(b"\x01", rfc_root(leaves[:k]), rfc_root(leaves[k:]))


def tree(n: int, salt: int = 0) -> list[bytes]:
    return [merkle.leaf_hash(f"leaf {salt} {i}".encode()) for i in range(n)]


# --- hashing ----------------------------------------------------------------------------------


def test_hashing_is_rfc_6962s():
    assert merkle.EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert merkle.leaf_hash(b"a") == _hash(b"\x00", b"a")
    assert merkle.node_hash(b"L", b"R") == _hash(b"\x01", b"L", b"R")
    assert merkle.leaf_hash(b"") != merkle.EMPTY_ROOT  # a leaf is never the empty tree


@given(st.integers(0, 70))
def test_tree_root_and_running_roots_agree_with_the_rfc(n):
    leaves = tree(n)
    assert merkle.tree_root(leaves) == rfc_root(leaves)
    assert list(merkle.running_roots(leaves)) == [rfc_root(leaves[:i]) for i in range(1, n + 1)]


# --- every proof it makes, the independent verifier accepts -------------------------------------


@FAST
@given(st.integers(1, 70), st.data())
def test_every_inclusion_proof_verifies_under_the_independent_verifier(n, data):
    leaves, index = tree(n), data.draw(st.integers(0, n - 1))
    path = merkle.inclusion_path(index, leaves)
    root = rfc_root(leaves)
    assert rfc_verify_inclusion(index, n, leaves[index], path, root)
    merkle.verify_inclusion(index, n, leaves[index], path, root)


@FAST
@given(st.integers(1, 70), st.data())
def test_every_consistency_proof_verifies_under_the_independent_verifier(n, data):
    leaves, m = tree(n), data.draw(st.integers(1, n))
    path = merkle.consistency_path(m, leaves)
    assert rfc_verify_consistency(m, n, rfc_root(leaves[:m]), rfc_root(leaves), path)
    merkle.verify_consistency(m, n, rfc_root(leaves[:m]), rfc_root(leaves), path)


def test_every_proof_of_small_trees_verifies_both_ways():
    for n in range(1, 33):
        leaves = tree(n)
        for index in range(n):
            path = merkle.inclusion_path(index, leaves)
            assert rfc_verify_inclusion(index, n, leaves[index], path, rfc_root(leaves)), (index, n)
        for m in range(1, n + 1):
            path = merkle.consistency_path(m, leaves)
            assert rfc_verify_consistency(m, n, rfc_root(leaves[:m]), rfc_root(leaves), path), (m, n)


# --- and nothing else: mutated proofs fail under both verifiers ---------------------------------


def _flip(raw: bytes, bit: int) -> bytes:
    data = bytearray(raw)
    data[bit // 8] ^= 1 << (bit % 8)
    return bytes(data)


@FAST
@given(st.integers(2, 70), st.data())
def test_a_flipped_bit_anywhere_in_an_inclusion_proof_fails(n, data):
    leaves = tree(n)
    index = data.draw(st.integers(0, n - 1))
    path, root = merkle.inclusion_path(index, leaves), rfc_root(leaves)
    which = data.draw(st.sampled_from(["leaf", "root", *range(len(path))]))
    bit = data.draw(st.integers(0, 255))
    leaf = _flip(leaves[index], bit) if which == "leaf" else leaves[index]
    root = _flip(root, bit) if which == "root" else root
    path = [(_flip(h, bit) if i == which else h) for i, h in enumerate(path)]
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(index, n, leaf, path, root)
    assert not rfc_verify_inclusion(index, n, leaf, path, root)


@FAST
@given(st.integers(3, 70), st.data())
def test_a_flipped_bit_anywhere_in_a_consistency_proof_fails(n, data):
    leaves = tree(n)
    m = data.draw(st.integers(1, n - 1))
    path, old, new = merkle.consistency_path(m, leaves), rfc_root(leaves[:m]), rfc_root(leaves)
    which = data.draw(st.sampled_from(["old", "new", *range(len(path))]))
    bit = data.draw(st.integers(0, 255))
    old = _flip(old, bit) if which == "old" else old
    new = _flip(new, bit) if which == "new" else new
    path = [(_flip(h, bit) if i == which else h) for i, h in enumerate(path)]
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(m, n, old, new, path)
    assert not rfc_verify_consistency(m, n, old, new, path)


@FAST
@given(st.integers(1, 70), st.data())
def test_another_index_size_or_path_length_fails(n, data):
    """The sizes and the path's length are part of the proof: a proof for one place is not for another."""
    leaves = tree(n)
    index = data.draw(st.integers(0, n - 1))
    path, root = merkle.inclusion_path(index, leaves), rfc_root(leaves)
    other = data.draw(st.integers(0, 2 * n + 2).filter(lambda i: i != index))
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(other, n, leaves[index], path, root)
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(index, n, leaves[index], path + [leaves[0]], root)
    if path:
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, n, leaves[index], path[:-1], root)
    if len(set(path)) > 1:
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, n, leaves[index], path[1:] + path[:1], root)


@FAST
@given(st.integers(0, 2**64), st.integers(0, 2**64), st.binary(max_size=40),
       st.lists(st.binary(max_size=40), max_size=70), st.binary(max_size=40))
def test_the_inclusion_verifier_answers_any_input_with_a_proof_error(index, size, leaf, path, root):
    """Whatever it is handed, it accepts only a real proof: the rest is a ProofError, never a crash."""
    try:
        merkle.verify_inclusion(index, size, leaf, path, root)
    except merkle.ProofError:
        return
    assert rfc_verify_inclusion(index, size, leaf, path, root)


@FAST
@given(st.integers(0, 2**64), st.integers(0, 2**64), st.binary(max_size=40), st.binary(max_size=40),
       st.lists(st.binary(max_size=40), max_size=70), st.sampled_from(merkle.FROM_EMPTY_RULES))
def test_the_consistency_verifier_answers_any_input_with_a_proof_error(old, new, old_root, new_root, path, rule):
    try:
        merkle.verify_consistency(old, new, old_root, new_root, path, from_empty=rule)
    except merkle.ProofError:
        return
    if old == 0:
        assert rule == merkle.ACCEPT_FROM_EMPTY and not path and old_root == merkle.EMPTY_ROOT
    else:
        assert rfc_verify_consistency(old, new, old_root, new_root, path)


@pytest.mark.parametrize("value", [True, -1, 1.0, "3", None])
def test_sizes_that_are_not_whole_numbers_are_a_proof_error(value):
    leaf = tree(1)[0]
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(value, 1, leaf, [], leaf)
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(1, value, leaf, leaf, [])


def test_the_empty_tree_rule_is_named_and_each_rule_does_what_it_says():
    leaves = tree(3)
    with pytest.raises(merkle.ProofError, match="from_empty=refuse"):
        merkle.verify_consistency(0, 3, merkle.EMPTY_ROOT, rfc_root(leaves), [])
    merkle.verify_consistency(0, 3, merkle.EMPTY_ROOT, rfc_root(leaves), [], from_empty=merkle.ACCEPT_FROM_EMPTY)
    with pytest.raises(merkle.ProofError):  # accepted only from the empty tree's own root
        merkle.verify_consistency(0, 3, leaves[0], rfc_root(leaves), [], from_empty=merkle.ACCEPT_FROM_EMPTY)
    with pytest.raises(ValueError):
        merkle.verify_consistency(1, 3, leaves[0], rfc_root(leaves), [], from_empty="maybe")
