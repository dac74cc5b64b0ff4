"""Everything tlog reads from outside (notes, checkpoints, keys, proof files) answers any input with its own
one-line error, never a crash, and accepts only what it should."""

from __future__ import annotations

import base64

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlog import keys, note, proofs
from tlog.checkpoint import Checkpoint, CheckpointError, open_checkpoint, parse_checkpoint, sign_checkpoint

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOG = keys.demo_signer("log")
SIGNED = sign_checkpoint(Checkpoint(keys.LOG_ORIGIN, 5, bytes(range(32))), LOG)
TEXTS = st.one_of(st.text(max_size=300), st.builds(lambda a, b, c: SIGNED[:a] + b + SIGNED[a + c:],
                                                   st.integers(0, len(SIGNED)), st.text(max_size=5),
                                                   st.integers(0, 5)))


@FAST
@given(TEXTS)
def test_any_text_opened_as_a_checkpoint_is_the_signed_one_or_a_checkpoint_error(text):
    try:
        checkpoint = open_checkpoint(text, LOG.verifier())
    except CheckpointError as exc:
        assert "\n" not in str(exc)
        return
    assert checkpoint.text() == SIGNED.split("\n\n")[0] + "\n"  # only the signed text itself opens


@FAST
@given(st.text(max_size=200))
def test_any_text_parsed_as_a_checkpoint_body_reads_back_as_itself_or_is_refused(text):
    try:
        checkpoint = parse_checkpoint(text)
    except CheckpointError:
        return
    assert checkpoint.text() == text  # one spelling only: no leading zeros, no lax base64


@FAST
@given(st.text(max_size=120))
def test_any_text_read_as_a_key_is_a_key_or_a_note_error(text):
    for parse in (note.parse_signer, note.parse_verifier):
        try:
            key = parse(text)
        except note.NoteError as exc:
            assert "\n" not in str(exc)
            continue
        assert key.encode() == text.strip()


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 2**64) | st.text(max_size=50),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=20), inner, max_size=6),
                    max_leaves=12)
HASH = st.binary(min_size=32, max_size=32).map(lambda b: base64.b64encode(b).decode())


@FAST
@given(st.one_of(JSON, st.fixed_dictionaries({
    "leaf_index": JSON | st.integers(0, 9), "tree_size": JSON | st.integers(0, 9), "root_hash": JSON | HASH,
    "leaf_hash": JSON | HASH, "inclusion_path": JSON | st.lists(HASH, max_size=3)})))
def test_any_json_read_as_an_inclusion_proof_is_one_or_a_format_error(value):
    try:
        proof = proofs.inclusion_from_json(value)
    except proofs.ProofFormatError as exc:
        assert "\n" not in str(exc)
        return
    assert proof.to_json() == value  # read back exactly as written


@FAST
@given(st.one_of(JSON, st.fixed_dictionaries({
    "old_size": JSON | st.integers(0, 9), "new_size": JSON | st.integers(0, 9), "old_root": JSON | HASH,
    "new_root": JSON | HASH, "consistency_path": JSON | st.lists(HASH, max_size=3)})))
def test_any_json_read_as_a_consistency_proof_is_one_or_a_format_error(value):
    try:
        proof = proofs.consistency_from_json(value)
    except proofs.ProofFormatError:
        return
    assert proof.to_json() == value
