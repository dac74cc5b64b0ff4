"""Checkpoints (C2SP tlog-checkpoint): the log's tree head at one size, as the text of a signed note.

    lab.example/harness-course/log          the origin: which log this is
    5                                       the tree size, in decimal
    mrVFgj8D2tP6...=                        the root hash, base64

A checkpoint is what a log publishes and what a client keeps: signed by the
log's key, it says "my tree of 5 leaves has this root". A log must never sign
two checkpoints that no consistency proof joins; a witness (witness.py)
cosigns one only after checking exactly that.

Lines after the root are extension lines: opaque, each non-empty, and part
of what is signed. This log writes none, and reads any (the spec allows
them), keeping them in the checkpoint's text so a signature over it still
holds. A tree size is RFC 6962's 64-bit count: up to 2**64 - 1.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from tlog import note
from tlog.merkle import HASH_SIZE

MAX_SIZE = 2**64 - 1  # RFC 6962's tree_size is a uint64


class CheckpointError(ValueError):
    """A checkpoint is malformed, or not signed by the key asked; the message says which."""


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()  # the lines after the root, as they were signed

    def text(self) -> str:
        """The note text: origin, size and base64 root, each on its own line, then any extension lines."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode("ascii"), *self.extensions]
        return "".join(line + "\n" for line in lines)

    def short(self) -> str:
        return f"size {self.size}, root {self.root.hex()[:12]}"


def parse_checkpoint(text: str) -> Checkpoint:
    """The checkpoint a note's text states; CheckpointError naming the line that is wrong."""
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "":
        raise CheckpointError("a checkpoint is three lines (origin, size, root), then any extension lines, "
                              "each ending in a newline")
    origin, size, root, *extensions = lines[:-1]
    if not re.fullmatch(r"[^\s+]+", origin):
        raise CheckpointError("a checkpoint's first line is its origin: non-empty, no spaces or '+'")
    if not re.fullmatch(r"0|[1-9][0-9]*", size):
        raise CheckpointError(f"a checkpoint's second line is its tree size in decimal, not {size[:30]!r}")
    if len(size) > len(str(MAX_SIZE)) or int(size) > MAX_SIZE:
        raise CheckpointError(f"a checkpoint's tree size is at most 2**64 - 1 ({MAX_SIZE}), "
                              f"not {size[:30]}{'...' if len(size) > 30 else ''}")
    try:
        raw = base64.b64decode(root, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != HASH_SIZE or base64.b64encode(raw).decode("ascii") != root:
        raise CheckpointError(f"a checkpoint's third line is its {HASH_SIZE}-byte root hash in base64")
    if "" in extensions:
        raise CheckpointError("a checkpoint's extension lines are non-empty")
    return Checkpoint(origin, int(size), raw, tuple(extensions))


def sign_checkpoint(checkpoint: Checkpoint, signer: note.Signer) -> str:
    """The signed note of ``checkpoint``; the log's key is named after the log's origin."""
    if signer.name != checkpoint.origin:
        raise CheckpointError(f"the key {signer.name} is not the key of the log {checkpoint.origin}")
    return note.sign(checkpoint.text(), signer)


def open_checkpoint(signed: str, log_key: note.Verifier) -> Checkpoint:
    """The checkpoint in ``signed``, once the log's signature on it verifies; CheckpointError otherwise."""
    try:
        text = note.open_note(signed, log_key)
    except note.NoteError as exc:
        raise CheckpointError(str(exc)) from None
    checkpoint = parse_checkpoint(text)
    if checkpoint.origin != log_key.name:
        raise CheckpointError(f"the checkpoint is of the log {checkpoint.origin}, not of {log_key.name}")
    return checkpoint
