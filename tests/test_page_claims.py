"""Sentences on the pages that say what a check or a set-up step does, held to what it does."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def prose(name: str) -> str:
    return " ".join((REPO / "lessons" / name).read_text(encoding="utf-8").split())


def test_lesson_1s_set_up_is_make_run_and_make_test_is_not_needed_to_begin():
    page = (REPO / "lessons" / "01-read-a-finished-report.md").read_text(encoding="utf-8")
    start = page.split("## Start from here", 1)[1].split("\n## ", 1)[0]
    set_up = [line for line in start.splitlines() if line.startswith("make ")]
    assert set_up and all(line.startswith("make run") for line in set_up), set_up
    assert "You do not need `make test` to begin" in " ".join(start.split())


def test_lesson_6s_loop_check_compares_what_its_shape_keeps_not_the_whole_ledger():
    spec = importlib.util.spec_from_file_location("lesson06_check", REPO / "starter" / "lesson06_test.py")
    check = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = check  # its dataclasses look their module up by name
    try:
        spec.loader.exec_module(check)
    finally:
        del sys.modules[spec.name]

    class Door:
        def __init__(self, detail):
            self.ledger = [{"kind": "outcome", "status": "admitted", "code": "", "id": "o1",
                            "payload": {"status": "failed", "capture_id": "", "detail": detail}}]

    # Two ledgers that differ only in a detail text are the same to the check: the page must not say more.
    assert check.shape(Door("timed out")) == check.shape(Door("another text"))
    text = prose("06-execution-through-adapters.md")
    assert "compares the ledger, event for event" not in text
    assert "(not payloads or detail texts)" in text
