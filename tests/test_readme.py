"""The README a newcomer starts from: its Markdown holds together, and every command it names exists."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_code_fence_is_closed():
    """A stray fence turns the rest of the README into one code block on every renderer."""
    fences = [number for number, line in enumerate(README.splitlines(), start=1) if line.startswith("```")]
    assert len(fences) % 2 == 0, f"README.md has an unclosed code fence (fences on lines {fences})"
    lines = README.splitlines()
    closings = [number for number in fences[1::2] if lines[number - 1].strip() != "```"]
    assert not closings, f"README.md: the fences on lines {closings} close a block but carry a language"


def test_every_make_target_the_readme_names_is_in_the_makefile():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"`make ([a-z][\w-]*)", README))
    assert named, "the README names no make target"
    assert named <= targets, f"the README names make targets the Makefile lacks: {sorted(named - targets)}"


def test_every_module_the_readme_runs_exists():
    modules = set(re.findall(r"python3? -m ([\w.]+)", README))
    assert modules
    missing = sorted(module for module in modules if importlib.util.find_spec(module) is None)
    assert not missing, f"the README runs modules that do not exist: {missing}"
