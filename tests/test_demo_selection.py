"""Lesson 5's demo shows what its page says it shows, read back from the artifact it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.demo_selection import main, run_demo
from core.run.select import score

ROOT = Path(__file__).resolve().parent.parent
LAB = "https://lab.example:443"


@pytest.fixture(scope="module")
def demo():
    return run_demo()


def test_every_ranking_row_redoes_its_own_arithmetic(demo):
    rows = [row for step in demo["loop"] if step["step"] == "select" for row in step["ranking"]]
    assert rows
    for row in rows:
        assert row["score"] == score(row["weight"], row["cost"], row["credit"])
        assert row["arithmetic"].startswith(f"score {row['score']!r} = weight {row['weight']!r}")
    for step in demo["loop"]:
        if step["step"] == "select":
            keys = [(-row["score"], row["action_id"]) for row in step["ranking"]]
            assert keys == sorted(keys)


def test_the_six_things_the_page_points_out(demo):
    shows = demo["shows"]
    assert shows["tie"]["arrival_order"] != shows["tie"]["ranked"] == sorted(shows["tie"]["ranked"])
    assert shows["tie"]["reason"].endswith("(a tie, broken by action identity)")
    assert shows["executed_identity"]["times_selected"] == 1
    assert "already recorded" in shows["executed_identity"]["proposed_again"]["reason"]
    turned = shows["turned_away"]
    assert turned["door_answer"]["recorded"] is False
    assert turned["action_id"] not in turned["next_ranking"] and turned["next_selected"] == turned["next_ranking"][0]
    assert turned["action_id"] not in [a["action_id"] for a in demo["report"]["actions"]]
    assert [(f["action_id"], f["family"]) for f in shows["feedback"]] == [
        (a["action_id"], "fam-probe" if a["tool"] == "probe_reflection" else "fam-recon")
        for a in demo["report"]["actions"]]
    assert shows["feedback"][-1]["family_credit_after"] == {"fam-probe": 1.0, "fam-recon": 3.0}
    assert shows["budget"]["answer"] == {"recorded": False, "reason": "action budget of 4 actions is spent"}
    assert shows["budget"]["still_open"] == [f"probe_reflection -> {LAB}/search"]


def test_the_command_line_writes_the_committed_artifact_and_refuses_bad_input_in_one_line(tmp_path):
    out = tmp_path / "selection-demo.json"
    assert main(["--out", str(out)]) == 0
    assert out.read_bytes() == (ROOT / "data" / "course" / "selection-demo.json").read_bytes()
    assert json.loads(out.read_text(encoding="utf-8"))["shows"]["selected_in_order"][0] == f"inspect_headers -> {LAB}/about"
    done = subprocess.run([sys.executable, "-m", "core.run.demo_selection"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    done = subprocess.run([sys.executable, "-m", "core.run.demo_selection", "--out", str(blocked / "x.json")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("demo_selection: cannot write")
