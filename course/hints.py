"""A lesson's hints, read from its page: the collapsed ``??? tip "Hint N: ..."`` blocks, in order.

The page is the one place hints are written; `course hint N` and the site show the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_START = re.compile(r'^\?\?\?\+?\s+\w+\s+"(?P<title>Hint\b[^"]*)"\s*$')


@dataclass(frozen=True)
class Hint:
    title: str
    body: str  # Markdown, dedented


def hints(page: str) -> list[Hint]:
    found: list[Hint] = []
    lines = page.splitlines()
    i = 0
    while i < len(lines):
        start = _START.match(lines[i])
        i += 1
        if not start:
            continue
        body = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
            body.append(lines[i][4:])
            i += 1
        found.append(Hint(start.group("title"), "\n".join(body).strip("\n")))
    return found
