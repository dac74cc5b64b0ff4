"""The command lines' parser: a usage error is one line, not argparse's usage block.

The house rule for bad input at a command line is one clear line on stderr
and exit status 2. argparse answers a usage error with its whole usage block
before the message, so every ``python3 -m core...`` command builds its
parser from this class instead, and a mistyped option gets one line too:

    seal: argument command: invalid choice: 'check' (choose from 'verify') (see --help)
"""

from __future__ import annotations

import argparse
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
