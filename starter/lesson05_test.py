"""Lesson 5 completion test: your inspect_metadata entry, ranked by the real door in a fixed run.

The run is the one starter/lesson05.py's docstring describes: lesson 5's door,
the demo's loop (core/run/demo_selection.py) and a scripted model. The two
middle tests are a pair: one asks inspect_metadata to wait while a header look
is open, its mirror asks it to beat the probe. A score that wins everything
fails the first; a score that never wins fails the second.
By default they check starter/lesson05.py; `course check 5` shows each result.
"""


import pytest

from core.run.demo_selection import proposal, scripted, selections, steps_of
from core.run.doors import door_for
from core.run.policy import Policy, PolicyError
from core.run.records import make_run
from course.student import Student
from course.target import load_lesson

LAB = "https://lab.example:443"
HEADERS = {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
           "weight": 2.0, "cost": 1.0}
PROBE = {"tool_id": "probe_reflection", "activity": "active", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}}
REPLIES = (
    [proposal("inspect_headers", "/about", "The about page may say what the site runs on."),
     proposal("probe_reflection", "/search", "The search page echoes q.", parameter="q", marker="lab-probe-1")],
    [proposal("inspect_metadata", "/about", "The about page carries a generator tag."),
     proposal("inspect_headers", "/news", "The news page is linked."),
     proposal("inspect_headers", "/contact", "The contact page is linked.")],
)
METADATA = f"inspect_metadata -> {LAB}/about"
PROBE_ID = f"probe_reflection -> {LAB}/search"
PLAN = [f"inspect_headers -> {LAB}/about", f"inspect_headers -> {LAB}/contact", f"inspect_headers -> {LAB}/news",
        METADATA]


yours = Student(5, names=("my_inspect_metadata",), in_process=True)


@pytest.fixture(scope="module")
def entry():
    made = yours.call("my_inspect_metadata")  # one line when the file cannot load, lacks it, or it raises
    if not isinstance(made, dict):
        pytest.fail(f"my_inspect_metadata() must return a dict (a catalogue entry), not {type(made).__name__}")
    return made


def policy_with(entry: dict) -> Policy:
    """The fixed run's policy: the two reference tools and your entry, four actions at most."""
    return Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [LAB],
                             "tools": [HEADERS, entry, PROBE], "max_actions": 4, "max_model_calls": 4})


@pytest.fixture(scope="module")
def policy(entry):
    try:
        return policy_with(entry)
    except PolicyError as exc:
        pytest.fail(f"your inspect_metadata entry is not a catalogue entry the policy accepts: {exc}")


@pytest.fixture(scope="module")
def run(policy):
    return plan_run(policy)


def plan_run(policy: Policy) -> list[dict]:
    """The fixed run under ``policy``: every step the loop took."""
    door = door_for(5, make_run(policy.snapshot(), {"world": "lesson05-check"}), policy)
    return steps_of(door, scripted(REPLIES))


def picks(run):
    return [step for step in run if step["step"] == "select"]


def short(identities):
    """Action identities without the origin, for a message that fits a table: 'inspect_headers /about'."""
    return ", ".join(identity.replace(f" -> {LAB}", " ") for identity in identities)


def too_early(run) -> str:
    """Why inspect_metadata won while a header look was still open, or ""."""
    for number, step in enumerate(picks(run), start=1):
        ranking = step["ranking"]
        chosen = ranking[0] if step["answer"]["recorded"] else None
        header = next((r for r in ranking if r["tool"] == "inspect_headers"), None)
        if chosen and chosen["action_id"] == METADATA and header:
            return (f"at selection {number} the door chose {short([METADATA])} with {chosen['arithmetic']}, ahead "
                    f"of the open header look {short([header['action_id']])} (score {header['score']!r}); the plan "
                    f"has the metadata read wait until every header look is done, so here its score must be at "
                    f"most {header['score']!r} (a tie goes to inspect_headers)")
    return ""


def too_late(run) -> str:
    """Why inspect_metadata did not beat the probe, or ""."""
    for number, step in enumerate(picks(run), start=1):
        ranking = step["ranking"]
        if step["answer"]["recorded"] and ranking[0]["action_id"] == METADATA:
            return ""
        if step["answer"]["recorded"] and ranking[0]["action_id"] == PROBE_ID:
            mine = next(r for r in ranking if r["action_id"] == METADATA)
            return (f"at selection {number} the door chose {short([PROBE_ID])} with {ranking[0]['arithmetic']}, "
                    f"over {short([METADATA])} with {mine['arithmetic']}; the plan has the metadata read beat the "
                    f"probe, so here its score must be at least {ranking[0]['score']!r} "
                    "(a tie goes to inspect_metadata)")
    return refused_early(run) or f"the door never selected {short([METADATA])}; the plan selects it fourth"


BUDGET_SPENT = "action budget of 4 actions is spent"


def refused_early(run) -> str:
    """Why the door refused to select before the budget was spent (a score it cannot record), or ""."""
    for number, step in enumerate(picks(run), start=1):
        if not step["answer"]["recorded"] and step["answer"]["reason"] != BUDGET_SPENT:
            return f"the door refused selection {number}: {step['answer']['reason']}"
    return ""


def off_plan(run) -> str:
    """How the run's selections differ from the plan, or ""."""
    chosen = selections(run)
    if refused_early(run):
        return refused_early(run)
    if chosen != PLAN:
        return f"the door selected {short(chosen)}; the plan is {short(PLAN)}"
    last = picks(run)[-1]
    if last["answer"] != {"recorded": False, "reason": BUDGET_SPENT}:
        return f"after the plan's four selections the door must refuse for the budget; it said {last['answer']}"
    return ""


def test_inspect_metadata_keeps_its_lesson_2_contract(entry):
    for key, value in (("tool_id", "inspect_metadata"), ("activity", "passive"), ("requires", {"has_meta": True})):
        if entry.get(key) != value:
            pytest.fail(f"your entry's {key} must stay {value!r}, as lesson 2 declared it, not {entry.get(key)!r}")


def test_the_catalogue_accepts_your_family_weight_and_cost(policy):
    tool = policy.tool_named("inspect_metadata")
    if tool.weight <= 0:
        pytest.fail(f"inspect_metadata's weight is {tool.weight!r}: with weight 0 its score is 0 and it never wins")


def test_inspect_metadata_waits_while_a_header_look_is_open(run):
    if too_early(run):
        pytest.fail(too_early(run))


def test_inspect_metadata_beats_the_probe(run):
    if too_late(run):
        pytest.fail(too_late(run))


def test_the_run_follows_the_plan_and_the_budget_ends_it(run):
    if off_plan(run):
        pytest.fail(off_plan(run))


def show(run) -> None:
    """Print every ranking the door selected from, with each score's arithmetic."""
    for number, step in enumerate(picks(run), start=1):
        chosen = step.get("selection", {}).get("action_id")
        print(f"selection {number}:", short([chosen]) if chosen else step["answer"]["reason"])
        for candidate in step["ranking"]:
            print(f"  {short([candidate['action_id']]):26} {candidate['arithmetic']}")


if __name__ == "__main__":  # python3 starter/lesson05_test.py: the fixed run with your entry
    show(plan_run(policy_with(load_lesson(5).my_inspect_metadata())))
