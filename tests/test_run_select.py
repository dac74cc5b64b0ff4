"""Lesson 5 completion suite: selection among eligible proposals, and feedback from outcomes.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_3_5_edges.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.run.canon import digest
from core.run.propose import propose
from core.run.select import rank, score, select_next, selection_state

from .lab_run import go_to, lab_loop, lab_run

ROOT = Path(__file__).resolve().parent.parent
LAB = "https://lab.example:443"


def proposal(tool: str, path: str) -> dict:
    return {"tool": tool, "destination": f"https://lab.example{path}", "arguments": {}, "why": "test"}


def proposed(recorder, *proposals: dict) -> list[dict]:
    """One round of proposing ``proposals``; leaves the recorder in the select stage."""
    go_to(recorder, "propose")
    answers = propose(recorder, lambda prompt: json.dumps({"proposals": list(proposals)}))
    go_to(recorder, "select")
    return answers


def execute(recorder, action_id: str, status: str = "succeeded") -> dict:
    """Select the act (it must be the best open one), then record it, a settled outcome and the feedback.

    Returns the feedback answer.
    """
    if selection_state(recorder).current != action_id:
        go_to(recorder, "select")
        select_next(recorder)
        assert selection_state(recorder).current == action_id, (selection_state(recorder).current, action_id)
    go_to(recorder, "execute")
    tool, destination = action_id.split(" -> ")
    run_id = recorder.run.run_id
    assert recorder.record("action", {"run_id": run_id, "tool": tool, "destination": destination, "arguments": {}})["recorded"]
    outcome = recorder.record("outcome", {"run_id": run_id, "action_id": action_id, "status": status})
    return recorder.record("feedback", {"run_id": run_id, "outcome_id": outcome["id"]})


def selected(recorder) -> list[str]:
    return [entry["action_id"] for entry in recorder.records("selection")]


def seq_of(recorder, kind: str, record_id: str) -> int:
    [seq] = [e["seq"] for e in recorder.events if e["kind"] == kind and e["id"] == record_id and e["status"] == "admitted"]
    return seq


def test_the_score_is_weight_times_family_credit_over_cost():
    """A proposal's score is its tool's weight times one plus its family's credit, divided by one plus its cost."""
    assert score(2.0, 1.0, 0.0) == 1.0
    assert score(2.0, 1.0, 1.0) == 2.0
    assert score(3.0, 2.0, 1.0) == 2.0
    assert score(3.0, 0.0, 0.0) == 3.0  # a free tool still has a finite score
    assert score(2.0, 0.0, 1.0) == 4.0
    recorder = lab_run()
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"),
             proposal("probe_reflection", "/debug"))
    assert [(c.action_id, c.score) for c in rank(recorder)] == [
        (f"inspect_headers -> {LAB}/a", 1.0),
        (f"inspect_headers -> {LAB}/b", 1.0),
        (f"probe_reflection -> {LAB}/debug", 1.0),
    ]
    execute(recorder, f"inspect_headers -> {LAB}/a")
    assert [(c.action_id, c.score) for c in rank(recorder)] == [
        (f"inspect_headers -> {LAB}/b", 2.0),  # 2.0 * (1 + 1.0) / (1 + 1.0): fam-recon earned one success
        (f"probe_reflection -> {LAB}/debug", 1.0),  # 3.0 * (1 + 0.0) / (1 + 2.0): fam-probe earned nothing
    ]


def test_each_selection_is_recorded_with_its_reason_and_citations():
    """Each selection is recorded with its score, a reason that shows the arithmetic, and the ledger sequence numbers of the proposal and the feedback its score came from."""
    recorder = lab_run()
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"),
             proposal("probe_reflection", "/debug"))
    first = select_next(recorder)
    assert first["recorded"] is True and first["kind"] == "selection"
    [choice] = recorder.records("selection")
    assert choice["selection_id"] == first["id"]
    assert choice["action_id"] == f"inspect_headers -> {LAB}/a"
    assert choice["cites"] == [seq_of(recorder, "proposal", choice["action_id"])]
    feedback = execute(recorder, choice["action_id"])
    go_to(recorder, "select")
    second = select_next(recorder)
    latest = recorder.records("selection")[-1]
    assert latest["selection_id"] == second["id"]
    assert latest["action_id"] == f"inspect_headers -> {LAB}/b" and latest["score"] == 2.0
    assert latest["reason"] == (
        "score 2.0 = weight 2.0 * (1 + fam-recon credit 1.0) / (1 + cost 1.0), the best of 2 eligible proposals"
    )
    assert latest["cites"] == [seq_of(recorder, "proposal", latest["action_id"]), seq_of(recorder, "feedback", feedback["id"])]
    assert recorder.events[-1]["kind"] == "selection" and recorder.events[-1]["id"] == second["id"]


def test_ties_are_broken_by_action_identity_not_arrival_order():
    """Equal scores are broken by action identity in sorted order, whatever order the proposals arrived in."""
    paths = ["/c", "/a", "/b"]
    choices = []
    for order in (paths, paths[::-1], sorted(paths)):
        recorder = lab_run()
        proposed(recorder, *(proposal("inspect_headers", path) for path in order))
        assert [c.action_id for c in rank(recorder)] == [f"inspect_headers -> {LAB}{p}" for p in ("/a", "/b", "/c")]
        select_next(recorder)
        choices.append(recorder.records("selection")[0])
    assert {choice["action_id"] for choice in choices} == {f"inspect_headers -> {LAB}/a"}
    assert all(choice["reason"].endswith("(a tie, broken by action identity)") for choice in choices)


def test_an_executed_identity_is_never_selected_again():
    """An action identity that has been executed is never selected again, even when the model proposes it again."""
    recorder = lab_run()
    proposed(recorder, proposal("inspect_headers", "/a"))
    select_next(recorder)
    execute(recorder, f"inspect_headers -> {LAB}/a")
    again = proposed(recorder, proposal("inspect_headers", "/a"))
    assert again[1] == {"recorded": False, "reason": f"proposal 'inspect_headers -> {LAB}/a' is already recorded"}
    assert rank(recorder) == []
    assert select_next(recorder) == {"recorded": False, "reason": "no eligible proposal is left to select"}
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"))
    select_next(recorder)
    assert selected(recorder) == [f"inspect_headers -> {LAB}/a", f"inspect_headers -> {LAB}/b"]


def test_feedback_credits_the_exact_identity_and_family_that_produced_the_outcome():
    """Feedback after a settled outcome credits the exact action identity and family that produced it, and no other family."""
    recorder = lab_run(without=("is_the_selection",))  # two acts in flight at once, recorded by hand
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"),
             proposal("probe_reflection", "/debug"), proposal("probe_reflection", "/search"))
    go_to(recorder, "execute")
    run_id = recorder.run.run_id
    for tool, path in (("inspect_headers", "/a"), ("probe_reflection", "/debug")):
        recorder.record("action", {"run_id": run_id, "tool": tool, "destination": f"https://lab.example{path}", "arguments": {}})
    # The probe's outcome settles first, although the header action was recorded before it.
    probe = recorder.record("outcome", {"run_id": run_id, "action_id": f"probe_reflection -> {LAB}/debug", "status": "succeeded"})
    recorder.record("feedback", {"run_id": run_id, "outcome_id": probe["id"]})
    headers = recorder.record("outcome", {"run_id": run_id, "action_id": f"inspect_headers -> {LAB}/a", "status": "failed"})
    recorder.record("feedback", {"run_id": run_id, "outcome_id": headers["id"]})
    assert [(f["outcome_id"], f["action_id"], f["family"], f["credit"]) for f in recorder.records("feedback")] == [
        (probe["id"], f"probe_reflection -> {LAB}/debug", "fam-probe", 1.0),
        (headers["id"], f"inspect_headers -> {LAB}/a", "fam-recon", 0.0),
    ]
    assert [(c.action_id, c.score) for c in rank(recorder)] == [
        (f"probe_reflection -> {LAB}/search", 2.0),  # 3.0 * (1 + 1.0) / (1 + 2.0)
        (f"inspect_headers -> {LAB}/b", 1.0),  # fam-recon earned 0.0 from its failure
    ]


def test_feedback_needs_a_settled_outcome_the_run_holds():
    """Feedback for an outcome that is not settled yet, or that the run does not hold, is refused and credits no family."""
    recorder = lab_run(without=("is_the_selection",))
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"))
    go_to(recorder, "execute")
    run_id = recorder.run.run_id
    recorder.record("action", {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/a", "arguments": {}})
    pending = recorder.record("outcome", {"run_id": run_id, "action_id": f"inspect_headers -> {LAB}/a", "status": "unresolved"})
    unknown = "f" * 64
    assert recorder.record("feedback", {"run_id": run_id, "outcome_id": pending["id"]}) == {
        "recorded": False,
        "reason": f"outcome '{pending['id']}' is not settled yet",
    }
    assert recorder.record("feedback", {"run_id": run_id, "outcome_id": unknown}) == {
        "recorded": False,
        "reason": f"feedback names outcome '{unknown}' that this run does not hold",
    }
    assert recorder.records("feedback") == []
    assert [(c.action_id, c.score) for c in rank(recorder)] == [(f"inspect_headers -> {LAB}/b", 1.0)]


def test_selection_stays_within_the_action_budget():
    """Once the action budget is spent selection is refused with the budget reason, and with no eligible proposal left it is refused as having nothing to select."""
    recorder = lab_run(max_actions=1)
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"))
    assert select_next(recorder)["recorded"] is True
    execute(recorder, f"inspect_headers -> {LAB}/a")
    go_to(recorder, "select")
    assert select_next(recorder) == {"recorded": False, "reason": "action budget of 1 actions is spent"}
    assert selected(recorder) == [f"inspect_headers -> {LAB}/a"]
    empty = lab_run()
    go_to(empty, "select")
    assert select_next(empty) == {"recorded": False, "reason": "no eligible proposal is left to select"}
    assert empty.records("selection") == []


def test_a_lab_run_selects_the_same_actions_under_any_hash_seed():
    """A run against the lab selects the same actions in the same order, with the same ledger, under any hash seed."""
    recorder = lab_loop()
    assert selected(recorder) == [
        f"inspect_headers -> {LAB}/",  # the model's first look
        f"inspect_headers -> {LAB}/about",  # four links tie at 2.0; /about is the smallest identity
        f"inspect_metadata -> {LAB}/about",  # eligible once has_meta is observed, and weighted higher
        f"inspect_headers -> {LAB}/debug",
    ]
    here = digest(recorder.snapshot())
    script = "from tests.lab_run import lab_loop; from core.run.canon import digest; print(digest(lab_loop().snapshot()))"
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == here


def test_an_identity_turned_away_is_never_selected_again_and_the_loop_moves_on():
    """An action identity the door turned away under a selection is never selected again, and selection moves on to the next open proposal."""
    recorder = lab_run()
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"))
    assert select_next(recorder)["recorded"] and selected(recorder) == [f"inspect_headers -> {LAB}/a"]
    go_to(recorder, "execute")
    run_id = recorder.run.run_id
    smuggled = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/a",
                "arguments": {"marker": "<i>x</i>"}}
    refused = recorder.record("action", smuggled)
    assert refused["recorded"] is False and "carries other arguments than the proposal" in refused["reason"]
    go_to(recorder, "select")
    assert [c.action_id for c in rank(recorder)] == [f"inspect_headers -> {LAB}/b"]
    assert select_next(recorder)["recorded"] is True
    assert selected(recorder) == [f"inspect_headers -> {LAB}/a", f"inspect_headers -> {LAB}/b"]
    assert recorder.records("action") == []


def test_in_the_execute_stage_only_the_current_selection_is_admitted():
    """In the execute stage the door admits only the action the current selection chose, so an act nobody proposed and chose is refused."""
    recorder = lab_run()
    run_id = recorder.run.run_id
    unproposed = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/admin",
                  "arguments": {}}
    go_to(recorder, "execute")
    assert recorder.record("action", unproposed) == {
        "recorded": False,
        "reason": f"action 'inspect_headers -> {LAB}/admin' is not the current selection (the selection chose nothing)",
    }
    proposed(recorder, proposal("inspect_headers", "/a"), proposal("inspect_headers", "/b"))
    select_next(recorder)
    go_to(recorder, "execute")
    other = {**unproposed, "destination": "https://lab.example/b"}
    assert recorder.record("action", other)["reason"] == (
        f"action 'inspect_headers -> {LAB}/b' is not the current selection "
        f"(the selection chose 'inspect_headers -> {LAB}/a')"
    )
    chosen = {**unproposed, "destination": "HTTPS://LAB.EXAMPLE:443/a"}
    assert recorder.record("action", chosen) == {"recorded": True, "kind": "action", "id": f"inspect_headers -> {LAB}/a"}
    assert [a["action_id"] for a in recorder.records("action")] == [f"inspect_headers -> {LAB}/a"]


def test_the_chosen_act_runs_only_with_the_arguments_its_proposal_carried():
    """The selection binds the whole act: the chosen identity with arguments its proposal did not carry is refused, and the identity is not chosen again."""
    recorder = lab_run()
    marker = {"parameter": "q", "marker": "lab-probe"}
    proposed(recorder, proposal("probe_reflection", "/debug") | {"arguments": marker})
    assert select_next(recorder)["recorded"]
    go_to(recorder, "execute")
    swapped = {"run_id": recorder.run.run_id, "tool": "probe_reflection", "destination": "https://lab.example/debug",
               "arguments": {"parameter": "q", "marker": "<script>alert(1)</script>"}}
    assert recorder.record("action", swapped) == {"recorded": False, "reason": (
        f"action 'probe_reflection -> {LAB}/debug' carries other arguments than the proposal the selection chose")}
    go_to(recorder, "select")
    assert rank(recorder) == [] and recorder.records("action") == []
