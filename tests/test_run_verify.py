"""Lesson 7 completion suite: findings and verification.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_6_8_edges.py.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.run.execute import execute
from core.run.stages import STAGES
from core.run.verify import Check, judge, record_finding, run_check, verify_finding
from lab.plugin import make_adapter

from .lab_run import go_to, lab_run
from .conftest import examples

DEBUG_PROBE = "probe_reflection -> https://lab.example:443/debug"
ROBOTS = "inspect_headers -> https://lab.example:443/robots.txt"
MARKER = "lab-verify-<b>3</b>"


def check(claim: str, evidence: str, quote: str, confirm: tuple, control: tuple, expect: str) -> Check:
    def action(tool_and_destination: tuple) -> dict:
        return {"tool": tool_and_destination[0], "destination": tool_and_destination[1], "arguments": {}}

    return Check.from_dict({"claim": claim, "evidence": {"action": evidence, "quote": quote},
                            "confirm": action(confirm), "control": action(control), "expect": expect})


XSS = check("The debug page reflects q without escaping it.", DEBUG_PROBE, "You asked for: lab-probe-<i>7</i>",
            ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
            ("probe_reflection", f"https://lab.example/search?q={MARKER}"), MARKER)
STAGING = check("robots.txt hides /staging/, which lists its files.", ROBOTS, "Disallow: /staging/",
                ("inspect_headers", "https://lab.example/staging/"), ("inspect_headers", "https://lab.example/contact"),
                "Index of /staging/")


class Verifying:
    """A lesson 7 door that captured the /debug probe and robots.txt in execute and now stands in verify."""

    def __init__(self, max_actions: int = 12, adapter=None):
        # The evidence is captured by hand in execute; choosing it is lesson 5's business.
        self.recorder = lab_run(7, world="lesson-7", without=("is_the_selection",), max_actions=max_actions)
        self.adapter = adapter or make_adapter("inprocess")
        go_to(self.recorder, "execute")
        run_id = self.recorder.run.run_id
        probe = {"run_id": run_id, "tool": "probe_reflection", "destination": "https://lab.example/debug",
                 "arguments": {"parameter": "q", "marker": "lab-probe-<i>7</i>"}}
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


def test_a_finding_is_confirmed_by_a_distinct_action_and_a_clean_control():
    """A finding is confirmed only when a distinct confirming action's capture shows the expected evidence and the negative control's capture does not."""
    run = Verifying()
    finding, answer = run_check(run.recorder, XSS, run.act)
    assert finding["recorded"] and answer["recorded"]
    verdict = run.verdict(finding["id"])
    assert verdict["verdict"] == "confirmed"
    assert verdict["reason"] == ("the confirming capture (HTTP 200) shows 'lab-verify-<b>3</b>' and the negative "
                                 "control (HTTP 200) does not")
    escaped = "lab-verify-%3Cb%3E3%3C/b%3E"  # the canonical spelling of the marker in a query
    assert run.action_of(verdict["confirming_capture_id"]) == f"probe_reflection -> https://lab.example:443/debug?q={escaped}"
    assert run.action_of(verdict["control_capture_id"]) == f"probe_reflection -> https://lab.example:443/search?q={escaped}"
    quoted = next(f for f in run.recorder.records("finding") if f["finding_id"] == finding["id"])["capture_id"]
    assert run.action_of(quoted) == DEBUG_PROBE
    assert "lab-verify-&lt;b&gt;3&lt;/b&gt;" in next(c["body"] for c in run.recorder.records("capture")
                                                       if c["capture_id"] == verdict["control_capture_id"])


def test_a_refuted_finding_stays_in_the_ledger_with_its_verdict():
    """A finding whose confirming capture lacks the expected evidence is refuted, and the finding stays in the ledger beside its verdict."""
    run = Verifying()
    finding, answer = run_check(run.recorder, STAGING, run.act)
    verdict = run.verdict(finding["id"])
    assert verdict["verdict"] == "refuted"
    assert verdict["reason"] == "the confirming capture (HTTP 404) does not show 'Index of /staging/'"
    assert [f["finding_id"] for f in run.recorder.records("finding")] == [finding["id"]]
    admitted = [(e["kind"], e["id"]) for e in run.recorder.events if e["status"] == "admitted"]
    assert admitted.index(("finding", finding["id"])) < admitted.index(("verdict", answer["id"]))
    assert run.recorder.snapshot()["findings"][0]["claim"] == STAGING.claim


def test_a_verdict_is_inconclusive_without_a_telling_control_or_a_capture():
    """A verdict is inconclusive when the negative control shows the evidence too, or when the confirming or the control capture is missing."""
    run = Verifying()
    echoing_control = check(XSS.claim, DEBUG_PROBE, XSS.quote, ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
                            ("probe_reflection", f"https://lab.example/debug?again=1&q={MARKER}"), MARKER)
    finding, _ = run_check(run.recorder, echoing_control, run.act)
    assert run.verdict(finding["id"])["verdict"] == "inconclusive"
    assert run.verdict(finding["id"])["reason"] == ("the negative control shows 'lab-verify-<b>3</b>' too, so the check "
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


def test_verification_actions_pass_the_same_policy_door_and_budgets():
    """The confirming action and the negative control pass the same policy, door and budgets as every other action, so an out-of-scope control or a spent action budget is a recorded refusal and nothing is confirmed."""
    run = Verifying()
    out_of_scope = check(XSS.claim, DEBUG_PROBE, XSS.quote, ("probe_reflection", f"https://lab.example/debug?q={MARKER}"),
                         ("probe_reflection", f"https://other.example/search?q={MARKER}"), MARKER)
    finding, _ = run_check(run.recorder, out_of_scope, run.act)
    refusal = [e for e in run.recorder.events if e["kind"] == "action" and e["status"] == "refused"][-1]
    assert refusal["reason"] == "destination https://other.example:443 is outside the explicit authorized origins"
    verdict = run.verdict(finding["id"])
    assert (verdict["verdict"], verdict["control_capture_id"]) == ("inconclusive", "")
    assert verdict["reason"] == "the confirming capture shows 'lab-verify-<b>3</b>', but no negative control was captured"

    spent = Verifying(max_actions=3)  # two actions in execute, one left for verification
    finding, _ = run_check(spent.recorder, XSS, spent.act)
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
    finding, answer = run_check(run.recorder, STAGING, run.act)
    verdict = run.verdict(finding["id"])
    forged = {"run_id": run.recorder.run.run_id, "finding_id": finding["id"], "expect": "Index of /staging/",
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
    run_check(run.recorder, XSS, run.act)
    verify_events = [e for e in run.recorder.events if e["seq"] > _seq_of_verify(run.recorder)]
    assert {e["kind"] for e in verify_events if e["status"] == "admitted"} == {
        "finding", "action", "outcome", "capture", "verdict"}
    assert run.recorder.stage == "verify"


def _seq_of_verify(recorder) -> int:
    return next(e["seq"] for e in recorder.events if e["kind"] == "transition" and e["id"].endswith("-> verify"))


def _door_with_evidence(bodies: tuple[str, str]):
    """A lesson 7 door in verify: a finding on robots.txt, then two more captures made after it, by hand."""
    recorder = lab_run(7, world="verdict-property", without=("is_the_selection",))
    run_id = recorder.run.run_id

    def captured(path: str, body: str) -> str:
        action = recorder.record("action", {"run_id": run_id, "tool": "inspect_headers",
                                            "destination": f"https://lab.example{path}", "arguments": {}})
        answer = recorder.record("capture", {"run_id": run_id, "action_id": action["id"], "status": 200,
                                             "body": body})
        assert answer["recorded"], answer
        return answer["id"]

    go_to(recorder, "execute")
    before = captured("/robots.txt", "Disallow: /staging/")
    go_to(recorder, "verify")
    finding = recorder.record("finding", {"run_id": run_id, "capture_id": before, "quote": "Disallow",
                                          "claim": "robots.txt hides a path."})
    return recorder, finding["id"], before, captured("/about", bodies[0]), captured("/contact", bodies[1])


CITED = st.sampled_from(["", "before", "first", "second", "0" * 64, 7, None])


@settings(max_examples=examples(60), deadline=None)
@given(expect=st.one_of(st.text(max_size=8), st.integers(), st.none()), confirming=CITED, control=CITED,
       bodies=st.tuples(st.text(max_size=16), st.text(max_size=16)))
def test_whatever_a_verdict_payload_cites_the_door_judges_it_or_refuses_it(expect, confirming, control, bodies):
    """Whatever a verdict payload cites, the door either refuses it with a reason and stores nothing, or records exactly the verdict its own rule gives for the captures it cites."""
    recorder, finding_id, before, first, second = _door_with_evidence(bodies)
    ids = {"before": before, "first": first, "second": second}
    cite = {name: ids.get(value, value) for name, value in (("confirming", confirming), ("control", control))}
    payload = {"run_id": recorder.run.run_id, "finding_id": finding_id, "expect": expect,
               "confirming_capture_id": cite["confirming"], "control_capture_id": cite["control"]}
    events = len(recorder.events)
    answer = recorder.record("verdict", payload)
    fresh = ("", first, second)
    admissible = (isinstance(expect, str) and expect != "" and cite["confirming"] in fresh
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
