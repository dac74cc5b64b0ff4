"""Lesson 7 completion suite: findings and verification.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_6_8_edges.py.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.audit.replay import replay
from core.run import doors, rederive
from core.run.drive import reference_config, run
from core.run.execute import AdapterResult, execute
from core.run.seal import reseal
from core.run.stages import STAGES
from core.run.verify import Check, CheckError, Plan, judge, record_finding, check_finding, verify_finding
from lab.plugin import make_adapter

from .lab_run import go_to, lab_run
from .conftest import examples

DEBUG_PROBE = "probe_reflection -> https://lab.example:443/debug"
ROBOTS = "inspect_headers -> https://lab.example:443/robots.txt"
MARKER = "lab-probe-<i>7</i>"
ESCAPED = "lab-probe-%3Ci%3E7%3C/i%3E"  # the canonical spelling of the marker in a query


def check(claim: str, evidence: str, quote: str, confirm: tuple, control: tuple, expect: str) -> Check:
    def action(tool_and_destination: tuple) -> dict:
        return {"tool": tool_and_destination[0], "destination": tool_and_destination[1], "arguments": {}}

    return Check.from_dict({"claim": claim, "evidence": {"action": evidence, "quote": quote},
                            "confirm": action(confirm), "control": action(control), "expect": expect})


XSS = check("The debug page reflects q without escaping it.", DEBUG_PROBE, f"You asked for: {MARKER}",
            ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
            ("probe_reflection", f"https://lab.example/search?q={MARKER}"), MARKER)
STAGING = check("robots.txt hides /staging/, which lists its files.", ROBOTS, "Disallow: /staging/",
                ("inspect_headers", "https://lab.example/staging/"), ("inspect_headers", "https://lab.example/contact"),
                "/staging/")


class Verifying:
    """A lesson 7 door that captured the /debug probe and robots.txt in execute and now stands in verify.

    Its plan holds ``checks`` (the reflection and staging checks unless
    given): in the verify stage the door admits only their acts.
    """

    def __init__(self, *checks: Check, max_actions: int = 12, adapter=None):
        # The evidence is captured by hand in execute; choosing it is lesson 5's business.
        self.recorder = lab_run(7, world="lesson-7", without=("is_the_selection",), max_actions=max_actions,
                                plan=Plan(checks or (XSS, STAGING)))
        self.adapter = adapter or make_adapter("inprocess")
        go_to(self.recorder, "execute")
        run_id = self.recorder.run.run_id
        probe = {"run_id": run_id, "tool": "probe_reflection", "destination": "https://lab.example/debug",
                 "arguments": {"parameter": "q", "marker": MARKER}}
        robots = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/robots.txt",
                  "arguments": {}}
        assert self.act(probe).status == "succeeded" and self.act(robots).status == "succeeded"
        go_to(self.recorder, "verify")

    def act(self, payload: dict):
        return execute(self.recorder, payload, self.adapter)

    def verdict(self, finding_id: str) -> dict:
        return next(v for v in self.recorder.records("verdict") if v["finding_id"] == finding_id)

    def action_of(self, capture_id: str) -> str:
        return next(c["action_id"] for c in self.recorder.records("capture") if c["capture_id"] == capture_id)


class Rewritten:
    """The lab's adapter, with the answers for some URLs replaced: ``{url suffix: AdapterResult}``."""

    def __init__(self, answers: dict):
        self.lab, self.answers = make_adapter("inprocess"), answers

    def fetch(self, url: str) -> AdapterResult:
        for suffix, answer in self.answers.items():
            if url.endswith(suffix):
                return answer(self.lab.fetch(url)) if callable(answer) else answer
        return self.lab.fetch(url)


def test_a_finding_is_confirmed_by_a_distinct_action_and_a_clean_control():
    """A finding is confirmed only when a distinct confirming action's capture shows the expected evidence and the negative control's capture does not."""
    run = Verifying()
    finding, answer = check_finding(run.recorder, XSS, run.act)
    assert finding["recorded"] and answer["recorded"]
    verdict = run.verdict(finding["id"])
    assert verdict["verdict"] == "confirmed"
    assert verdict["reason"] == ("the confirming capture (HTTP 200) shows 'lab-probe-<i>7</i>' and the negative "
                                 "control (HTTP 200) does not")
    assert run.action_of(verdict["confirming_capture_id"]) == f"probe_reflection -> https://lab.example:443/debug?q={ESCAPED}"
    assert run.action_of(verdict["control_capture_id"]) == f"probe_reflection -> https://lab.example:443/search?q={ESCAPED}"
    quoted = next(f for f in run.recorder.records("finding") if f["finding_id"] == finding["id"])["capture_id"]
    assert run.action_of(quoted) == DEBUG_PROBE
    assert "lab-probe-&lt;i&gt;7&lt;/i&gt;" in next(c["body"] for c in run.recorder.records("capture")
                                                       if c["capture_id"] == verdict["control_capture_id"])


def test_a_refuted_finding_stays_in_the_ledger_with_its_verdict():
    """A finding whose confirming response lacks the expected evidence is refuted, a 404 as surely as a 200, and the finding stays in the ledger beside its verdict."""
    run = Verifying()
    finding, answer = check_finding(run.recorder, STAGING, run.act)
    verdict = run.verdict(finding["id"])
    assert verdict["verdict"] == "refuted"
    assert verdict["reason"] == "the confirming capture (HTTP 404) does not show '/staging/'"
    assert [f["finding_id"] for f in run.recorder.records("finding")] == [finding["id"]]
    admitted = [(e["kind"], e["id"]) for e in run.recorder.events if e["status"] == "admitted"]
    assert admitted.index(("finding", finding["id"])) < admitted.index(("verdict", answer["id"]))
    assert run.recorder.snapshot()["findings"][0]["claim"] == STAGING.claim
    page = AdapterResult(200, (("Content-Type", "text/html"),), "<p>Nothing here yet.</p>\n")
    found = Verifying(adapter=Rewritten({"/staging/": page}))  # a 200 that lacks it refutes just the same
    finding, _ = check_finding(found.recorder, STAGING, found.act)
    assert found.verdict(finding["id"])["reason"] == "the confirming capture (HTTP 200) does not show '/staging/'"


def test_a_verdict_is_inconclusive_without_a_telling_control_or_a_capture():
    """A verdict is inconclusive when the negative control shows the evidence too, when the confirming or the control capture is missing, or when either is a server error (5xx): a claim nobody tested is never refuted."""
    echoing_control = check(XSS.claim, DEBUG_PROBE, XSS.quote, ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
                            ("probe_reflection", f"https://lab.example/debug?again=1&q={MARKER}"), MARKER)
    run = Verifying(echoing_control)
    finding, _ = check_finding(run.recorder, echoing_control, run.act)
    assert run.verdict(finding["id"])["verdict"] == "inconclusive"
    assert run.verdict(finding["id"])["reason"] == ("the negative control shows 'lab-probe-<i>7</i>' too, so the check "
                                                    "cannot tell the weakness from its absence")

    class Broken:
        def fetch(self, url):
            raise TimeoutError("timed out")

    broken = Verifying()
    finding = record_finding(broken.recorder, STAGING)
    verify_finding(broken.recorder, finding["id"], STAGING, lambda payload: execute(broken.recorder, payload, Broken()))
    verdict = broken.verdict(finding["id"])
    assert (verdict["verdict"], verdict["confirming_capture_id"], verdict["control_capture_id"]) == ("inconclusive", "", "")
    assert verdict["reason"] == "no confirming capture was made, so the claim was never tested"

    unavailable = AdapterResult(503, (("Retry-After", "120"),), "<p>Down for maintenance.</p>\n")
    down = Verifying(adapter=Rewritten({"/staging/": unavailable}))  # the staging claim is false, and still untested
    finding, _ = check_finding(down.recorder, STAGING, down.act)
    assert (down.verdict(finding["id"])["verdict"], down.verdict(finding["id"])["reason"]) == (
        "inconclusive", "the confirming capture is HTTP 503, a server error: it neither shows nor disproves '/staging/'")
    failing = Verifying(adapter=Rewritten({"/search?q=" + ESCAPED: AdapterResult(500, (), "<p>Error</p>\n")}))
    finding, _ = check_finding(failing.recorder, XSS, failing.act)
    assert failing.verdict(finding["id"])["reason"] == (
        "the confirming capture shows 'lab-probe-<i>7</i>', but the negative control is HTTP 500, a server error: "
        "it did not really run")


def test_the_expected_evidence_is_a_part_of_the_findings_quote():
    """The expected evidence is a part of the finding's own quote: the configuration refuses a plan, and the door refuses a verdict, whose expect is any other text."""
    about_us = {**XSS.to_dict(), "expect": "Debug console"}  # the debug page shows it and the search page does not
    with pytest.raises(CheckError, match="expect 'Debug console' is not part of the finding's quote"):
        Check.from_dict(about_us)
    run = Verifying()
    finding = record_finding(run.recorder, XSS)
    confirming = run.act({"run_id": run.recorder.run.run_id, **XSS.confirm}).capture_id
    control = run.act({"run_id": run.recorder.run.run_id, **XSS.control}).capture_id
    payload = {"run_id": run.recorder.run.run_id, "finding_id": finding["id"], "confirming_capture_id": confirming,
               "control_capture_id": control}
    for other in ("Debug console", "LAB-PROBE-<i>7</i>", f"{XSS.quote} "):
        answer = run.recorder.record("verdict", {**payload, "expect": other})
        assert answer == {"recorded": False, "reason": f"expect {other!r} is not part of the finding's quote, so it "
                                                       "tests something the finding never showed"}
        assert run.recorder.events[-1]["code"] == "expect_not_quoted"
    assert run.recorder.record("verdict", {**payload, "expect": "<i>7</i>"})["recorded"]  # a part of it, letter for letter
    assert run.recorder.records("verdict")[0]["verdict"] == "confirmed"


def test_verification_actions_pass_the_same_policy_door_and_budgets():
    """The confirming action and the negative control pass the same policy, door and budgets as every other action, so an out-of-scope control or a spent action budget is a recorded refusal and nothing is confirmed."""
    out_of_scope = check(XSS.claim, DEBUG_PROBE, XSS.quote, ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
                         ("probe_reflection", f"https://other.example/search?q={MARKER}"), MARKER)
    run = Verifying(out_of_scope)  # planned, so the plan lets it through to the policy
    finding, _ = check_finding(run.recorder, out_of_scope, run.act)
    refusal = [e for e in run.recorder.events if e["kind"] == "action" and e["status"] == "refused"][-1]
    assert refusal["reason"] == "destination https://other.example:443 is outside the explicit authorized origins"
    verdict = run.verdict(finding["id"])
    assert (verdict["verdict"], verdict["control_capture_id"]) == ("inconclusive", "")
    assert verdict["reason"] == "the confirming capture shows 'lab-probe-<i>7</i>', but no negative control was captured"

    spent = Verifying(max_actions=3)  # two actions in execute, one left for verification
    finding, _ = check_finding(spent.recorder, XSS, spent.act)
    refusals = [e["reason"] for e in spent.recorder.events if e["kind"] == "action" and e["status"] == "refused"]
    assert refusals == ["action budget of 3 actions is spent"]
    assert spent.verdict(finding["id"])["verdict"] == "inconclusive"
    assert len(spent.recorder.records("action")) == 3


def test_evidence_must_come_from_distinct_acts_made_after_the_finding():
    """The door refuses a verdict that cites the finding's own capture, a capture made before the finding, or one act as both confirmation and control."""
    run = Verifying()
    finding = record_finding(run.recorder, XSS)
    captures = {c["action_id"]: c["capture_id"] for c in run.recorder.records("capture")}
    confirming = run.act({"run_id": run.recorder.run.run_id, **XSS.confirm}).capture_id
    base = {"run_id": run.recorder.run.run_id, "finding_id": finding["id"], "expect": MARKER}
    attempts = [
        ({"confirming_capture_id": captures[DEBUG_PROBE], "control_capture_id": ""},
         "the confirming capture comes from the act the finding quotes; it must come from a distinct act"),
        ({"confirming_capture_id": captures[ROBOTS], "control_capture_id": ""},
         "the confirming capture was made before the finding, so it was not planned to test it"),
        ({"confirming_capture_id": confirming, "control_capture_id": confirming},
         "the control capture comes from the confirming act; it must come from a distinct act"),
    ]
    for evidence, reason in attempts:
        assert run.recorder.record("verdict", {**base, **evidence}) == {"recorded": False, "reason": reason}
    assert run.recorder.records("verdict") == []


def test_the_door_judges_the_verdict_and_gives_one_per_finding():
    """The door judges each verdict from the captures itself: a payload cannot name its own verdict, and a finding gets one verdict only."""
    run = Verifying()
    finding, answer = check_finding(run.recorder, STAGING, run.act)
    verdict = run.verdict(finding["id"])
    forged = {"run_id": run.recorder.run.run_id, "finding_id": finding["id"], "expect": "/staging/",
              "confirming_capture_id": verdict["confirming_capture_id"], "control_capture_id": verdict["control_capture_id"]}
    assert run.recorder.record("verdict", {**forged, "verdict": "confirmed"}) == {
        "recorded": False, "reason": "malformed payload: unexpected field 'verdict'"}
    assert run.recorder.record("verdict", forged) == {
        "recorded": False, "reason": f"finding '{finding['id']}' already has a verdict"}
    assert run.recorder.record("verdict", {**forged, "expect": "Disallow"})["recorded"] is False
    assert [v["verdict"] for v in run.recorder.records("verdict")] == ["refuted"]


def test_verdicts_are_admitted_in_the_verify_stage_only():
    """A verdict is admitted only in the verify stage, where the actions, captures and outcomes of verification are admitted too."""
    for stage in STAGES:
        recorder = lab_run(7, world=f"verdict-in-{stage}")
        go_to(recorder, stage)
        answer = recorder.record("verdict", {"run_id": recorder.run.run_id, "finding_id": "f" * 64, "expect": "x"})
        outside = answer["reason"] == f"record kind 'verdict' is not admitted in stage '{stage}'"
        assert outside == (stage != "verify"), stage
    run = Verifying()
    check_finding(run.recorder, XSS, run.act)
    verify_events = [e for e in run.recorder.events if e["seq"] > _seq_of_verify(run.recorder)]
    assert {e["kind"] for e in verify_events if e["status"] == "admitted"} == {
        "finding", "action", "outcome", "capture", "verdict"}
    assert run.recorder.stage == "verify"


def test_in_the_verify_stage_only_the_plans_acts_are_admitted():
    """In the verify stage the door admits only the acts of the operator's plan, each with exactly the arguments the plan gives it; any other act is refused before the policy is asked, and a door given no plan admits none."""
    run = Verifying(XSS)
    run_id = run.recorder.run.run_id
    tries = {
        "another lab page": {"tool": "inspect_headers", "destination": "https://lab.example/backup/", "arguments": {}},
        "the staging check's act, not in this plan": {**STAGING.confirm},
        "a planned act with other arguments": {**XSS.confirm, "arguments": {"parameter": "q", "marker": "x"}},
        "another origin": {"tool": "inspect_headers", "destination": "https://other.example/", "arguments": {}},
    }
    for what, act in tries.items():
        answer = run.recorder.record("action", {"run_id": run_id, **act})
        event = run.recorder.events[-1]
        assert not answer["recorded"] and (event["code"], event["by"]) == ("not_planned", "door: verify.in_the_plan"), what
        assert answer["reason"].endswith("is not an act of the operator's verification plan"), what
    assert run.act({"run_id": run_id, **XSS.confirm}).status == "succeeded"
    assert run.act({"run_id": run_id, **XSS.control}).status == "succeeded"
    unplanned = lab_run(7, world="no-plan", without=("is_the_selection",))
    go_to(unplanned, "verify")
    assert unplanned.record("action", {"run_id": unplanned.run.run_id, **XSS.confirm})["reason"] == (
        f"action 'probe_reflection -> https://lab.example:443/debug?q={ESCAPED}' is not an act of the operator's "
        "verification plan")


def test_a_sealed_report_carries_the_plan_that_verify_and_replay_rebuild():
    """A sealed report carries its verification plan, so verify and replay rebuild the door that held the verify stage to it; a report resealed with its plan emptied no longer verifies, because its verification acts are no longer admitted."""
    config = reference_config()
    report = run(config).report
    assert report["plan"] == [entry.to_dict() for entry in config.checks] == Plan(config.checks).snapshot()
    assert rederive.verify(report).ok and replay(report).divergences == ()
    emptied = copy.deepcopy(report)
    emptied["plan"] = []
    verification = rederive.verify(reseal(emptied))
    assert not verification.ok and verification.section == "actions"
    refused = [e["seq"] for e in rederive.redo(reseal(emptied)).events if e["code"] == "not_planned"]
    verify_seq = next(e["seq"] for e in report["events"] if e["id"] == "select -> verify")
    asked = [e["seq"] for e in report["events"] if e["kind"] == "action" and e["seq"] > verify_seq]
    assert refused == asked and len(asked) == 2 * len(config.checks) + 2  # each act, and the gate's two held probes
    unplanned = copy.deepcopy(report)
    del unplanned["plan"]  # a report that does not say which plan held its verify stage cannot be rebuilt
    with pytest.raises(rederive.DoorError, match="the report's plan must be a list of checks"):
        rederive.verify(reseal(unplanned))


def test_the_verdict_is_a_substring_test_over_the_whole_capture():
    """The verdict rests on a substring test over the whole capture, status line and headers included: evidence inside an HTML comment or a header counts as shown, so a verdict is a claim about two captures, not a proof that markup runs."""
    def commented(response: AdapterResult) -> AdapterResult:
        return AdapterResult(200, response.headers, f"<p>You asked for:</p>\n<!-- {MARKER} -->\n")

    def in_a_header(response: AdapterResult) -> AdapterResult:
        return AdapterResult(200, (("X-Echo", MARKER),), "<p>You asked for:</p>\n")

    for rewrite in (commented, in_a_header):
        run = Verifying(adapter=Rewritten({"/debug?q=" + ESCAPED: rewrite}))
        finding, _ = check_finding(run.recorder, XSS, run.act)
        assert run.verdict(finding["id"])["verdict"] == "confirmed", rewrite.__name__  # no markup runs, yet confirmed


def _seq_of_verify(recorder) -> int:
    return next(e["seq"] for e in recorder.events if e["kind"] == "transition" and e["id"].endswith("-> verify"))


QUOTED = "Disallow: /staging/"
EVIDENCE_PLAN = Plan((check("robots.txt hides a path.", ROBOTS, QUOTED, ("inspect_headers", "https://lab.example/about"),
                            ("inspect_headers", "https://lab.example/contact"), "Disallow"),))


def _door_with_evidence(bodies: tuple[str, str], statuses: tuple[int, int]):
    """A lesson 7 door in verify: a finding on robots.txt, then two more captures made after it, by hand."""
    recorder = lab_run(7, world="verdict-property", without=("is_the_selection",), plan=EVIDENCE_PLAN)
    run_id = recorder.run.run_id

    def captured(path: str, body: str, status: int = 200) -> str:
        action = recorder.record("action", {"run_id": run_id, "tool": "inspect_headers",
                                            "destination": f"https://lab.example{path}", "arguments": {}})
        answer = recorder.record("capture", {"run_id": run_id, "action_id": action["id"], "status": status,
                                             "body": body})
        assert answer["recorded"], answer
        return answer["id"]

    go_to(recorder, "execute")
    before = captured("/robots.txt", QUOTED)
    go_to(recorder, "verify")
    finding = recorder.record("finding", {"run_id": run_id, "capture_id": before, "quote": QUOTED,
                                          "claim": "robots.txt hides a path."})
    return (recorder, finding["id"], before, captured("/about", bodies[0], statuses[0]),
            captured("/contact", bodies[1], statuses[1]))


CITED = st.sampled_from(["", "before", "first", "second", "0" * 64, 7, None])
EXPECTED = st.one_of(st.sampled_from(["Disallow", "allow", "/staging/", "D", "disallow", "Disallow: /staging/ "]),
                     st.text(max_size=8), st.integers(), st.none())


@settings(max_examples=examples(80), deadline=None)
@given(expect=EXPECTED, confirming=CITED, control=CITED,
       bodies=st.tuples(st.sampled_from(["", "Disallow", "allow /staging/"]) | st.text(max_size=16),
                        st.sampled_from(["", "Disallow"]) | st.text(max_size=16)),
       statuses=st.tuples(st.sampled_from([200, 404, 500, 503]), st.sampled_from([200, 403, 502])))
def test_whatever_a_verdict_payload_cites_the_door_judges_it_or_refuses_it(expect, confirming, control, bodies,
                                                                            statuses):
    """Whatever a verdict payload cites, the door either refuses it with a reason and stores nothing, or records exactly the verdict its own rule gives for the captures it cites."""
    recorder, finding_id, before, first, second = _door_with_evidence(bodies, statuses)
    ids = {"before": before, "first": first, "second": second}
    cite = {name: ids.get(value, value) for name, value in (("confirming", confirming), ("control", control))}
    payload = {"run_id": recorder.run.run_id, "finding_id": finding_id, "expect": expect,
               "confirming_capture_id": cite["confirming"], "control_capture_id": cite["control"]}
    events = len(recorder.events)
    answer = recorder.record("verdict", payload)
    fresh = ("", first, second)
    admissible = (isinstance(expect, str) and expect != "" and expect in QUOTED and cite["confirming"] in fresh
                  and cite["control"] in fresh and not (cite["confirming"] == cite["control"] != ""))
    assert len(recorder.events) == events + 1
    assert answer["recorded"] is admissible, answer
    if not admissible:
        assert answer["reason"].strip() and recorder.records("verdict") == []
        return
    verdict = recorder.get("verdict", answer["id"])
    held = {capture["capture_id"]: capture for capture in recorder.records("capture")}

    def capture_of(capture_id: str):
        return recorder.stored("capture", capture_id) if capture_id in held else None

    assert (verdict["verdict"], verdict["reason"]) == judge(expect, capture_of(cite["confirming"]),
                                                            capture_of(cite["control"]))
    assert (verdict["confirming_capture_id"], verdict["control_capture_id"]) == (cite["confirming"], cite["control"])
