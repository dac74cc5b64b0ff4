"""Governance holes, round 2 (issue 23): one test or more per hole, each written to fail before its fix.

The attack suite (lab/attacks.py, tests/test_attacks.py) tries each hole as an
attacker would and judges it by evidence; the tests here pin the mechanism
that closes it, at the smallest scale that shows it.
"""

from __future__ import annotations

import json

from core.run.policy import Policy, reference_policy

# --- hole 8: the catalogue check is linear --------------------------------------------------


class CountedId(str):
    """A tool id that counts how often it is compared for equality: the work a catalogue check does."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountedId.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _catalogue(count: int) -> list[dict]:
    return [{"tool_id": CountedId(f"tool{index:05d}"), "activity": "recon.passive", "requires": {},
             "family": "fam", "weight": 1.0, "cost": 1.0} for index in range(count)]


def test_building_a_policy_compares_each_tool_id_a_bounded_number_of_times():
    """Building a policy of n tools, and looking each tool up once, compares tool ids O(n) times, not O(n^2)."""
    base = reference_policy().snapshot()
    for count in (500, 2000):
        CountedId.comparisons = 0
        policy = Policy.from_dict({**base, "tools": _catalogue(count)})
        for tool in policy.tools:
            assert policy.tool_named(tool.tool_id) is tool
        per_tool = CountedId.comparisons / count
        assert per_tool < 8, f"{count} tools cost {CountedId.comparisons} id comparisons ({per_tool:.0f} per tool)"


# --- hole 7: the listed tracebacks are one line and a distinct exit code ---------------------

import subprocess
import sys
from pathlib import Path

from core.run.seal import reseal

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "data" / "course" / "report.json"
COMMANDS = (("core.run.seal", "verify"), ("core.audit.replay",), ("core.run.report", "render"))
RESEAL = ("core.run.seal", "seal", "--out", "{out}")  # reseal only chains: only a surrogate stops it


def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def _surrogate_run_id(report: dict) -> dict:
    report["run"]["run_id"] = "\ud800" + report["run"]["run_id"][1:]
    return report  # no seal can be computed over it: it is handed over as it was sealed


def _argument_type(value: object):
    def edit(report: dict) -> dict:
        report["policy"]["tools"][2]["arguments"]["marker"] = value
        return reseal(report)
    return edit


BROKEN = {"a lone surrogate in run.run_id": _surrogate_run_id, "an argument type given as a list": _argument_type([]),
          "an argument type given as an object": _argument_type({"type": "string"})}


def one_line_of(done: subprocess.CompletedProcess) -> str:
    said = (done.stdout + done.stderr).strip()
    assert "Traceback" not in said, said[-1500:]
    assert len(said.splitlines()) == 1, said[-1500:]
    return said


import pytest  # noqa: E402


CASES = [(broken, command) for broken in BROKEN for command in COMMANDS] + [("a lone surrogate in run.run_id", RESEAL)]


@pytest.mark.parametrize(("broken", "command"), CASES, ids=[f"{b}: {' '.join(c[:2])}" for b, c in CASES])
def test_a_report_that_breaks_a_reader_gets_one_line_and_exit_2(broken, command, tmp_path):
    """A report with a lone surrogate in its run identifier, or an argument type that is a list or an object, gets one line and exit 2 (bad input) from seal verify, replay, render and reseal: never a traceback, and never exit 1 (which says "altered")."""
    path = tmp_path / "report.json"
    path.write_text(json.dumps(BROKEN[broken](reference())), encoding="utf-8")
    argv = [part.format(out=tmp_path / "out.json") for part in command]
    done = subprocess.run([sys.executable, "-m", argv[0], *argv[1:2], str(path), *argv[2:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    line = one_line_of(done)
    assert done.returncode == 2, line


def test_the_terminal_printout_of_a_report_nested_100000_deep_is_one_line(tmp_path):
    """`make run`'s terminal printout (course.run_report) of a file nested 100,000 levels deep is one line and exit 2."""
    path = tmp_path / "report.json"
    path.write_text('{"events": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "course.run_report", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    one_line_of(done)
    assert done.returncode == 2
