"""`course check` says on the screen only what the check wrote: the student's text is shown, never obeyed.

A check's line quotes the student's file (a load error's message, a value it
returned). Whatever those hold, nothing of it may draw a line the check did not
write: not a control character, not a run of white space, not a character that
is neither white space nor a control yet renders blank (U+2800, a Hangul filler).
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from course.cli import visible

from .conftest import REPO, run_course

BLANK = "\u2800"  # BRAILLE PATTERN BLANK: a symbol (So), printable, and blank on every screen
PASSED = "All 12 checks pass: lesson 4 is complete."


def screen_lines(text: str, columns: int = 80) -> list[str]:
    """What a terminal of ``columns`` shows: each line cut into rows of that many characters."""
    rows = []
    for line in text.splitlines():
        rows += [line[at:at + columns] for at in range(0, max(len(line), 1), columns)]
    return rows


FILLERS = "\u2800\u3164\u115f\u1160\uffa0"  # letters and symbols that render blank


def blank_looking(char: str) -> bool:
    return char.isspace() or char in FILLERS or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn")


def test_a_load_error_padded_with_blank_braille_does_not_draw_a_pass(tmp_path):
    """A load error padded with U+2800 to 80 columns shows its padding; no row of the screen begins with a pass."""
    path = tmp_path / "lesson04.py"
    said = f"{path}, line 1: NameError: "
    padding = BLANK * (80 - len(said) % 80)
    path.write_text(f"raise NameError({padding + PASSED + BLANK * 40 + 'Next: lesson 5'!r})\n", encoding="utf-8")
    done = run_course(REPO, "check", "4", COURSE_TARGET=str(path), COLUMNS="80")
    assert done.returncode == 1
    assert said in done.stdout, done.stdout
    for row in screen_lines(done.stdout):
        shown = "".join(char for char in row if not blank_looking(char))
        assert not shown.startswith(("All 12", "Next:")), (row, done.stdout)
    assert BLANK not in done.stdout and "\\u2800" in done.stdout


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_what_visible_gives_holds_no_blank_looking_character_but_a_lone_space(text):
    shown = visible(text)
    assert "   " not in shown
    assert all(char == " " or not blank_looking(char) for char in shown), ascii(shown)
    assert unicodedata.category(shown[0]) != "Cn" if shown else True


def test_visible_keeps_the_checks_own_text_and_escapes_each_blank_looking_character():
    assert visible("read_has_meta returned 'a b' → not True") == "read_has_meta returned 'a b' → not True"
    assert visible("x\u3164\u115f\u2000\u200b\ufe0fy") == "x\\u3164\\u115f\\u2000\\u200b\\ufe0fy"
    assert visible("a" + " " * 5 + "b") == "a" + "\\x20" * 5 + "b"
