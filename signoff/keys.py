"""A reviewer's key: made once, kept private, listed by the operator under a role.

    python -m signoff keygen reviewer.example/alice --out alice

writes ``alice.key`` (the signer key, readable by its owner alone) and
``alice.pub`` (the verifier key, one line, for the operator's configuration).
A private key file that anyone but its owner can read is refused when it is
read: whoever can read it can sign as its owner.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tlog import keys as tlog_keys
from tlog import note


class ReviewKeyError(ValueError):
    """A key cannot be made or read; the message says why."""


def make(name: str, out: str | Path) -> tuple[Path, Path]:
    """A fresh Ed25519 key named ``name``: ``OUT.key`` (mode 0600, never overwritten) and ``OUT.pub``."""
    signer = note.Signer(name, note.ED25519, os.urandom(32))
    try:
        note.parse_verifier(signer.verifier().encode())  # a name the key's own spelling can carry
    except note.NoteError as exc:
        raise ReviewKeyError(f"{name!r} cannot name a key: {exc}") from None
    private, public = Path(f"{out}.key"), Path(f"{out}.pub")
    try:
        fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ReviewKeyError(f"{private} exists: a key is never overwritten") from None
    except OSError as exc:
        raise ReviewKeyError(f"cannot write {private}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(signer.encode() + "\n")
    public.write_text(signer.verifier().encode() + "\n", encoding="utf-8")
    return private, public


def read_signer(path: str | Path) -> note.Signer:
    """The signer key in ``path``, refused when the file is readable by anyone but its owner."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ReviewKeyError(f"cannot read {path}: {exc.strerror or exc}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ReviewKeyError(f"{path} can be read by others (mode {stat.S_IMODE(mode):o}): a private key is for "
                             f"its owner alone (chmod 600 {path})")
    try:
        return tlog_keys.read_signer(path)
    except note.NoteError as exc:
        raise ReviewKeyError(f"{path}: {exc}") from None
