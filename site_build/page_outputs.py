"""An author's tool: rewrite a page's console-block outputs from what its commands print now.

    python -m site_build.page_outputs lessons/08-gating-consequential-actions.md [PAGE ...]

Each ``console`` block of the page is run as the page tests run it (conftest.py:
the same shell, environment and exported variables, from the repository
root, in order). Where a command's printed output no longer matches the
lines the page shows under it (course/pages.py:output_matches), those lines
are rewritten: a shown line that still matches its printed line on its own
is kept as written (so a "..." wildcard stays where the author put one),
every other line becomes what was printed. When the number of lines
changed, the whole output is replaced, and the command is named on stderr
for the author to read and put wildcards back by hand where a value differs
from run to run. A command shown with no output must still succeed; one
that fails is named on stderr and left as it is.

It is an author's tool, not a check: the page tests still compare every
block (tests/test_page_outputs.py, the pages' own Sybil collection).
Exit status: 0 when every page was written (or needed nothing), 1 when a
command needs the author's eye.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import ROOT, in_page_shell, page_environment
from course import pages

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```console[ \t]*$")


def blocks(lines: list[str]) -> list[tuple[int, int, str]]:
    """Each console block of a page: the index of its first and last content line (exclusive), and its indent."""
    found, i = [], 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, start = opening.group("indent"), i + 1
        end = start
        while end < len(lines) and lines[end].rstrip() != f"{indent}```":
            end += 1
        found.append((start, end, indent))
        i = end + 1
    return found


def _line_matches(shown: str, printed: str) -> bool:
    return pages.output_matches(shown + "\n", printed + "\n")


def _restyled(shown: str, printed: str) -> str:
    """``printed`` in place of the stale line ``shown``, cut where ``shown`` was cut ("text ..." at its end)."""
    head, wildcard, tail = shown.rpartition("...")
    if wildcard and not tail and "..." not in head and len(printed) > len(head):
        return printed[:len(head)] + "..."
    return printed


def merged(expected: str, printed: str) -> tuple[str, bool]:
    """The output to show: ``expected``'s lines where they still match, ``printed``'s where they do not; and
    whether lines were added or dropped (the author should read it).

    The shown lines are aligned with the printed ones at the fewest changes: a line of its own that is
    "..." stands for any printed lines, a shown line that still matches its printed line is kept as
    written, another is rewritten (``_restyled``), and what is left over is added or dropped.
    """
    shown, actual = expected.rstrip("\n").split("\n"), printed.rstrip("\n").split("\n")
    n, m, far = len(shown), len(actual), float("inf")
    cost = [[far] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            best = far
            if i and shown[i - 1] == "...":
                best = min(cost[i - 1][j], cost[i][j - 1] if j else far)
            elif i:
                best = cost[i - 1][j] + 1  # a shown line dropped
                if j:
                    best = min(best, cost[i - 1][j - 1] + (0 if _line_matches(shown[i - 1], actual[j - 1]) else 1))
            if j and not (i and shown[i - 1] == "..."):
                best = min(best, cost[i][j - 1] + 1)  # a printed line added
            cost[i][j] = best
    lines: list[str] = []
    reshaped, i, j = False, n, m
    while i or j:
        if i and shown[i - 1] == "...":
            if j and cost[i][j] == cost[i][j - 1]:
                j -= 1
            else:
                lines.append("...")
                i -= 1
            continue
        if i and j and cost[i][j] == cost[i - 1][j - 1] + (0 if _line_matches(shown[i - 1], actual[j - 1]) else 1):
            kept = _line_matches(shown[i - 1], actual[j - 1])
            lines.append(shown[i - 1] if kept else _restyled(shown[i - 1], actual[j - 1]))
            i, j = i - 1, j - 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            reshaped, i = True, i - 1
        else:
            lines.append(actual[j - 1])
            reshaped, j = True, j - 1
    return "\n".join(reversed(lines)) + "\n", reshaped


def rewrite(page: Path, state: Path) -> tuple[str, list[str]]:
    """The page's text with every stale output rewritten, and the commands that need the author's eye."""
    lines = page.read_text(encoding="utf-8").split("\n")
    notes: list[str] = []
    out: list[str] = []
    cursor = 0
    for start, end, indent in blocks(lines):
        out += lines[cursor:start]
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                         for line in lines[start:end])
        rebuilt: list[str] = []
        for command in pages.console_commands(body):
            done = subprocess.run(in_page_shell(command.command, state), shell=True, executable="/bin/bash",
                                  cwd=ROOT, env=page_environment(), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=600)
            first = command.command.splitlines()[0][:70]
            shown = command.expected
            if not command.expected:
                if done.returncode != 0:
                    notes.append(f"{page.name}: `{first}` exited {done.returncode}")
            elif not pages.output_matches(command.expected, done.stdout):
                shown, guessed = merged(command.expected, done.stdout)
                if guessed:
                    notes.append(f"{page.name}: `{first}`: output replaced whole (its length changed)")
            rebuilt.append("$ " + command.command + "\n" + shown)
        text = "".join(rebuilt).rstrip("\n").split("\n")
        out += [f"{indent}{line}" if line else "" for line in text]
        cursor = end
    out += lines[cursor:]
    return "\n".join(out), notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_build.page_outputs", description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path, help="the pages to rewrite, in place")
    args = parser.parse_args(argv)
    every_note: list[str] = []
    with tempfile.TemporaryDirectory(prefix="page-outputs-") as shells:
        for page in args.pages:
            text, notes = rewrite(page, Path(shells) / page.name)
            if text != page.read_text(encoding="utf-8"):
                page.write_text(text, encoding="utf-8")
                print(f"rewrote {page}")
            every_note += notes
    for note in every_note:
        print(note, file=sys.stderr)
    return 1 if every_note else 0


if __name__ == "__main__":
    sys.exit(main())
