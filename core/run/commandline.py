"""The command lines' parser: a usage error is one line, not argparse's usage block.

The house rule for bad input at a command line is one clear line on stderr
and exit status 2. argparse answers a usage error with its whole usage block
before the message, so every ``python3 -m core...`` command builds its
parser from this class instead, and a mistyped option gets one line too:

    seal: argument command: invalid choice: 'check' (choose from 'verify') (see --help)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors print ``<label>: <message> (see --help)`` and exit 2.

    ``label`` is the short name the command signs its messages with
    (``seal``, ``replay``); every other keyword goes to argparse unchanged.
    """

    def __init__(self, label: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.label = label

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.label}: {message} (see --help)\n")


def demo_main(label: str, description: str, run_demo: Callable[[], dict], argv: list[str] | None,
              expected: tuple[type[Exception], ...] = (), named: bool = False) -> int:
    """Every lesson demo's command line: ``python3 -m core.run.<label> --out PATH`` writes its artifact.

    A failure the demo expects (``expected``) or a file that cannot be
    written is one line on stderr and exit status 1. ``named`` puts the
    failure's class before its message and joins a message of several lines
    into one (for a demo that expects any exception, whose message may be anyone's).
    """
    from core.run.canon import write_artifact  # canon.py is the demos' business, not the parser's

    parser = OneLineParser(label, prog=f"python3 -m core.run.{label}", description=description)
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the JSON artifact")
    args = parser.parse_args(argv)
    try:
        artifact = run_demo()
    except expected as exc:
        said = " ".join(f"{exc.__class__.__name__}: {exc}".split()) if named else exc
        print(f"{label}: {said}", file=sys.stderr)
        return 1
    try:
        write_artifact(args.out, artifact)
    except OSError as exc:
        print(f"{label}: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
