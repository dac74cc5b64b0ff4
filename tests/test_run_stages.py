"""Lesson 3 completion suite: the stage machine over the door.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_3_5_edges.py.
"""

from __future__ import annotations

import pytest

from core.run.doors import REFERENCE_TABLE, door_for, stage_table
from core.run.recorder import Recorder
from core.run.stages import (
    STAGES,
    START_STAGE,
    TRANSITIONS,
    StageTable,
    StageTableError,
    advance,
    table_of,
)

from .lab_run import admitted_in, go_to, lab_run, path_to

ADMITTED_IN = admitted_in(7)  # every kind up to lesson 7 and the stages its row admits it in


def stores(recorder) -> dict:
    """The snapshot without the ledger: what a refusal must leave alone."""
    return {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}


def stage_reason(kind: str, stage: str) -> str:
    return f"record kind '{kind}' is not admitted in stage '{stage}'"


def test_stage_tables_are_data_over_known_stages():
    """The stages, the allowed transitions and the stages each record kind is admitted in are plain data tables, and every stage they name is one of the stages."""
    assert isinstance(STAGES, tuple) and len(set(STAGES)) == len(STAGES) == 8
    assert all(isinstance(pair, tuple) and len(pair) == 2 for pair in TRANSITIONS)
    assert len(set(TRANSITIONS)) == len(TRANSITIONS)
    assert {stage for pair in TRANSITIONS for stage in pair} == set(STAGES)
    assert all(isinstance(stages, tuple) and set(stages) <= set(STAGES) for stages in ADMITTED_IN.values())
    # Every kind has its stages in its own row, and every stage can be reached from the start.
    assert all(ADMITTED_IN.values())
    assert [stage for stage in STAGES[1:] if path_to(REFERENCE_TABLE, START_STAGE, stage)] == list(STAGES[1:])


def test_a_staged_run_starts_in_the_first_stage():
    """A staged run starts in the first stage, authorize, with an empty ledger, and its snapshot reports that stage."""
    recorder = lab_run(3)
    assert START_STAGE == STAGES[0] == "authorize"
    assert recorder.stage == "authorize"
    assert recorder.events == []
    assert recorder.snapshot()["stage"] == "authorize"
    # Lesson 2's door on its own still has no stage.
    assert Recorder(recorder.run, recorder.policy).snapshot()["stage"] == ""


def test_every_transition_is_a_ledger_event():
    """Every allowed transition is an admitted ledger event whose id names the stage left and the stage entered, and the snapshot's stage follows it."""
    recorder = lab_run(3)
    walk = ["observe", "propose", "select", "execute", "observe"]
    for stage in walk:
        before = recorder.stage
        assert advance(recorder, stage) == {"recorded": True, "kind": "transition", "id": f"{before} -> {stage}"}
        assert recorder.snapshot()["stage"] == stage
    assert [(e["seq"], e["kind"], e["status"], e["id"], e["reason"]) for e in recorder.events] == [
        (1, "transition", "admitted", "authorize -> observe", ""),
        (2, "transition", "admitted", "observe -> propose", ""),
        (3, "transition", "admitted", "propose -> select", ""),
        (4, "transition", "admitted", "select -> execute", ""),
        (5, "transition", "admitted", "execute -> observe", ""),
    ]
    assert recorder.snapshot()["counts"] == {"admitted": 5, "refusals": 0}


def test_an_unlisted_transition_is_a_recorded_refusal():
    """A transition the table does not list is refused with a reason naming both stages, and the stage and every store stay as they were."""
    recorder = lab_run(3)
    go_to(recorder, "observe")
    before = stores(recorder)
    attempts = {
        "report": "transition from 'observe' to 'report' is not allowed",
        "observe": "transition from 'observe' to 'observe' is not allowed",
        "authorize": "transition from 'observe' to 'authorize' is not allowed",
        "launch": "unknown stage 'launch'",
    }
    for stage, reason in attempts.items():
        assert advance(recorder, stage) == {"recorded": False, "reason": reason}
        code = "unknown_stage" if stage == "launch" else "move_not_listed"
        assert recorder.events[-1] == {"seq": len(recorder.events), "kind": "transition", "status": "refused",
                                       "id": "", "reason": reason, "code": code, "by": "door: stages.build_transition"}
    assert recorder.stage == "observe"
    assert stores(recorder) == before
    assert recorder.snapshot()["counts"] == {"admitted": 1, "refusals": 4}


def test_a_record_outside_its_stages_is_refused():
    """A record whose kind is not admitted in the current stage is refused with a reason naming the kind and the stage, and no store changes."""
    recorder = lab_run(3)
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", action) == {"recorded": False, "reason": stage_reason("action", "authorize")}
    go_to(recorder, "execute")
    action_id = recorder.record("action", action)["id"]
    capture = recorder.record("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": "ok"})
    go_to(recorder, "observe")
    before = stores(recorder)
    finding = {"run_id": run_id, "capture_id": capture["id"], "quote": "ok", "claim": "the page says ok"}
    assert recorder.record("finding", finding) == {"recorded": False, "reason": stage_reason("finding", "observe")}
    second = {**action, "destination": "https://lab.example/about"}
    assert recorder.record("action", second) == {"recorded": False, "reason": stage_reason("action", "observe")}
    assert stores(recorder) == before
    assert [e["status"] for e in recorder.events[-2:]] == ["refused", "refused"]


def test_each_kind_is_admitted_only_in_its_stages():
    """Each record kind gets past the stage check in exactly the stages the table lists for it, and in no other."""
    for stage in STAGES:
        recorder = lab_run(7, world=f"stage-{stage}")
        go_to(recorder, stage)
        for kind, admitted_in in ADMITTED_IN.items():
            # A bare payload: where the stage admits the kind, the door refuses it for another reason.
            answer = recorder.record(kind, {"run_id": recorder.run.run_id})
            assert answer["recorded"] is False
            assert (answer["reason"] == stage_reason(kind, stage)) == (stage not in admitted_in), (kind, stage, answer)


def test_the_work_loops_then_leaves_for_verify_review_and_report():
    """The work loops from observe through propose, select and execute back to observe as often as needed, then leaves from select through verify and review to report, where nothing more is admitted."""
    recorder = lab_run(7)
    go_to(recorder, "observe")
    for _ in range(3):
        for stage in ("propose", "select", "execute", "observe"):
            assert advance(recorder, stage)["recorded"], stage
    for stage in ("propose", "select", "verify", "review", "report"):
        assert advance(recorder, stage)["recorded"], stage
    assert [source for source, _ in TRANSITIONS if source == "report"] == []
    for stage in STAGES:
        assert advance(recorder, stage)["recorded"] is False
    run_id = recorder.run.run_id
    for kind in ADMITTED_IN:
        assert recorder.record(kind, {"run_id": run_id})["reason"] == stage_reason(kind, "report")
    assert recorder.stage == "report"


def test_a_door_runs_under_the_stage_table_it_is_given():
    """A door built with a stage table of its own starts, moves and admits records by that table, and the reference tables are only its default."""
    default = lab_run(3)
    assert table_of(default) == stage_table(3) and default.parts["stage_table"] == stage_table(3)
    table = StageTable(
        stages=("authorize", "collect", "review"),
        transitions=(("authorize", "collect"), ("collect", "review")),
        admitted_in={"observation": ("authorize",), "action": ("collect",), "finding": ("review",)},
    )
    recorder = door_for(3, default.run, default.policy, stage_table=table)
    assert recorder.stage == "authorize" and table_of(recorder).stages == table.stages
    assert table_of(recorder).admitted_in == {**table.admitted_in, "transition": table.stages}
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", action) == {"recorded": False, "reason": stage_reason("action", "authorize")}
    # The reference's first move is not this table's.
    assert advance(recorder, "observe") == {"recorded": False, "reason": "unknown stage 'observe'"}
    assert advance(recorder, "review") == {
        "recorded": False, "reason": "transition from 'authorize' to 'review' is not allowed"}
    assert advance(recorder, "collect")["id"] == "authorize -> collect"
    assert recorder.record("action", action)["recorded"]
    # A kind the table does not name is admitted nowhere.
    capture = {"run_id": run_id, "action_id": "inspect_headers -> https://lab.example:443/", "status": 200,
               "body": "ok"}
    assert recorder.record("capture", capture) == {"recorded": False, "reason": stage_reason("capture", "collect")}
    assert advance(recorder, "review")["recorded"] and recorder.snapshot()["stage"] == "review"
    assert recorder.count("action") == 1 and recorder.count("capture") == 0


def test_a_stage_table_that_cannot_drive_a_run_is_refused():
    """A stage table that declares a stage twice, names a stage it does not declare, repeats a transition, leaves a stage unreachable or admits a kind the door does not have is refused with a reason naming the fault before any run starts."""
    two = ("authorize", "report")
    move = (("authorize", "report"),)
    faults = {
        "stage 'report' is declared twice": (("authorize", "report", "report"), move, {}),
        "transition ('authorize', 'verify') names stage 'verify', which the table does not declare": (
            two, (("authorize", "verify"),), {}),
        "transition ('authorize', 'report') is listed twice": (two, move * 2, {}),
        "no run can reach stage 'report' from 'authorize'": (two, (), {}),
        "record kind 'finding' is admitted in stage 'verify', which the table does not declare": (
            two, move, {"finding": ("verify",)}),
    }
    for reason, (stages, transitions, where) in faults.items():
        with pytest.raises(StageTableError) as refused:
            StageTable(stages, transitions, where)
        assert str(refused.value) == reason
    recorder = lab_run(3)
    misspelt = StageTable(two, move, {"findings": ("report",)})
    with pytest.raises(StageTableError, match="admits record kind 'findings', which this door does not have"):
        door_for(3, recorder.run, recorder.policy, stage_table=misspelt)
    with pytest.raises(ValueError, match="has no stages"):
        door_for(2, recorder.run, recorder.policy, stage_table=REFERENCE_TABLE)
