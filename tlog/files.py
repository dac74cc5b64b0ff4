"""Reading a file through the harness's one reader, and writing one in one step.

Every file tlog reads (a log, a checkpoint, a key, a proof, the witness's
state, a vector) is read by core's reader (core/run/jsonfile.py): a FIFO, a
device, a folder, a symbolic link that loops or a file over its cap is one
line, never a wait, a traceback or a memory error.

The log, a published checkpoint and the witness's state are written in one step.

Each is written to a ``.partial`` file beside it and then renamed over the
old one (os.replace is atomic on one file system), so a crash leaves the old
file or the new one, whole, and a reader never sees half of either. A file
torn some other way is what the readers refuse, in one line.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.run import jsonfile

MAX_TEXT_BYTES = 1 << 20  # a checkpoint, a key or a state is a few hundred bytes; a proof a few thousand


class FileError(ValueError):
    """A file tlog reads is missing, not a regular file, too big, or not UTF-8; the message names it."""


def read_text(path: str | Path, what: str = "file", limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of the file at ``path``, or FileError with one line."""
    return jsonfile.read_text(path, error=FileError, what=what, limit=limit)


def read_json(path: str | Path, what: str = "file", limit: int = MAX_TEXT_BYTES) -> object:
    """The JSON value in the file at ``path``, read strictly (nesting included), or FileError with one line."""
    return jsonfile.read_json(path, error=FileError, what=what, limit=limit)


def replace(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole, replacing what was there in one step."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding=encoding)
    os.replace(partial, path)
