"""Heads, run ids and digests on pages and in notebooks come from the artifacts, never from a hand that typed them.

A page's command output and a notebook's committed output are compared with a fresh run
by other tests. What is typed (prose, a command's arguments, a cell's source) is not run
against anything, so a head copied by hand goes stale when the reference run changes.
Every such hex value must be (a prefix of) one that a committed file under data/ holds, or
that the same page's or notebook's checked output prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from course import pages

REPO = Path(__file__).resolve().parent.parent

# A digest or a prefix of one: 8 to 64 lower-case hex digits, with a digit and a letter among them.
HEX = re.compile(r"(?<![0-9A-Za-z_])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,64}(?![0-9A-Za-z_])")


def hexes(text: str) -> set[str]:
    return set(HEX.findall(text))


def committed_digests() -> set[str]:
    found: set[str] = set()
    for path in (REPO / "data").rglob("*"):
        if path.is_file() and path.stat().st_size < 50_000_000:
            try:
                found |= set(re.findall(r"[0-9a-f]{8,64}", path.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                continue
    return found


COMMITTED = committed_digests()


def typed_and_printed(text: str) -> tuple[str, str]:
    """A page split into what was typed (prose and commands) and what its commands print."""
    typed, printed, block, indent = [], [], None, 0
    for line in text.splitlines():
        if block is None and line.strip().startswith("```console"):
            block, indent = [], len(line) - len(line.lstrip())
        elif block is not None and line.strip().startswith("```"):
            for command in pages.console_commands("\n".join(part[indent:] for part in block)):
                typed.append(command.command)
                printed.append(command.expected)
            block = None
        elif block is not None:
            block.append(line)
        else:
            typed.append(line)
    return "\n".join(typed), "\n".join(printed)


def unbacked(typed: str, backed: set[str]) -> list[str]:
    """The hex values in ``typed`` that no committed file or checked output holds.

    A line that edits through course/edits.py is skipped: the helper raises when the text it
    replaces is not there, and the text it writes is meant to be new.
    """
    lines = [line for line in typed.splitlines() if "replace(" not in line and "course.edits" not in line]
    return sorted(value for value in hexes("\n".join(lines))
                  if not any(known.startswith(value) for known in backed))


def test_the_scan_refuses_the_heads_once_typed_by_hand():
    page = "given the genuine head d9b47c48263fb94672de2e221f5082ebc9bd09fa65f2bb828a7f3855cd6878ff, " \
           "the genuine report's `06d9d8b0...`"
    assert unbacked(page, COMMITTED) == ["06d9d8b0", "d9b47c48263fb94672de2e221f5082ebc9bd09fa65f2bb828a7f3855cd6878ff"]
    head = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))["seal"]["head"]
    assert unbacked(f"--head {head} starts `{head[:12]}`", COMMITTED) == []


@pytest.mark.parametrize("page", sorted((REPO / "lessons").glob("*.md")), ids=lambda p: p.name)
def test_every_digest_typed_on_a_page_is_one_an_artifact_or_its_output_holds(page):
    typed, printed = typed_and_printed(page.read_text(encoding="utf-8"))
    assert unbacked(typed, COMMITTED | hexes(printed)) == []


@pytest.mark.parametrize("path", sorted((REPO / "notebooks").glob("lesson*.ipynb")), ids=lambda p: p.name)
def test_every_digest_typed_in_a_notebook_is_one_an_artifact_or_its_output_holds(path):
    cells = nbformat.read(path, as_version=4).cells
    printed = "\n".join(output.get("text", "") if "text" in output else json.dumps(output.get("data", {}))
                        for cell in cells for output in cell.get("outputs", []))
    typed = "\n".join(cell.source for cell in cells)
    assert unbacked(typed, COMMITTED | hexes(printed)) == []


def test_the_head_lesson_1_keeps_against_its_rewritten_ledger_is_the_reference_runs_own():
    """The genuine head lesson 1 passes to `seal verify --head` is the committed report's, whole."""
    page = (REPO / "lessons" / "01-read-a-finished-report.md").read_text(encoding="utf-8")
    head = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))["seal"]["head"]
    kept = [line.split()[0] for line in page.split("--head \\\n")[1:]]
    assert kept and all(value == head for value in kept), (kept, head)
