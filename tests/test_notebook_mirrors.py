"""A notebook cell that reruns a page's command prints what the page prints, in the page's order.

A notebook walks its lesson page cell by cell; many cells rerun a page's console
command, sometimes with other names. Nothing ties the two together, so a cell can
drift from its page and still pass nbval, which only compares the cell with its
own committed output: lesson 9's notebook once printed ``h_41`` for a chain of 43
events, and ran the guardless door's two late records in the other order than the
page, printing another ledger. Two checks close that gap:

- every ``h_N`` line a page or notebook prints is link N of a committed report's
  chain (``h_0`` the digest of its run id, ``h_N`` the ``chain`` of its N-th event);
- a cell whose output is a page block's output up to values (the same lines once
  digits, hex and True/False/None are masked, at least three of them) prints the
  lines it shares with that block exactly as the block does, and such cells come
  in the page's order.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import pytest

from core.run.canon import canonical_bytes
from course import manifest, pages

REPO = Path(__file__).resolve().parent.parent
LESSONS = [pytest.param(lesson, id=f"lesson{lesson.label}") for lesson in manifest.load(REPO)]

_MASK = re.compile(r"\b(?:True|False|None)\b|[0-9a-f]{8,}|\d+")
_LINK = re.compile(r"^h_(\d+)\s+([0-9a-f]{8,})\b")
_CONSOLE = re.compile(r"^( *)```console\n(.*?)^\1```", re.S | re.M)


def shape(line: str) -> str:
    """A line with its values masked: what it says, not what it found."""
    return _MASK.sub("#", line.rstrip())


def telling(lines: list[str]) -> list[str]:
    """The lines that say something beyond a bare value ("True", "3", a digest alone)."""
    return [line.rstrip() for line in lines if re.search(r"[A-Za-z]{2}", shape(line))]


def page_outputs(page: str) -> list[str]:
    """The expected output of every console command on a page, answer blocks included, in page order."""
    found = []
    for block in _CONSOLE.finditer(page):
        indent = len(block.group(1))
        source = "\n".join(line[indent:] for line in block.group(2).splitlines())
        found += [command.expected for command in pages.console_commands(source) if command.expected.strip()]
    return found


def cell_output(cell: dict) -> str:
    return "".join("".join(output.get("text", "")) for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream")


def mirrors(notebook: dict, page: str) -> list[tuple[int, int, list[str], list[str]]]:
    """(cell index, page block index, the cell's shared lines, the block's) for each cell that reruns a page block."""
    blocks = [telling(expected.splitlines()) for expected in page_outputs(page)]
    found = []
    for number, cell in enumerate(notebook["cells"]):
        lines = telling(cell_output(cell).splitlines()) if cell["cell_type"] == "code" else []
        best = None
        for index, block in enumerate(blocks):
            shared = {shape(line) for line in lines} & {shape(line) for line in block}
            if len(shared) >= 3 and 2 * len(shared) >= len({shape(line) for line in lines}):
                if best is None or len(shared) > best[0]:
                    best = (len(shared), index, shared)
        if best is not None:
            _, index, shared = best
            found.append((number, index, [line for line in lines if shape(line) in shared],
                          [line for line in blocks[index] if shape(line) in shared]))
    return found


def drifted(notebook: dict, page: str) -> list[str]:
    """What a notebook's mirroring cells print otherwise than its page, or out of the page's order."""
    problems, last = [], -1
    for number, index, in_cell, on_page in mirrors(notebook, page):
        if in_cell != on_page:
            problems.append(f"cell {number} prints {in_cell} where page block {index} prints {on_page}")
        if index < last:
            problems.append(f"cell {number} reruns page block {index}, which comes before the previous cell's")
        last = max(last, index)
    return problems


def chain_links(report: dict) -> list[str]:
    """h_0 .. h_N of a report: the digest of its run id, then each event's own link."""
    first = hashlib.sha256(canonical_bytes({"run_id": report["run"]["run_id"]})).hexdigest()
    return [first] + [event["chain"] for event in report["events"]]


def committed_chains() -> list[list[str]]:
    chains = []
    for path in sorted((REPO / "data" / "course").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for report in (data, *(data.values() if isinstance(data, dict) else ())):
            if isinstance(report, dict) and isinstance(report.get("events"), list) and "run" in report:
                if all(isinstance(event, dict) and "chain" in event for event in report["events"]):
                    chains.append(chain_links(report))
    return chains


def false_links(text: str, chains: list[list[str]]) -> list[str]:
    """The ``h_N <hex>`` lines of ``text`` whose digest is no committed report's link N."""
    wrong = []
    for line in text.splitlines():
        link = _LINK.match(line.strip())
        if link:
            n, digest = int(link.group(1)), link.group(2)
            if not any(n < len(chain) and chain[n].startswith(digest) for chain in chains):
                wrong.append(line.strip())
    return wrong


def printed(lesson) -> tuple[str, str]:
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    return "\n".join(page_outputs(page)), "\n".join(cell_output(cell) for cell in notebook["cells"])


@pytest.fixture(scope="module")
def chains():
    found = committed_chains()
    assert found, "no committed report with a chain under data/course"
    return found


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_chain_link_a_page_or_notebook_prints_is_that_link_of_a_committed_report(lesson, chains):
    """Every h_N line a page or notebook prints names the link N of a committed report's chain."""
    on_page, in_notebook = printed(lesson)
    assert false_links(on_page, chains) == []
    assert false_links(in_notebook, chains) == []


def test_lesson_9_prints_its_chain_by_hand_and_a_wrong_length_is_caught(chains):
    """Lesson 9's page and notebook both print h_0 and the last link of intact.json; two links short is refused."""
    lesson = next(lesson for lesson in manifest.load(REPO) if lesson.number == 9)
    intact = json.loads((REPO / "data" / "course" / "tamper" / "intact.json").read_text(encoding="utf-8"))
    length = len(intact["events"])
    for text in printed(lesson):
        assert [line.split()[0] for line in text.splitlines() if _LINK.match(line)] == ["h_0", f"h_{length}"]
    last = intact["events"][-1]["chain"][:16]
    assert false_links(f"h_{length} {last}", chains) == []
    assert false_links(f"h_{length - 2} {last}", chains) == [f"h_{length - 2} {last}"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_notebook_cell_that_reruns_a_page_command_prints_what_the_page_prints_in_its_order(lesson):
    """A notebook cell that reruns a page's command prints the lines it shares with the page exactly, in page order."""
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    assert drifted(notebook, page) == []


def test_lesson_9s_mirrors_are_found_and_a_cell_run_in_another_order_is_caught():
    """Lesson 9's guardless-door and chain-by-hand cells mirror their page blocks; changed, they fail."""
    lesson = next(lesson for lesson in manifest.load(REPO) if lesson.number == 9)
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    found = {number: index for number, index, _, _ in mirrors(notebook, page)}
    cells = notebook["cells"]
    guardless = next(number for number, cell in enumerate(cells) if "no-guard" in "".join(cell["source"]))
    by_hand = next(number for number, cell in enumerate(cells) if "h_0" in cell_output(cell))
    assert guardless in found and by_hand in found, found

    reordered = copy.deepcopy(notebook)  # as the notebook once was: transition first, then a refused observation
    cell = reordered["cells"][guardless]
    text = cell_output(cell)
    assert "observation recorded: True\ntransition recorded: True\n" in text and "the ledger now: 3" in text
    text = text.replace("observation recorded: True\ntransition recorded: True\n",
                        "transition recorded: True\nobservation recorded: False\n")
    text = text.replace("ledger now: 3", "ledger now: 2")
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": text}]
    assert [problem.split(" prints ")[0] for problem in drifted(reordered, page)] == [f"cell {guardless}"]

    relabelled = copy.deepcopy(notebook)  # as it once was: a label two links short of the chain's length
    cell = relabelled["cells"][by_hand]
    length = len(json.loads((REPO / "data" / "course" / "tamper" / "intact.json").read_text(encoding="utf-8"))["events"])
    cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                        "text": cell_output(cell).replace(f"h_{length}", f"h_{length - 2}")}]
    assert [problem.split(" prints ")[0] for problem in drifted(relabelled, page)] == [f"cell {by_hand}"]

    swapped = copy.deepcopy(notebook)  # two mirroring cells in the other order than the page's
    cells = swapped["cells"]
    cells[by_hand], cells[guardless] = cells[guardless], cells[by_hand]
    assert any("comes before" in problem for problem in drifted(swapped, page))
