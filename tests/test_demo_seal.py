"""Lesson 9's demo and its tamper lab: what the artifact shows, and that it is written only by its command.

Not completion sentences (those are in tests/test_run_seal.py): these hold the
demo to what its page says it shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from core.run.demo_seal import run_demo
from core.run.seal import TAMPERS
from core.run.rederive import verify as verify_report
from core.run.rederive import render as render_markdown
from core.run.seal import verify_chain

from .test_run_seal import ROOT

ARTIFACT = ROOT / "data" / "course" / "seal-demo.json"


@pytest.fixture(scope="module")
def demo() -> dict:
    return json.loads(ARTIFACT.read_text(encoding="utf-8"))


def test_the_committed_artifact_is_the_demo_as_data(demo):
    """The committed artifact is what run_demo() returns, read back through JSON."""
    assert json.loads(json.dumps(run_demo())) == demo


def test_both_endings_are_sealed_and_refuse_everything_after_the_close(demo):
    """The finished and the aborted run each verify intact, and everything asked after the close is refused with the close's reason, the ledger not one event longer."""
    for ending, how in (("finished", "finished"), ("aborted", "aborted")):
        part = demo[ending]
        report = part["report"]
        assert verify_report(report).ok and part["verify"]["verify"]["ok"], ending
        assert report["closed"]["how"] == how and report["events"][-1]["kind"] == "close"
        later = part["after_the_close"]
        reason = f"run is closed ({how}): {report['closed']['reason']}"
        assert later["asked"] and all(answer == {"recorded": False, "reason": reason}
                                      for answer in later["asked"].values()), ending
        assert later["ledger_unchanged"] and later["events"] == len(report["events"]), ending


def test_the_aborted_run_keeps_what_it_admitted(demo):
    """The aborted run's report keeps its act and capture from before the abort, and says why it stopped."""
    report = demo["aborted"]["report"]
    assert report["closed"] == {"how": "aborted", "reason": "the operator withdrew the authorization",
                                "seq": len(report["events"])}
    assert len(report["actions"]) == 1 and len(report["captures"]) == 1
    assert "- Outcome: aborted: `the operator withdrew the authorization`" in demo["markdown"]["aborted"]


def test_the_tamper_lab_entries_match_the_files(demo):
    """Each tamper entry in the artifact names its committed file, says what was done, and repeats what verify says of that file."""
    assert list(demo["tamper_lab"]) == sorted(TAMPERS)
    for name, entry in demo["tamper_lab"].items():
        report = json.loads((ROOT / entry["file"]).read_text(encoding="utf-8"))
        chain, whole = verify_chain(report), verify_report(report)
        assert entry["alteration"] == TAMPERS[name]
        assert entry["chain"] == {"ok": chain.ok, "seq": chain.seq, "message": chain.message}, name
        assert entry["verify"] == {"ok": whole.ok, "seq": whole.seq, "section": whole.section,
                                   "message": whole.message}, name
    assert demo["tamper_lab"]["intact"]["chain"]["message"].startswith("intact: ")
    assert (ROOT / "data/course/tamper/intact.json").read_text(encoding="utf-8") == json.dumps(
        demo["finished"]["report"], sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_the_markdown_is_rendered_from_the_sealed_json(demo):
    """The artifact's Markdown is what rendering each sealed report gives, with nothing else to hand."""
    for ending in ("finished", "aborted"):
        assert demo["markdown"][ending] == render_markdown(demo[ending]["report"])


def test_the_demo_is_byte_identical_under_another_seed_timezone_and_locale(tmp_path):
    """A fresh run under another hash seed, timezone and locale writes the committed bytes, demo and lab alike."""
    env = {**os.environ, "PYTHONHASHSEED": "4242", "TZ": "Asia/Tokyo", "LC_ALL": "C"}
    for args, out, committed in (([], tmp_path / "demo.json", ARTIFACT),
                                 (["--tamper", "spliced-run"], tmp_path / "spliced.json",
                                  ROOT / "data/course/tamper/spliced-run.json")):
        done = subprocess.run([sys.executable, "-m", "core.run.demo_seal", *args, "--out", str(out)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert out.read_bytes() == committed.read_bytes()


def test_the_command_answers_bad_input_in_one_line(tmp_path):
    """An unknown tamper name exits 2 and a folder that cannot be written exits 1, each with one line and no traceback."""
    unknown = subprocess.run([sys.executable, "-m", "core.run.demo_seal", "--tamper", "nonsense", "--out",
                              str(tmp_path / "x.json")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1 and "nonsense" in unknown.stderr
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    blocked = subprocess.run([sys.executable, "-m", "core.run.demo_seal", "--tamper", "intact", "--out",
                              str(blocker / "x.json")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert blocked.returncode == 1 and blocked.stderr.count("\n") == 1 and "Traceback" not in blocked.stderr
