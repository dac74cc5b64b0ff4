"""Tamper edits that cannot quietly edit nothing.

A Break-it step on a page or in a notebook changes a file, a string or a report and
then shows what a check says about the result. If the text it meant to replace is not
there (a fixture was reworded, a head changed), the edit changes nothing, the check calls
the copy intact, and the student learns the opposite of the lesson. Every such edit goes
through this module, which raises ``NothingChanged`` instead:

    python3 -m course.edits FILE OLD NEW [--out PATH]

replaces OLD with NEW in FILE (written to PATH when given, FILE otherwise) and exits with
one line on stderr and status 1 when FILE does not contain OLD exactly ``--count`` times.
It imports nothing of the harness and nothing of the worked solutions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


class NothingChanged(ValueError):
    """An edit that was meant to change something left it as it was."""


def replace(text: T, old: T, new: T, count: int = 1) -> T:
    """Return ``text`` with ``old`` replaced by ``new``; ``old`` must occur exactly ``count`` times.

    Works on ``str`` and on ``bytes`` alike. Raises ``NothingChanged`` when ``old`` does not
    occur, occurs another number of times than ``count`` (an edit meant for one place must not
    land in two), or equals ``new``.
    """
    if type(text) is not type(old) or type(old) is not type(new):
        raise TypeError("text, old and new must all be str or all be bytes")
    if not old:
        raise NothingChanged("the text to replace is empty")
    if old == new:
        raise NothingChanged(f"replacing {old!r} with itself changes nothing")
    found = text.count(old)
    if found != count:
        raise NothingChanged(f"expected {old!r} {count} time(s), found it {found} time(s): "
                             "the edit would not change what it means to")
    return text.replace(old, new)


def changed(before: T, after: T) -> T:
    """Return ``after``, or raise ``NothingChanged`` when it equals ``before``.

    For an edit made on a copy of a structure (a report loaded from JSON, a table): compare
    the copy with the original it was made from, so an edit whose condition matched nothing
    fails here rather than later as a misleading "intact".
    """
    if before == after:
        raise NothingChanged("the edited copy is equal to the original: the edit changed nothing")
    return after


def replace_in_file(path: str | Path, old: str, new: str, *, out: str | Path | None = None,
                    count: int = 1) -> Path:
    """Replace ``old`` with ``new`` in the UTF-8 file ``path``; write to ``out`` or in place."""
    source = Path(path)
    if not source.is_file():  # a FIFO, a device or a folder would hang the read or mean nothing
        raise NothingChanged(f"{source} is not a regular file")
    text = source.read_text(encoding="utf-8")
    target = Path(out) if out is not None else source
    target.write_text(replace(text, old, new, count), encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m course.edits",
                                     description="Replace text in a file, refusing an edit that edits nothing.")
    parser.add_argument("file")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--out", help="write the edited text here (default: edit FILE in place)")
    parser.add_argument("--count", type=int, default=1, help="how many times OLD must occur (default 1)")
    args = parser.parse_args(argv)
    try:
        replace_in_file(args.file, args.old, args.new, out=args.out, count=args.count)
    except NothingChanged as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: cannot edit: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
