"""course/wrong.py: a wrong solution stored as its mistake, a header and a diff against the worked answer."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from course.wrong import WrongSolutionError, apply, read, rebuild

from .conftest import REPO

LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "def f():\n", "    return 1\n", "\n", "x = 2\n"]), max_size=30)


def diff_of(before: list[str], after: list[str], context: int = 3) -> str:
    return "".join(difflib.unified_diff(before, after, "solutions/lesson04.py", "solutions/wrong/lesson04_x.py",
                                        n=context))


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.integers(0, 4))
def test_a_diff_rebuilds_the_file_it_was_made_from(before, after, context):
    assume(before != after)  # no change is no wrong solution: apply says the diff holds none
    assert apply("".join(before), "Wrong: x\n\n" + diff_of(before, after, context)) == "".join(after)


def test_a_diff_the_worked_answer_has_moved_under_is_named():
    before = ["def f():\n", "    return 1\n", "\n", "x = 2\n"]
    patch = diff_of(before, ["def f():\n", "    return 2\n", "\n", "x = 2\n"])
    with pytest.raises(WrongSolutionError, match=r"the worked answer no longer reads '    return 1' at line 2"):
        apply("def f():\n    return 3\n\nx = 2\n", patch, "lesson04_x.diff")
    with pytest.raises(WrongSolutionError, match="holds no unified diff"):
        apply("x\n", "Wrong: x\n\nKind: skips the edge\n")
    with pytest.raises(WrongSolutionError, match="expected a hunk"):
        apply("x\n", "--- a\n+++ b\nnot a hunk\n")


def test_a_diff_declares_itself_in_its_header_and_rebuilds_onto_the_worked_answer(tmp_path):
    worked = (REPO / "solutions" / "lesson04.py").read_text(encoding="utf-8").splitlines(keepends=True)
    changed = [line.replace("return True if parser.found else None", "return True") for line in worked]
    assert changed != worked
    folder = tmp_path / "solutions" / "wrong"
    folder.mkdir(parents=True)
    (tmp_path / "solutions" / "lesson04.py").write_text("".join(worked), encoding="utf-8")
    path = folder / "lesson04_says_yes.diff"
    path.write_text("Wrong: says yes.\n\nIt never reads the page.\n\nKind: accepts everything\n"
                    "Fails with: not True or False\n\n" + diff_of(worked, changed), encoding="utf-8")
    found = read(path, 4)
    assert (found.what, found.kind, found.words) == ("says yes.", "accepts everything", "not True or False")
    assert rebuild(path) == "".join(changed)
    path.write_text("Wrong: says yes.\n\nKind: says yes\nFails with: x\n\n" + diff_of(worked, changed))
    with pytest.raises(WrongSolutionError, match="declares the kind 'says yes'"):
        read(path, 4)
