"""Helper tests for lessons 3 to 5 that are not completion sentences.

Property tests throw arbitrary stage names, payloads and model replies at the
extended door and check its promises: nothing raises, and a refusal changes
no store and appends exactly one refused event. The rest pins down edges of
observe, propose and select, and the records the three lessons add.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.run.canon import canonical_bytes
from core.run.demo_records import run_demo
from core.run.observe import observe, read_observations, render_response, split_response
from core.run.propose import CODES as propose_codes
from core.run.propose import (EXCERPT_LIMIT, NAME_LIMIT, REPLY_LIMIT, ModelCall, Proposal, ReplyError, Said, build_prompt,
                               parse_reply, propose)
from core.run.records import RecordError
from core.run.select import Feedback, Selection, select_next
from core.run.stages import STAGES, START_STAGE, TRANSITIONS, advance

from .lab_run import go_to, lab_run
from .conftest import examples

PROPERTY_SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LAB = "https://lab.example:443"
DIGEST = "a" * 64


def stores(recorder) -> dict:
    return {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}


def held_capture(recorder, body: str = "HTTP/1.1 200 OK\n\n<p>x</p>") -> str:
    """Record an action and a capture in the execute stage; returns the capture id."""
    go_to(recorder, "execute")
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    action_id = recorder.record("action", action)["id"]
    return recorder.record("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": body})["id"]


# --- stages --------------------------------------------------------------------------

ANY_STAGE = st.one_of(st.sampled_from(STAGES), st.text(max_size=12), st.none(), st.integers(), st.lists(st.text()))


@PROPERTY_SETTINGS
@given(st.lists(ANY_STAGE, max_size=25))
def test_advance_never_raises_and_keeps_the_ledger_consistent(moves):
    """Any sequence of moves leaves a ledger whose admitted transitions chain through TRANSITIONS."""
    recorder = lab_run(3)
    for move in moves:
        before_stage, before_stores = recorder.stage, stores(recorder)
        answer = advance(recorder, move)
        if not answer["recorded"]:
            assert recorder.stage == before_stage and answer["reason"]
            assert recorder.events[-1]["status"] == "refused"
            assert {k: v for k, v in stores(recorder).items() if k != "stage"} == {
                k: v for k, v in before_stores.items() if k != "stage"
            }
    assert len(recorder.events) == len(moves)
    stage = START_STAGE
    for event in recorder.events:
        if event["status"] == "admitted":
            source, target = event["id"].split(" -> ")
            assert source == stage and (source, target) in TRANSITIONS
            stage = target
    assert recorder.stage == stage


def test_lesson_two_door_and_artifact_are_unchanged():
    """The plain Recorder keeps lesson 2's stores and empty stage; the staged door adds its stores."""
    assert run_demo()["report"]["stage"] == ""
    recorder = lab_run()
    report = recorder.snapshot()
    assert set(report) == {"run", "policy", "stage", "closed", "events", "counts", "observations", "actions",
                           "captures", "outcomes", "findings", "reviews", "model_calls", "replies", "proposals", "selections",
                           "feedback"}
    canonical_bytes(report)


def test_a_refused_transition_records_even_a_hostile_stage_name_safely():
    """A stage name that is long or not text is refused with a bounded reason."""
    recorder = lab_run(3)
    assert advance(recorder, "x" * 1000)["reason"].endswith("...")
    assert advance(recorder, ["observe"]) == {"recorded": False, "reason": "unknown stage ['observe']"}
    assert recorder.stage == "authorize"


# --- observe -------------------------------------------------------------------------


def test_split_response_handles_missing_blank_line_and_repeated_headers():
    """A capture without a blank line has no body; a repeated header's values are joined."""
    assert split_response("HTTP/1.1 200 OK\nServer: a") == ({"server": "a"}, "")
    assert split_response("HTTP/1.1 200 OK\nVary: a\nvary: b\nnot a header\n\nbody") == ({"vary": "a, b"}, "body")
    assert split_response("") == ({}, "")


def test_render_response_refuses_a_header_that_would_forge_another():
    """A line break inside a header name or value is refused instead of written into the capture."""
    with pytest.raises(ValueError, match="line break"):
        render_response(200, {"Server": "a\nX-Admin: yes"}, "")
    with pytest.raises(ValueError, match="line break"):
        render_response(200, [("Bad\r\nName", "v")], "")
    assert render_response(599, {}, "") == "HTTP/1.1 599\n\n"


def test_observe_refuses_an_unheld_capture_and_a_second_pass():
    """Observing a capture the run does not hold is a refusal; observing one twice adds nothing."""
    recorder = lab_run(4)
    capture_id = held_capture(recorder, render_response(200, {"Server": "s"}, "<meta name=generator content=g>"))
    go_to(recorder, "observe")
    assert observe(recorder, "b" * 64) == [
        {"recorded": False, "reason": f"capture '{'b' * 64}' is not held by this run"}
    ]
    assert [a["recorded"] for a in observe(recorder, capture_id)] == [True, True, True]
    before = stores(recorder)
    assert all("is already recorded" in a["reason"] for a in observe(recorder, capture_id))
    assert stores(recorder) == before


def test_observe_in_the_wrong_stage_is_refused_by_the_door():
    """Observations read in the execute stage are refused with the stage reason."""
    recorder = lab_run(4)
    capture_id = held_capture(recorder, render_response(200, {"Server": "s"}, ""))
    assert observe(recorder, capture_id) == [
        {"recorded": False, "reason": "record kind 'observation' is not admitted in stage 'execute'"}
    ]


@PROPERTY_SETTINGS
@given(st.text(max_size=300))
def test_read_observations_never_raises_on_any_page(page):
    """Any page text yields a list of known fields with typed values."""
    for field, value in read_observations(render_response(200, {}, page)):
        assert (field, type(value)) in {("has_meta", bool), ("generator", str)}


# --- propose -------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(st.one_of(st.text(max_size=200), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=10,
).map(json.dumps)))
def test_parse_reply_returns_proposals_or_a_reply_error(text):
    """Arbitrary reply text is either a list of well-shaped proposals or a ReplyError, never another exception."""
    try:
        proposals = parse_reply(text)
    except ReplyError as error:
        assert str(error) and error.code in propose_codes, error.code
        return
    assert all(sorted(p) == ["arguments", "destination", "tool", "why"] for p in proposals)


@PROPERTY_SETTINGS
@given(st.one_of(st.text(max_size=100), st.builds(
    lambda tool, destination, arguments: json.dumps(
        {"proposals": [{"tool": tool, "destination": destination, "arguments": arguments, "why": ""}]}),
    st.sampled_from(["inspect_headers", "inspect_metadata", "probe_reflection", "shell", "", " "]),
    st.sampled_from(["https://lab.example/", "https://LAB.example./x", "https://other.example/", "ftp://lab.example",
                     "https://lab.example@other.example/", "", "\ud800"]),
    st.dictionaries(st.text(max_size=5), st.integers() | st.floats(allow_nan=True), max_size=2),
)))
def test_propose_never_raises_and_refusals_change_nothing(reply):
    """Whatever the model writes, propose answers through the door: one ledger event per answer, a store entry per admission."""
    recorder = lab_run()
    go_to(recorder, "propose")
    transitions = len(recorder.events)
    answers = propose(recorder, lambda prompt: reply)
    assert answers[0]["recorded"] is True
    events = recorder.events[transitions:]
    replies = [event for event in events if event["kind"] == "reply"]
    assert len(replies) == 1 and (replies[0]["status"] == "admitted") == (len(recorder.records("reply")) == 1)
    answered = [event for event in events if event not in replies or event["status"] == "refused"]  # not listed: a reply admitted
    assert [e["status"] == "admitted" for e in answered] == [a["recorded"] for a in answers]
    assert len(recorder.records("proposal")) == sum(1 for a in answers[1:] if a["recorded"])
    assert all(answer["recorded"] or answer["reason"] for answer in answers)


def test_a_model_that_fails_or_returns_no_text_is_a_recorded_refusal():
    """A model that raises or returns something other than text gives a malformed-reply refusal."""
    recorder = lab_run()
    go_to(recorder, "propose")

    def broken(prompt):
        raise TimeoutError("no answer")

    assert propose(recorder, broken)[1] == {
        "recorded": False,
        "reason": "malformed reply to model call 1: the model failed: TimeoutError('no answer')",
    }
    assert propose(recorder, lambda prompt: None)[1] == {
        "recorded": False,
        "reason": "malformed reply to model call 2: the model returned NoneType, not text",
    }
    assert propose(recorder, lambda prompt: "[" * 60_000)[1]["reason"].startswith("malformed reply to model call 3: not JSON")
    assert propose(recorder, lambda prompt: "[" * 100_000)[1]["reason"] == (
        f"malformed reply to model call 4: the reply has 100000 bytes, over the limit of {REPLY_LIMIT}")


def test_propose_outside_the_propose_stage_never_asks_the_model():
    """In any other stage the model call is refused by the stage check and the model is not called."""
    recorder = lab_run()
    asked = []
    go_to(recorder, "observe")
    assert propose(recorder, asked.append) == [
        {"recorded": False, "reason": "record kind 'model_call' is not admitted in stage 'observe'"}
    ]
    assert asked == []


def test_model_calls_and_proposals_must_cite_what_the_run_holds():
    """A model call may cite only held captures; a proposal only a held model call."""
    recorder = lab_run()
    go_to(recorder, "propose")
    run_id = recorder.run.run_id
    call = {"run_id": run_id, "prompt_digest": DIGEST, "capture_ids": ["c" * 64]}
    assert recorder.record("model_call", call)["reason"] == f"model call cites capture '{'c' * 64}' that this run does not hold"
    suggestion = {"run_id": run_id, "model_call_id": "d" * 64, "tool": "inspect_headers",
                  "destination": "https://lab.example/", "arguments": {}, "why": ""}
    assert recorder.record("proposal", suggestion)["reason"] == (
        f"proposal cites model call '{'d' * 64}' that this run does not hold"
    )
    assert recorder.records("model_call") == [] and recorder.records("proposal") == []


def test_the_prompt_cuts_long_captures_and_shows_values_on_one_line():
    """A capture longer than the excerpt limit is cut with a note; observed values are JSON on one line."""
    recorder = lab_run(4)
    capture_id = held_capture(recorder, "HTTP/1.1 200 OK\n\n" + "y" * (EXCERPT_LIMIT + 50))
    go_to(recorder, "observe")
    run_id = recorder.run.run_id
    recorder.record("observation", {"run_id": run_id, "field": "note", "value": "two\nlines", "capture_id": capture_id})
    go_to(recorder, "propose")
    prompt = build_prompt(recorder)
    assert f"[... {len('HTTP/1.1 200 OK') + 2 + 50} more characters]" in prompt
    assert '- note: "two\\nlines"' in prompt


# --- select --------------------------------------------------------------------------


def test_selecting_twice_without_executing_is_refused_as_already_recorded():
    """The same choice from the same ledger is one record; asking again before executing is refused."""
    recorder = lab_run()
    go_to(recorder, "propose")
    propose(recorder, lambda p: json.dumps({"proposals": [
        {"tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}, "why": ""}]}))
    go_to(recorder, "select")
    first = select_next(recorder)
    assert first["recorded"]
    assert select_next(recorder) == {"recorded": False, "reason": f"selection '{first['id']}' is already recorded"}


def test_selection_payload_cannot_pick_or_claim():
    """A selection payload carries only the run id: naming an action or an id is a malformed payload."""
    recorder = lab_run()
    go_to(recorder, "select")
    run_id = recorder.run.run_id
    answer = recorder.record("selection", {"run_id": run_id, "action_id": f"inspect_headers -> {LAB}/"})
    assert answer == {"recorded": False, "reason": "malformed payload: unexpected field 'action_id'"}


# --- the new records -----------------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: ModelCall("", 1, DIGEST, ()),
        lambda: ModelCall("r", 0, DIGEST, ()),
        lambda: ModelCall("r", True, DIGEST, ()),
        lambda: ModelCall("r", 1, "not-a-digest", ()),
        lambda: ModelCall("r", 1, DIGEST, "c" * 64),
        lambda: ModelCall("r", 1, DIGEST, ["short"]),
        lambda: Proposal("r", DIGEST, "inspect_headers", "https://lab.example:443/", {}, "w", "wrong id"),
        lambda: Proposal("r", DIGEST, "inspect_headers", "https://LAB.example/", {}, "w",
                         "inspect_headers -> https://lab.example:443/"),
        lambda: Proposal("r", "x", "inspect_headers", "https://lab.example:443/", {}, "w",
                         "inspect_headers -> https://lab.example:443/"),
        lambda: Proposal("r", DIGEST, "inspect_headers", "https://lab.example:443/", {}, None,
                         "inspect_headers -> https://lab.example:443/"),
        lambda: Selection("r", "a", float("nan"), "reason", (1,)),
        lambda: Selection("r", "a", 1.0, "", (1,)),
        lambda: Selection("r", "a", 1.0, "reason", (0,)),
        lambda: Selection("r", "a", 1.0, "reason", (True,)),
        lambda: Feedback("r", "o", "a", "", 1.0),
        lambda: Feedback("r", "o", "a", "fam", "1"),
    ],
)
def test_the_new_records_validate_on_construction(build):
    """ModelCall, Proposal, Selection and Feedback raise RecordError on a field that breaks their contract."""
    with pytest.raises(RecordError):
        build()


def test_the_new_records_are_content_addressed():
    """Changing any field of a model call, selection or feedback changes its identifier."""
    assert ModelCall("r", 1, DIGEST, ()).model_call_id != ModelCall("r", 2, DIGEST, ()).model_call_id
    assert Selection("r", "a", 1.0, "x", (1,)).selection_id != Selection("r", "a", 1.0, "x", (2,)).selection_id
    assert Feedback("r", "o", "a", "f", 1.0).feedback_id != Feedback("r", "o", "a", "f", 0.0).feedback_id


@PROPERTY_SETTINGS
@given(
    st.sampled_from(["model_call", "proposal", "selection", "feedback"]),
    st.dictionaries(
        st.sampled_from(["run_id", "prompt_digest", "capture_ids", "model_call_id", "tool", "destination",
                         "arguments", "why", "outcome_id", "action_id", "extra"]),
        st.one_of(st.none(), st.integers(), st.text(max_size=8), st.lists(st.text(max_size=4), max_size=2),
                  st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)),
        max_size=6,
    ),
    st.sampled_from(["propose", "select", "execute"]),
    st.booleans(),
)
def test_arbitrary_payloads_for_the_new_kinds_never_raise(kind, payload, stage, bound_to_run):
    """record() on the new kinds never raises; a refusal changes no store and adds one refused event."""
    recorder = lab_run(world="payloads")
    go_to(recorder, stage)
    if bound_to_run:
        payload = {**payload, "run_id": recorder.run.run_id}
    before, events = stores(recorder), len(recorder.events)
    answer = recorder.record(kind, payload)
    assert len(recorder.events) == events + 1
    if not answer["recorded"]:
        assert answer["reason"] and stores(recorder) == before
        assert recorder.events[-1]["status"] == "refused"



def test_a_reply_is_recorded_once_with_its_names_kept_printable_and_its_proposals_only():
    """A model's Said is recorded as its reply with each name shown with its escapes and cut to NAME_LIMIT; a Said of no text is the model's failure; a call is answered once, and a proposal the reply does not hold is refused."""
    recorder = lab_run()
    go_to(recorder, "propose")
    proposal = {"tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}, "why": "w"}
    text = json.dumps({"proposals": [proposal]})
    said = Said(text, "http://127.0.0.1:11434/v1", "m\x1b[31m", "a" * (NAME_LIMIT + 50))
    answers = propose(recorder, lambda prompt: said)
    assert [answer["recorded"] for answer in answers] == [True, True]
    [reply] = recorder.records("reply")
    assert (reply["text"], reply["endpoint"], reply["model"]) == (text, said.endpoint, "m\\x1b[31m")
    assert reply["answered_by"] == "a" * NAME_LIMIT
    call_id = reply["model_call_id"]
    again = recorder.record("reply", {"run_id": recorder.run.run_id, "model_call_id": call_id, "text": text})
    assert again["reason"] == f"model call {call_id!r} already has a reply"
    other = {**proposal, "destination": "https://lab.example/about"}
    refused = recorder.record("proposal", {"run_id": recorder.run.run_id, "model_call_id": call_id, **other})
    assert refused["reason"] == f"the proposal is not one the reply to model call {call_id!r} holds"
    assert propose(recorder, lambda prompt: Said(None))[1] == {
        "recorded": False, "reason": "malformed reply to model call 2: the model returned Said, not text"}
