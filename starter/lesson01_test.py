"""Lesson 1 completion test: your functions, asked about two real sealed reports.

Each check asks about two reports: the committed ``data/course/report.json`` and
a report made here, with the demo's own command, from a copy of the lab with
three edits (the injected note removed from the news page, a directory
listing served at /staging/, and the scripted model no longer proposing to
probe the search page). The two reports differ in every answer, so only
functions that read the report can pass both. The expected answers are read
from the report by a different route than the one the starter asks for.
By default the checks load starter/lesson01.py; `course check 1` shows each.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course.manifest import course_root
from course.student import Student

ROOT = course_root()
STAGES = ("authorize", "observe", "propose", "select", "execute", "verify", "review", "report")


# --- the two reports -------------------------------------------------------------------


def edit_lab(lab: Path) -> None:
    """Three edits to a copy of the lab; each changes what the run finds or does."""
    site = lab / "sites" / "lab.example"
    news = site / "news.html"
    page, hidden = re.subn(r"\s*<!--.*?-->", "", news.read_text(encoding="utf-8"), flags=re.S)
    news.write_text(page, encoding="utf-8")
    pages = json.loads((site / "site.json").read_text(encoding="utf-8"))
    pages["pages"]["/staging/"] = {"status": 200, "headers": {"Content-Type": "text/html; charset=utf-8"},
                                   "body": "staging.html"}
    (site / "site.json").write_text(json.dumps(pages, indent=2) + "\n", encoding="utf-8")
    listing = (site / "backup.html").read_text(encoding="utf-8").replace("/backup/", "/staging/")
    (site / "staging.html").write_text(listing, encoding="utf-8")
    script_file = lab / "model" / "script.json"
    script = json.loads(script_file.read_text(encoding="utf-8"))
    dropped = 0
    for rule in script["rules"]:
        if rule["name"] == "probe-debug-page":
            reply = json.loads(rule["reply"])
            kept = [p for p in reply["proposals"]
                    if not (p.get("tool") == "probe_reflection" and "/search" in p.get("destination", ""))]
            dropped += len(reply["proposals"]) - len(kept)
            rule["reply"] = json.dumps({**reply, "proposals": kept})
    if not (hidden and dropped):  # the lab changed under this test: say so rather than test nothing
        raise RuntimeError("edit_lab found no hidden note in news.html or no search probe in the model's script")
    script_file.write_text(json.dumps(script, indent=2) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict]:
    committed = json.loads((ROOT / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp("lesson01")
    lab, out = folder / "lab", folder / "edited-report.json"
    shutil.copytree(ROOT / "data" / "lab", lab)
    edit_lab(lab)
    done = subprocess.run([sys.executable, "-m", "core.run.main", "--out", str(out), "--lab", str(lab)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"the reference run on the edited lab failed: {done.stderr.strip()}", pytrace=False)
    edited = json.loads(out.read_text(encoding="utf-8"))
    # The second report must differ from the first in every answer, or a typed-in answer could pass.
    for expected in (expected_reasons, expected_groups, expected_acts, lambda r: expected_first(r, "verify")):
        assert expected(edited) != expected(committed), f"the edited lab does not change {expected.__name__}"
    return {"committed": committed, "edited-lab": edited}


def which(name: str) -> str:
    return "the committed report" if name == "committed" else "the report from the edited lab"


# --- your file, and one line when it cannot answer ---------------------------------------

# The functions take and return plain data, but consequential_acts returns tuples: held in process.
yours = Student(1, names=("run_id", "refusal_reasons", "findings_by_verdict", "consequential_acts",
                          "first_event_in_stage"), in_process=True)


def ask(name: str, *args):
    """Call your function ``name``; a missing, unwritten or failing one fails with one line (course/student.py)."""
    return yours.call(name, *copy.deepcopy(args))  # a function that edits its report cannot spoil the next check


# --- expected answers, read by another route ---------------------------------------------


def expected_reasons(report: dict) -> list[str]:
    ordered = sorted(report["events"], key=lambda event: event["seq"])
    return [event["reason"] for event in ordered if event["status"] != "admitted"]


def expected_groups(report: dict) -> dict[str, list[str]]:
    claims = {finding["finding_id"]: finding["claim"] for finding in report["findings"]}
    verdict_of = {verdict["finding_id"]: verdict["verdict"] for verdict in report["verdicts"]}
    groups: dict[str, list[str]] = {}
    for finding_id, claim in claims.items():
        groups.setdefault(verdict_of.get(finding_id, "unverified"), []).append(claim)
    return groups


def expected_acts(report: dict) -> list[tuple[str, str, str]]:
    """From the ledger's review events rather than the reviews store."""
    return [(e["payload"]["subject_id"], e["payload"]["reviewer"], e["payload"]["decision"])
            for e in report["events"]
            if e["kind"] == "review" and e["status"] == "admitted" and " -> " in e["payload"]["subject_id"]]


def expected_first(report: dict, stage: str) -> int | None:
    """One past the admitted transition into ``stage`` (the run is born in authorize)."""
    if stage == STAGES[0]:
        return 1
    for event in report["events"]:
        if event["kind"] == "transition" and event["status"] == "admitted" and event["payload"]["to"] == stage:
            return event["seq"] + 1
    return None


# --- the checks --------------------------------------------------------------------------


def test_run_id_names_the_run(reports):
    for name, data in reports.items():
        answer = ask("run_id", data)
        assert isinstance(answer, str), f"run_id() returned {answer!r}; it must return the run identifier, a string"
        assert answer == data["run"]["run_id"], (
            f"run_id() on {which(name)} returned {answer!r}, which is not the identifier in the report's run section")


def test_refusal_reasons_in_ledger_order(reports):
    for name, data in reports.items():
        answer = ask("refusal_reasons", data)
        assert isinstance(answer, list) and all(isinstance(r, str) for r in answer), (
            f"refusal_reasons() returned {type(answer).__name__}; it must return a list of reason strings")
        expected = expected_reasons(data)
        assert len(answer) == len(expected), (
            f"refusal_reasons() on {which(name)} gave {len(answer)} reasons, but the ledger has a different "
            "number of events whose status is 'refused': take every one, and only those")
        assert answer == expected, (
            f"refusal_reasons() on {which(name)} has the right number of reasons but not the ledger's reasons "
            "in the ledger's order: keep the order of report['events']")


def test_findings_grouped_by_verdict(reports):
    for name, data in reports.items():
        answer = ask("findings_by_verdict", data)
        assert isinstance(answer, dict), (
            f"findings_by_verdict() returned {type(answer).__name__}; it must return a dict from verdict to claims")
        expected = expected_groups(data)
        assert set(answer) == set(expected), (
            f"findings_by_verdict() on {which(name)} has the keys {sorted(answer)}; its keys must be exactly "
            "the verdicts the report's findings received")
        claims = {finding["claim"] for finding in data["findings"]}
        strays = [item for items in answer.values() for item in (items if isinstance(items, list) else [items])
                  if item not in claims]
        assert not strays, (
            f"findings_by_verdict() on {which(name)} lists {str(strays[0])[:20]!r}..., which is not the claim of "
            "any finding: each value must be a list of the findings' claim texts")
        assert answer == expected, (
            f"findings_by_verdict() on {which(name)} puts some claim under the wrong verdict, or not in "
            "report order: each value is the list of claim texts of the findings with that verdict")


def test_consequential_acts_with_reviewer_and_decision(reports):
    for name, data in reports.items():
        answer = ask("consequential_acts", data)
        assert isinstance(answer, list) and all(isinstance(a, tuple) and len(a) == 3 for a in answer), (
            f"consequential_acts() returned {answer!r:.120}; it must return a list of (act, reviewer, decision) tuples")
        expected = expected_acts(data)
        assert [act for act, _, _ in answer] == [act for act, _, _ in expected], (
            f"consequential_acts() on {which(name)} does not list the reviewed acts in review order: each act "
            "is a review's subject_id, exactly as written (the identity and the digest of the arguments)")
        assert answer == expected, (
            f"consequential_acts() on {which(name)} names the right acts, but some reviewer or decision is "
            "not the one its review records")


def test_first_event_in_each_stage(reports):
    for name, data in reports.items():
        for stage in STAGES:
            answer = ask("first_event_in_stage", data, stage)
            assert answer == expected_first(data, stage), (
                f"first_event_in_stage(report, {stage!r}) on {which(name)} returned {answer!r}, which is not the "
                "seq of the first event recorded in that stage: the run starts in 'authorize', and an admitted "
                "transition belongs to the stage it leaves")


def test_first_event_in_a_stage_never_entered_is_none(reports):
    for name, data in reports.items():
        answer = ask("first_event_in_stage", data, "deploy")
        assert answer is None, (
            f"first_event_in_stage(report, 'deploy') on {which(name)} returned {answer!r}; the run never "
            "enters a stage called 'deploy', so the answer must be None")
