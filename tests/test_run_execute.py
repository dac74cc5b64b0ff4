"""Lesson 6 completion suite: execution through adapters.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_6_8_edges.py.
"""

from __future__ import annotations

import json

import pytest

from core.run.doors import door_for
from core.run.execute import AdapterResult, NotSent, execute
from core.run.observe import render_response
from core.run.policy import reference_policy
from core.run.records import make_run
from lab.fixtures import fixture_paths
from lab import DEFAULT_LAB_DIR
from lab.plugin import make_adapter
from lab.server import running

from .lab_run import go_to, lab_run

PAGE = AdapterResult(200, (("Server", "fixture/1.0"), ("Content-Type", "text/html")), "<p>hello</p>\n")


class FakeAdapter:
    """An adapter that answers every URL with ``PAGE`` (or raises ``errors[url]``) and remembers each call."""

    def __init__(self, errors: dict | None = None):
        self.calls: list[str] = []
        self.errors = errors or {}

    def fetch(self, url: str) -> AdapterResult:
        self.calls.append(url)
        if url in self.errors:
            raise self.errors[url]
        return PAGE


def executing(**changes):
    """A lesson 6 door in the execute stage, with room for a dozen actions.

    Choosing the act is lesson 5's business, so these tests leave out its
    guard (is_the_selection) and hand the executor acts directly.
    """
    recorder = lab_run(6, world="lesson-6", without=("is_the_selection",), **{"max_actions": 12, **changes})
    go_to(recorder, "execute")
    return recorder


def payload(recorder, destination: str, tool: str = "inspect_headers", arguments: dict | None = None) -> dict:
    return {"run_id": recorder.run.run_id, "tool": tool, "destination": destination, "arguments": arguments or {}}


def test_action_capture_and_outcome_each_pass_the_door_in_order():
    """Executing an action records, through the door and in this order, the action, an unresolved outcome, the capture, and a succeeded outcome that cites the capture."""
    recorder = executing()
    start = len(recorder.events)
    result = execute(recorder, payload(recorder, "https://lab.example/about"), FakeAdapter())
    events = recorder.events[start:]
    assert [(e["kind"], e["status"]) for e in events] == [
        ("action", "admitted"), ("outcome", "admitted"), ("capture", "admitted"), ("outcome", "admitted")]
    first, settled = recorder.records("outcome")
    assert (first["status"], first["capture_id"]) == ("unresolved", "")
    assert (settled["status"], settled["capture_id"]) == ("succeeded", result.capture_id)
    assert result.status == "succeeded" and result.action_id == "inspect_headers -> https://lab.example:443/about"
    assert [answer["recorded"] for answer in result.answers] == [True, True, True, True]


def test_a_refused_action_never_reaches_the_adapter():
    """The executor never calls the adapter for an action the door refused, and the refusal is the only thing recorded."""
    recorder = executing()
    adapter = FakeAdapter()
    attempts = {
        "https://other.example/": "destination https://other.example:443 is outside the explicit authorized origins",
        "https://lab.example@other.example/": "destination 'https://lab.example@other.example/' is not a valid origin: userinfo",
    }
    for destination, reason in attempts.items():
        before = {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}
        result = execute(recorder, payload(recorder, destination), adapter)
        assert (result.status, result.detail, result.capture_id, result.action_id) == ("refused", reason, "", "")
        assert recorder.events[-1]["status"] == "refused" and recorder.events[-1]["reason"] == reason
        assert {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")} == before
    unknown_tool = execute(recorder, payload(recorder, "https://lab.example/", tool="shell"), adapter)
    assert unknown_tool.status == "refused"
    assert adapter.calls == []


def test_an_adapter_error_leaves_the_act_in_doubt_or_failed_by_where_it_happened():
    """An adapter error after the request may have reached the target (a timeout) leaves the act unresolved, in doubt, naming the error; one before anything was sent settles it as failed; either way the next action still runs."""
    recorder = executing()
    adapter = FakeAdapter({"https://lab.example:443/slow": TimeoutError("timed out"),
                           "https://lab.example:443/down": NotSent("connection refused")})
    slow = execute(recorder, payload(recorder, "https://lab.example/slow"), adapter)
    down = execute(recorder, payload(recorder, "https://lab.example/down"), adapter)
    fine = execute(recorder, payload(recorder, "https://lab.example/"), adapter)
    in_doubt = "in doubt: the request may have reached the target: TimeoutError('timed out')"
    assert (slow.status, slow.detail) == ("unresolved", in_doubt)
    assert (down.status, down.detail) == ("failed", "not sent: connection refused")
    assert fine.status == "succeeded"
    outcomes = [(o["action_id"], o["status"], o["detail"]) for o in recorder.records("outcome")]
    assert outcomes[:4] == [("inspect_headers -> https://lab.example:443/slow", "unresolved", "handed to the adapter"),
                            ("inspect_headers -> https://lab.example:443/slow", "unresolved", in_doubt),
                            ("inspect_headers -> https://lab.example:443/down", "unresolved", "handed to the adapter"),
                            ("inspect_headers -> https://lab.example:443/down", "failed",
                             "not sent: connection refused")]
    assert slow.action_id not in recorder.settled and down.action_id in recorder.settled
    assert not any(o["status"] == "succeeded" for o in recorder.records("outcome") if "/slow" in o["action_id"])
    assert [c["action_id"] for c in recorder.records("capture")] == ["inspect_headers -> https://lab.example:443/"]


def test_a_settled_outcome_never_changes():
    """Once an action's outcome is settled, the door refuses every later outcome for that action, and the settled outcome stays as it was."""
    recorder = executing()
    result = execute(recorder, payload(recorder, "https://lab.example/"), FakeAdapter())
    settled = recorder.records("outcome")[-1]
    for status in ("failed", "unresolved", "succeeded"):
        attempt = {"run_id": recorder.run.run_id, "action_id": result.action_id, "status": status,
                   "capture_id": "", "detail": f"changed to {status}"}
        answer = recorder.record("outcome", attempt)
        assert answer == {"recorded": False,
                          "reason": "outcome for 'inspect_headers -> https://lab.example:443/' is already settled"}
    assert recorder.records("outcome")[-1] == settled and len(recorder.records("outcome")) == 2


def test_an_unresolved_outcome_is_settled_once():
    """An act left in doubt by an adapter error is settled once, by a later outcome for its action that says how it ended, and the door refuses a second settlement."""
    recorder = executing()
    adapter = FakeAdapter({"https://lab.example:443/down": ConnectionResetError(104, "Connection reset by peer")})
    down = execute(recorder, payload(recorder, "https://lab.example/down"), adapter)
    assert down.status == "unresolved"
    settlement = {"run_id": recorder.run.run_id, "action_id": down.action_id, "status": "failed", "capture_id": "",
                  "detail": "settled by the operator: the lab was down, nothing reached it"}
    assert recorder.record("outcome", settlement)["recorded"]
    again = recorder.record("outcome", {**settlement, "status": "succeeded", "detail": "settled a second time"})
    assert again == {"recorded": False,
                     "reason": "outcome for 'inspect_headers -> https://lab.example:443/down' is already settled"}
    assert [(o["status"], o["detail"]) for o in recorder.records("outcome")] == [
        ("unresolved", "handed to the adapter"),
        ("unresolved", "in doubt: the request may have reached the target: "
                       "ConnectionResetError(104, 'Connection reset by peer')"),
        ("failed", "settled by the operator: the lab was down, nothing reached it")]


def test_the_capture_is_the_rendered_response():
    """A capture's body is the adapter's response rendered by observe.render_response, so the same response gives the same capture whatever order its headers came in."""
    recorder = executing()
    result = execute(recorder, payload(recorder, "https://lab.example/"), FakeAdapter())
    capture = recorder.records("capture")[-1]
    assert capture["body"] == render_response(PAGE.status, PAGE.headers, PAGE.body)
    assert capture["body"].startswith("HTTP/1.1 200 OK\nContent-Type: text/html\nServer: fixture/1.0\n\n<p>hello</p>")
    twin = executing()
    reordered = AdapterResult(200, tuple(reversed(PAGE.headers)), PAGE.body)

    class Reordered(FakeAdapter):
        def fetch(self, url: str) -> AdapterResult:
            return reordered

    assert execute(twin, payload(twin, "https://lab.example/"), Reordered()).capture_id == result.capture_id


def test_a_probe_sends_its_marker_as_one_query_pair():
    """A probe's parameter and marker arguments reach the adapter as one URL-encoded query pair; arguments the tool's schema does not declare are refused at the door, and declared arguments the executor cannot send settle the act as failed without a call."""
    recorder = executing()
    adapter = FakeAdapter()
    probe = payload(recorder, "https://lab.example/debug", "probe_reflection", {"parameter": "q", "marker": "a <b>&c"})
    assert execute(recorder, probe, adapter).status == "succeeded"
    assert adapter.calls == ["https://lab.example:443/debug?q=a+%3Cb%3E%26c"]
    undeclared = payload(recorder, "https://lab.example/search", "probe_reflection", {"command": "rm -rf /"})
    refused = execute(recorder, undeclared, adapter)
    assert (refused.status, refused.detail) == ("refused", "tool 'probe_reflection' does not declare the argument "
                                                          "'command' (it declares marker, parameter)")
    half = payload(recorder, "https://lab.example/search", "probe_reflection", {"parameter": "q"})
    result = execute(recorder, half, adapter)
    assert result.status == "failed"
    assert result.detail == "not sent: arguments {'parameter': 'q'} are not a probe's parameter and marker"
    assert len(adapter.calls) == 1


def test_in_process_and_loopback_http_give_byte_identical_captures():
    """The lab's adapter gives byte-identical captures in process and over real loopback HTTP against the lab served by a real server."""
    paths = [path for host, path in fixture_paths(DEFAULT_LAB_DIR) if host == "lab.example"] + ["/staging/"]
    assert len(paths) >= 10

    def captures(recorder, adapter) -> list[dict]:
        for path in paths:
            assert execute(recorder, payload(recorder, f"https://lab.example{path}"), adapter).status == "succeeded"
        probe = payload(recorder, "https://lab.example/debug", "probe_reflection", {"parameter": "q", "marker": "<i>7</i>"})
        assert execute(recorder, probe, adapter).status == "succeeded"
        return recorder.records("capture")

    in_process_adapter = make_adapter("inprocess", DEFAULT_LAB_DIR)
    in_process = captures(executing(max_actions=len(paths) + 2), in_process_adapter)
    in_process_adapter.close()
    over_http_recorder = executing(max_actions=len(paths) + 2)
    with running() as port:
        http_adapter = make_adapter("http", None, port)
        over_http = captures(over_http_recorder, http_adapter)
    assert over_http == in_process
    assert [c["status"] for c in in_process][-2:] == [404, 200]
    assert "You asked for: <i>7</i>" in in_process[-1]["body"]
    # The http adapter really went over the wire: with the server stopped, its next fetch fails.
    after = execute(over_http_recorder, payload(over_http_recorder, "https://lab.example/after-stop"), http_adapter)
    http_adapter.close()
    assert after.status == "failed" and after.detail.startswith("not sent: ConnectError: ")


def test_a_response_of_any_status_is_what_the_act_found():
    """A response of any status, a 404 or a 503 included, is what the act found: the act is settled succeeded, and its capture keeps that status."""
    recorder = executing()
    for status in (404, 410, 500, 503):
        answer = AdapterResult(status, (("Content-Type", "text/plain"),), f"status {status}\n")

        class Answering(FakeAdapter):
            def fetch(self, url: str) -> AdapterResult:
                return answer

        result = execute(recorder, payload(recorder, f"https://lab.example/status-{status}"), Answering())
        assert result.status == "succeeded", status
        capture = recorder.get("capture", result.capture_id)
        assert capture["status"] == status and capture["body"].startswith(f"HTTP/1.1 {status} ")
        assert recorder.records("outcome")[-1]["capture_id"] == result.capture_id


def test_an_answer_that_is_not_a_response_or_a_refused_capture_leaves_the_act_in_doubt():
    """An answer that is not a response, or a response whose capture the door refuses, leaves the act in doubt: a second unresolved outcome says why, and nothing settles it."""
    recorder = executing()

    class Odd(FakeAdapter):
        def fetch(self, url: str):
            if url.endswith("/nothing"):
                return None
            if url.endswith("/forged"):
                return AdapterResult(200, (("X-Note", "ok\r\nSet-Cookie: admin=1"),), "hi\n")
            return AdapterResult(700, (), "a status no capture can hold\n")

    for path, says in (("/nothing", "in doubt: the request may have reached the target: AttributeError("),
                       ("/forged", "in doubt: the request may have reached the target: ValueError(\"header 'X-Note' "
                                   "holds a line break"),
                       ("/strange", "capture refused: malformed payload: RecordError('status must be an HTTP status "
                                    "code 100..599, got 700')")):
        result = execute(recorder, payload(recorder, f"https://lab.example{path}"), Odd())
        outcomes = [o for o in recorder.records("outcome") if o["action_id"] == result.action_id]
        assert result.status == "unresolved" and result.detail.startswith(says), (path, result.detail)
        assert [o["status"] for o in outcomes] == ["unresolved", "unresolved"] and outcomes[-1]["detail"] == result.detail
        assert result.action_id not in recorder.settled and result.capture_id == ""
    assert recorder.records("capture") == []


def test_the_start_is_written_ahead_and_without_a_sink_it_lives_in_this_process():
    """The unresolved outcome is recorded before the adapter is asked, and a door given a sink has already handed the sink its bytes; without a sink the ledger lives only in the process, so a process stopped mid-request keeps the act's start only while it lives."""
    written: list[bytes] = []
    policy = reference_policy(max_actions=4)
    door = door_for(6, make_run(policy.snapshot(), {"world": "written-ahead"}), policy, without=("is_the_selection",),
                    sink=written.append)
    go_to(door, "execute")
    seen = {}

    class Watching(FakeAdapter):
        def fetch(self, url: str) -> AdapterResult:
            seen["outcomes"] = [o["status"] for o in door.records("outcome")]
            seen["sunk"] = json.loads(written[-1])
            return PAGE

    assert execute(door, payload(door, "https://lab.example/"), Watching()).status == "succeeded"
    assert seen["outcomes"] == ["unresolved"]
    assert (seen["sunk"]["kind"], seen["sunk"]["payload"]["status"]) == ("outcome", "unresolved")

    recorder = executing()

    class Interrupted(FakeAdapter):
        def fetch(self, url: str) -> AdapterResult:
            raise KeyboardInterrupt  # Ctrl-C, mid-request

    with pytest.raises(KeyboardInterrupt):
        execute(recorder, payload(recorder, "https://lab.example/about"), Interrupted())
    assert [(o["status"], o["detail"]) for o in recorder.records("outcome")] == [("unresolved", "handed to the adapter")]
    assert recorder.sink is None  # nothing of it left the process: a killed process takes this ledger along
