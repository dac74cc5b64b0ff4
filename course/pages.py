"""Reading a lesson page: its sections, completion bullets, code references and commands.

Lint, the page tests and the site hook all read pages through these functions,
so they agree on what a page says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SECTIONS = (
    "Build this",
    "Start from here",
    "Inputs and outputs",
    "Implement it",
    "Run it",
    "Inspect it",
    "Break it",
    "Build it yourself",
    "Check completion",
    "Continue",
)

WIDEST_CODE_LINE = 88  # rule 10: every command and code line on a page fits in 88 columns
_SNIPPET = re.compile(r'^\s*--8<--\s+"(?P<path>[^"]+)"')

# An inline code span naming a definition, such as `run/records.py:Run`.
CODE_REFERENCE = re.compile(r"`(?P<ref>[A-Za-z0-9_][\w/.-]*\.py:[A-Za-z_][\w.]*)`")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(?P<word>\w+)['\"]?")


def in_code(lines: list[str]) -> list[bool]:
    """For each line, whether it is a fence or inside a fenced code block."""
    flags, inside = [], False
    for line in lines:
        fence = bool(_FENCE.match(line))
        if fence:
            inside = not inside
        flags.append(fence or inside)
    return flags


def prose_lines(text: str) -> list[str]:
    """The page's lines with fenced code blocks blanked out (kept as empty lines)."""
    lines = text.splitlines()
    return ["" if code else line for line, code in zip(lines, in_code(lines))]


def headings(text: str) -> list[str]:
    """The page's level-two headings, in order."""
    return [line[3:].strip() for line in prose_lines(text) if line.startswith("## ")]


def section(text: str, name: str) -> str:
    """The prose of one level-two section (fenced code blanked out), or ""."""
    out, inside = [], False
    for line in prose_lines(text):
        if line.startswith("## "):
            inside = line[3:].strip() == name
        elif inside:
            out.append(line)
    return "\n".join(out)


def completion_bullets(text: str) -> list[str]:
    """The bullets under "Check completion", each joined onto one line."""
    bullets: list[str] = []
    for line in section(text, "Check completion").splitlines():
        item = re.match(r"^[-*] (?:\[[ x]\] )?(.*)$", line)
        if item:
            bullets.append(item.group(1).strip())
        elif bullets and line.startswith("  ") and line.strip():
            bullets[-1] += " " + line.strip()
    return [" ".join(b.split()) for b in bullets]


def code_references(text: str) -> list[str]:
    """Every `file.py:Symbol` reference in the page's prose, in order, repeats kept."""
    return [m.group("ref") for line in prose_lines(text) for m in CODE_REFERENCE.finditer(line)]


@dataclass(frozen=True)
class Command:
    """One `$ command` from a console block and the output the page says it prints."""

    command: str
    expected: str  # "" means: must succeed; its output is not shown on the page


def console_commands(source: str) -> list[Command]:
    """Split a console block into its commands and their expected outputs.

    A command starts with "$ "; a line ending in a backslash continues it; a
    heredoc (``<<'PY'``) runs until its terminator line. Every other line up
    to the next command is expected output.
    """
    commands: list[Command] = []
    lines = source.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"console block line {i + 1} is output with no command before it: {lines[i]!r}")
        command_lines = [lines[i][2:]]
        i += 1
        while command_lines[-1].endswith("\\") and i < len(lines):
            command_lines.append(lines[i])
            i += 1
        heredoc = _HEREDOC.search(command_lines[0])
        if heredoc:
            while i < len(lines) and lines[i] != heredoc.group("word"):
                command_lines.append(lines[i])
                i += 1
            command_lines.append(lines[i] if i < len(lines) else heredoc.group("word"))
            i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        expected = "\n".join(output).strip("\n")
        commands.append(Command("\n".join(command_lines), expected + "\n" if expected else ""))
    return commands


ANY_TEXT = "[^\n]*"  # "..." inside a line: any text on that line (escaped text never spells this)


def output_matches(expected: str, actual: str) -> bool:
    """Exact comparison, except for "...": a line of its own stands for any lines
    (none included), and inside a line it stands for any text on that line."""
    pattern = []
    for line in expected.splitlines(keepends=True):
        if line.rstrip("\n") == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            # "......" is two wildcards in a row, the same as one; a line of pytest's progress
            # dots is eight, which the regex engine can take seconds to try. So a run is one.
            line_pattern = ANY_TEXT.join(re.escape(part) for part in line.split("..."))
            while ANY_TEXT * 2 in line_pattern:
                line_pattern = line_pattern.replace(ANY_TEXT * 2, ANY_TEXT)
            pattern.append(line_pattern)
    return re.fullmatch("".join(pattern), actual) is not None


def code_lines(text: str, root: Path) -> list[str]:
    """Every line a reader types or reads as code: console commands (not their output), the
    lines of every other fenced block, and the lines of each file a snippet includes."""
    lines: list[str] = []
    block: list[str] = []
    language, inside = "", False
    for line in text.splitlines():
        fence = re.match(r"^\s*(```|~~~)\s*(\w*)", line)
        if fence and not inside:
            inside, language, block = True, fence.group(2), []
        elif fence and inside:
            inside = False
            if language == "console":
                lines += [part for c in console_commands("\n".join(block)) for part in c.command.splitlines()]
                continue
            for entry in block:
                snippet = _SNIPPET.match(entry)
                included = Path(root) / snippet.group("path") if snippet else None
                if included is not None and included.is_file():
                    lines += included.read_text(encoding="utf-8").splitlines()
                else:
                    lines.append(entry)
        elif inside:
            block.append(line[4:] if line.startswith("    ") else line)
    return lines


def snippets(text: str) -> list[str]:
    """The files a page includes with ``--8<-- "path"``, in order."""
    return [m.group("path") for line in text.splitlines() for m in [_SNIPPET.match(line)] if m]
