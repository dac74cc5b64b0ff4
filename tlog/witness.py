"""The witness: a second key, in other hands, that cosigns a checkpoint only when the log only grew.

A log's key can sign anything, including a second history in which a
published leaf is gone. A witness is there to make that show. It keeps one
thing of its own, the last checkpoint it cosigned (its state file), and it
cosigns a new checkpoint of the same log only after a consistency proof
joins the two:

* a smaller tree than the last is refused (the log went back);
* the same size with another root is refused: that is a **fork**, two
  histories signed by one key;
* a bigger tree is cosigned only when the consistency proof from the last
  checkpoint verifies; then the new checkpoint becomes the state.

The first checkpoint a witness ever sees it takes on trust (there is nothing
to compare it with), and says so. Consistency from the empty tree is
accepted here (merkle.ACCEPT_FROM_EMPTY): a witness that cosigned an empty
log must be able to cosign its first leaf.

A cosignature is a signature line (C2SP tlog-cosignature, type 0x04) over

    cosignature/v1
    time <seconds since the epoch>
    <the checkpoint's text>

and carries the time in front of the Ed25519 signature: base64(key id ||
8-byte big-endian time || signature). The time is the witness's clock; the
course's demo passes a fixed one, so its artifacts stay byte-identical.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

from tlog import files, merkle, note
from tlog.checkpoint import Checkpoint, CheckpointError, open_checkpoint, parse_checkpoint

MAX_TIME = 2**63 - 1


class WitnessError(ValueError):
    """The witness will not cosign, or a cosignature does not hold; the message says why."""


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What a cosignature signs: the header line, the time line, then the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n".encode("ascii") + text.encode("utf-8")


def cosignature_line(text: str, witness: note.Signer, timestamp: int) -> str:
    if witness.key_type != note.COSIGNATURE_V1:
        raise WitnessError(f"the key {witness.name} is not a witness key (type {note.COSIGNATURE_V1})")
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or not 0 <= timestamp <= MAX_TIME:
        raise WitnessError(f"a cosignature's time is a whole number of seconds, 0 to {MAX_TIME}")
    signature = witness.sign(cosigned_message(note.check_text(text), timestamp))
    data = struct.pack(">Q", timestamp) + signature
    return note.Signature(witness.name, witness.verifier().key_id, data).line()


# --- the witness's own state: the last checkpoint it cosigned -----------------------------------


def read_state(path: Path) -> Checkpoint | None:
    """The last checkpoint this witness cosigned, or None if it has cosigned nothing yet."""
    if not os.path.lexists(path):  # a link that loops is there, and is refused by the reader
        return None
    text = files.read_text(path, "witness state")
    try:
        return parse_checkpoint(text)
    except CheckpointError as exc:
        raise WitnessError(f"the witness's state {path} is not a checkpoint: {exc}") from None


def write_state(path: Path, checkpoint: Checkpoint) -> None:
    """Replace the state in one step, so that a crash leaves the old state or the new, never half."""
    files.replace(path, checkpoint.text())


# --- deciding --------------------------------------------------------------------------------


def judge(last: Checkpoint | None, new: Checkpoint, proof: list[bytes]) -> str:
    """Why the witness may cosign ``new`` after ``last``, in a few words; WitnessError if it may not."""
    if last is None:
        return "the first checkpoint this witness has seen, taken on trust"
    if new.origin != last.origin:
        raise WitnessError(f"the checkpoint is of the log {new.origin}; this witness follows {last.origin}")
    if new.size < last.size:
        raise WitnessError(f"the log went back: size {new.size} after this witness cosigned size {last.size}")
    if new.size == last.size and new.root != last.root:
        raise WitnessError(f"a fork: size {new.size} with root {new.root.hex()[:12]}, but this witness "
                           f"cosigned size {last.size} with root {last.root.hex()[:12]}")
    try:
        merkle.verify_consistency(last.size, new.size, last.root, new.root, proof,
                                  from_empty=merkle.ACCEPT_FROM_EMPTY)
    except merkle.ProofError as exc:
        raise WitnessError(f"not consistent with size {last.size}, the last this witness cosigned: {exc}") from None
    if new.size == last.size:
        return f"the same tree it cosigned last (size {new.size})"
    return f"consistent with size {last.size}, the last it cosigned"


def cosign(signed: str, proof: list[bytes], *, log_key: note.Verifier, witness: note.Signer,
           state: Path, timestamp: int) -> tuple[str, str]:
    """Check ``signed`` (a checkpoint signed by the log) against the state and cosign it.

    Returns the note with the witness's cosignature line added, and why it
    was cosigned; the state then holds this checkpoint. Raises WitnessError,
    and leaves the state as it was, when the checkpoint is not the log's or
    does not follow from the last one cosigned.
    """
    try:
        new = open_checkpoint(signed, log_key)
    except CheckpointError as exc:
        raise WitnessError(f"not a checkpoint signed by the log {log_key.name}: {exc}") from None
    why = judge(read_state(state), new, proof)
    line = cosignature_line(new.text(), witness, timestamp)
    write_state(state, new)
    return note.add_signature(signed, line), why


def check_cosignature(signed: str, witness_key: note.Verifier) -> int:
    """The time of ``witness_key``'s cosignature on ``signed``, once it verifies; WitnessError otherwise."""
    if witness_key.key_type != note.COSIGNATURE_V1:
        raise WitnessError(f"the key {witness_key.name} is not a witness key (type {note.COSIGNATURE_V1})")
    try:
        text, mine = note.signatures_of(signed, witness_key)
    except note.NoteError as exc:
        raise WitnessError(str(exc)) from None
    if not mine:
        raise WitnessError(f"no cosignature by the witness {witness_key.name}")
    times = []
    for signature in mine:
        if len(signature.data) != 8 + 64:
            raise WitnessError(f"the cosignature by {witness_key.name} is not a time and an Ed25519 signature")
        (timestamp,) = struct.unpack(">Q", signature.data[:8])
        if timestamp > MAX_TIME or not witness_key.check(cosigned_message(text, timestamp), signature.data[8:]):
            raise WitnessError(f"the cosignature by {witness_key.name} does not verify for this checkpoint")
        times.append(timestamp)
    return max(times)
