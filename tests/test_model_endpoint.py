"""A real model over the wire (lab/endpoint.py): what each kind of answer becomes, and a whole run with one.

Every test talks to a chat-completions server on 127.0.0.1 that the test
starts (tests/chat_server.py). Each answer ends as a stored proposal, the
door's refusal or the model's recorded failure, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.run.drive import identify, reference_config
from core.run.plugins import PluginError, load_model
from core.audit.replay import replay
from core.run.propose import ReplyError, parse_reply, propose
from core.run.seal import abort, reseal
from lab.endpoint import ATTEMPTS, BODY_LIMIT, RETRY_AFTER_LIMIT, EndpointFailed, make_model, reply_text

from .chat_server import Answer, calls, completion, serving, text
from .conftest import examples
from .lab_run import go_to, lab_run
from .test_run_seal import sealed_from

REPO = Path(__file__).resolve().parent.parent
KEY = "sk-course-test-7Q2xV9pL4mZ8rT1w"  # distinctive, so a grep finds it anywhere it leaked
CATALOGUE = reference_config().policy.snapshot()["tools"]
HOME = '{"destination": "https://lab.example/", "why": "read the home page headers"}'


def endpoint(server, timeout: float = 5.0):
    return make_model(None, catalogue=CATALOGUE, url=server.url, model="test-model", timeout=timeout)


def asked(answers: list[Answer], timeout: float = 5.0, **policy) -> tuple[object, list[dict], object]:
    """A fresh run in its propose stage asks a served endpoint once: (the door, its answers, the server)."""
    door = lab_run(4, world="endpoint", **policy)
    go_to(door, "propose")
    with serving(answers) as server:
        result = propose(door, endpoint(server, timeout))
    return door, result, server


def refusal(door) -> tuple[str, str, str]:
    """The last event's code, who wrote it and its reason."""
    event = door.events[-1]
    assert event["status"] == "refused", event
    return event["code"], event["by"], event["reason"]


def test_a_tool_call_with_json_string_arguments_is_a_proposal_the_door_stores():
    """A tool call whose arguments are a JSON string becomes a proposal: its name the tool, its destination and why from the arguments, stored by the door under its action identity."""
    door, answers, server = asked([calls(("inspect_headers", HOME))])
    assert [answer["recorded"] for answer in answers] == [True, True]
    (stored,) = door.records("proposal")
    assert (stored["tool"], stored["destination"], stored["arguments"], stored["why"]) == (
        "inspect_headers", "https://lab.example:443/", {}, "read the home page headers")
    assert len(server.requests) == 1 and server.requests[0]["path"] == "/v1/chat/completions"


def test_every_tool_in_the_request_declares_its_destination_and_the_policys_own_arguments():
    """The request offers every tool of the policy as a function whose JSON Schema requires destination and declares the tool's own arguments with their types, and sends the prompt as the last message."""
    door, _, server = asked([calls(("inspect_headers", HOME))])
    body = server.requests[0]["body"]
    assert body["model"] == "test-model"
    offered = {tool["function"]["name"]: tool["function"]["parameters"] for tool in body["tools"]}
    assert list(offered) == [tool["tool_id"] for tool in CATALOGUE]
    for tool in CATALOGUE:
        schema = offered[tool["tool_id"]]
        assert schema["required"] == ["destination"] and schema["properties"]["destination"]["type"] == "string"
        assert {name: schema["properties"][name]["type"] for name in tool.get("arguments", {})} == tool.get(
            "arguments", {})
        assert set(schema["properties"]) == {"destination", "why", *tool.get("arguments", {})}
    assert body["messages"][-1]["role"] == "user" and "Authorization: training-authorization-0001" in body[
        "messages"][-1]["content"]


def test_several_tool_calls_in_one_reply_are_judged_one_by_one():
    """Several tool calls in one reply are as many proposals, each judged by the door on its own: the allowed ones stored, one whose tool needs an unobserved field refused by the door, naming it."""
    door, answers, _ = asked([calls(("inspect_headers", HOME),
                                    ("inspect_headers", '{"destination": "https://lab.example/about"}'),
                                    ("inspect_metadata", '{"destination": "https://lab.example/about"}'))])
    assert [answer["recorded"] for answer in answers] == [True, True, True, False]
    assert [p["destination"] for p in door.records("proposal")] == ["https://lab.example:443/",
                                                                     "https://lab.example:443/about"]
    code, by, reason = refusal(door)
    assert by.startswith("door") and "has_meta" in reason and code


def test_text_instead_of_tool_calls_reaches_propose_as_the_reply():
    """A reply of text with no tool calls is handed to propose as it stands: the JSON the prompt asks for is read as proposals, and prose is refused as not JSON."""
    proposal = {"tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}, "why": "home"}
    door, answers, _ = asked([text(json.dumps({"proposals": [proposal]}))])
    assert [answer["recorded"] for answer in answers] == [True, True]
    door, answers, _ = asked([text("I would look at the home page first.")])
    assert refusal(door)[:2] == ("reply_not_json", "door: propose.build_reply")


@pytest.mark.parametrize("arguments", ["{not json", '{"destination": "https://lab.example/", "destination": "x"}',
                                       '["https://lab.example/"]', '{"destination": "https://lab.example/", "n": NaN}'])
def test_arguments_that_are_not_a_json_object_are_refused_by_propose_whole(arguments):
    """Arguments that are not JSON, hold a key twice, are not an object or hold NaN reach propose as the model's string, and the reply is refused whole; an allowed call beside them is not stored either."""
    door, answers, _ = asked([calls(("inspect_headers", HOME), ("inspect_headers", arguments))])
    assert answers[0]["recorded"] and not answers[-1]["recorded"] and len(answers) == 2
    code, by, reason = refusal(door)
    assert (code, by) == ("reply_wrong_shape", "door: propose.build_reply") and "'arguments' must be an object" in reason
    assert door.records("proposal") == []


def test_an_unknown_tool_and_a_tool_the_policy_does_not_allow_are_the_doors_refusals():
    """A call of a tool the policy does not declare, and of a declared tool outside the authorized origins or with arguments it does not declare, are each refused by the door with its own code."""
    door, answers, _ = asked([calls(("delete_everything", HOME),
                                    ("inspect_headers", '{"destination": "https://other.example/"}'),
                                    ("inspect_headers", '{"destination": "https://lab.example/", "depth": 3}'))])
    assert [answer["recorded"] for answer in answers] == [True, False, False, False]
    refused = [event for event in door.events if event["kind"] == "proposal"]
    assert [event["by"].split(":")[0] for event in refused] == ["door"] * 3
    assert len({event["code"] for event in refused}) == 3
    assert "delete_everything" in refused[0]["reason"] and "other.example" in refused[1]["reason"]
    assert "depth" in refused[2]["reason"]


def test_a_429_is_retried_once_after_its_retry_after_and_spends_one_model_call():
    """A 429 with Retry-After: 1 is sent once more after a second, and the answer to the second request is the reply: two requests, one model call."""
    started = time.monotonic()
    door, answers, server = asked([Answer(429, b'{"error": "slow down"}', (("Retry-After", "1"),)),
                                   calls(("inspect_headers", HOME))])
    assert time.monotonic() - started >= 1.0
    assert len(server.requests) == 2 and [answer["recorded"] for answer in answers] == [True, True]
    assert door.count("model_call") == 1


def test_a_429_asking_too_long_a_wait_is_the_models_failure_without_a_second_request():
    """A 429 whose Retry-After is over RETRY_AFTER_LIMIT is a recorded model_failed refusal naming the wait, after one request."""
    door, _, server = asked([Answer(429, b"{}", (("Retry-After", str(int(RETRY_AFTER_LIMIT) * 60)),))])
    code, by, reason = refusal(door)
    assert (code, by) == ("model_failed", "caller: propose.propose") and "asked to wait 600 s" in reason
    assert len(server.requests) == 1


def test_a_500_twice_is_the_models_failure_and_the_next_call_goes_on():
    """A 500 to both requests of a call is a recorded model_failed refusal naming the status; the run's next model call is asked as usual, its prompt after the failed one's."""
    door = lab_run(4, world="endpoint")
    go_to(door, "propose")
    with serving([Answer(500, b"oops")] * ATTEMPTS + [calls(("inspect_headers", HOME))]) as server:
        model = endpoint(server)
        propose(door, model)
        code, _, reason = refusal(door)
        assert code == "model_failed" and "HTTP 500" in reason and f"{ATTEMPTS} requests" in reason
        assert [answer["recorded"] for answer in propose(door, model)] == [True, True]
    assert len(server.requests) == ATTEMPTS + 1 and door.count("model_call") == 2
    roles = [message["role"] for message in server.requests[-1]["body"]["messages"]]
    assert roles == ["system", "user"]
    assert server.requests[-1]["body"]["messages"][1]["content"].count("Authorization:") == 2


def test_the_budget_of_model_calls_bounds_the_requests():
    """Once max_model_calls calls are spent the endpoint is not asked: two calls allowed, three asked for, two requests."""
    door = lab_run(4, world="endpoint", max_model_calls=2)
    go_to(door, "propose")
    with serving([]) as server:
        model = endpoint(server)
        answers = [propose(door, model)[0]["recorded"] for _ in range(3)]
    assert answers == [True, True, False] and len(server.requests) == 2
    roles = [message["role"] for message in server.requests[-1]["body"]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]


@pytest.mark.parametrize("answer, words", [
    (Answer(body=b"x" * (BODY_LIMIT + 1)), "over the limit"),
    (Answer(body=completion({"content": "y" * (BODY_LIMIT + 1)}), headers=(("Content-Length", ""),)),
     "over the limit"),
    (Answer(body=b"<html>Bad gateway</html>"), "not JSON"),
    (Answer(body=b'{"choices": []}'), "not a chat completion"),
    (Answer(body=completion({"content": ["a", "list"]})), "not text"),
    (Answer(body=b"\x1f\x8b", headers=(("Content-Encoding", "gzip"),)), "compressed"),
    (Answer(404, b'{"error": "no such model"}'), "HTTP 404"),
])
def test_a_body_too_large_or_malformed_is_the_models_failure(answer, words):
    """A body over BODY_LIMIT (declared or streamed), one that is not JSON or not a chat completion, content that is not text, a compressed body and a 404 are each a recorded model_failed refusal saying which."""
    door, answers, _ = asked([answer])
    code, by, reason = refusal(door)
    assert (code, by) == ("model_failed", "caller: propose.propose") and words in reason, reason
    assert answers[0]["recorded"] and len(answers) == 2


def test_a_server_that_stalls_is_the_models_failure_within_its_timeout():
    """A server that answers nothing within the timeout is a recorded model_failed refusal after about the timeout, with one request sent."""
    started = time.monotonic()
    door, _, server = asked([Answer(stall=4.0, body=completion({"content": ""}))], timeout=1.0)
    assert time.monotonic() - started < 3.5
    code, _, reason = refusal(door)
    assert code == "model_failed" and "no answer within 1 s" in reason and len(server.requests) == 1


def test_a_refused_connection_is_the_models_failure():
    """An endpoint nobody listens on is a recorded model_failed refusal saying it could not be reached."""
    with serving([]) as server:
        url = server.url
    door = lab_run(4, world="endpoint")
    go_to(door, "propose")
    propose(door, make_model(None, catalogue=CATALOGUE, url=url, model="m", timeout=2))
    code, _, reason = refusal(door)
    assert code == "model_failed" and "could not be reached" in reason


@pytest.mark.parametrize("url, words", [
    ("http://10.1.2.3:8000/v1", "not loopback"),
    ("http://user:pw@127.0.0.1:8000/v1", "credentials"),
    ("https://api.example/v1?key=abc", "no query"),
    ("ftp://127.0.0.1/v1", "http:// or https://"),
    ("http://127.0.0.1:port/v1", "cannot be read"),
])
def test_an_endpoint_the_key_may_not_go_to_is_refused_when_the_model_is_made(monkeypatch, url, words):
    """With a key set, plain http to a host that is not loopback is refused, as are credentials or a query in the URL and a scheme other than http(s), each in one line that does not hold the key."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with pytest.raises(PluginError, match=words) as refused:
        make_model(None, catalogue=CATALOGUE, url=url, model="m")
    assert KEY not in str(refused.value) and "\n" not in str(refused.value)


def test_without_a_key_no_authorization_header_is_sent_and_with_one_it_is(monkeypatch):
    """Without OPENAI_API_KEY the request carries no Authorization header; with it, the bearer key, over loopback."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _, _, server = asked([text("")])
    assert not any(name.lower() == "authorization" for name in server.requests[0]["headers"])
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    _, _, server = asked([text("")])
    assert {v for k, v in server.requests[0]["headers"].items() if k.lower() == "authorization"} == {f"Bearer {KEY}"}


def test_an_endpoint_that_quotes_the_key_does_not_put_it_in_the_ledger(monkeypatch):
    """An error body or a reply that quotes the API key whole reaches the ledger with the key replaced."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    echo = {"tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}, "why": KEY}
    door, answers, _ = asked([text(json.dumps({"proposals": [echo]}))])
    assert answers[-1]["recorded"] and KEY not in json.dumps(door.events) + json.dumps(door.records("proposal"))
    door, _, _ = asked([Answer(401, json.dumps({"error": f"bad key {KEY}"}).encode())])
    assert refusal(door)[0] == "model_failed" and KEY not in json.dumps(door.events)


def test_the_plugin_is_made_by_load_model_from_an_object_entry_and_refuses_a_bad_one():
    """plugins.model as an object calls its factory with the lab folder, the catalogue and its settings; an object without a factory, or with a setting named catalogue, is refused in one line."""
    with serving([calls(("inspect_headers", HOME))]) as server:
        model = load_model({"factory": "lab.endpoint:make_model", "url": server.url, "model": "m"}, None, CATALOGUE)
        said = model("prompt")
        assert json.loads(said.text)["proposals"][0]["tool"] == "inspect_headers"
        assert (said.endpoint, said.model, said.answered_by) == (server.url, "m", "test-model")
    for entry in ({"url": "http://127.0.0.1:1/v1"}, {"factory": "lab.endpoint:make_model", "catalogue": []}):
        with pytest.raises(PluginError):
            load_model(entry, None, CATALOGUE)


# --- the parsing surface ---------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
CALL = st.fixed_dictionaries({"function": st.fixed_dictionaries(
    {"name": st.sampled_from(["inspect_headers", "probe_reflection"]) | JSON,
     "arguments": JSON.map(json.dumps) | st.text(max_size=40) | JSON})}) | JSON
MESSAGE = st.fixed_dictionaries({}, optional={"content": st.text(max_size=40) | JSON,
                                              "tool_calls": st.lists(CALL, max_size=4) | JSON})
BODY = st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries({"message": MESSAGE}) | JSON,
                                                  max_size=2)}) | JSON


@settings(max_examples=examples(600), deadline=None)
@given(body=BODY.map(lambda value: json.dumps(value).encode()) | st.binary(max_size=200))
def test_any_body_becomes_text_or_the_models_failure_and_the_text_only_a_reply_or_its_refusal(body):
    """Any JSON body, chat-completion-shaped or not, and any bytes, come out of the plugin as text or EndpointFailed, never another exception, and propose's parser reads that text as proposals or a ReplyError."""
    try:
        reply = reply_text(body)
    except EndpointFailed:
        return
    assert isinstance(reply, str)
    try:
        parse_reply(reply)
    except ReplyError:
        pass


# --- a whole run -----------------------------------------------------------------------


def main(*args: str, key: str = KEY) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENAI_API_KEY": key, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def test_a_run_with_model_url_seals_a_report_that_verifies_and_replays_and_never_holds_the_key(tmp_path):
    """A run with --model-url and --model against a served endpoint exits 0 and seals a report that seal verify and replay pass; the key is in no file the run wrote and no output."""
    about, robots = ('{"destination": "https://lab.example/%s"}' % page for page in ("about", "robots.txt"))
    quoting = json.dumps({"destination": "https://lab.example/robots.txt", "why": f"the key is {KEY}"})
    answers = [calls(("inspect_headers", HOME), ("inspect_metadata", about)),  # the second: has_meta unobserved
               calls(("inspect_headers", about), ("inspect_headers", quoting)),
               calls(("probe_reflection", "{not json")),
               *[Answer(500, json.dumps({"error": f"internal, your key was {KEY}"}).encode())] * ATTEMPTS]
    out, journal = tmp_path / "report.json", tmp_path / "journal.jsonl"
    with serving(answers) as server:
        ran = main("-m", "core.run.main", "--out", str(out), "--journal", str(journal),
                   "--model-url", server.url, "--model", "test-model")
    assert ran.returncode == 0, ran.stderr
    verified = main("-m", "core.run.seal", "verify", str(out))
    replayed = main("-m", "core.audit.replay", str(out))
    assert verified.returncode == 0 and replayed.returncode == 0, (verified, replayed)
    report = json.loads(out.read_text(encoding="utf-8"))
    refused = [(event["kind"], event["code"], event["by"].split(":")[0]) for event in report["events"]
               if event["kind"] in ("reply", "proposal") and event["status"] == "refused"]
    assert refused == [("proposal", "unobserved_requirement", "door"), ("reply", "reply_wrong_shape", "door"),
                       ("reply", "model_failed", "caller")]
    assert len(report["model_calls"]) == 4 and len(server.requests) == 3 + ATTEMPTS
    # The report names the model and holds each reply's text, the key in none of them.
    assert [(reply["endpoint"], reply["model"], reply["answered_by"]) for reply in report["replies"]] == [
        (server.url, "test-model", "test-model")] * 2
    assert "the key is [OPENAI_API_KEY]" in report["replies"][1]["text"]
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert {path.name for path in written} == {"report.json", "journal.jsonl"}
    for output in (ran, verified, replayed):
        assert KEY not in output.stdout + output.stderr and "Traceback" not in output.stderr
    assert not [path for path in written if KEY.encode() in path.read_bytes()]
    for name, status in (("test-model", 0), ("another-model", 1)):  # the world digest commits to the model
        raw = json.loads((REPO / "data" / "policy" / "training-authorization-0001.json").read_text(encoding="utf-8"))
        raw["plugins"]["model"] = {"factory": "lab.endpoint:make_model", "url": server.url, "model": name}
        (tmp_path / "config.json").write_text(json.dumps(raw), encoding="utf-8")
        checked = main("-m", "core.run.seal", "verify", str(out), "--config", str(tmp_path / "config.json"))
        assert checked.returncode == status, checked


def test_replay_decides_each_recorded_reply_again_and_catches_one_altered():
    """Replay decides every reply again from the text the report recorded, the malformed one too, without asking the model; only the failed call is copied. A recorded reply whose text is altered and resealed is named: the malformed one now parses, or a well-formed one no longer holds its proposals."""
    door = lab_run(10, world="endpoint")
    go_to(door, "propose")
    with serving([calls(("inspect_headers", HOME)), calls(("probe_reflection", "{not json")), Answer(404)]) as server:
        model = endpoint(server)
        for _ in range(3):
            propose(door, model)
    assert abort(door, "three calls asked")["recorded"]
    sealed = sealed_from(door)
    kinds = {event["seq"]: (event["kind"], event["status"], event["code"]) for event in sealed["events"]}
    failed = [seq for seq, kind in kinds.items() if kind == ("reply", "refused", "model_failed")]
    malformed = [seq for seq, kind in kinds.items() if kind == ("reply", "refused", "reply_wrong_shape")]
    assert len(failed) == len(malformed) == 1
    agreed = replay(sealed)
    assert agreed.divergences == () and agreed.not_redecided == tuple(failed)
    for seq, altered in ((malformed[0], '{"proposals": []}'), (kinds_seq(kinds, "reply", "admitted"), None)):
        events = json.loads(json.dumps(sealed["events"]))
        text = events[seq - 1]["payload"]["text"]
        events[seq - 1]["payload"]["text"] = altered or text.replace("read the home", "altered: the home")
        assert events[seq - 1]["payload"]["text"] != text
        diverged = replay(reseal({**sealed, "events": events})).divergences
        assert seq in [divergence.seq for divergence in diverged]
        if altered is None:  # its proposal, as recorded, is no longer one the reply holds
            assert [(d.kind, d.replayed.code) for d in diverged if d.seq > seq][:1] == [("proposal", "not_in_the_reply")]


def kinds_seq(kinds: dict, kind: str, status: str) -> int:
    return next(seq for seq, (k, s, _) in kinds.items() if (k, s) == (kind, status))


def test_the_endpoint_and_the_model_name_name_the_run_and_the_scripted_default_is_unchanged(tmp_path):
    """The endpoint and the model name are part of the run's identity: two names or two endpoints make two run ids, neither the scripted default's, which stays the committed report's."""
    config = reference_config()
    committed = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    assert identify(config).run_id == committed["run"]["run_id"]

    def run_id(url: str, model: str) -> str:
        entry = {"factory": "lab.endpoint:make_model", "url": url, "model": model}
        plugins = {**config.raw["plugins"], "model": entry}
        return identify(reference_config(plugins=plugins)).run_id

    ids = {run_id("http://127.0.0.1:11434/v1", "a"), run_id("http://127.0.0.1:11434/v1", "b"),
           run_id("http://127.0.0.1:8000/v1", "a"), committed["run"]["run_id"]}
    assert len(ids) == 4


@pytest.mark.parametrize("args, words", [
    (("--model-url", "http://127.0.0.1:11434/v1"), "go together"),
    (("--model", "qwen"), "go together"),
    (("--model-url", "http://10.1.2.3:11434/v1", "--model", "qwen"), "not loopback"),
])
def test_a_model_command_line_it_will_not_use_is_one_line_and_no_report(tmp_path, args, words):
    """--model-url without --model (or the other way round), and plain http to a host that is not loopback with a key set, exit 1 with one line that does not hold the key, and write no report and no journal."""
    out, journal = tmp_path / "report.json", tmp_path / "journal.jsonl"
    done = main("-m", "core.run.main", "--out", str(out), "--journal", str(journal), *args)
    assert done.returncode == 1 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert KEY not in done.stderr and list(tmp_path.iterdir()) == []
