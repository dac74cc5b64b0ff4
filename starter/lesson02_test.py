"""Lesson 2 completion test: your policy, asked questions through the real door.

The tests come in pairs, one thing allowed and its mirror refused, so a policy
that says yes to everything fails as surely as one that says no to everything.
By default they check starter/lesson02.py; `course check 2` shows each result.
"""

import pytest

from core.run.recorder import Recorder
from core.run.records import make_run
from course.diagnose import explain
from course.student import Student

LAB = "https://lab.example:443"
REFERENCE_TOOL = {"tool_id": "inspect_headers", "activity": "passive", "requires": {},
                  "family": "fam-recon", "weight": 2.0, "cost": 1.0}
PLACEHOLDERS = ("CHANGE-ME", "training-authorization-0001")
yours = Student(2, names=("build_my_policy",), in_process=True)  # a Policy object comes back: held in process


@pytest.fixture(scope="module")
def policy():
    build = yours.module.build_my_policy
    try:
        return build()
    except BaseException as exc:  # the student's code: one line naming the file, the line and the error
        yours.fail(explain(exc, yours, {"tool_id": tuple(REFERENCE_TOOL)}))


@pytest.fixture
def door(policy):
    run = make_run(policy.snapshot(), {"world": "lesson02-check"})
    return run, Recorder(run, policy)


def tool(policy, tool_id):
    found = [t for t in policy.snapshot()["tools"] if t["tool_id"] == tool_id]
    assert found, f"your catalogue has no tool {tool_id!r}: declare it in build_my_policy()"
    return found[0]


def act(door, tool_id, destination):
    run, recorder = door
    return recorder.record("action", {"run_id": run.run_id, "tool": tool_id,
                                      "destination": destination, "arguments": {}})


def test_reference_is_your_own(policy):
    reference = policy.snapshot()["reference"]
    assert reference not in PLACEHOLDERS, (
        f"your policy's reference is still {reference!r}: give it your own authorization reference, "
        "for example 'training-authorization-0042'")


def test_only_the_lab_origin_is_authorized(policy):
    origins = policy.snapshot()["allowed_origins"]
    assert origins == [LAB], f"your policy authorizes {origins}; it must authorize exactly [{LAB!r}]"


def test_inspect_headers_is_the_reference_tool(policy):
    declared = tool(policy, "inspect_headers")
    assert declared == REFERENCE_TOOL, f"inspect_headers must stay as declared in lesson 2's demo: {REFERENCE_TOOL}, not {declared}"


def test_inspect_metadata_is_declared_passive_and_gated_on_has_meta(policy):
    declared = tool(policy, "inspect_metadata")
    assert declared["activity"] == "passive", f"inspect_metadata must be 'passive', not {declared['activity']!r}"
    assert declared["requires"] == {"has_meta": True}, (
        f"inspect_metadata must require the observed field has_meta to be True: requires {{'has_meta': True}}, "
        f"not {declared['requires']}")
    assert declared["weight"] > 0 and declared["cost"] > 0, "inspect_metadata needs a positive weight and cost"


def test_budgets_are_positive(policy):
    snapshot = policy.snapshot()
    assert snapshot["max_actions"] > 0 and snapshot["max_model_calls"] > 0, (
        f"budgets must be positive: max_actions={snapshot['max_actions']}, max_model_calls={snapshot['max_model_calls']}")


def test_door_admits_inspect_headers_at_the_lab(door):
    answer = act(door, "inspect_headers", "https://lab.example/")
    assert answer["recorded"], f"the door refused inspect_headers at the lab: {answer.get('reason')}"


def test_door_refuses_inspect_headers_elsewhere(door):
    answer = act(door, "inspect_headers", "https://other.example/")
    assert not answer["recorded"], "the door admitted inspect_headers at https://other.example/; only the lab is authorized"


def test_door_refuses_inspect_metadata_before_has_meta_is_observed(door, policy):
    tool(policy, "inspect_metadata")
    answer = act(door, "inspect_metadata", "https://lab.example/about")
    assert not answer["recorded"] and "has_meta" in answer["reason"], (
        f"before anything has observed has_meta, the door must refuse inspect_metadata naming has_meta; it said {answer}")


def test_door_admits_inspect_metadata_once_has_meta_is_observed(door, policy):
    tool(policy, "inspect_metadata")
    run, recorder = door
    observed = recorder.record("observation", {"run_id": run.run_id, "field": "has_meta", "value": True})
    assert observed["recorded"], f"the door refused the has_meta observation: {observed}"
    answer = act(door, "inspect_metadata", "https://lab.example/about")
    assert answer["recorded"], f"with has_meta observed, the door must admit inspect_metadata at the lab; it said {answer}"


def test_door_refuses_inspect_metadata_at_other_example(door, policy):
    # The page asks the student to predict this refusal's reason: no message here may give it away.
    tool(policy, "inspect_metadata")
    answer = act(door, "inspect_metadata", "https://other.example/about")
    expected = "destination https://other.example:443 is outside the explicit authorized origins"
    assert answer == {"recorded": False, "reason": expected}, (
        f"aimed at https://other.example/about, inspect_metadata must be refused, and for the reason you "
        f"predicted from the policy; the door said {answer}")
