"""Lesson 8's demo shows what its page says it shows, read back from the artifact it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.demo_gating import main, run_demo
from core.run.gate import act_subject

ROOT = Path(__file__).resolve().parent.parent
PROBE = "probe_reflection -> https://lab.example:443/debug"


@pytest.fixture(scope="module")
def demo():
    return run_demo()


def scene(demo, name):
    return next(entry for entry in demo["scenes"] if entry["scene"] == name)


def test_every_shown_answer_is_the_ledger_event_at_its_seq(demo):
    pointers = {"known_class": "classes", "legacy_alias": "classes", "unknown_class": "classes",
                "held": "exact_act", "wrong_role": "exact_act", "identity_alone": "exact_act", "approved": "exact_act",
                "other_arguments": "exact_act", "admitted_after_approval": "exact_act",
                "cap_exceeded_no_approver": "cap", "denied_is_not_held": "cap", "cap_exceeded_with_approver": "cap",
                "fail_open_configured": "fail_open_configured", "fail_open_within_its_cap_only": "fail_open_configured",
                "consequential_never_fails_open": "fail_open_configured", "view_current_again": "fail_open_configured",
                "fail_open_not_configured": "fail_open_not_configured"}
    for key, name in pointers.items():
        shown = demo["shows"][key]
        event = next(e for e in scene(demo, name)["ledger"] if e["seq"] == shown["seq"])
        assert (event["status"] == "admitted") is shown["recorded"], key
        assert event["reason"] == shown.get("reason", ""), key


def test_the_classes_scene(demo):
    shows, classes = demo["shows"], scene(demo, "classes")
    assert shows["known_class"]["recorded"] and shows["known_class"]["action_class"] == "recon.passive"
    assert shows["legacy_alias"]["action_class"] == "probe.active_light"
    assert shows["legacy_alias"]["reason"].startswith("probe.active_light (legacy name 'active') is consequential")
    assert shows["unknown_class"]["action_class"] == "unclassified"
    assert shows["unknown_class"]["reason"] == ("the unknown class 'probe.fuzz' is consequential by default "
                                                "(fail-closed); no approver role is declared for it, so it is "
                                                "denied, not held")
    assert "declares the legacy class 'active'" in classes["start_up_refusal"]
    assert "declares 'probe.fuzz', which is not a class" in classes["start_up_refusal"]


def test_the_exact_act_scene(demo):
    shows, exact = demo["shows"], scene(demo, "exact_act")
    assert [shows[key]["recorded"] for key in ("held", "wrong_role", "identity_alone", "approved",
                                               "other_arguments", "admitted_after_approval")] == [
        False, False, False, True, False, True]
    approved = exact["subjects"]["approved"]
    assert approved == act_subject(PROBE, {"parameter": "q", "marker": "lab-probe-<i>7</i>"})
    review = next(step for step in exact["steps"] if step["key"] == "approved")
    assert review["payload"]["subject_id"] == approved and review["payload"]["reviewer"] == "engagement-lead"
    assert "(trigger CHANGE)" in shows["other_arguments"]["reason"]
    assert shows["change_from_state"] == {"on_a_fresh_run": "active_testing", "after_the_approval": "CHANGE"}
    assert exact["counted"]["trigger_classes"] == {"active_testing": 1}


def test_the_cap_and_fail_open_scenes(demo):
    shows = demo["shows"]
    assert shows["cap_by_legacy_name"]["resolved"]["recon.passive"] == 2
    assert shows["cap_exceeded_no_approver"]["reason"].endswith("so it is denied, not held")
    assert "does not hold" in shows["denied_is_not_held"]["reason"]
    assert "waits for an approved review of this exact act by engagement-lead" in \
        shows["cap_exceeded_with_approver"]["reason"]
    assert shows["fail_open_configured"]["recorded"] is True
    assert shows["fail_open_within_its_cap_only"]["reason"].endswith("not past its cap: fail closed")
    assert shows["fail_open_not_configured"]["reason"].endswith("does not configure it to: fail closed")
    assert shows["consequential_never_fails_open"]["reason"].endswith("may not fail open: fail closed")
    assert shows["view_current_again"]["reason"].startswith("probe.active_light is consequential;")


def test_the_committed_artifact_is_a_fresh_run(tmp_path):
    out = tmp_path / "gating-demo.json"
    assert main(["--out", str(out)]) == 0
    assert out.read_bytes() == (ROOT / "data/course/gating-demo.json").read_bytes()
    assert json.loads(out.read_text(encoding="utf-8"))["shows"]["approved"]["recorded"] is True


def test_a_bad_command_line_gets_one_line(tmp_path):
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    for argv, expected in ((["--out"], "demo_gating: argument --out: expected one argument (see --help)"),
                           (["--out", str(tmp_path / "a-file" / "x.json")], "demo_gating: cannot write")):
        done = subprocess.run([sys.executable, "-m", "core.run.demo_gating", *argv], cwd=ROOT, capture_output=True,
                              text=True)
        assert done.returncode != 0 and done.stdout == ""
        assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr
