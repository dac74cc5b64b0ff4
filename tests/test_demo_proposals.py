"""Lesson 4's demo checks its own story, and fails with one line when it cannot tell it."""

from __future__ import annotations

import json

import pytest

from core.run import demo_proposals
from core.run.demo_proposals import DemoError, run_demo
from core.run.propose import REFUSAL_KINDS


@pytest.fixture(scope="module")
def demo():
    return run_demo()


def test_every_act_carried_out_was_stored_by_an_earlier_round(demo):
    stored_before = set()
    for entry in demo["rounds"]:
        if entry["executed"]:
            assert entry["executed"]["action_id"] in stored_before
        stored_before |= {answer["id"] for answer in entry["answers"][1:] if answer["recorded"]}
    assert [e["executed"]["action_id"] for e in demo["rounds"] if e["executed"]] == list(demo_proposals.PLAN)


def test_each_prompt_is_the_one_its_model_call_names_and_the_last_call_never_reached_the_model(demo):
    from core.run.canon import digest

    calls = demo["report"]["model_calls"]
    asked = [entry for entry in demo["rounds"] if entry["prompt"] is not None]
    assert [digest(entry["prompt"]) for entry in asked] == [call["prompt_digest"] for call in calls]
    assert len(calls) == demo["report"]["policy"]["max_model_calls"]
    last = demo["rounds"][-1]
    assert last["prompt"] is None and last["reply"] is None and not last["answers"][0]["recorded"]


def test_every_refusal_kind_happens_once_and_the_injection_leads_back_to_the_news_page(demo):
    kinds = [refusal["refusal"] for refusal in demo["refusals"]]
    assert sorted(kinds) == sorted(name for name, _ in REFUSAL_KINDS)
    trace = demo["injection"]
    assert trace["page"][0]["capture_of"] == "inspect_headers -> https://lab.example:443/news"
    assert trace["proposal"]["destination"] == "https://other.example/"
    assert demo["report"]["policy"]["allowed_origins"] == ["https://lab.example:443"]


def test_every_observation_cites_a_capture_the_run_holds(demo):
    held = {capture["capture_id"]: capture["action_id"] for capture in demo["report"]["captures"]}
    assert demo["observations"]
    for seen in demo["observations"]:
        assert held[seen["capture_id"]] == seen["read_from"]


def test_a_plan_that_carries_out_an_unstored_proposal_is_refused_by_the_demo():
    with pytest.raises(DemoError, match="no round stored that proposal"):
        run_demo(plan=("inspect_metadata -> https://lab.example:443/about",))


def test_a_refusal_kind_that_never_happens_is_named():
    kinds = REFUSAL_KINDS + (("a refusal nobody wrote", "no such words"),)
    with pytest.raises(DemoError, match="a refusal nobody wrote"):
        run_demo(refusal_kinds=kinds)


def test_the_command_fails_with_one_line(tmp_path, capsys):
    assert demo_proposals.main(["--out", str(tmp_path / "demo.json")], model="lab.no_such_module:model") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("demo_proposals: plugin lab.no_such_module:model")
    assert not (tmp_path / "demo.json").exists()


def test_the_command_writes_the_artifact(tmp_path, demo):
    out = tmp_path / "deeper" / "demo.json"
    assert demo_proposals.main(["--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(json.dumps(demo))
