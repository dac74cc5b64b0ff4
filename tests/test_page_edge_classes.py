"""A page says in words which classes of input its check asks; the student never needs the check's file for it.

Where a page lists the edge classes of its check, it lists them after the
marker ``<!-- edge classes -->``, one bullet per class, each the class's name
word for word as the check's ``EDGE_CLASSES`` holds it, in the same order. So
the list cannot drift from what the check draws, and no page sends the student
to ``starter/lessonNN_test.py`` to read it.
"""

from __future__ import annotations

import pytest

from course import manifest

from .conftest import REPO
from .test_edge_classes import edge_classes

MARKER = "<!-- edge classes -->"
LISTED = (7, 9, 10, 11, 12)  # the pages that list their check's classes
LESSONS = manifest.load(REPO)


def listed(page: str) -> list[str]:
    """The bullets after the marker, continuation lines joined, with the list's own punctuation dropped."""
    lines = page.split(MARKER, 1)[1].lstrip("\n").splitlines()
    items: list[str] = []
    for line in lines:
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif line.startswith("  ") and line.strip() and items:
            items[-1] += " " + line.strip()
        else:
            break
    return [item.rstrip(";.").removesuffix(", and").removesuffix(" and").rstrip(";,") for item in items]


@pytest.mark.parametrize("number", LISTED)
def test_the_page_lists_its_checks_edge_classes_word_for_word(number):
    """The classes a page lists are the ones its check asks, in words, in the check's order."""
    lesson = next(lesson for lesson in LESSONS if lesson.number == number)
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    assert page.count(MARKER) == 1, f"{lesson.page} has no single {MARKER!r}"
    assert listed(page) == [edge.name for edge in edge_classes(number)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"lesson{lesson.label}")
def test_no_page_sends_the_student_to_the_check_file_for_its_edge_classes(lesson):
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    assert "EDGE_CLASSES" not in page, f"{lesson.page} points at the check's file for what it asks"


def test_the_list_reader_stops_at_the_end_of_the_list():
    page = f"text\n{MARKER}\n- one;\n- two words\n  wrapped; and\n- three.\n\nAfter.\n- not in it\n"
    assert listed(page) == ["one", "two words wrapped", "three"]
