"""A prediction's answer, declared in one place so that nothing before it can give it away (rules 8 and 18).

A lesson page asks for a prediction, then answers it in a collapsed block placed
after the question, which lists the short strings that give the answer away:

    ??? success "Answer: what the door said"
        The door stored it: ...

        <!-- answer keys
        - inspect_metadata -> https://lab.example:443/contact
        -->

The keys are what a test searches for: the page above the block, every cell
of the committed notebook, and the output of the fresh starter's check must not
contain any of them (``leaks``). The notebook's prediction cell, the one whose
output would answer it, carries the tag ``prediction`` and is committed without
its output; nbval is told not to compare that output by the tag
``nbval-ignore-output`` (nbval 0.11 reads cell tags as well as comments).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from course.pages import console_commands

_ANSWER = re.compile(r'^\?\?\?(?P<open>\+?)\s+\w+\s+"Answer\b[^"]*"\s*$')
_KEYS = re.compile(r"<!--\s*answer keys\s*\n(?P<body>.*?)-->", re.DOTALL)
PREDICTION_TAG = "prediction"
IGNORE_OUTPUT_TAG = "nbval-ignore-output"


@dataclass(frozen=True)
class Answer:
    line: int              # the answer block's first line, counted from 0
    collapsed: bool        # ``???``, not ``???+``
    keys: tuple[str, ...]
    above: str             # the page before the block
    body: str              # the block's own text, keys list included


def answers(page: str) -> list[Answer]:
    """Every answer block on ``page``, in order, with its keys and the text above it."""
    lines = page.splitlines()
    found = []
    for number, line in enumerate(lines):
        start = _ANSWER.match(line)
        if not start:
            continue
        end = number + 1
        while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
            end += 1
        body = "\n".join(text[4:] for text in lines[number + 1:end])
        listed = _KEYS.search(body)
        keys = tuple(item[2:].strip() for item in (listed.group("body") if listed else "").splitlines()
                     if item.strip().startswith("- "))
        found.append(Answer(number, not start.group("open"), keys, "\n".join(lines[:number]), body))
    return found


def flat(text: str) -> str:
    """``text`` with table borders dropped and every run of spaces made one, so a key is found across a wrap."""
    return " ".join(re.sub(r"[│┃┆┊║|]", " ", text).split())


def leaks(keys: tuple[str, ...], text: str) -> list[str]:
    """The keys ``text`` gives away."""
    searched = flat(text)
    return [key for key in keys if flat(key) in searched]


def notebook_text(notebook: dict) -> str:
    """Every cell's source and every output's text in a notebook, joined."""
    parts = []
    for cell in notebook.get("cells", []):
        parts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            for value in output.get("data", {}).values():
                parts.append(value if isinstance(value, str) else "".join(value) if isinstance(value, list) else "")
            parts += output.get("traceback", [])
    return "\n".join(parts)


def prediction_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook.get("cells", [])
            if PREDICTION_TAG in cell.get("metadata", {}).get("tags", [])]


def commands_in(text: str) -> list[str]:
    """The commands of every console block in ``text`` (a page, or an answer block's body)."""
    found, block, indent = [], None, 0
    for line in text.splitlines():
        if block is None and line.strip().startswith("```console"):
            block, indent = [], len(line) - len(line.lstrip())
        elif block is not None and line.strip().startswith("```"):
            found += [command.command for command in console_commands("\n".join(part[indent:] for part in block))]
            block = None
        elif block is not None:
            block.append(line)
    return found
