"""Lesson 7 completion test: your verification plan, run through the real door in a fixed run.

The run is the one starter/lesson07.py's docstring describes: lesson 7's
whole door, the lab in process, a scripted model, and the work loop of
core/run/drive.py. The last two tests are a pair: one asks the door to
confirm the finding with your plan; its mirror moves your control onto the
about page itself and asks that the door then does not confirm it.
By default they check starter/lesson07.py; `course check 7` shows each result.
"""

import textwrap
from contextlib import closing

import pytest

from core.run.demo_selection import proposal, scripted
from core.run.demo_verification import verify_check
from core.run.doors import door_for
from core.run.drive import enter, work
from core.run.execute import execute
from core.run.origins import OriginError, canonical_destination
from core.run.policy import Policy
from core.run.records import action_identity, make_run
from core.run.verify import Check, CheckError
from course.student import Student
from course.target import load_lesson
from lab.plugin import make_adapter

LAB = "https://lab.example:443"
ABOUT, CONTACT = f"{LAB}/about", f"{LAB}/contact"
FINDING_ACT = f"inspect_metadata -> {ABOUT}"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
POLICY = {
    "reference": "training-authorization-0001",
    "allowed_origins": [LAB],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "recon.passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 3.0, "cost": 1.0},
        {"tool_id": "probe_reflection", "activity": "probe.active_light", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
    ],
    "max_actions": 6,
    "max_model_calls": 4,
}
REPLIES = ([proposal("inspect_metadata", "/about", "The operator's notes say the about page carries a generator tag.")],)
ACTION_SHAPE = '{"tool": ..., "destination": ..., "arguments": {}}'


yours = Student(7, names=("my_generator_check",), in_process=True)


@pytest.fixture(scope="module")
def plan():
    made = yours.call("my_generator_check")  # one line when the file cannot load, lacks it, or it raises
    if not isinstance(made, dict):
        pytest.fail(f"my_generator_check() must return a dict (a verification plan), not {type(made).__name__}")
    return made


ROLES = {"confirm": ("the confirming action", "https://lab.example/about"),
         "control": ("the negative control", "https://lab.example/contact")}


def unwritten(plan: dict, name: str) -> str:
    """Why the plan's ``name`` action is not written yet, or ""."""
    action = plan.get(name)
    what, page = ROLES[name]
    if action is None:
        return f"'{name}' is still None: write {what} on {page} as {ACTION_SHAPE}"
    if not isinstance(action, dict) or sorted(action) != ["arguments", "destination", "tool"]:
        return f"'{name}' must be {what} written as {ACTION_SHAPE}, with exactly those three keys, not {action!r}"
    return ""


def incomplete(plan: dict) -> str:
    """What the plan still lacks before the door can run it, or ""."""
    missing = [unwritten(plan, name) for name in ROLES if unwritten(plan, name)]
    if plan.get("expect") == "":
        missing.append("'expect' is still empty: write the text the confirming capture must show and the "
                       "control must not")
    if missing:
        return "; ".join(missing)
    try:
        Check.from_dict(plan)
    except CheckError as exc:
        return f"the configuration would refuse your plan: {exc}"
    return ""


def destination_of(action: dict) -> str:
    try:
        return canonical_destination(action["destination"])
    except (OriginError, TypeError, ValueError):
        return repr(action["destination"])


def identity_of(action: dict) -> str:
    try:
        return action_identity(action["tool"], action["destination"])
    except ValueError:
        return ""


def runnable(plan: dict) -> None:
    """Fail, saying so, unless the door can run the plan."""
    if incomplete(plan):
        pytest.fail("the door cannot run your plan until it is complete (the first check says what is missing)")


def action_written(plan: dict, name: str) -> dict:
    """The plan's ``name`` action, failing with what is missing when it is not written yet."""
    if unwritten(plan, name):
        pytest.fail(unwritten(plan, name))
    return plan[name]


def verify_plan(plan: dict) -> dict:
    """The fixed run with ``plan``: the finding, both acts with their evidence, and the verdict."""
    check = Check.from_dict(plan)
    policy = Policy.from_dict(POLICY)
    door = door_for(7, make_run(policy.snapshot(), {"world": "lesson07-check"}), policy)
    door.record("observation", {"run_id": door.run.run_id, "field": "has_meta", "value": True})
    with closing(make_adapter("inprocess")) as adapter:
        work(door, scripted(REPLIES), adapter, reviews={})
        enter(door, "verify")
        step = verify_check(door, check, lambda payload: execute(door, payload, adapter))
    return step


def same_page_control(plan: dict) -> dict:
    """Your plan with its control moved onto the about page, everything else kept."""
    return {**plan, "control": {**plan["control"], "destination": "https://lab.example/about"}}


def refusals(step: dict) -> str:
    """The door's refusals of the plan's two acts, as one sentence, or ""."""
    said = [f"the {role} act was refused: {step[role]['detail']}" for role in ("confirming", "control")
            if step.get(role, {}).get("execution") == "refused"]
    return "; ".join(said)


def test_the_plan_is_one_the_configuration_accepts(plan):
    if not isinstance(plan.get("claim"), str) or not plan["claim"].strip():
        pytest.fail("keep the plan's claim as it was: the finding's claim, in words")
    if plan.get("evidence") != {"action": FINDING_ACT, "quote": QUOTE}:
        pytest.fail(f"keep the plan's evidence as it was: {{'action': {FINDING_ACT!r}, 'quote': {QUOTE!r}}}")
    if incomplete(plan):
        pytest.fail(incomplete(plan))


def test_the_confirming_action_is_a_new_act_on_the_about_page(plan):
    confirm = action_written(plan, "confirm")
    if destination_of(confirm) != ABOUT:
        pytest.fail(f"the confirming action goes to {destination_of(confirm)}; it must look at "
                    "https://lab.example/about, the page the finding quotes")
    if identity_of(confirm) == FINDING_ACT:
        pytest.fail(f"the confirming action is {FINDING_ACT}, the very act the finding quotes: the door "
                    "refuses it as already recorded, so nothing would be tested; use another tool")


def test_the_control_is_an_act_on_the_contact_page(plan):
    control = action_written(plan, "control")
    if destination_of(control) != CONTACT:
        pytest.fail(f"the control goes to {destination_of(control)}; it must look at "
                    "https://lab.example/contact, the look-alike page without a generator")


def test_the_door_confirms_the_finding_with_your_plan(plan):
    runnable(plan)
    step = verify_plan(plan)
    verdict = step.get("verdict", {})
    if verdict.get("verdict") != "confirmed":
        why = verdict.get("reason", "")
        refused = refusals(step)
        pytest.fail(f"the door judged the finding {verdict.get('verdict')}: {why}"
                    + (f" ({refused})" if refused else ""))


def test_a_control_on_the_same_page_is_not_confirmed(plan):
    runnable(plan)
    step = verify_plan(same_page_control(plan))
    verdict = step.get("verdict", {})
    if verdict.get("verdict") == "confirmed":
        pytest.fail("with its control moved to /about your plan is still confirmed; a control on the page "
                    "that shows the weakness must not let the door confirm anything")
    if verdict.get("verdict") == "refuted":
        pytest.fail(f"with its control moved to /about the door refuted the finding: {verdict['reason']}; "
                    "your expect must be text the about page shows")


def show(plan: dict) -> None:
    """Print what the door answered to your plan, and to it with the control moved to /about."""
    def say(label: str, text: str) -> None:
        print(textwrap.fill(text, 79, initial_indent=f"  {label:10} ", subsequent_indent=" " * 13,
                            break_on_hyphens=False))

    for title, tried in (("your plan", plan), ("your plan, control moved to /about", same_page_control(plan))):
        step = verify_plan(tried)
        print(f"{title}:")
        for role, name in (("confirming", "confirm"), ("control", "control")):
            act = step[role]
            said = act["detail"] if act["execution"] == "refused" else f"HTTP {act['http_status']}"
            say(role, identity_of(tried[name]))
            say("", f"{act['execution']}: {said}; shows expect: {act['shows_expect']}")
        say("verdict", f"{step['verdict']['verdict']}: {step['verdict']['reason']}")


if __name__ == "__main__":  # python3 starter/lesson07_test.py: the fixed run with your plan
    mine = load_lesson(7).my_generator_check()
    if incomplete(mine):
        raise SystemExit(textwrap.fill(f"your plan is not complete yet: {incomplete(mine)}", 79))
    show(mine)
