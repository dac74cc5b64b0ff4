"""`course lint` refuses an exercise docstring that gives the steps instead of the contract (rule 20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from course import lint, manifest

REPO = Path(__file__).resolve().parent.parent

CONTRACT = '''"""Lesson 99, your edit: the first section that disagrees.

``first_disagreeing(report)`` must answer the name of the earliest section, in the order
``seal verify`` reports them, whose value is not what the ledger derives, or None when
every section agrees: a report that agrees with itself is all a chain can vouch for.
"""


def first_disagreeing(report):
    """The first section its ledger does not derive; else None."""
    raise NotImplementedError("TODO 1")
'''


@pytest.mark.parametrize("recipe", [
    "1. walk the events\n2. compare the ends with the seal\n",
    "   (1) walk the events\n",
    "Three steps: name it, judge it, ratify it.\n",
    "First hash the body, then the seal fields.\n",
    "Two questions, in this order: declared, then listed.\n",
    "    for each hash p of the path, lowest level first:\n        r = node_hash(p, r)\n",
    "    while fn is even:\n        halve fn\n",
    "    if sn is 0:\n        refuse\n",
])
def test_a_docstring_that_gives_steps_is_refused(tmp_path, recipe):
    starter = tmp_path / "lesson99.py"
    starter.write_text(f'"""Lesson 99.\n\n{recipe}"""\n\n\ndef f():\n    """Answer."""\n', encoding="utf-8")
    assert lint.check_exercise_docstrings(starter, "starter/lesson99.py")
    inside = tmp_path / "inside.py"  # the same recipe in a function's docstring
    inside.write_text(f'"""Lesson 99."""\n\n\ndef f():\n    """Answer.\n\n{recipe}"""\n', encoding="utf-8")
    assert lint.check_exercise_docstrings(inside, "starter/lesson99.py")


def test_a_contract_passes(tmp_path):
    starter = tmp_path / "lesson99.py"
    starter.write_text(CONTRACT, encoding="utf-8")
    assert lint.check_exercise_docstrings(starter, "starter/lesson99.py") == []


def test_every_starter_held_to_the_contract_states_a_contract_not_steps():
    held = [lesson for lesson in manifest.load(REPO) if lesson.ready and lesson.contract >= 2]
    assert held
    assert [p for lesson in held for p in lint.check_exercise_docstrings(REPO / lesson.starter, lesson.starter)] == []
