"""The driver's seams for the demos and tests of early lessons: what they needed is the driver's, not a copy."""

from __future__ import annotations

import pytest

from core.run.drive import Enough, HarnessError, go_to, recorded_at_once, work
from core.run.propose import PROPOSAL_KIND
from lab.adapter import HttpAdapter
from lab.model import ScriptedModel
from lab.plugin import LabAdapter

from .lab_run import lab_run


def test_an_act_recorded_at_once_writes_action_capture_and_settled_outcome_and_nothing_when_refused():
    """recorded_at_once writes the action, its capture and a settled outcome (no unresolved start: that is lesson
    6's executor); an act the door refuses is answered as refused, and nothing more is recorded."""
    door = lab_run(4, world="at-once")
    go_to(door, "execute")
    with LabAdapter(HttpAdapter("inprocess")) as adapter:
        payload = {"run_id": door.run.run_id, "tool": "inspect_headers", "destination": "https://lab.example/about",
                   "arguments": {}}
        done = recorded_at_once(door, payload, adapter)
        assert done.status == "succeeded" and done.capture_id
        assert [event["kind"] for event in door.events[-3:]] == ["action", "capture", "outcome"]
        assert [outcome["status"] for outcome in door.records("outcome")] == ["succeeded"]
        before = len(door.events)
        refused = recorded_at_once(door, {**payload, "destination": "https://other.example/"}, adapter)
    assert refused.status == "refused" and "outside" in refused.detail and len(door.events) == before + 1


def test_go_to_walks_the_fewest_moves_and_names_a_stage_it_cannot_reach():
    """go_to enters each stage on the shortest way along the door's table, and raises HarnessError, moving nothing,
    when no move of the table leads to the goal."""
    door = lab_run(5, world="go-to")
    go_to(door, "verify")
    moves = [event["id"] for event in door.events if event["kind"] == "transition"]
    assert moves == ["authorize -> observe", "observe -> propose", "propose -> select", "select -> verify"]
    go_to(door, "report")
    with pytest.raises(HarnessError, match="cannot get from report to observe"):
        go_to(door, "observe")
    assert door.stage == "report"


def test_a_choice_without_selection_and_a_watch_that_has_seen_enough():
    """On a door before lesson 5, ``choose`` names a stored proposal and the loop carries it out with no selection
    record and no feedback (the door keeps none); a watch that raises Enough ends the loop where the run stands."""
    door = lab_run(4, world="choose", max_actions=2)
    proposed = []

    def choose(door):
        stored = [proposal for proposal in door.records(PROPOSAL_KIND)]
        return {"recorded": bool(stored), "kind": PROPOSAL_KIND, "id": stored[0]["action_id"] if stored else None}

    def watch(step, answer):
        if step == "proposed":
            proposed.append(answer)
            if len(proposed) == 2:
                raise Enough

    with LabAdapter(HttpAdapter("inprocess")) as adapter:
        work(door, ScriptedModel().reply, adapter, watch=watch, act=recorded_at_once, choose=choose)
    assert door.stage == "propose" and len(proposed) == 2
    assert door.count("action") == 1 and "selection" not in door.kinds and "feedback" not in door.kinds
    assert not any(event["status"] == "refused" and event["kind"] == "feedback" for event in door.events)
