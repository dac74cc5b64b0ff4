"""Lesson 6's demo shows what its page says it shows, read back from the artifact it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.canon import canonical_bytes
from core.run.demo_execution import TIMEOUT, main, run_demo

ROOT = Path(__file__).resolve().parent.parent
LAB = "https://lab.example:443"


@pytest.fixture(scope="module")
def demo():
    return run_demo()


def test_one_act_passes_the_door_as_action_unresolved_outcome_capture_and_settled_outcome(demo):
    executed = demo["shows"]["executed"]
    assert executed["action_id"] == f"inspect_headers -> {LAB}/about" and executed["status"] == "succeeded"
    assert [(e["kind"], e["status"]) for e in executed["events"]] == [
        ("action", "admitted"), ("outcome", "admitted"), ("capture", "admitted"), ("outcome", "admitted")]
    assert [e["seq"] for e in executed["events"]] == list(range(executed["events"][0]["seq"],
                                                                executed["events"][0]["seq"] + 4))
    first, settled = executed["outcomes"]
    assert (first["status"], first["capture_id"]) == ("unresolved", "")
    assert (settled["status"], settled["capture_id"]) == ("succeeded", executed["answers"][2]["id"])


def test_both_transports_give_the_same_capture_bytes_and_the_same_ledger(demo):
    transports = demo["shows"]["transports"]
    assert transports["inprocess"] == transports["http"]
    assert canonical_bytes(transports["inprocess"]) == canonical_bytes(transports["http"])
    assert transports["sha256"]["inprocess"] == transports["sha256"]["http"]
    assert transports["captures_identical"] is True and transports["ledgers_identical"] is True
    assert transports["same_adapter_calls"] is True
    assert "ExampleCMS 3.2.1" in transports["inprocess"]["body"]


def test_the_adapter_error_is_unresolved_and_the_run_goes_on(demo):
    error = demo["shows"]["adapter_error"]
    assert error["action_id"] == f"inspect_headers -> {LAB}/contact"
    assert (error["status"], error["detail"]) == (
        "unresolved", f"in doubt: the request may have reached the target: TimeoutError({TIMEOUT!r})")
    assert [(o["status"], o["detail"]) for o in error["outcomes"]] == [
        ("unresolved", "handed to the adapter"), ("unresolved", error["detail"])]
    assert error["captures"] == []
    assert error["next_act"]["status"] == "succeeded" and error["next_act"]["capture_id"]
    assert demo["shows"]["adapter_calls"] == [f"{LAB}/about", f"{LAB}/contact", f"{LAB}/debug?q=%3Ci%3Elab-6%3C%2Fi%3E"]
    assert demo["shows"]["selection_ended"] == {"recorded": False, "reason": "action budget of 3 actions is spent"}


def test_one_settlement_is_admitted_and_a_second_refused(demo):
    settlement = demo["shows"]["settlement"]
    assert settlement["first"]["recorded"] is True
    assert settlement["second"] == {"recorded": False, "reason": f"outcome for '{settlement['action_id']}' is "
                                                                 "already settled"}
    assert [o["status"] for o in settlement["outcomes"]] == ["unresolved", "unresolved", "failed"]
    last = demo["report"]["events"][-1]
    assert (last["kind"], last["status"]) == ("outcome", "refused")


def test_the_artifact_names_no_port_time_or_path():
    text = (ROOT / "data" / "course" / "execution-demo.json").read_text(encoding="utf-8")
    assert "127.0.0.1" not in text and "localhost" not in text
    assert str(ROOT) not in text


def test_the_command_line_writes_the_committed_artifact_and_refuses_bad_input_in_one_line(tmp_path):
    out = tmp_path / "execution-demo.json"
    assert main(["--out", str(out)]) == 0
    assert out.read_bytes() == (ROOT / "data" / "course" / "execution-demo.json").read_bytes()
    assert json.loads(out.read_text(encoding="utf-8"))["shows"]["transports"]["captures_identical"] is True
    done = subprocess.run([sys.executable, "-m", "core.run.demo_execution"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    done = subprocess.run([sys.executable, "-m", "core.run.demo_execution", "--out", str(blocked / "x.json")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("demo_execution: cannot write")
    assert len(done.stderr.strip().splitlines()) == 1
