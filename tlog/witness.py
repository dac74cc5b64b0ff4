"""The witness: a second key, in other hands, that cosigns a checkpoint only when the log only grew.

A log's key can sign anything, including a second history in which a
published leaf is gone. A witness is there to make that show. It keeps one
thing of its own, the last checkpoint it cosigned (its state file), and it
cosigns a new checkpoint of the same log only after a consistency proof
joins the two (a proof to the checkpoint it is asked to cosign, whatever
size the log has grown to since):

* a smaller tree than the last is refused (the log went back);
* the same size with another root is refused: that is a **fork**, two
  histories signed by one key;
* a bigger tree is cosigned only when the consistency proof from the last
  checkpoint verifies; then the new checkpoint becomes the state.

The first checkpoint a witness ever sees it takes on trust (there is nothing
to compare it with), and says so.

Its state is the checkpoint as it cosigned it: the log's signature and its
own cosignature on it. It checks both each time it reads the state, so a
state edited by hand (another size, another root) is refused, not trusted:
only the witness's key could have cosigned it. What that cannot catch is a
state put back to an earlier one the witness really did cosign: every
signature on it holds. Only storage its host cannot rewind (a counter in
hardware, a second party that keeps the latest) catches that rollback.

Consistency from the empty tree is accepted here (merkle.ACCEPT_FROM_EMPTY):
a witness that cosigned an empty log must be able to cosign its first leaf.

A cosignature is a signature line (C2SP tlog-cosignature, type 0x04) over

    cosignature/v1
    time <seconds since the epoch>
    <the checkpoint's text>

and carries the time in front of the Ed25519 signature: base64(key id ||
8-byte big-endian time || signature). The time is the witness's clock, at
most 2**63 - 1 as C2SP tlog-cosignature says (a later one is refused as
such); the course's demo passes a fixed one, so its artifacts stay
byte-identical.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from core.run import jsonfile
from tlog import files, merkle, note
from tlog.checkpoint import Checkpoint, CheckpointError, open_checkpoint

if TYPE_CHECKING:
    from tlog.logfile import Log

MAX_TIME = 2**63 - 1  # C2SP tlog-cosignature: the timestamp MUST NOT exceed 2^63 - 1


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


def read_state(path: Path, *, log_key: note.Verifier, witness_key: note.Verifier) -> Checkpoint | None:
    """The last checkpoint this witness cosigned, or None if it has cosigned nothing yet.

    The state is that checkpoint as the witness cosigned it, and both
    signatures on it must hold: the log's, and this witness's own. A state
    that was edited is WitnessError; one put back to an earlier state the
    witness did cosign is not (see the module's docstring).
    """
    if not os.path.lexists(path):  # a link that loops is there, and is refused by the reader
        return None
    text = files.read_text(path, "witness state")
    try:
        checkpoint = open_checkpoint(text, log_key)
        check_cosignature(text, witness_key)
    except (CheckpointError, WitnessError) as exc:
        raise WitnessError(f"the witness's state {jsonfile.shown_path(path)} is not a checkpoint signed by the "
                           f"log and cosigned by this witness, so it is not trusted: {exc}") from None
    return checkpoint


def write_state(path: Path, cosigned: str) -> None:
    """Replace the state with ``cosigned`` in one step, so a crash leaves the old state or the new, never half."""
    files.replace(path, cosigned)


def proof_for_witness(log: Log, signed: str, state_path: Path, log_key: note.Verifier,
                      witness_key: note.Verifier) -> list[bytes]:
    """What the log hands its witness: the consistency proof from the size it last cosigned to the checkpoint's.

    The proof goes to the size of the checkpoint the witness is asked to
    cosign, not to the log's size now: the log may have grown since it
    published that checkpoint, and a proof to another tree would not join it.
    """
    last = read_state(state_path, log_key=log_key, witness_key=witness_key)
    try:
        size = open_checkpoint(signed, log_key).size
    except CheckpointError:
        return []  # the witness refuses the checkpoint itself, and says why
    if last is None or not last.size <= size <= log.size:
        return []
    return log.consistency_path(last.size, size)


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
    why = judge(read_state(state, log_key=log_key, witness_key=witness.verifier()), new, proof)
    line = cosignature_line(new.text(), witness, timestamp)
    cosigned = note.add_signature(signed, line)
    write_state(state, own_cosignature(cosigned, log_key, witness.verifier()))
    return cosigned, why


def own_cosignature(cosigned: str, log_key: note.Verifier, witness_key: note.Verifier) -> str:
    """``cosigned`` with only the log's signature and this witness's cosignature: what the state keeps."""
    text, signatures = note.parse(cosigned)
    kept = [s for s in signatures if (s.name, s.key_id) in {(k.name, k.key_id) for k in (log_key, witness_key)}]
    return text + "\n" + "".join(s.line() for s in kept)


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
        if timestamp > MAX_TIME:
            raise WitnessError(f"the cosignature by {witness_key.name} carries the time {timestamp}, past "
                               f"2**63 - 1, the latest C2SP tlog-cosignature allows")
        if not witness_key.check(cosigned_message(text, timestamp), signature.data[8:]):
            raise WitnessError(f"the cosignature by {witness_key.name} does not verify for this checkpoint")
        times.append(timestamp)
    return max(times)
