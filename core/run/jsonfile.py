"""Reading a file the harness trusts: strictly, within a size cap, and with one line when it fails.

An operator's configuration, a taxonomy table, a safety pack or a sealed report
is read from a file, and Python's json module is lenient in ways that matter there:

- two equal keys in one object keep the last one without a word, so an edit
  can hide behind an older value that a reader sees first;
- NaN and Infinity are read, though JSON has no such numbers and nothing
  holding them has a canonical form to digest; and so is ``1e400``, which
  quietly becomes infinity;
- an integer of more than 4300 digits raises ValueError, and a file nested
  deeply enough ends in RecursionError, not a message;
- a value nested hundreds of levels deep is read, though canonical JSON
  (canon.py) stops at MAX_DEPTH levels: the reader must not hand on a value
  that the digest will refuse for its shape.

``read_json`` refuses all of these, and turns every way a file can fail (missing,
a folder, a symbolic link that loops, unreadable, a FIFO or device that would
make it wait or never end, bigger than its cap, not UTF-8, not JSON) into one
line that names the file and the problem. It raises the caller's own error
type, so each caller keeps the error its callers already catch. The file is
named relative to the repository, or by its name alone, never by an absolute
path.

Files that are not JSON (a journal, a log, a checkpoint, a key) are read
through ``read_bytes`` and ``read_text``, with the same guards: every file a
command reads comes through this one reader.

What it still reads: integers beyond 2**53 - 1 and lone surrogates (``"\\ud800"``)
are JSON a strict reader may take, and they are refused where the value is
digested, by canonical_bytes, which can say which record holds them.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
from collections import Counter
from pathlib import Path

from core.run.canon import MAX_DEPTH

REPO = Path(__file__).resolve().parents[2]
MAX_FILE_BYTES = 64 << 20  # the most a file read here may hold, unless its caller says less

# One limit for reading and for digesting (canon.MAX_DEPTH); the words "nested too deeply" stay.
TOO_DEEP = f"not JSON that can be read (nested too deeply: more than {MAX_DEPTH} levels of objects and arrays)"


class _NotStrictJson(Exception):
    """Something json would read quietly that a trusted file must not contain; the message says what."""


def read_json(path: str | Path, *, error: type[Exception], what: str = "file",
              limit: int = MAX_FILE_BYTES) -> object:
    """The JSON value in the file at ``path``, or ``error`` with one line: ``<file>: <problem>``.

    ``what`` names what the file should have been, for the message when
    there is no such file ("no such taxonomy file"); ``limit`` is the most
    bytes it may hold (read_bytes).
    """
    text = read_text(path, error=error, what=what, limit=limit)
    try:
        return parse_json(text, error=_NotStrictJson)
    except _NotStrictJson as exc:
        raise error(f"{shown_path(path)}: {exc}") from None


def read_text(path: str | Path, *, error: type[Exception], what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the file at ``path``, read as read_bytes reads it; not UTF-8 is one line too."""
    data = read_bytes(path, error=error, what=what, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{shown_path(path)}: not UTF-8 text (byte {exc.start} is not)") from None


def read_bytes(path: str | Path, *, error: type[Exception], what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them, or ``error`` with one line.

    Every way a path can fail to be a file worth reading is one line naming
    it: no such file, a folder, a symbolic link that loops, a file that
    cannot be read, a FIFO, socket or device, or more than ``limit`` bytes.
    A FIFO or a device is refused before anything is read from it: opening
    a FIFO for reading would wait for a writer that may never come, and a
    device's size reads 0 however much it would give (/dev/zero never ends).
    The size is checked before reading and again by reading at most one
    byte more than the limit, for a file that grows while it is read.
    """
    path = Path(path)
    try:
        return _regular_file_bytes(path, limit)
    except FileNotFoundError:
        problem = f"no such {what}"
    except IsADirectoryError:
        problem = f"a folder, not a {what}"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            problem = "a symbolic link that loops (it leads to no file)"
        else:
            problem = f"cannot be read ({exc.strerror or exc.__class__.__name__})"
    except _NotStrictJson as exc:
        problem = str(exc)
    raise error(f"{shown_path(path)}: {problem}")


def _regular_file_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; a FIFO, socket or device is refused, never waited on."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:  # the descriptor is closed whatever is refused
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(status.st_mode):
            raise _NotStrictJson("not a regular file (a FIFO, socket or device), so it is not read")
        if status.st_size > limit:
            raise _NotStrictJson(_too_big(limit))
        chunks, left = [], limit + 1
        while left > 0 and (chunk := os.read(descriptor, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise _NotStrictJson(_too_big(limit))
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _too_big(limit: int) -> str:
    return f"bigger than {limit:,} bytes, so it is not read"


def parse_json(text: str, *, error: type[Exception]) -> object:
    """The JSON value in ``text``, read as strictly as read_json reads a file, or ``error`` saying why not.

    For JSON that does not come from a file (a model's reply, say); the
    message is the problem alone, for the caller to place.
    """
    try:
        return _strict_loads(text)
    except json.JSONDecodeError as exc:
        problem = f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    except _NotStrictJson as exc:
        problem = str(exc)
    except RecursionError:
        problem = TOO_DEEP
    except ValueError:  # the one other way json.loads fails: int() refusing a very long integer
        problem = f"holds an integer too long to read (more than {sys.get_int_max_str_digits()} digits)"
    raise error(problem)


def shown_path(path: str | Path) -> str:
    """A path as a message shows it: relative to the repository, else its name; never absolute."""
    path = Path(path)
    try:  # realpath, not Path.resolve: a symbolic link that loops is named like any path, not raised
        return Path(os.path.realpath(path)).relative_to(REPO).as_posix()
    except ValueError:
        return path.name


def _strict_loads(text: str) -> object:
    value = json.loads(text, object_pairs_hook=_refuse_repeated_keys, parse_constant=_refuse_constant,
                       parse_float=_finite_float)
    if _deeper_than_max_depth(value):
        raise _NotStrictJson(TOO_DEEP)
    return value


def _deeper_than_max_depth(value: object) -> bool:
    """Whether objects and arrays nest more than MAX_DEPTH levels; level by level, without recursion."""
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [child for node in level if isinstance(node, (dict, list))
                 for child in (node.values() if isinstance(node, dict) else node)]
        if not level:
            return False
    return any(isinstance(node, (dict, list)) for node in level)


def _refuse_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    counts = Counter(key for key, _ in pairs)
    repeated = [key for key, count in counts.items() if count > 1]
    if repeated:
        raise _NotStrictJson(f"the key {repeated[0]!r} appears twice in one object")
    return dict(pairs)


def _refuse_constant(name: str) -> float:
    raise _NotStrictJson(f"not JSON ({name} is not a JSON number)")


def _finite_float(text: str) -> float:
    """A JSON number as a float, unless it is too large for a double and would read as infinity."""
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise _NotStrictJson(f"the number {shown} is too large for a JSON number (it would read as infinity)")
    return value
