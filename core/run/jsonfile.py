"""Reading a JSON file the harness trusts: strictly, and with one line when it fails.

An operator's configuration, a taxonomy table, a safety pack or a sealed report
is read from a file, and Python's json module is lenient in ways that matter there:

- two equal keys in one object keep the last one without a word, so an edit
  can hide behind an older value that a reader sees first;
- NaN and Infinity are read, though JSON has no such numbers and nothing
  holding them has a canonical form to digest;
- a file nested deeply enough ends in RecursionError, not a message.

``read_json`` refuses all three, and turns every way a file can fail (missing,
unreadable, not UTF-8, not JSON) into one line that names the file and the
problem. It raises the caller's own error type, so each caller keeps the
error its callers already catch. The file is named relative to the
repository, or by its name alone, never by an absolute path.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class _NotStrictJson(Exception):
    """Something json would read quietly that a trusted file must not contain; the message says what."""


def read_json(path: str | Path, *, error: type[Exception], what: str = "file") -> object:
    """The JSON value in the file at ``path``, or ``error`` with one line: ``<file>: <problem>``.

    ``what`` names what the file should have been, for the message when
    there is no such file ("no such taxonomy file").
    """
    path = Path(path)
    try:
        return _strict_loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problem = f"no such {what}"
    except UnicodeDecodeError:
        problem = "not UTF-8 text"
    except OSError as exc:
        problem = f"cannot be read ({exc.strerror or exc.__class__.__name__})"
    except json.JSONDecodeError as exc:
        problem = f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    except _NotStrictJson as exc:
        problem = str(exc)
    except RecursionError:
        problem = "not JSON that can be read (nested too deeply)"
    raise error(f"{shown_path(path)}: {problem}")


def shown_path(path: str | Path) -> str:
    """A path as a message shows it: relative to the repository, else its name; never absolute."""
    path = Path(path)
    try:
        return path.resolve().relative_to(REPO).as_posix()
    except ValueError:
        return path.name


def _strict_loads(text: str) -> object:
    return json.loads(text, object_pairs_hook=_refuse_repeated_keys, parse_constant=_refuse_constant)


def _refuse_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    counts = Counter(key for key, _ in pairs)
    repeated = [key for key, count in counts.items() if count > 1]
    if repeated:
        raise _NotStrictJson(f"the key {repeated[0]!r} appears twice in one object")
    return dict(pairs)


def _refuse_constant(name: str) -> float:
    raise _NotStrictJson(f"not JSON ({name} is not a JSON number)")
