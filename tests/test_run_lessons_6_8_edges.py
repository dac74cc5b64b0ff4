"""Edge cases for lessons 6 to 8: the executor, verification, the gated door, plugins and the driver.

These are helper tests, not completion sentences: they pin down behaviour at
the borders that the lesson suites state in general terms.
"""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from core.run import drive
from core.run.execute import AdapterResult, execute, request_url
import dataclasses

from core.run.doors import door_for
from core.run.drive import ConfigError, HarnessError, enter, load_reviews, work
from core.run.gate import Gating, GatingError, act_subject, gate_state
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy
from core.run.recorder import Recorder, Refusal
from core.run.stages import STAGE
from core.run.records import RecordError, make_capture, make_run
from core.run.verify import Check, CheckError, Plan, Verdict, judge, record_finding
from lab import DEFAULT_LAB_DIR
from lab.plugin import describe_world, make_adapter, make_model

from .lab_run import go_to, lab_run

REPO = Path(__file__).resolve().parent.parent
CONFIG = json.loads((REPO / "data/policy/training-authorization-0001.json").read_text(encoding="utf-8"))
GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10}, "fail_open_classes": []}
PROBE_TOOL = Policy.from_dict(CONFIG["policy"]).tool_named("probe_reflection")


class Answering:
    """An adapter that returns ``result`` for every URL (or calls it, if it is callable) and counts calls."""

    def __init__(self, result):
        self.result = result
        self.calls = 0

    def fetch(self, url: str):
        self.calls += 1
        return self.result(url) if callable(self.result) else self.result


def executing(lesson: int = 6):
    """A door in the execute stage that takes acts directly (choosing them is lesson 5's business)."""
    recorder = lab_run(lesson, world="edges-6-8", without=("is_the_selection",), max_actions=20)
    go_to(recorder, "execute")
    return recorder


def payload(recorder, destination="https://lab.example/", tool="inspect_headers", arguments=None) -> dict:
    return {"run_id": recorder.run.run_id, "tool": tool, "destination": destination, "arguments": arguments or {}}


def gated(stage="execute", selection_guard=False, plan=None, **gating) -> Recorder:
    """Lesson 8's door under the reference policy, moved to ``stage`` (without the selection guard by default).

    In the verify stage it admits the acts of ``plan`` (lesson 7's guard).
    """
    policy = Policy.from_dict(CONFIG["policy"])
    door = door_for(8, make_run(policy.snapshot(), {"world": "edges"}), policy, Gating.from_dict({**GATING, **gating}),
                    plan=plan, without=() if selection_guard else ("is_the_selection",))
    go_to(door, stage)
    return door


def held(recorder) -> dict:
    return {subject: action_class for subject, (action_class, _) in gate_state(recorder).held.items()}


# --- the executor ----------------------------------------------------------------------


@pytest.mark.parametrize(("destination", "arguments", "url"), [
    ("https://lab.example:443/", {}, "https://lab.example:443/"),
    ("https://lab.example:443/debug", {"parameter": "q", "marker": "<i>"}, "https://lab.example:443/debug?q=%3Ci%3E"),
    ("https://lab.example:443/debug?a=1", {"parameter": "q", "marker": "x y"}, "https://lab.example:443/debug?a=1&q=x+y"),
])
def test_request_url_adds_one_query_pair_for_a_probe(destination, arguments, url):
    assert request_url({"destination": destination, "arguments": arguments}, PROBE_TOOL) == url


@pytest.mark.parametrize("arguments", [{"parameter": "q"}, {"parameter": "q", "marker": 7}])
def test_request_url_refuses_arguments_it_does_not_understand(arguments):
    with pytest.raises(ValueError, match="are not a probe's parameter and marker"):
        request_url({"destination": "https://lab.example:443/", "arguments": arguments}, PROBE_TOOL)


@pytest.mark.parametrize("arguments", [{"parameter": "q", "marker": "x", "extra": "y"}, {"command": "id"}])
def test_request_url_sends_only_what_the_tools_schema_declares(arguments):
    with pytest.raises(ValueError, match="does not declare the argument"):
        request_url({"destination": "https://lab.example:443/", "arguments": arguments}, PROBE_TOOL)
    passive = Policy.from_dict(CONFIG["policy"]).tool_named("inspect_headers")
    with pytest.raises(ValueError, match="'inspect_headers' does not declare the argument"):
        request_url({"destination": "https://lab.example:443/", "arguments": {"parameter": "q", "marker": "m"}},
                    passive)


def test_a_response_the_door_cannot_capture_leaves_the_outcome_unresolved():
    recorder = executing()
    result = execute(recorder, payload(recorder), Answering(AdapterResult(700, (), "odd")))
    assert result.status == "unresolved"
    assert result.detail == "capture refused: malformed payload: RecordError('status must be an HTTP status code 100..599, got 700')"
    assert recorder.records("capture") == []
    assert [o["status"] for o in recorder.records("outcome")] == ["unresolved", "unresolved"]


@pytest.mark.parametrize(("response", "named"), [
    (AdapterResult(200, (("X-Evil", "a\r\nSet-Cookie: b"),), ""), "ValueError(\"header 'X-Evil' holds a line break"),
    (None, "AttributeError("),
    (lambda url: 1 / 0, "ZeroDivisionError('division by zero')"),
])
def test_a_malformed_or_failing_adapter_is_an_adapter_error(response, named):
    recorder = executing()
    result = execute(recorder, payload(recorder), Answering(response))
    assert result.status == "unresolved" and result.detail.startswith(
        "in doubt: the request may have reached the target: " + named)
    assert recorder.records("capture") == []


def test_no_request_is_sent_when_the_unresolved_outcome_cannot_be_written():
    def no_outcomes(door, payload):
        raise Refusal("malformed_payload", "outcomes are switched off")

    door = executing()
    kinds = [dataclasses.replace(row, build=no_outcomes) if row.name == "outcome" else row for row in door.kinds.values()]
    recorder = Recorder(door.run, door.policy, kinds, door.guards, **door.parts)
    recorder.state[STAGE] = door.stage  # lesson 3's state, as the door it copies holds it
    adapter = Answering(AdapterResult(200, (), "ok"))
    result = execute(recorder, payload(recorder), adapter)
    assert (result.status, result.detail) == ("unresolved", "outcome refused: outcomes are switched off")
    assert adapter.calls == 0


def test_an_unresolved_action_is_not_executed_twice():
    recorder = executing()
    failing = Answering(lambda url: (_ for _ in ()).throw(TimeoutError("slow")))
    assert execute(recorder, payload(recorder), failing).status == "unresolved"
    again = execute(recorder, payload(recorder), Answering(AdapterResult(200, (), "ok")))
    assert again.detail == "action 'inspect_headers -> https://lab.example:443/' is already recorded"


# --- verification ------------------------------------------------------------------------


def capture(body: str, status: int = 200, action_id: str = "a -> https://lab.example:443/"):
    return make_capture("r" * 64, action_id, status, body)


@pytest.mark.parametrize(("confirming", "control", "verdict"), [
    (None, None, "inconclusive"),
    (None, capture("x"), "inconclusive"),
    (capture("nothing", 404), None, "refuted"),
    (capture("nothing"), capture("x"), "refuted"),
    (capture("x"), None, "inconclusive"),
    (capture("x"), capture("x"), "inconclusive"),
    (capture("x"), capture("y"), "confirmed"),
])
def test_judge_follows_its_rule_in_order(confirming, control, verdict):
    assert judge("x", confirming, control)[0] == verdict


def test_a_verdict_record_checks_its_fields():
    with pytest.raises(RecordError, match="verdict must be one of confirmed, refuted, inconclusive"):
        Verdict("r" * 64, "f" * 64, "probably", "", "", "a reason")
    with pytest.raises(RecordError, match="reason must not be empty"):
        Verdict("r" * 64, "f" * 64, "refuted", "", "", " ")
    assert Verdict("r" * 64, "f" * 64, "refuted", "", "", "why").verdict_id == \
        Verdict("r" * 64, "f" * 64, "refuted", "", "", "why").verdict_id


def test_a_verdict_must_name_a_held_finding_held_captures_and_evidence_text():
    recorder = lab_run(7, without=("is_the_selection",), world="edges-verdict", max_actions=5)
    go_to(recorder, "execute")
    evidence = execute(recorder, payload(recorder, "https://lab.example/robots.txt"), make_adapter("inprocess"))
    go_to(recorder, "verify")
    check = Check.from_dict({"claim": "c", "evidence": {"action": evidence.action_id, "quote": "Disallow"},
                             "confirm": {"tool": "inspect_headers", "destination": "https://lab.example/",
                                         "arguments": {}},
                             "control": {"tool": "inspect_headers", "destination": "https://lab.example/about",
                                         "arguments": {}}, "expect": "Disallow"})
    finding = record_finding(recorder, check)["id"]
    base = {"run_id": recorder.run.run_id, "finding_id": finding, "expect": "allow", "confirming_capture_id": "",
            "control_capture_id": ""}
    attempts = [
        ({"finding_id": "0" * 64}, f"verdict names finding '{'0' * 64}' that this run does not hold"),
        ({"expect": "About us"}, "expect 'About us' is not part of the finding's quote, so it tests something the "
                                 "finding never showed"),
        ({"expect": "disallow"}, "expect 'disallow' is not part of the finding's quote, so it tests something the "
                                 "finding never showed"),  # a part, letter for letter
        ({"confirming_capture_id": "0" * 64}, f"verdict cites confirming capture '{'0' * 64}' that this run does not hold"),
        ({"expect": ""}, "expect must be the text the evidence should show, got ''"),
        ({"expect": 3}, "expect must be the text the evidence should show, got 3"),
    ]
    for change, reason in attempts:
        assert recorder.record("verdict", {**base, **change}) == {"recorded": False, "reason": reason}
    assert recorder.record("verdict", base)["recorded"]  # no evidence at all: an inconclusive verdict
    assert recorder.records("verdict")[0]["verdict"] == "inconclusive"


def test_a_finding_without_a_capture_of_its_evidence_action_is_refused():
    recorder = lab_run(7, without=("is_the_selection",), world="edges-finding")
    go_to(recorder, "verify")
    check = Check.from_dict({"claim": "c", "evidence": {"action": "inspect_headers -> https://lab.example:443/",
                                                        "quote": "q"},
                             "confirm": {"tool": "t", "destination": "https://lab.example/a", "arguments": {}},
                             "control": {"tool": "t", "destination": "https://lab.example/b", "arguments": {}},
                             "expect": "q"})
    assert record_finding(recorder, check) == {
        "recorded": False, "reason": "no capture of 'inspect_headers -> https://lab.example:443/' is held to quote"}
    assert recorder.events[-1]["kind"] == "finding"


@pytest.mark.parametrize(("change", "message"), [
    ({"claim": ""}, "claim must be non-empty text"),
    ({"evidence": {"action": "x"}}, "evidence lacks the field\\(s\\) quote"),
    ({"confirm": {"tool": "t", "destination": "d"}}, "confirm lacks the field\\(s\\) arguments"),
    ({"control": {"tool": "t", "destination": "d", "arguments": []}}, "control arguments must be an object"),
    ({"expect": 5}, "expect must be non-empty text"),
    ({"expect": "About us"}, "check: expect 'About us' is not part of the finding's quote"),
    ({"confirm": {"tool": "probe reflection", "destination": "https://lab.example/", "arguments": {}}},
     "check confirm is not an act the door can name: tool must be one word"),
    ({"control": {"tool": "t", "destination": "lab.example", "arguments": {}}},
     "check control is not an act the door can name: destination 'lab.example' is not a valid origin"),
    ({"extra": 1}, "check has unknown field\\(s\\) extra"),
])
def test_a_check_refuses_a_malformed_plan(change, message):
    with pytest.raises(CheckError, match=message):
        Check.from_dict({**CONFIG["verification"][0], **change})


# --- the gated door ----------------------------------------------------------------------


@pytest.mark.parametrize(("gating", "message"), [
    ({"taxonomy_version": 4}, "taxonomy version 4 is not carried"),
    ({"taxonomy_version": "2"}, "a taxonomy version is a positive integer"),
    ({"caps": {"recon.everything": 3}}, "a cap names 'recon.everything', which is no class of taxonomy version 2"),
    ({"caps": {"recon.passive": -1}}, "cap of recon.passive must be a non-negative integer"),
    ({"caps": {"recon.passive": True}}, "cap of recon.passive must be a non-negative integer"),
    ({"caps": []}, "caps must map action classes to counts"),
    ({"fail_open_classes": "recon.passive"}, "fail_open_classes must be a list"),
    ({"fail_open_classes": ["recon.everything"]}, "fail_open_classes names 'recon.everything'"),
    ({"stale": True}, "gating has unknown field"),
])
def test_gating_refuses_a_malformed_configuration(gating, message):
    with pytest.raises(GatingError, match=message):
        Gating.from_dict({**GATING, **gating})


def test_gating_round_trips_and_reads_a_carried_taxonomy():
    gating = Gating.from_dict({**GATING, "fail_open_classes": ["recon.passive", "recon.passive"]})
    assert gating.snapshot() == {"taxonomy_version": 2, "caps": {"recon.passive": 10},
                                 "fail_open_classes": ["recon.passive"]}
    assert Gating.from_dict(gating.snapshot()) == gating
    old = Gating.from_dict({"taxonomy_version": 1, "caps": {"passive": 2}, "fail_open_classes": []})
    assert old.table.version == 1 and old.taxonomy_version == 1


def test_the_gate_remembers_the_exact_act_it_holds():
    recorder = gated()
    recorder.record("action", payload(recorder, "https://lab.example/debug", "probe_reflection"))
    assert held(recorder) == {act_subject("probe_reflection -> https://lab.example:443/debug", {}): "probe.active_light"}


def test_a_review_of_a_held_action_waits_for_a_stage_that_admits_reviews():
    recorder = gated()
    recorder.record("action", payload(recorder, "https://lab.example/debug", "probe_reflection"))
    go_to(recorder, "observe")
    answer = recorder.record("review", {"run_id": recorder.run.run_id,
                                        "subject_id": act_subject("probe_reflection -> https://lab.example:443/debug",
                                                                  {}),
                                        "decision": "approved", "reviewer": "engagement-lead", "reason": "ok"})
    assert answer == {"recorded": False, "reason": "record kind 'review' is not admitted in stage 'observe'"}


def test_class_usage_counts_every_admitted_action_verification_included():
    planned = Check.from_dict({"claim": "c", "evidence": {"action": "inspect_headers -> https://lab.example:443/",
                                                          "quote": "Lab Example"},
                               "confirm": {"tool": "inspect_headers", "destination": "https://lab.example/about",
                                           "arguments": {}},
                               "control": {"tool": "inspect_headers", "destination": "https://lab.example/contact",
                                           "arguments": {}}, "expect": "Lab Example"})
    recorder = gated(caps={"recon.passive": 2}, plan=Plan((planned,)))
    lab = make_adapter("inprocess")
    assert execute(recorder, payload(recorder, "https://lab.example/"), lab).status == "succeeded"
    go_to(recorder, "verify")
    assert execute(recorder, payload(recorder, "https://lab.example/about"), lab).status == "succeeded"
    assert gate_state(recorder).used == {"recon.passive": 2}
    over = execute(recorder, payload(recorder, "https://lab.example/contact"), lab)
    assert over.detail.startswith("recon.passive is not consequential but has used 2 of its cap of 2")


def test_an_already_admitted_action_is_refused_as_a_duplicate_not_by_the_gate():
    recorder = gated(caps={"recon.passive": 1})
    assert recorder.record("action", payload(recorder))["recorded"]
    assert recorder.record("action", payload(recorder))["reason"] == (
        "action 'inspect_headers -> https://lab.example:443/' is already recorded")


SUBJECT = "inspect_headers -> https://lab.example:443/"


@pytest.mark.parametrize(("entries", "message"), [
    ({}, "reviewers must be a list"),
    ([{"subject": SUBJECT, "reviewer": "r", "decision": "approved", "arguments": {}}],
     r"reviewers\[0\] lacks the field\(s\) reason"),
    ([{"subject": SUBJECT, "reviewer": "r", "decision": "maybe", "reason": "x", "arguments": {}}],
     "decision must be one of approved, rejected"),
    ([{"subject": SUBJECT, "reviewer": " ", "decision": "approved", "reason": "x", "arguments": {}}],
     "values must be non-empty text"),
    ([{"subject": SUBJECT, "reviewer": "r", "decision": "approved", "reason": "x", "arguments": []}],
     "arguments must be the exact act's arguments"),
    ([{"subject": "no arrow", "reviewer": "r", "decision": "approved", "reason": "x", "arguments": {}}],
     "is not an action identity"),
    ([{"subject": SUBJECT, "reviewer": "r", "decision": "approved", "reason": "x", "arguments": {}}] * 2,
     r"reviewers\[1\] decides .* with these arguments a second time"),
])
def test_scripted_reviews_refuse_a_malformed_list(entries, message):
    with pytest.raises(ConfigError, match=message):
        load_reviews(entries)


# --- the driver ---------------------------------------------------------------------------


def test_without_an_approval_the_held_probes_are_skipped_and_the_loop_goes_on():
    recorder = gated(stage="authorize", selection_guard=True)
    lab = make_adapter("inprocess")
    work(recorder, make_model(), lab, reviews={})
    lab.close()
    probes = {act_subject("probe_reflection -> https://lab.example:443/debug",
                          {"parameter": "q", "marker": "lab-probe-<i>7</i>"}),
              act_subject("probe_reflection -> https://lab.example:443/search",
                          {"parameter": "q", "marker": "lab-probe-<i>8</i>"})}
    assert recorder.stage == "select"
    assert set(held(recorder)) == probes
    assert [a["tool"] for a in recorder.records("action")].count("probe_reflection") == 0
    # Every passive act the model proposed still ran: one held probe does not end the loop.
    assert len(recorder.records("action")) == 6
    assert recorder.events[-1]["reason"] == "no eligible proposal is left to select"


def test_a_driver_step_the_stage_table_refuses_stops_the_run():
    recorder = gated(stage="authorize")
    with pytest.raises(HarnessError, match="the run could not enter report: transition from 'authorize' to 'report'"):
        enter(recorder, "report")


def test_the_http_transport_serves_the_lab_and_reaches_it_by_port():
    calls = []

    class Adapter:
        def close(self):
            calls.append("closed")

    @contextmanager
    def server(lab_dir):
        calls.append(("serving", lab_dir))
        yield 8123
        calls.append("stopped")

    def make(transport, lab_dir, port):
        calls.append((transport, lab_dir, port))
        return Adapter()

    with drive.lab_adapter({"adapter": make, "server": server}, "http", DEFAULT_LAB_DIR):
        calls.append("running")
    assert calls == [("serving", DEFAULT_LAB_DIR), ("http", None, 8123), "running", "closed", "stopped"]
    calls.clear()
    with drive.lab_adapter({"adapter": make, "server": server}, "inprocess", DEFAULT_LAB_DIR):
        pass
    assert calls == [("inprocess", DEFAULT_LAB_DIR, None), "closed"]


# --- plugins ------------------------------------------------------------------------------


def test_load_plugin_imports_a_named_callable():
    assert load_plugin("json:dumps") is json.dumps
    assert load_plugin("os.path:join") is __import__("os").path.join
    assert load_plugin("lab.plugin:LabAdapter.fetch").__name__ == "fetch"


@pytest.mark.parametrize(("name", "message"), [
    ("json", "must be written 'package.module:attribute'"),
    ("json:dumps:loads", "must be written 'package.module:attribute'"),
    ("json:", "must be written 'package.module:attribute'"),
    ("../evil:run", "must be written 'package.module:attribute'"),
    (42, "must be written 'package.module:attribute'"),
    ("no_such_module_for_plugins:make", "cannot import no_such_module_for_plugins"),
    ("json:no_such_function", "json has no callable no_such_function"),
    ("json:__name__", "json has no callable __name__"),
])
def test_load_plugin_refuses_what_it_cannot_load(name, message):
    with pytest.raises(PluginError, match=message):
        load_plugin(name)


def test_the_lab_world_is_named_by_relative_paths_and_file_digests(tmp_path):
    world = describe_world(DEFAULT_LAB_DIR)["lab_files"]
    assert "model/script.json" in world and "sites/lab.example/site.json" in world
    assert all(not path.startswith("/") and ".." not in path for path in world)
    copy = tmp_path / "lab"
    shutil.copytree(DEFAULT_LAB_DIR, copy)
    assert describe_world(copy) == describe_world(DEFAULT_LAB_DIR)
    page = copy / "sites/lab.example/contact.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- edited -->\n", encoding="utf-8")
    edited = describe_world(copy)["lab_files"]
    assert [path for path in world if world[path] != edited[path]] == ["sites/lab.example/contact.html"]
    with pytest.raises(ValueError, match="has no model script or no site"):
        describe_world(tmp_path / "empty")


def test_the_lab_adapter_speaks_the_core_protocol():
    lab = make_adapter("inprocess")
    response = lab.fetch("https://lab.example/robots.txt")
    lab.close()
    assert isinstance(response, AdapterResult)
    assert (response.status, response.headers) == (200, (("content-type", "text/plain; charset=utf-8"),))
    assert "Disallow: /staging/" in response.body
    with pytest.raises(ValueError):
        make_adapter("carrier-pigeon")
