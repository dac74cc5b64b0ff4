"""How a page's expected output is compared with what a command printed ("..." as a wildcard)."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course import pages

from .conftest import examples


def matches_one_wildcard_per_dots(expected: str, actual: str) -> bool:
    """The rule as first written: each "..." inside a line is its own wildcard (slow on runs of dots)."""
    pattern = []
    for line in expected.splitlines(keepends=True):
        if line.rstrip("\n") == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append("[^\n]*".join(re.escape(part) for part in line.split("...")))
    return re.fullmatch("".join(pattern), actual) is not None


def test_a_line_of_progress_dots_is_any_text_on_its_line():
    expected = "." * 24 + " " * 49 + "[100%]\n24 passed in ...\n"
    assert pages.output_matches(expected, "." * 24 + " " * 49 + "[100%]\n24 passed in 0.66s\n")
    assert pages.output_matches(expected, "..F" + " " * 49 + "[100%]\n24 passed in 0.66s\n")  # as it always did
    assert not pages.output_matches(expected, "." * 24 + " " * 49 + "[100%]\n23 passed in 0.66s\n")
    assert not pages.output_matches(expected, "." * 24 + "\nmore\n24 passed in 1s\n")  # never across lines


SHORT = st.text(alphabet=".ab\n", max_size=12)


@settings(max_examples=examples(2000))
@given(SHORT, SHORT)
def test_a_run_of_wildcards_matches_exactly_what_one_wildcard_per_dots_matched(expected, actual):
    assert pages.output_matches(expected, actual) == matches_one_wildcard_per_dots(expected, actual)


REPO = Path(__file__).resolve().parent.parent


def test_the_head_lesson_10_keeps_against_its_forgery_is_the_reference_runs_own():
    """The page's kept head is the reference report's: a stale head would fail the forgery for the wrong reason."""
    page = (REPO / "lessons" / "10-safety-packs-and-audit-replay.md").read_text(encoding="utf-8")
    head = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))["seal"]["head"]
    kept = [line.split()[0] for line in page.split("--head \\\n")[1:]]
    assert kept and all(value == head for value in kept), (kept, head)


def test_the_journal_demos_of_lessons_6_and_8_work_in_a_fresh_folder_not_a_fixed_tmp_name():
    """A page that removes and rewrites a fixed /tmp name can clobber another user's file, or follow their symlink."""
    for name in ("06-execution-through-adapters.md", "08-gating-consequential-actions.md"):
        page = (REPO / "lessons" / name).read_text(encoding="utf-8")
        blocks = re.findall(r"^```console\n(.*?)^```", page, re.S | re.M)
        commands = [c.command for block in blocks for c in pages.console_commands(block)]
        assert not [c for c in commands if re.search(r"/tmp/l[68]-|\brm -f /tmp/", c)], name
        assert any(re.fullmatch(r"export L[68]=\$\(mktemp -d\)", c) for c in commands), name


FIXED_TMP = re.compile(r"(?<![\w$}])/tmp/[\w.-]")  # /tmp/NAME, not "$L1/NAME" inside a fresh folder


def every_lesson() -> list:
    from course import manifest

    lessons = []
    for lesson in manifest.load(REPO):
        lessons.append(pytest.param(lesson, id=f"lesson{lesson.label}"))
    return lessons


@pytest.mark.parametrize("lesson", every_lesson())
def test_no_page_or_notebook_writes_a_fixed_name_in_tmp(lesson):
    """What a page or notebook writes goes into a fresh folder (mktemp -d, tempfile): a fixed /tmp
    name can hold another user's file, or their symlink, on a shared machine."""
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    code = pages.code_lines(page, REPO) + [line for cell in notebook["cells"] if cell["cell_type"] == "code"
                                           for line in "".join(cell["source"]).splitlines()]
    assert code, f"no code found on {lesson.page}"
    assert [line for line in code if FIXED_TMP.search(line)] == []


def test_lesson_10_works_in_a_fresh_folder_and_names_no_fixed_tmp_path():
    """Lesson 10's page makes its folder with mktemp -d and every command uses it; neither page nor notebook names /tmp."""
    page = (REPO / "lessons" / "10-safety-packs-and-audit-replay.md").read_text(encoding="utf-8")
    notebook = (REPO / "notebooks" / "lesson10.ipynb").read_text(encoding="utf-8")
    assert "/tmp" not in page and "/tmp" not in notebook
    blocks = re.findall(r"^ *```console\n(.*?)^ *```", page, re.S | re.M)
    commands = [c.command for block in blocks for c in pages.console_commands(textwrap.dedent(block))]
    assert commands.count("export L10=$(mktemp -d)") == 1
    assert sum("L10" in command for command in commands) >= 10


def test_the_authors_tool_keeps_a_shown_line_that_still_matches_and_rewrites_a_stale_one():
    """site_build.page_outputs keeps each shown line that still matches its printed line (a "..." wildcard stays) and takes the printed line where it does not; a changed line count replaces the whole output and says so."""
    from site_build.page_outputs import blocks, merged

    shown = "run ...\nintact: 179 events\n"
    assert merged(shown, "run 79dbc894\nintact: 183 events\n") == ("run ...\nintact: 183 events\n", False)
    assert merged(shown, "one line\n") == ("one line\n", True)
    page = ["text", "```console", "$ a", "```", "    ```console", "    $ b", "    out", "    ```"]
    assert blocks(page) == [(2, 3, ""), (5, 7, "    ")]
