"""Lesson 6 completion test: your ReplayAdapter, asked directly and then driven by the real executor.

The first two checks ask ``fetch`` directly: a URL its table holds gives the
recorded response, one it does not hold raises an error that names it. The
last two are a pair, run in the fixed run starter/lesson06.py's docstring
describes (lesson 5's loop, lesson 6's executor and door, a scripted model):
what your adapter answers passes the door as action, capture and settled
outcome; what it cannot answer becomes an unresolved outcome, and the run
goes on. By default they check starter/lesson06.py; `course check 6` shows
each result.
"""


import pytest

from core.run.demo_execution import steps_of
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.execute import AdapterResult
from core.run.observe import render_response
from core.run.policy import Policy
from core.run.records import make_run
from course.student import Student
from course.target import load_lesson

LAB = "https://lab.example:443"
TOOLS = [
    {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
     "weight": 2.0, "cost": 1.0},
    {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True}, "family": "fam-recon",
     "weight": 1.5, "cost": 1.0},
]
REPLIES = (
    [proposal("inspect_headers", "/about", "The about page may say what the site runs on."),
     proposal("inspect_headers", "/admin", "An admin page is often there."),
     proposal("inspect_headers", "/contact", "The contact page is linked.")],
    [proposal("inspect_metadata", "/about", "The about page carries a generator tag.")],
)
MISSING = f"{LAB}/admin"  # the one URL the fixed run asks for that the table does not hold
PLAN = [f"inspect_headers -> {LAB}/about", f"inspect_headers -> {LAB}/admin", f"inspect_headers -> {LAB}/contact",
        f"inspect_metadata -> {LAB}/about"]


yours = Student(6, names=("RECORDED", "ReplayAdapter"), in_process=True)  # the executor drives the adapter live
where = yours.where  # the student's file and line an exception came from, as one line


@pytest.fixture(scope="module")
def module():
    loaded = yours.module  # one line when the file does not load or lacks a name
    if not isinstance(loaded.RECORDED, dict):
        pytest.fail("starter/lesson06.py defines RECORDED as something other than a table (a dict of "
                    "URL -> (status, headers, body))")
    if not callable(loaded.ReplayAdapter):
        pytest.fail("starter/lesson06.py defines ReplayAdapter as something other than a class")
    return loaded


def adapter_of(module):
    try:
        adapter = module.ReplayAdapter()
    except BaseException as exc:
        pytest.fail(f"ReplayAdapter() raised: {where(exc)}")
    if not callable(getattr(adapter, "fetch", None)):
        pytest.fail("ReplayAdapter has no method fetch(url); the adapter protocol is that one method")
    return adapter


def recorded_problem(module, adapter) -> str:
    """Why fetch does not give back each recorded response as an AdapterResult, or ""."""
    for url, (status, headers, body) in module.RECORDED.items():
        try:
            result = adapter.fetch(url)
        except BaseException as exc:
            return (f"ReplayAdapter.fetch(url) for {url} raised an error at {where(exc)}; for a URL its table "
                    "holds, fetch must return the recorded response")
        if not isinstance(result, AdapterResult):
            return (f"ReplayAdapter.fetch(url) for {url} returned {type(result).__name__}, not an "
                    "AdapterResult (from core.run.execute)")
        pairs = tuple(headers.items())
        if (result.status, result.body) != (status, body):
            return f"ReplayAdapter.fetch(url) for {url} must return the recorded status and body, unchanged"
        if result.headers != pairs:
            return (f"ReplayAdapter.fetch(url) for {url} returned the headers {result.headers!r}; an AdapterResult "
                    f"carries them as a tuple of (name, value) pairs, in the table's order: {pairs!r}")
    return ""


def fixed_run(adapter) -> tuple[object, list[dict]]:
    """The fixed run with ``adapter``: its door and every step the loop took."""
    policy = Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [LAB],
                               "tools": TOOLS, "max_actions": 4, "max_model_calls": 4})
    door = door_for(6, make_run(policy.snapshot(), {"world": "lesson06-check"}), policy)
    return door, steps_of(door, scripted(REPLIES), adapter)


@pytest.fixture(scope="module")
def run(module):
    adapter = adapter_of(module)
    if recorded_problem(module, adapter):  # the pair below needs the recorded responses first
        return None
    try:
        return fixed_run(adapter)
    except BaseException as exc:
        pytest.fail(f"the fixed run stopped with an exception instead of recording it: {where(exc)}")


def needs_recorded(module, run) -> None:
    if run is None:
        pytest.fail("this check runs your adapter in the fixed run, so it needs fetch to return the recorded "
                    "responses first (see the check: replay adapter returns each recorded response)")


def short(identity: str) -> str:
    return identity.replace(f" -> {LAB}", " ")


def test_replay_adapter_returns_each_recorded_response(module):
    problem = recorded_problem(module, adapter_of(module))
    if problem:
        pytest.fail(problem)


def test_a_url_with_no_recorded_response_is_an_adapter_error(module):
    adapter = adapter_of(module)
    try:
        answer = adapter.fetch(MISSING)
    except NotImplementedError:
        pytest.fail(f"ReplayAdapter.fetch(url) for {MISSING} still raises NotImplementedError: fetch is not "
                    "written yet; a URL the table does not hold must raise an error that names the URL")
    except Exception as exc:
        if MISSING not in str(exc):
            pytest.fail(f"ReplayAdapter.fetch(url) for {MISSING} raised {type(exc).__name__}({str(exc)!r}); its "
                        "message must name the URL, so the ledger says which request had no answer")
        return
    except BaseException as exc:
        pytest.fail(f"ReplayAdapter.fetch(url) for {MISSING} raised {type(exc).__name__}, which is not an "
                    "Exception: the executor records an Exception; anything else would stop the run")
    pytest.fail(f"ReplayAdapter.fetch(url) for {MISSING} returned {answer!r}; the table holds no response for "
                "that URL, so fetch must raise an error that names it, not make a response up")


def test_its_responses_pass_the_door_as_action_capture_and_settled_outcome(module, run):
    needs_recorded(module, run)
    door, steps = run
    executed = [step for step in steps if step["step"] == "execute"]
    chosen = [step["action_id"] for step in executed]
    if chosen != PLAN:
        pytest.fail(f"the door executed {', '.join(map(short, chosen))}; the fixed run executes "
                    f"{', '.join(map(short, PLAN))}")
    for step in executed:
        if step["action_id"] == PLAN[1]:
            continue
        if step["status"] != "succeeded":
            pytest.fail(f"{short(step['action_id'])} ended {step['status']}: {step['detail']}")
        kinds = [answer.get("kind") for answer in step["answers"]]
        if kinds != ["action", "outcome", "capture", "outcome"]:
            pytest.fail(f"{short(step['action_id'])} recorded {kinds}; an executed act records action, outcome, "
                        "capture, outcome")
        url = step["action_id"].split(" -> ", 1)[1]
        status, headers, body = module.RECORDED[url]
        if door.get("capture", step["capture_id"])["body"] != render_response(status, headers, body):
            pytest.fail(f"the capture of {short(step['action_id'])} is not the recorded response")
    if not door.observed().get("has_meta"):
        pytest.fail("the about page's capture did not show its generator tag, so has_meta was never observed")


def test_its_errors_become_unresolved_outcomes_and_the_run_goes_on(module, run):
    needs_recorded(module, run)
    door, steps = run
    executed = [step for step in steps if step["step"] == "execute"]
    missing = next((step for step in executed if step["action_id"] == PLAN[1]), None)
    if missing is None:
        pytest.fail(f"the door never executed {short(PLAN[1])}; the fixed run executes it second")
    if missing["status"] != "unresolved" or MISSING not in missing["detail"]:
        pytest.fail(f"{short(PLAN[1])} ended {missing['status']} ({missing['detail'] or 'no detail'}); with no "
                    f"recorded response it must be an adapter error whose message names {MISSING}")
    if any(capture["action_id"] == PLAN[1] for capture in door.records("capture")):
        pytest.fail(f"the run holds a capture for {short(PLAN[1])}, a request nothing answered")
    after = [step["status"] for step in executed[executed.index(missing) + 1:]]
    if after != ["succeeded", "succeeded"]:
        pytest.fail(f"after the adapter error the next acts ended {after}; the run must go on and both succeed")


def show(door, steps) -> None:
    """Print what the door recorded for each act of the fixed run."""
    for step in steps:
        if step["step"] != "execute":
            print("selection refused:", step["answer"]["reason"])
            continue
        print(f"{short(step['action_id'])}: execute returned {step['status']!r}")
        for answer in step["answers"]:
            if not answer["recorded"]:
                print("  refused ", answer["reason"])
                continue
            record = door.get(answer["kind"], answer["id"])
            if answer["kind"] == "outcome":
                says = f"{record['status']}: {record['detail'] or 'cites capture ' + record['capture_id'][:12]}"
            elif answer["kind"] == "capture":
                says = f"status {record['status']}, capture {answer['id'][:12]}"
            else:
                says = "admitted"
            print(f"  {answer['kind']:8} {says}")


if __name__ == "__main__":  # python3 starter/lesson06_test.py: the fixed run with your adapter
    show(*fixed_run(load_lesson(6).ReplayAdapter()))
