"""The lesson contract is written in the repository (CONTRIBUTING.md), and every rule the course cites is on it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from course import contract, lint, manifest

REPO = Path(__file__).resolve().parent.parent

# "rule 16", "rules 15 to 19", "rules 8 and 18", "Rule 12," in prose, comments and messages.
CITATION = re.compile(r"\b[Rr]ules? (?P<first>\d+)(?:\s+(?P<how>to|and)\s+(?P<last>\d+))?")

# Where the course cites the contract: its tools, tests, harness, manifest and pages.
CITING = ("course/**/*.py", "course/manifest.toml", "tests/*.py", "core/**/*.py", "lab/**/*.py",
          "tlog/**/*.py", "benchmarks/*.py", "starter/*.py", "lessons/*.md", "conftest.py", "README.md")


def cited_rules(text: str) -> set[int]:
    """Every rule number a text cites; a range cites each rule in it."""
    found: set[int] = set()
    for match in CITATION.finditer(text):
        first = int(match["first"])
        last = int(match["last"]) if match["last"] else first
        found |= set(range(first, last + 1)) if match["how"] == "to" else {first, last}
    return found


def citations() -> dict[int, list[str]]:
    where: dict[int, list[str]] = {}
    for pattern in CITING:
        for path in sorted(REPO.glob(pattern)):
            if path == Path(__file__).resolve():
                continue  # this file cites rules that do not exist, to show the scan catches them
            for number in cited_rules(path.read_text(encoding="utf-8")):
                where.setdefault(number, []).append(str(path.relative_to(REPO)))
    return where


def test_the_page_states_rules_1_to_22_once_each_in_order():
    """CONTRIBUTING.md has one heading per rule of the lesson contract, numbered 1 to 22 in order."""
    text = (REPO / contract.PAGE).read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^### Rule (\d+):", text, re.MULTILINE)]
    assert numbers == list(range(1, 23))
    assert list(contract.rules(REPO)) == numbers


def test_every_rule_the_course_cites_is_on_the_page():
    """Each rule number cited by lint, the tools, the tests, the manifest or a page is a rule CONTRIBUTING.md states."""
    where = citations()
    assert 16 in where and 18 in where, "the scan found none of the citations lint is known to make"
    stated = contract.rules(REPO)
    assert {number: files for number, files in where.items() if number not in stated} == {}


def test_a_citation_of_a_rule_the_page_lacks_is_caught(tmp_path):
    """The scan reads ranges and pairs, so a rule 23 cited in a range or a pair shows as missing."""
    assert cited_rules("held to rules 15 to 19, and to rules 8 and 18; see Rule 12,") == {8, 12, 15, 16, 17, 18, 19}
    assert 23 in cited_rules("rules 20 to 23") and 23 in cited_rules("rules 1 and 23")
    (tmp_path / contract.PAGE).write_text("### Rule 1: one\n### Rule 2: two\n", encoding="utf-8")
    assert list(contract.rules(tmp_path)) == [1, 2]


def test_a_lint_message_that_cites_a_rule_names_the_page(fixture_course):
    """A lesson held to rule 16 with no wrong solutions gets a lint line that cites rule 16 and CONTRIBUTING.md."""
    lesson = dataclasses.replace(manifest.load(fixture_course)[0], contract=2)
    problems = lint.check_wrong_solutions(lesson, fixture_course)
    assert len(problems) == 1
    assert "rule 16" in problems[0] and contract.PAGE in problems[0]


def test_no_message_in_the_course_tools_cites_a_rule_without_the_page():
    """Every string in course/*.py that cites a rule number, docstrings and comments aside, goes through contract.cite."""
    import ast

    bare = []
    for path in sorted((REPO / "course").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and CITATION.search(node.value)):
                bare.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
    assert bare == []
