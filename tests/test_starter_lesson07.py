"""Lesson 7's exercise turns away the plans nobody should hand in, each with a message that says why.

These run the starter test's own fixed run (starter/lesson07_test.py) with
plans that look plausible and are wrong: a text every page shows, the
finding's own act as its confirmation, the pages swapped, evidence the page
never shows. The door, not the test, decides each verdict.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("lesson07_check", ROOT / "starter" / "lesson07_test.py")
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)
STARTER_SPEC = importlib.util.spec_from_file_location("lesson07_starter", ROOT / "starter" / "lesson07.py")
STARTER = importlib.util.module_from_spec(STARTER_SPEC)
STARTER_SPEC.loader.exec_module(STARTER)


def act(tool: str, path: str) -> dict:
    return {"tool": tool, "destination": f"https://lab.example{path}", "arguments": {}}


def plan(confirm: dict, control: dict, expect: str) -> dict:
    return {**STARTER.my_generator_check(), "confirm": confirm, "control": control, "expect": expect}


GOOD = plan(act("inspect_headers", "/about"), act("inspect_headers", "/contact"), 'name="generator"')


def test_the_worked_plan_is_confirmed_and_its_same_page_twin_is_not():
    assert CHECK.incomplete(GOOD) == ""
    assert CHECK.verify_plan(GOOD)["verdict"]["verdict"] == "confirmed"
    twin = CHECK.verify_plan(CHECK.same_page_control(GOOD))
    assert twin["control"]["detail"] == "action 'inspect_headers -> https://lab.example:443/about' is already recorded"
    assert twin["verdict"]["reason"] == ("the confirming capture shows 'name=\"generator\"', but no negative "
                                         "control was captured")


def test_a_text_every_page_shows_is_inconclusive():
    step = CHECK.verify_plan(plan(act("inspect_headers", "/about"), act("inspect_headers", "/contact"), "<meta"))
    assert step["verdict"]["verdict"] == "inconclusive"
    assert "the negative control shows '<meta' too" in step["verdict"]["reason"]


def test_a_control_that_fetches_the_same_page_anew_shows_the_evidence_too():
    probing = plan(act("inspect_headers", "/about"), act("probe_reflection", "/contact"), 'name="generator"')
    assert CHECK.verify_plan(probing)["verdict"]["verdict"] == "confirmed"
    twin = CHECK.verify_plan(CHECK.same_page_control(probing))
    assert twin["control"]["execution"] == "succeeded" and twin["control"]["shows_expect"]
    assert twin["verdict"]["verdict"] == "inconclusive"


@pytest.mark.parametrize(("wrong", "test", "message"), [
    (plan(act("inspect_metadata", "/about"), act("inspect_headers", "/contact"), 'name="generator"'),
     "test_the_confirming_action_is_a_new_act_on_the_about_page", "the very act the finding quotes"),
    (plan(act("inspect_headers", "/contact"), act("inspect_headers", "/about"), 'name="generator"'),
     "test_the_confirming_action_is_a_new_act_on_the_about_page", "it must look at https://lab.example/about"),
    (plan(act("inspect_headers", "/about"), act("inspect_headers", "/news"), 'name="generator"'),
     "test_the_control_is_an_act_on_the_contact_page", "it must look at https://lab.example/contact"),
    (plan(act("inspect_headers", "/about"), act("inspect_headers", "/contact"), "<meta"),
     "test_the_door_confirms_the_finding_with_your_plan", "the door judged the finding inconclusive"),
    (plan(act("inspect_metadata", "/about"), act("inspect_headers", "/contact"), 'name="generator"'),
     "test_the_door_confirms_the_finding_with_your_plan", "the confirming act was refused: action "
     "'inspect_metadata -> https://lab.example:443/about' is already recorded"),
    (plan(act("inspect_headers", "/about"), act("inspect_headers", "/contact"), "ExampleCMS 4.0"),
     "test_a_control_on_the_same_page_is_not_confirmed", "your expect must be text the about page shows"),
    ({**GOOD, "confirm": {"tool": "inspect_headers", "destination": "https://lab.example/about"}},
     "test_the_plan_is_one_the_configuration_accepts", "with exactly those three keys"),
    ({**GOOD, "evidence": {"action": CHECK.FINDING_ACT, "quote": "ExampleCMS"}},
     "test_the_plan_is_one_the_configuration_accepts", "keep the plan's evidence as it was"),
])
def test_a_wrong_plan_fails_its_check_with_a_message_that_says_why(wrong, test, message):
    with pytest.raises(pytest.fail.Exception) as failed:
        getattr(CHECK, test)(wrong)
    assert message in str(failed.value)


def test_the_starter_states_the_finding_and_the_run_the_check_holds():
    assert (STARTER.FINDING_ACT, STARTER.QUOTE) == (CHECK.FINDING_ACT, CHECK.QUOTE)
    doc = STARTER.__doc__
    assert CHECK.QUOTE in doc and f"at most {CHECK.POLICY['max_actions']} actions" in doc
    for reply in CHECK.REPLIES:
        for proposed in reply:
            assert f"``{proposed['tool']}`` at {proposed['destination'].removeprefix('https://lab.example')}" in doc
