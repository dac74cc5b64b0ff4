"""Lesson 5's exercise is two-sided: the paired checks turn away a score that wins everything and one that never wins.

These run the starter test's own plan (starter/lesson05_test.py) with
entries nobody should hand in, so the exercise cannot be passed by pushing a
number to an extreme, and the starter's docstring cannot drift from the plan
the test holds.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from core.run.policy import PolicyError

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("lesson05_check", ROOT / "starter" / "lesson05_test.py")
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)


def plan_with(family: str, weight: float, cost: float) -> list[dict]:
    entry = {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
             "family": family, "weight": weight, "cost": cost}
    return CHECK.plan_run(CHECK.policy_with(entry))


@pytest.mark.parametrize("family", ["fam-recon", "fam-probe", "fam-meta"])
def test_a_score_that_wins_everything_fails_the_waiting_check(family):
    run = plan_with(family, 1000.0, 0.0)
    assert CHECK.too_early(run).startswith("at selection 2 the door chose inspect_metadata /about")
    assert CHECK.too_late(run) == ""
    assert CHECK.off_plan(run)


@pytest.mark.parametrize("family", ["fam-recon", "fam-probe", "fam-meta"])
def test_a_score_that_never_wins_fails_the_probe_check(family):
    run = plan_with(family, 0.001, 100.0)
    assert CHECK.too_late(run).startswith("at selection 4 the door chose probe_reflection /search")
    assert CHECK.too_early(run) == ""
    assert CHECK.off_plan(run)


@pytest.mark.parametrize(("family", "weight", "cost", "fits"), [
    ("fam-recon", 3.0, 1.0, False),  # the reference run's entry: the metadata read goes second
    ("fam-meta", 3.0, 1.0, True),  # the same numbers in a family of its own fit: the family matters
    ("fam-recon", 1.5, 1.0, True),  # the worked answer
    ("fam-meta", 1.5, 1.0, False),  # and its numbers alone, without fam-recon's credit, never win
    ("fam-recon", 2.0, 1.0, True),  # a tie with every header look goes to inspect_headers
    ("fam-recon", 0.5, 1.0, True),  # at selection 4, 0.5 * 4 / 2 = 1.0 ties the probe, and wins it
    ("fam-recon", 0.49, 1.0, False),
])
def test_the_family_decides_whose_success_lifts_the_score(family, weight, cost, fits):
    run = plan_with(family, weight, cost)
    assert (CHECK.off_plan(run) == "") is fits, CHECK.off_plan(run)
    assert (CHECK.too_early(run) == "" and CHECK.too_late(run) == "") is fits


def test_the_starter_docstring_states_the_plan_the_check_holds():
    doc = (ROOT / "starter" / "lesson05.py").read_text(encoding="utf-8")
    lines = [f"selection {number}: {identity}" for number, identity in enumerate(CHECK.PLAN, start=1)]
    positions = [doc.find(line) for line in lines]
    assert -1 not in positions and positions == sorted(positions), lines
    for reply in CHECK.REPLIES:
        for proposal in reply:
            path = proposal["destination"].removeprefix("https://lab.example")
            assert f"``{proposal['tool']}`` at {path}" in doc, (proposal["tool"], path)


def test_a_weight_whose_score_would_overflow_is_refused_by_the_policy_with_its_reason():
    with pytest.raises(PolicyError, match="weight must be a number from 0 to 1000000, got 1e"):
        plan_with("fam-recon", 1e308, 0.0)  # a finite weight whose score would overflow to infinity
