"""Names and comments say what code does, not which report or incident led to it."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# The folders whose code, tests and comments students and contributors read.
READ = ("core", "course", "lab", "tlog", "benchmarks", "tests", "starter", "solutions")

# "issue 23", "Issue #10", "issues 20 and 26", "hole 4", "PR 12", "bug 7": a number from a tracker.
TRACKER_NUMBER = re.compile(r"\b(?:issues?|holes?|PRs?|pull request|bugs?|tickets?)\s*#?\d+", re.IGNORECASE)

# A test file named after what happened, not after what it holds.
INCIDENT_NAME = re.compile(r"(?:^|_)(?:holes?|issues?\d*|bugs?|regressions?|fix(?:es)?|incidents?|round\d+)(?:_|$)")


def sources() -> list[Path]:
    found = [REPO / "conftest.py", REPO / "Makefile", REPO / "pyproject.toml"]
    for folder in READ:
        found += [p for p in sorted((REPO / folder).rglob("*"))
                  if p.suffix in {".py", ".toml", ".md", ".cfg", ".ini"} and "vectors" not in p.parts]
    return found


def tracker_numbers(text: str) -> list[str]:
    return [m.group(0) for m in TRACKER_NUMBER.finditer(text)]


def test_no_code_test_or_comment_carries_an_issue_number():
    """No file in core, course, lab, tlog, benchmarks, tests, starter or solutions names an issue, a hole or a PR by number."""
    here = Path(__file__).resolve()
    found = {str(p.relative_to(REPO)): tracker_numbers(p.read_text(encoding="utf-8"))
             for p in sources() if p != here}
    assert {path: numbers for path, numbers in found.items() if numbers} == {}


def test_no_test_file_is_named_after_an_incident():
    """Every test file's name says what it tests: none is named after a hole, an issue, a bug, a fix or a round."""
    names = [p.stem.removeprefix("test_") for p in sorted((REPO / "tests").glob("test_*.py"))]
    assert len(names) > 50
    assert [name for name in names if INCIDENT_NAME.search(name)] == []


def test_the_scans_catch_the_spellings_they_are_for():
    """The number scan and the name scan catch each spelling of an incident, and leave the words that only look alike."""
    caught = ("issue 23", "Issue #10", "issues 20", "hole 4", "Hole 5:", "PR 12", "bug 7", "ticket #3")
    assert all(tracker_numbers(text) for text in caught)
    assert tracker_numbers("the whole 4 KB, round 3 of the loop, 1 hole, an issue for later") == []
    assert all(INCIDENT_NAME.search(name) for name in ("holes", "hole", "issue23", "round2", "bug_fixes", "regression"))
    assert not any(INCIDENT_NAME.search(name) for name in ("whole_report", "run_records", "fixture", "prefix_cost"))
