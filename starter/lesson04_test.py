"""Lesson 4 completion test: your observer, reading real lab pages, through lesson 4's door.

The checks come in pairs: a page that carries the generator tag and one that
does not, a proposal stored and the same proposal refused. So an observer that
always says yes fails as surely as one that never does. By default they check
starter/lesson04.py; `course check 4` shows each result.
"""

import functools
import json
import os
import traceback
from pathlib import Path

import pytest

from core.run.doors import door_for
from core.run.observe import render_response
from core.run.propose import propose
from core.run.records import make_run
from core.run.stages import advance
from course.manifest import course_root
from course.target import ENV, load_lesson, target_path
from lab.adapter import HttpAdapter

NAMES = ("read_has_meta", "observe_has_meta", "build_policy")
METADATA_ABOUT = "inspect_metadata -> https://lab.example:443/about"
HIDDEN = '<html><head><!-- <meta name="generator" content="FakeCMS 1.0"> --></head></html>'
UPPER_CASE = '<html><head><META CONTENT="ExampleCMS 3.2.1" NAME="Generator"></head></html>'
AS_TEXT = '<p>Our pages never carry &lt;meta name="generator"&gt; tags.</p>'


# --- your file, and one line when it breaks ----------------------------------------------


def shown_file() -> str:
    """Your file as you would name it."""
    if os.environ.get(ENV) == "pristine":  # the starter as committed, copied out of git
        return "starter/lesson04.py"
    path = target_path(4)
    try:
        return path.resolve().relative_to(course_root()).as_posix()
    except ValueError:
        return path.name


def where_it_broke(exc: BaseException) -> str:
    """The file and line of your code where ``exc`` was raised, and the error, on one line."""
    if isinstance(exc, SyntaxError):
        return f"{shown_file()} line {exc.lineno}: SyntaxError: {exc.msg}"
    yours = [frame for frame in traceback.extract_tb(exc.__traceback__)
             if Path(frame.filename).resolve() == target_path(4).resolve()]
    line = f" line {yours[-1].lineno}" if yours else ""
    return f"{shown_file()}{line}: {type(exc).__name__}: {exc}"


@functools.cache
def _loaded() -> tuple[object, str]:
    """Your module and "", or None and the one line that says why it cannot be used."""
    try:
        module = load_lesson(4)
    except Exception as exc:  # your file does not import: one line, not a traceback
        return None, where_it_broke(exc)
    missing = [name for name in NAMES if not callable(getattr(module, name, None))]
    if missing:
        return None, f"{shown_file()} defines no function {', '.join(missing)}"
    return module, ""


def student():
    """Your module; a check fails with one line when your file cannot be used."""
    module, problem = _loaded()
    if problem:
        pytest.fail(problem)
    return module


def call(module, name, *args):
    """Call your function ``name``; if it raises, fail with one line naming what is not written yet."""
    try:
        return getattr(module, name)(*args)
    except NotImplementedError as exc:
        pytest.fail(f"{name} is not written yet: {str(exc).partition(':')[0]} in {shown_file()}")
    except Exception as exc:
        pytest.fail(f"{name} raised: {where_it_broke(exc)}")


def your_policy(yours):
    """Your policy, or one line saying what it lacks for these checks."""
    policy = call(yours, "build_policy")
    snapshot = policy.snapshot()
    tools = {tool["tool_id"]: tool for tool in snapshot["tools"]}
    if "inspect_metadata" not in tools:
        pytest.fail("your policy has no tool 'inspect_metadata': build_policy() must declare it as "
                    "lesson 2 did")
    if tools["inspect_metadata"]["requires"] != {"has_meta": True}:
        pytest.fail(f"inspect_metadata must require {{'has_meta': True}}, not "
                    f"{tools['inspect_metadata']['requires']}")
    if snapshot["max_model_calls"] < 2 or snapshot["max_actions"] < 1:
        pytest.fail("these checks ask the model twice and fetch one page: keep max_model_calls at "
                    "least 2 and max_actions at least 1")
    return policy


# --- the lab, and lesson 4's door -------------------------------------------------------


@pytest.fixture(scope="module")
def lab():
    with HttpAdapter("inprocess") as adapter:
        yield adapter


def fetched(lab, path: str) -> tuple[int, str]:
    """The status and capture text of one lab page."""
    response = lab.fetch(f"https://lab.example{path}")
    return response.status, render_response(response.status, response.headers, response.body)


def capture_text(lab, path: str) -> str:
    return fetched(lab, path)[1]


def fresh_door(policy, world: str):
    door = door_for(4, make_run(policy.snapshot(), {"world": world}), policy)
    move(door, "observe", "propose")
    return door


def move(door, *stages: str) -> None:
    for stage in stages:
        answer = advance(door, stage)
        assert answer["recorded"], f"the door refused the move to {stage}: {answer['reason']}"


def capture(door, lab, path: str) -> str:
    """From the propose stage: fetch ``path`` with inspect_headers, record it, move to observe."""
    move(door, "select", "execute")
    run_id = door.run.run_id
    url = f"https://lab.example{path}"
    action = door.record("action", {"run_id": run_id, "tool": "inspect_headers",
                                    "destination": url, "arguments": {}})
    assert action["recorded"], f"the door refused inspect_headers at {url}: {action['reason']}"
    status, body = fetched(lab, path)
    captured = door.record("capture", {"run_id": run_id, "action_id": action["id"],
                                       "status": status, "body": body})
    assert captured["recorded"], f"the door refused the capture of {url}: {captured['reason']}"
    door.record("outcome", {"run_id": run_id, "action_id": action["id"], "status": "succeeded",
                            "capture_id": captured["id"], "detail": ""})
    move(door, "observe")
    return captured["id"]


def metadata_at_about(prompt: str) -> str:
    """A model that always proposes inspect_metadata at the about page."""
    return json.dumps({"proposals": [{"tool": "inspect_metadata", "destination": "https://lab.example/about",
                                      "arguments": {}, "why": "the about page may name its CMS"}]})


def ask(door) -> dict:
    """Ask the model once from the propose stage; the door's answer to its one proposal."""
    answers = propose(door, metadata_at_about)
    assert answers[0]["recorded"], f"the door refused the model call: {answers[0]['reason']}"
    return answers[1]


# --- the checks ----------------------------------------------------------------------------


def test_your_policy_declares_inspect_metadata_gated_on_has_meta():
    policy = your_policy(student())
    assert policy.tool_named("inspect_metadata").requires == {"has_meta": True}


def test_the_about_page_has_meta(lab):
    yours = student()
    found = call(yours, "read_has_meta", capture_text(lab, "/about"))
    assert found is True, (
        f"read_has_meta returned {found!r} for the about page, whose markup carries "
        '<meta name="generator" content="ExampleCMS 3.2.1">: it must return True')


def test_read_has_meta_on_the_contact_page(lab):
    yours = student()
    found = call(yours, "read_has_meta", capture_text(lab, "/contact"))
    assert found is None, (
        f"read_has_meta returned {found!r} for the contact page, which has meta tags (description, "
        "viewport) but no generator tag: it must return None, not True or False")


def test_a_generator_tag_inside_a_comment_does_not_count():
    yours = student()
    found = call(yours, "read_has_meta", render_response(200, {}, HIDDEN))
    assert found is None, (
        f"read_has_meta returned {found!r} for a page whose only generator tag is inside an HTML "
        "comment: a commented-out tag is not markup, so it must return None")


def test_a_generator_tag_counts_in_any_letter_case_or_attribute_order():
    yours = student()
    found = call(yours, "read_has_meta", render_response(200, {}, UPPER_CASE))
    assert found is True, (
        f"read_has_meta returned {found!r} for {UPPER_CASE!r}: letter case and attribute order do "
        "not matter in HTML (the parser lower-cases tag and attribute names, not values), so it "
        "must return True")


def test_a_generator_tag_in_a_header_or_in_page_text_does_not_count():
    yours = student()
    in_header = render_response(200, {"X-Note": '<meta name="generator" content="X">'}, "<p>hi</p>")
    in_text = render_response(200, {}, AS_TEXT)
    for what, text in (("a header", in_header), ("the page's text (written with &lt;)", in_text)):
        found = call(yours, "read_has_meta", text)
        assert found is None, (
            f"read_has_meta returned {found!r} when the words <meta name=\"generator\"> appear only in "
            f"{what}: only a tag in the page's markup counts, so it must return None")


def test_your_observer_records_has_meta_citing_its_capture(lab):
    yours = student()
    policy = your_policy(yours)
    door = fresh_door(policy, "lesson04-cites")
    about = capture(door, lab, "/about")
    answer = call(yours, "observe_has_meta", door, about)
    assert isinstance(answer, dict) and answer.get("recorded"), (
        f"observe_has_meta on the about page must return the door's answer to a recorded observation; "
        f"it returned {answer!r}")
    recorded = [(o["field"], o["value"], o["capture_id"]) for o in door.records("observation")]
    assert recorded == [("has_meta", True, about)], (
        f"the door holds the observations {recorded}; it must hold exactly one: field 'has_meta', "
        "value True, capture_id the about page's capture")


def test_your_observer_on_the_contact_page(lab):
    yours = student()
    policy = your_policy(yours)
    door = fresh_door(policy, "lesson04-nothing")
    contact = capture(door, lab, "/contact")
    answer = call(yours, "observe_has_meta", door, contact)
    held = door.records("observation")
    assert answer is None and held == [], (
        f"for the contact page (no generator tag) observe_has_meta must record nothing and return None; "
        f"it returned {answer!r} and the door holds {len(held)} observation(s)")


def test_the_door_refuses_inspect_metadata_before_has_meta_is_observed():
    yours = student()
    policy = your_policy(yours)
    door = fresh_door(policy, "lesson04-before")
    answer = ask(door)
    assert not answer["recorded"] and "has_meta" in answer["reason"], (
        f"before anything observed has_meta, the door must refuse inspect_metadata naming has_meta; "
        f"it answered {answer}")


def test_the_door_stores_the_proposal_it_refused_once_your_observer_read_the_about_page(lab):
    yours = student()
    policy = your_policy(yours)
    door = fresh_door(policy, "lesson04-after")
    before = ask(door)
    about = capture(door, lab, "/about")
    observed = call(yours, "observe_has_meta", door, about)
    assert isinstance(observed, dict) and observed.get("recorded"), (
        f"observe_has_meta on the about page recorded no has_meta observation (it returned {observed!r}), "
        "so nothing makes inspect_metadata eligible yet")
    move(door, "propose")
    after = ask(door)
    assert after == {"recorded": True, "kind": "proposal", "id": METADATA_ABOUT}, (
        f"with has_meta observed, the door must store {METADATA_ABOUT!r}; it answered {after}")
    proposal = door.get("proposal", METADATA_ABOUT)
    assert proposal["model_call_id"] == door.records("model_call")[-1]["model_call_id"]
    refused = [e for e in door.events if e["kind"] == "proposal" and e["status"] == "refused"]
    assert not before["recorded"] and len(refused) == 1, "the first refusal must stay in the ledger"


def test_the_door_after_your_observer_read_only_the_contact_page(lab):
    yours = student()
    policy = your_policy(yours)
    door = fresh_door(policy, "lesson04-contact")
    contact = capture(door, lab, "/contact")
    call(yours, "observe_has_meta", door, contact)
    move(door, "propose")
    answer = ask(door)
    assert not answer["recorded"], (
        "after your observer read only the contact page (no generator tag), the door stored "
        f"inspect_metadata: your observer recorded {door.observed().get('has_meta')!r} as has_meta "
        "from a page that says nothing about it")
