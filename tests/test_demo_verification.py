"""Lesson 7's demo shows what its page says it shows, read back from the artifact it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.demo_verification import main, run_demo
from core.run.records import Capture
from core.run.verify import judge

ROOT = Path(__file__).resolve().parent.parent
LAB = "https://lab.example:443"


@pytest.fixture(scope="module")
def demo():
    return run_demo()


def capture(report: dict, capture_id: str) -> Capture:
    found = next(c for c in report["captures"] if c["capture_id"] == capture_id)
    return Capture(found["run_id"], found["action_id"], found["status"], found["body"], found["capture_id"])


def test_each_verdict_is_the_one_its_captures_support(demo):
    report = demo["report"]
    assert [step["verdict"]["verdict"] for step in demo["checks"]] == ["confirmed", "refuted"]
    for step in demo["checks"]:
        verdict = step["verdict"]
        confirming = capture(report, verdict["confirming_capture_id"])
        control = capture(report, verdict["control_capture_id"])
        assert judge(step["plan"]["expect"], confirming, control) == (verdict["verdict"], verdict["reason"])
        assert step["confirming"]["shows_expect"] == (step["plan"]["expect"] in confirming.body)
        assert step["control"]["shows_expect"] is False
        quoted = next(f for f in report["findings"] if f["finding_id"] == verdict["finding_id"])
        assert capture(report, quoted["capture_id"]).action_id == step["plan"]["evidence"]["action"]
        assert len({confirming.action_id, control.action_id, step["plan"]["evidence"]["action"]}) == 3


def test_the_four_things_the_page_points_out(demo):
    shows = demo["shows"]
    assert shows["confirmed"]["confirming"]["line"] == "<p>You asked for: lab-probe-<i>7</i></p>"
    assert shows["confirmed"]["control"]["action_id"].startswith(f"probe_reflection -> {LAB}/search?q=")
    assert shows["refuted"]["confirming"]["http_status"] == 404
    assert shows["refuted"]["reason"] == "the confirming capture (HTTP 404) does not show '/staging/'"
    kept = shows["refuted_kept"]
    assert kept["still_held"] and kept["finding_seq"] < kept["verdict_seq"]
    events = demo["report"]["events"]
    assert (events[kept["finding_seq"] - 1]["kind"], events[kept["verdict_seq"] - 1]["kind"]) == ("finding", "verdict")
    assert [f["finding_id"] for f in demo["report"]["findings"]] == [v["finding_id"] for v in shows["verdicts"]]
    unplanned = shows["unplanned"]
    assert (unplanned["execution"], unplanned["event"]["code"], unplanned["event"]["by"]) == (
        "refused", "not_planned", "door: verify.in_the_plan")
    assert events[unplanned["event"]["seq"] - 1]["code"] == "not_planned"
    assert demo["report"]["stage"] == "verify" and unplanned["event"]["seq"] == len(events)


def test_the_evidence_was_chosen_through_the_whole_door(demo):
    report = demo["report"]
    executed = [e["id"] for e in report["events"] if e["kind"] == "action" and e["status"] == "admitted"]
    chosen = [s["action_id"] for s in report["selections"]]
    assert executed[:2] == chosen == [f"inspect_headers -> {LAB}/robots.txt", f"probe_reflection -> {LAB}/debug"]
    assert [e["code"] for e in report["events"] if e["status"] == "refused"] == ["nothing_to_select", "not_planned"]
    stages = [e["id"] for e in report["events"] if e["kind"] == "transition"]
    assert stages[-1] == "select -> verify" and report["stage"] == "verify"


def test_the_command_line_writes_the_committed_artifact_and_refuses_bad_input_in_one_line(tmp_path):
    out = tmp_path / "verification-demo.json"
    assert main(["--out", str(out)]) == 0
    assert out.read_bytes() == (ROOT / "data" / "course" / "verification-demo.json").read_bytes()
    assert json.loads(out.read_text(encoding="utf-8"))["shows"]["refuted"]["verdict"] == "refuted"
    done = subprocess.run([sys.executable, "-m", "core.run.demo_verification"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    done = subprocess.run([sys.executable, "-m", "core.run.demo_verification", "--out", str(blocked / "x.json")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("demo_verification: cannot write")


@pytest.mark.parametrize(("change", "message"), [
    ({"quote": "Disallow: /nowhere/"}, "was refused: finding quote does not occur verbatim in capture"),
    ({"expect": "Not Found"}, "this run gave confirmed, a refused verdict (expect 'Not Found' is not part of the "
                              "finding's quote"),
])
def test_a_run_that_does_not_tell_the_lessons_story_is_one_line_not_a_traceback(tmp_path, capsys, change, message):
    import dataclasses

    from core.run import demo_verification

    xss, staging = demo_verification.reference_checks()
    edited = dataclasses.replace(staging, **change)
    assert main(["--out", str(tmp_path / "out.json")], checks=(xss, edited)) == 1
    said = capsys.readouterr().err
    assert said.startswith("demo_verification: DemoError: ") and message in said
    assert len(said.strip().splitlines()) == 1 and not (tmp_path / "out.json").exists()
