"""Shared helpers for the suites: the reference policy, runs of any lesson's door, and lab pages through the door.

``capture_page`` records action, capture and outcome at once, as lessons 3 to 5
act (drive.recorded_at_once): their tests must not lean on lesson 6's executor
(core/run/execute.py), which also records an unresolved outcome first. A test
moves a door with the driver's own moves (drive.enter, drive.go_to), and
``lab_loop`` runs the work loop with the one driver (drive.work).
"""

from __future__ import annotations

from core.run.doors import door_for, stage_table
from core.run.drive import go_to, path_to, recorded_at_once, work  # noqa: F401 (go_to, path_to: the suites')
from core.run.gate import Gating
from core.run.policy import reference_policy
from core.run.records import make_run
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


def capture_page(recorder, adapter, path: str, tool: str = "inspect_headers") -> tuple[str, str]:
    """Fetch a lab page and record its action, capture and settled outcome at once (drive.recorded_at_once);
    returns (action_id, capture_id). The recorder must be in the execute stage."""
    payload = {"run_id": recorder.run.run_id, "tool": tool, "destination": f"https://lab.example{path}", "arguments": {}}
    result = recorded_at_once(recorder, payload, adapter)
    assert result.status == "succeeded", result
    return result.action_id, result.capture_id


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
