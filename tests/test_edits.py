"""Tamper edits on pages and in notebooks: one helper, and an edit that edits nothing fails loudly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course import pages
from course.edits import NothingChanged, changed, replace, replace_in_file

from .conftest import examples

REPO = Path(__file__).resolve().parent.parent


def test_replace_changes_exactly_the_text_it_names():
    assert replace("open nine to five", "nine to five", "ten to four") == "open ten to four"
    assert replace(b'"status": 404', b"404", b"204") == b'"status": 204'
    assert replace("a-a", "a", "b", count=2) == "b-b"


@pytest.mark.parametrize("text, old, new, count", [
    ("Index of /backup/", "Index of /staging/", "x", 1),  # absent: the edit lesson 1's notebook made
    ("head d9b4 head d9b4", "head d9b4", "head d9b5", 1),  # twice where once was meant
    ("a", "a", "a", 1),  # replaced by itself
    ("a", "", "b", 1),  # nothing named
    ("Head 393D", "head 393d", "head 393e", 1),  # another spelling is not the same text
])
def test_replace_refuses_an_edit_that_would_change_nothing_or_something_else(text, old, new, count):
    with pytest.raises(NothingChanged):
        replace(text, old, new, count)


def test_replace_refuses_mixed_str_and_bytes():
    with pytest.raises(TypeError):
        replace(b"404", "404", "204")


@settings(max_examples=examples(500))
@given(st.text(max_size=40), st.text(min_size=1, max_size=4), st.text(max_size=4))
def test_replace_either_changes_its_text_or_raises(text, old, new):
    try:
        edited = replace(text, old, new)
    except NothingChanged:
        assert text.count(old) != 1 or old == new
    else:
        assert edited != text and text.count(old) == 1


def test_changed_refuses_a_copy_equal_to_its_original():
    report = {"findings": [{"verdict": "confirmed"}]}
    edited = {"findings": [{"verdict": "confirmed"}]}
    for finding in edited["findings"]:
        if finding["verdict"] == "refuted":  # matches nothing: the forgery forges nothing
            finding["verdict"] = "confirmed"
    with pytest.raises(NothingChanged):
        changed(report, edited)
    assert changed(report, {"findings": []}) == {"findings": []}


def test_a_file_edit_that_finds_nothing_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "contact.html"
    path.write_text("open nine to five\n", encoding="utf-8")
    with pytest.raises(NothingChanged):
        replace_in_file(path, "eight to six", "ten to four")
    assert path.read_text(encoding="utf-8") == "open nine to five\n"
    replace_in_file(path, "nine to five", "ten to four", out=tmp_path / "copy.html")
    assert (tmp_path / "copy.html").read_text(encoding="utf-8") == "open ten to four\n"
    assert path.read_text(encoding="utf-8") == "open nine to five\n"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course.edits", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60)


def test_the_command_edits_a_file_or_says_in_one_line_why_not(tmp_path):
    path = tmp_path / "intact.json"
    path.write_text('{"refusals": 3}\n', encoding="utf-8")
    done = run_cli(str(path), '"refusals": 3', '"refusals": 0', "--out", str(tmp_path / "fewer.json"))
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "fewer.json").read_text(encoding="utf-8") == '{"refusals": 0}\n'
    done = run_cli(str(path), '"refusals": 4', '"refusals": 0')
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_command_refuses_a_fifo_a_folder_and_a_symlink_loop_without_hanging(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for hostile in (fifo, tmp_path, loop, tmp_path / "missing"):
        done = run_cli(str(hostile), "a", "b")
        assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, (hostile, done.stderr)
        assert "Traceback" not in done.stderr


# What a tamper edit looks like in a page's console block or a notebook's code cell. Each must go
# through course/edits.py; the rows below are the code that only formats what it prints.
RAW_REPLACE = re.compile(r"(?<![\w.])(?!dataclasses\b)[\w\]\[\"'.()]+\.replace\(")
SED_INTO_FILE = re.compile(r"\bsed\b[^|\n]*\bs/[^\n]*>\s*\S")
SUBSCRIPT_SET = re.compile(r"^\s*(?!os\.environ\b)[\w.]+(\[[^\]]+\])+\s*(=|\^=)\s*", re.M)
WRITES = re.compile(r"write_artifact\(|reseal\(|\bseal\(|write_text\(|write_bytes\(|json\.dump\(|verify_report\(")
DISPLAY_ONLY = (
    'identity.replace(" -> https://lab.example:443", " ")',
    'text.replace(" -> https://lab.example:443", " ")',
    "when.replace('_', ' ')",
    '(done.stdout + done.stderr).replace(str(L8), "$L8")',  # lesson 8's notebook shows its folder as $L8
)


def raw_edits(code: str) -> list[str]:
    """The lines of one block or cell that edit something without the helper."""
    found = []
    for line in code.splitlines():
        shown = line
        for display in DISPLAY_ONLY:
            shown = shown.replace(display, "")
        if RAW_REPLACE.search(shown) or SED_INTO_FILE.search(shown):
            found.append(line.strip())
    if (SUBSCRIPT_SET.search(code) or "bytearray(" in code) and WRITES.search(code) and "changed(" not in code:
        found += [match.group(0).strip() for match in SUBSCRIPT_SET.finditer(code)]
    return found


def page_blocks():
    for page in sorted((REPO / "lessons").glob("[0-9][0-9]-*.md")):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^ *```console\n(.*?)^ *```", text, re.S | re.M):
            indent = len(block) - len(block.lstrip(" "))
            yield page.name, "\n".join(line[indent:] for line in block.splitlines())


def notebook_cells():
    for path in sorted((REPO / "notebooks").glob("lesson*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "code":
                yield f"{path.name} cell {number}", cell.source


def test_the_scan_sees_the_edits_that_once_edited_nothing():
    assert raw_edits('text.replace(" head 393d", " head 393e")')
    assert raw_edits("sed 's/\"refusals\": 3/\"refusals\": 0/' intact.json > /tmp/fewer.json")
    assert raw_edits('for e in events:\n    e["payload"]["expect"] = "ag"\nseal(build(events))')
    assert not raw_edits('short = lambda identity: identity.replace(" -> https://lab.example:443", " ")')
    assert not raw_edits("fold -s -w 78 | sed 's/ *$//'")


def test_every_tamper_edit_on_a_page_goes_through_the_helper_that_raises_when_nothing_changed():
    raw = [(where, line) for where, block in page_blocks()
           for command in pages.console_commands(block) for line in raw_edits(command.command)]
    assert raw == []


def test_every_tamper_edit_in_a_notebook_goes_through_the_helper_that_raises_when_nothing_changed():
    raw = [(where, line) for where, source in notebook_cells() for line in raw_edits(source)]
    assert raw == []


def test_lesson_1s_rewritten_ledger_in_the_notebook_rewrites_what_the_page_rewrites():
    """The notebook's rewrite edits the verdict event the ledger holds, as the page does."""
    import json

    cells = nbformat.read(REPO / "notebooks" / "lesson01.ipynb", as_version=4).cells
    source = next(cell.source for cell in cells if "prediction" in cell.metadata.get("tags", []))
    expect = re.search(r'\["expect"\] == "([^"]+)"', source).group(1)
    report = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    held = [event["payload"]["expect"] for event in report["events"] if event["kind"] == "verdict"]
    assert expect in held


def test_lesson_11s_edited_log_in_the_notebook_edits_a_line_of_the_log():
    """The notebook edits the reference run's head as its report names it, which the log spells exactly once."""
    cells = nbformat.read(REPO / "notebooks" / "lesson11.ipynb", as_version=4).cells
    source = next(cell.source for cell in cells if '"edited"' in cell.source)
    assert 'head = report["seal"]["head"][:8]' in source and 'replace(text, f" head {head}", ' in source
    head = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))["seal"]["head"][:8]
    log = (REPO / "data" / "course" / "tlog" / "heads.log").read_text(encoding="ascii")
    assert log.count(f" head {head}") == 1
