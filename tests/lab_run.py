"""Shared helpers for the suites: the reference policy, runs of any lesson's door, and lab pages through the door.

``capture_page`` drives action, capture and outcome through the door by hand, as
lessons 3 to 5 can: their tests must not lean on lesson 6's executor
(core/run/execute.py), which also records an unresolved outcome first.
``lab_loop`` runs the work loop with the one driver (drive.work).
"""

from __future__ import annotations

from collections import deque

from core.run.doors import door_for, stage_table
from core.run.drive import enter, work
from core.run.gate import Gating
from core.run.observe import render_response
from core.run.policy import reference_policy
from core.run.records import make_run
from core.run.stages import TRANSITIONS
from lab.adapter import HttpAdapter
from lab.model import ScriptedModel
from lab.plugin import LabAdapter

LAB_POLICY = reference_policy(max_actions=4, max_model_calls=4).snapshot()
LAB_GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10}, "fail_open_classes": []}


def lab_run(lesson: int = 5, world: str = "lessons-3-5", without: tuple[str, ...] = (), gating: dict | None = None,
            plan=None, **changes):
    """A fresh run with the door of ``lesson`` under the lab policy (with ``changes`` applied).

    From lesson 8 on the door gates under ``gating`` (LAB_GATING unless
    given); from lesson 7 on it holds the verify stage to ``plan`` (a
    verify.Plan; none given, nothing acts there). ``without`` names guards to
    leave out: a door is data, so a test that drives one part by hand can
    build the door without the guard that would make it go through another
    part first.
    """
    policy = reference_policy(**{"max_actions": 4, "max_model_calls": 4, **changes})
    rules = Gating.from_dict(gating or LAB_GATING) if lesson >= 8 else None
    return door_for(lesson, make_run(policy.snapshot(), {"world": world}), policy, rules, plan=plan, without=without)


def admitted_in(lesson: int = 7) -> dict[str, tuple[str, ...]]:
    """Each record kind of a lesson's door and the stages its table admits it in (stage moves left out)."""
    table = stage_table(lesson)
    return {kind: tuple(table.admitted_in.get(kind, ())) for kind in lab_run(lesson, world="admitted-in").kinds
            if kind not in ("transition", "close")}


def path_to(start: str, goal: str) -> list[str]:
    """The stages to enter, in order, to get from ``start`` to ``goal`` (shortest, table order on ties)."""
    previous = {start: None}
    queue = deque([start])
    while queue:
        stage = queue.popleft()
        for source, target in TRANSITIONS:
            if source == stage and target not in previous:
                previous[target] = stage
                queue.append(target)
    if goal not in previous:
        raise AssertionError(f"no path from {start!r} to {goal!r}")
    path = []
    while goal != start:
        path.append(goal)
        goal = previous[goal]
    return path[::-1]


def go_to(recorder, goal: str) -> None:
    """Advance ``recorder`` to ``goal`` along allowed transitions, through the driver's own move (drive.enter)."""
    enter(recorder, *path_to(recorder.stage, goal))  # the driver's own move: a refused one raises HarnessError


def capture_page(recorder, adapter, path: str, tool: str = "inspect_headers") -> tuple[str, str]:
    """Fetch a lab page and record its action, capture and settled outcome; returns (action_id, capture_id).

    The recorder must be in the execute stage.
    """
    run_id = recorder.run.run_id
    url = f"https://lab.example{path}"
    action = recorder.record("action", {"run_id": run_id, "tool": tool, "destination": url, "arguments": {}})
    assert action["recorded"], action
    response = adapter.fetch(url)
    body = render_response(response.status, response.headers, response.body)
    capture = {"run_id": run_id, "action_id": action["id"], "status": response.status, "body": body}
    capture_answer = recorder.record("capture", capture)
    assert capture_answer["recorded"], capture_answer
    outcome = {"run_id": run_id, "action_id": action["id"], "status": "succeeded", "capture_id": capture_answer["id"],
               "detail": ""}
    assert recorder.record("outcome", outcome)["recorded"]
    return action["id"], capture_answer["id"]


def last_outcome_id(recorder, action_id: str) -> str:
    """The id of the latest outcome recorded for ``action_id``."""
    return [o for o in recorder.records("outcome") if o["action_id"] == action_id][-1]["outcome_id"]


def lab_loop(rounds: int = 4, lesson: int = 5):
    """The work loop of the one driver against the in-process lab, with the scripted model, ``rounds`` acts at most.

    Every step goes through ``lesson``'s door; the loop ends in the select stage.
    """
    door = lab_run(lesson, world="lab-loop", max_actions=rounds)
    with LabAdapter(HttpAdapter("inprocess")) as adapter:
        work(door, ScriptedModel().reply, adapter)
    return door
