"""The runs a lesson's check makes are runs that work: a check whose made runs do nothing checks nothing.

Lesson 1's check makes runs from a seed, with budgets drawn at random. When
the verify stage came to keep its share of the action budget, budgets drawn
below that share left the work loop no action at all: every finding was
refused before the door, with no payload, and a wrong answer that kept
refused findings passed. These tests hold the made runs to doing work.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def check_module(lesson: int):
    path = REPO / "starter" / f"lesson{lesson:02d}_test.py"
    spec = importlib.util.spec_from_file_location(f"starter.lesson{lesson:02d}_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("chosen", [93274736777175, 1, 2026])
def test_lesson_1s_made_runs_act_and_one_holds_a_finding_the_door_refused(tmp_path, chosen):
    check = check_module(1)
    edited = tmp_path / "lab"
    shutil.copytree(check.DEFAULT_LAB, edited)
    check.edit_lab(edited)
    made = check.made_from(chosen, (check.DEFAULT_LAB, edited))
    runs = [report for which, report in made if which.startswith("run ") and "closed early" not in which]
    assert len(runs) == check.RUNS
    for number, report in enumerate(runs, 1):
        captures = [e for e in report["events"] if e["kind"] == "capture" and e["status"] == "admitted"]
        assert captures, f"run {number} of seed {chosen} captured nothing"
    refused = [e for e in runs[0]["events"] if e["kind"] == "finding" and e["status"] == "refused" and e["payload"]]
    assert refused, f"run 1 of seed {chosen} holds no finding the door refused with its payload"
