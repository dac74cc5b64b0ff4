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
              expected: tuple[type[Exception], ...] = ()) -> int:
    """Every lesson demo's command line: ``python3 -m core.run.<label> --out PATH`` writes its artifact.

    A failure the demo expects (``expected``) or a file that cannot be
    written is one line on stderr and exit status 1.
    """
    from core.run.canon import write_artifact  # canon.py is the demos' business, not the parser's

    parser = OneLineParser(label, prog=f"python3 -m core.run.{label}", description=description)
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the JSON artifact")
    args = parser.parse_args(argv)
    try:
        write_artifact(args.out, run_demo())
    except expected as exc:
        print(f"{label}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{label}: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
