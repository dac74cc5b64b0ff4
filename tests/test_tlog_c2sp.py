"""tlog against the C2SP specifications and Go's reference reader (golang.org/x/mod/sumdb/note).

Each case is one thing the specs allow, or one limit they set, taken from
tlog-checkpoint, signed-note and tlog-cosignature, with Go's reader where a
spec leaves the number to the verifier; and the witness's own state, which
must not be trusted once it was edited.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tlog import keys, note, proofs, witness
from tlog.checkpoint import Checkpoint, CheckpointError, open_checkpoint, parse_checkpoint, sign_checkpoint
from tlog.logfile import Entry, Log, write_log

from .tlog_helpers import run_tlog

LOG, WITNESS = keys.demo_signer("log"), keys.demo_signer("witness")
ROOT = base64.b64encode(bytes(range(32))).decode("ascii")


def _entries(label: bytes, count: int) -> list[Entry]:
    return [Entry(hashlib.sha256(b"run%d" % i).hexdigest(), hashlib.sha256(label + b"%d" % i).hexdigest())
            for i in range(count)]


def _signed(log: Log) -> str:
    return sign_checkpoint(Checkpoint(log.origin, log.size, log.root()), LOG)


def _line(name: str, raw: bytes) -> str:
    return f"{note.EM_DASH} {name} {base64.b64encode(raw).decode('ascii')}\n"


def _unknown_line(number: int) -> str:
    """A signature line by a key no verifier here holds."""
    return _line(f"other.example/key{number}", hashlib.sha256(b"%d" % number).digest()[:4] + bytes(64))


# --- tlog-checkpoint: extension lines, and the size of a tree -----------------------------------------


def test_a_checkpoint_with_extension_lines_opens_and_keeps_them_in_what_is_signed(tmp_path):
    text = f"{keys.LOG_ORIGIN}\n5\n{ROOT}\nan extension line\nanother one\n"
    signed = note.sign(text, LOG)
    checkpoint = open_checkpoint(signed, LOG.verifier())
    assert checkpoint.extensions == ("an extension line", "another one")
    assert checkpoint.text() == text  # the text the log signed, whole
    cosigned, _ = witness.cosign(signed, [], log_key=LOG.verifier(), witness=WITNESS,
                                 state=tmp_path / "witness.state", timestamp=1)
    assert witness.check_cosignature(cosigned, WITNESS.verifier()) == 1  # the cosignature covers the extensions


EXTENSION = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.lists(EXTENSION, max_size=4), st.integers(0, 2**64 - 1))
def test_any_extension_lines_and_size_read_back_as_signed(extensions, size):
    checkpoint = Checkpoint(keys.LOG_ORIGIN, size, bytes(32), tuple(extensions))
    assert open_checkpoint(sign_checkpoint(checkpoint, LOG), LOG.verifier()) == checkpoint


def test_an_empty_extension_line_is_refused():
    with pytest.raises(CheckpointError, match="extension lines are non-empty"):
        parse_checkpoint(f"{keys.LOG_ORIGIN}\n5\n{ROOT}\nfine\n\nafter a blank\n")


@pytest.mark.parametrize("size", [2**63 - 1, 2**63, 2**64 - 1])
def test_a_tree_size_up_to_two_to_the_64_minus_1_is_read(size):
    assert parse_checkpoint(f"{keys.LOG_ORIGIN}\n{size}\n{ROOT}\n").size == size
    proof = proofs.inclusion_from_json({"leaf_index": size - 1, "tree_size": size, "root_hash": ROOT,
                                        "leaf_hash": ROOT, "inclusion_path": []})
    assert proof.tree_size == size


@pytest.mark.parametrize("size", [2**64, 10**30])
def test_a_tree_size_past_two_to_the_64_minus_1_is_named_as_such(size):
    with pytest.raises(CheckpointError, match=r"tree size is at most 2\*\*64 - 1"):
        parse_checkpoint(f"{keys.LOG_ORIGIN}\n{size}\n{ROOT}\n")
    with pytest.raises(proofs.ProofFormatError, match=r"tree_size is at most 2\*\*64 - 1"):
        proofs.inclusion_from_json({"leaf_index": 0, "tree_size": size, "root_hash": ROOT, "leaf_hash": ROOT,
                                    "inclusion_path": []})


# --- signed-note: as many signatures as Go reads, and other keys' lines ignored --------------------------


def test_a_note_with_100_signature_lines_opens_and_101_is_refused():
    signed = sign_checkpoint(Checkpoint(keys.LOG_ORIGIN, 5, bytes(32)), LOG)
    hundred = signed + "".join(_unknown_line(n) for n in range(99))
    assert open_checkpoint(hundred, LOG.verifier()).size == 5
    with pytest.raises(CheckpointError, match="at most 100 signatures"):
        open_checkpoint(hundred + _unknown_line(99), LOG.verifier())


def test_another_keys_line_in_a_non_canonical_base64_spelling_is_ignored():
    """Go decodes with base64.StdEncoding, which leaves a last character's unused bits unchecked."""
    line = _unknown_line(1)
    encoded = line.rsplit(" ", 1)[1].rstrip("\n")
    assert encoded.endswith("=") and not encoded.endswith("==")  # 68 bytes: the last character has 2 spare bits
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    spare = alphabet[alphabet.index(encoded[-2]) | 1]
    odd = encoded[:-2] + spare + "="
    assert odd != encoded and base64.b64decode(odd) == base64.b64decode(encoded)
    signed = sign_checkpoint(Checkpoint(keys.LOG_ORIGIN, 5, bytes(32)), LOG)
    assert open_checkpoint(signed + line.replace(encoded, odd), LOG.verifier()).size == 5


def test_a_line_that_is_not_base64_at_all_is_refused_as_go_refuses_it():
    signed = sign_checkpoint(Checkpoint(keys.LOG_ORIGIN, 5, bytes(32)), LOG)
    with pytest.raises(CheckpointError, match="is not base64"):
        open_checkpoint(signed + f"{note.EM_DASH} other.example/key not*base64\n", LOG.verifier())


# --- tlog-cosignature: the time, to 2**63 - 1 ---------------------------------------------------------


def _cosigned_at(timestamp: int) -> str:
    signed = sign_checkpoint(Checkpoint(keys.LOG_ORIGIN, 5, bytes(32)), LOG)
    text = signed.split("\n\n")[0] + "\n"
    data = struct.pack(">Q", timestamp) + WITNESS.sign(witness.cosigned_message(text, timestamp))
    return signed + note.Signature(WITNESS.name, WITNESS.verifier().key_id, data).line()


def test_a_cosignature_at_the_last_time_c2sp_allows_verifies():
    assert witness.check_cosignature(_cosigned_at(2**63 - 1), WITNESS.verifier()) == 2**63 - 1


@pytest.mark.parametrize("timestamp", [2**63, 2**64 - 1])
def test_a_cosignature_past_the_last_time_is_named_as_such_not_as_a_bad_signature(timestamp):
    with pytest.raises(witness.WitnessError, match=rf"carries the time {timestamp}, past 2\*\*63 - 1"):
        witness.check_cosignature(_cosigned_at(timestamp), WITNESS.verifier())


# --- the witness: a proof to the checkpoint it signs, and a state it can trust -----------------------------


def _publish(folder, log: Log) -> None:
    write_log(folder / "heads.log", log)
    (folder / "heads.log.checkpoint").write_text(_signed(log), encoding="utf-8")


def test_cosign_proves_to_the_checkpoint_it_is_asked_to_sign_not_to_the_logs_size(capsys, tmp_path):
    """The log grew by one leaf after it published: the witness still cosigns what was published."""
    entries, state = _entries(b"head", 6), tmp_path / "witness.state"
    _publish(tmp_path, Log(keys.LOG_ORIGIN, entries[:3]))
    assert run_tlog(capsys, "cosign", tmp_path / "heads.log", "--state", state, "--time", 1).code == 0
    _publish(tmp_path, Log(keys.LOG_ORIGIN, entries[:5]))
    write_log(tmp_path / "heads.log", Log(keys.LOG_ORIGIN, entries))  # one more leaf, not yet published
    said = run_tlog(capsys, "cosign", tmp_path / "heads.log", "--state", state, "--time", 2)
    assert (said.code, said.out) == (0, "cosigned heads.log.checkpoint: consistent with size 3, the last it "
                                        "cosigned\n"), said.err
    assert open_checkpoint(state.read_text(encoding="utf-8"), LOG.verifier()).size == 5


def _cosign(log: Log, state, proof) -> str:
    return witness.cosign(_signed(log), proof, log_key=LOG.verifier(), witness=WITNESS, state=state, timestamp=9)[1]


def test_a_state_edited_back_to_an_earlier_size_is_refused_and_the_fork_is_not_cosigned(tmp_path):
    genuine, state = Log(keys.LOG_ORIGIN, _entries(b"head", 5)), tmp_path / "witness.state"
    fork = Log(keys.LOG_ORIGIN, [*genuine.entries[:3], *_entries(b"fork", 6)[3:]])
    _cosign(genuine, state, [])
    lines = state.read_text(encoding="utf-8").split("\n")
    lines[1:3] = ["3", base64.b64encode(genuine.root(3)).decode("ascii")]  # size 3, its true root, old signatures
    state.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(witness.WitnessError, match="signed by the log and cosigned by this witness, so it is not"):
        _cosign(fork, state, fork.consistency_path(3))


def test_a_state_without_the_witnesses_own_cosignature_is_refused(tmp_path):
    """The log's key alone could write a state; only the witness's cosignature shows the witness wrote it."""
    state = tmp_path / "witness.state"
    state.write_text(_signed(Log(keys.LOG_ORIGIN, _entries(b"head", 3))), encoding="utf-8")
    with pytest.raises(witness.WitnessError, match="no cosignature by the witness"):
        _cosign(Log(keys.LOG_ORIGIN, _entries(b"head", 5)), state, [])


def test_what_the_witness_still_trusts_a_state_rolled_back_to_an_earlier_genuine_one(tmp_path):
    """Every signature on an earlier state holds: only storage its host cannot rewind would catch this."""
    genuine, state = Log(keys.LOG_ORIGIN, _entries(b"head", 5)), tmp_path / "witness.state"
    fork = Log(keys.LOG_ORIGIN, [*genuine.entries[:3], *_entries(b"fork", 6)[3:]])
    _cosign(Log(keys.LOG_ORIGIN, genuine.entries[:3]), state, [])
    shutil.copy(state, tmp_path / "at-size-3")
    _cosign(genuine, state, genuine.consistency_path(3, 5))
    shutil.copy(tmp_path / "at-size-3", state)  # rolled back: a state the witness did write
    assert _cosign(fork, state, fork.consistency_path(3)) == "consistent with size 3, the last it cosigned"
