"""Lesson 1: the finished report read section by section, and broken three ways.

Each test's docstring is one completion sentence on lessons/01-read-a-finished-report.md.
tests/test_reference_run.py, the lesson's other suite, reproduces the report byte for byte
(hash seeds, timezones, locales, both transports), shows that a lab edit renames the run,
and checks that every kind of refusal is in it.
The report's content is checked by what kind of thing it holds (a refusal for an
undeclared tool, a refuted finding...), not by event numbers, so a regenerated
report that still tells the whole story still passes.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from html.parser import HTMLParser

from core.audit.replay import replay
from core.run.rederive import SECTIONS, given_by, redo, verify
from core.run.gate import subject_of
from core.run.report import build_report
from core.run.seal import against_kept_head, reseal, seal, unchained, verify_chain
from course import manifest, pages
from site_build import pictures

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "data" / "course" / "report.json"
PAGE = REPO / "lessons" / "01-read-a-finished-report.md"


@pytest.fixture(scope="module")
def report() -> dict:
    return json.loads(COMMITTED.read_text(encoding="utf-8"))


def refused(report: dict, code: str) -> list[dict]:
    return [e for e in report["events"] if e["status"] == "refused" and e["code"] == code]


def test_the_committed_report_verifies_and_replays_without_a_divergence(report):
    """The committed report's seal holds, every section re-derives from its ledger, and replay finds no divergence."""
    verification = verify(report)
    assert verification.ok, verification.message
    replayed = replay(report)
    assert replayed.divergences == ()
    assert len(replayed.not_redecided) < len(report["events"])


def test_a_consequential_act_runs_only_after_an_approved_review_of_that_exact_act(report):
    """A consequential act is held until a review of that exact act; approved, it runs, and rejected, it is refused again and never runs."""
    decisions = {review["subject_id"]: review["decision"] for review in report["reviews"]}
    assert {"approved", "rejected"} <= set(decisions.values())
    story: dict[str, list[tuple[str, int]]] = {}
    for event in report["events"]:
        if event["kind"] == "action":
            payload = event["payload"]
            subject = subject_of(payload["tool"], payload["arguments"], payload["destination"])
            story.setdefault(subject, []).append((event["status"], event["seq"]))
        if event["kind"] == "review":
            story.setdefault(event["payload"]["subject_id"], []).append(("review", event["seq"]))
    for subject, decision in decisions.items():
        steps = [status for status, _ in story[subject]]
        expected = ["refused", "review", "admitted"] if decision == "approved" else ["refused", "review", "refused"]
        assert steps == expected, f"{subject}: {steps}"


def test_findings_quote_their_captures_and_keep_a_confirmed_and_a_refuted_verdict(report):
    """Each finding quotes its capture word for word, five findings are confirmed, and the refuted one stays in the report with its verdict."""
    captures = {capture["capture_id"]: capture["body"] for capture in report["captures"]}
    assert all(finding["quote"] in captures[finding["capture_id"]] for finding in report["findings"])
    verdicts = sorted(finding["verdict"] for finding in report["findings"])
    assert verdicts == ["confirmed"] * 5 + ["refuted"]
    for verdict in report["verdicts"]:
        assert verdict["confirming_capture_id"] in captures and verdict["control_capture_id"] in captures


def test_the_safety_verdict_says_which_boundaries_are_declared_only(report):
    """The safety verdict judges four boundaries at runtime, none violated, and says plainly that two are declared only, not judged."""
    safety = report["safety"]
    judged = [r for r in safety["results"] if r["runtime_checkable"]]
    declared = [r for r in safety["results"] if not r["runtime_checkable"]]
    assert (len(judged), len(declared), safety["violated"]) == (4, 2, [])
    assert all(r["upheld"] is True for r in judged) and all(r["upheld"] is None for r in declared)
    assert sorted(r["boundary_id"] for r in declared) == safety["declared_only"]


def test_the_seal_names_its_algorithm_and_what_the_run_was_made_under(report):
    """The seal names its algorithm and commits to the chain and the body, and the report names the taxonomy and safety pack digests it was made under."""
    seal = report["seal"]
    assert set(seal) == {"algorithm", "events", "chain", "body", "head"}
    assert seal["events"] == len(report["events"]) and seal["chain"] == report["events"][-1]["chain"]
    assert len(report["taxonomy"]["digest"]) == 64 and len(report["safety_pack"]["digest"]) == 64
    assert report["safety_pack"]["ratification"] == "ratified"
    assert report["gating"]["taxonomy_version"] == report["taxonomy"]["version"]


def test_one_altered_byte_in_an_event_is_named_as_the_first_altered_event(tmp_path, report):
    """Altering one byte of one event makes verify name that event as the first altered one."""
    text = COMMITTED.read_text(encoding="utf-8")
    target = refused(report, "denied")[0]
    at = text.index(target["reason"])
    tampered = tmp_path / "tampered.json"
    tampered.write_text(text[:at] + text[at:].replace("rejected", "rejectet", 1), encoding="utf-8")
    assert len(tampered.read_bytes()) == len(COMMITTED.read_bytes())
    done = subprocess.run([sys.executable, "-m", "core.run.seal", "verify", str(tampered)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stdout.startswith(f"altered: event {target['seq']}: its chain hash does not follow"), done.stdout


def test_a_derived_section_edited_and_resealed_is_named_by_verify(report):
    """A derived section edited and resealed keeps a valid chain, and verify names the section that disagrees with its ledger."""
    edited = copy.deepcopy(report)
    for finding in edited["findings"]:
        if finding["verdict"] == "refuted":
            finding["verdict"] = "confirmed"
    resealed = reseal(edited)
    assert verify_chain(resealed).ok
    verification = verify(resealed)
    assert not verification.ok and verification.section == "findings", verification.message


def test_a_ledger_rewritten_through_a_fresh_door_passes_everything_but_the_kept_head(report):
    """A ledger rewritten through a fresh door and resealed verifies intact and replays in agreement, and only the head kept elsewhere tells it from the report its run sealed."""
    events = [unchained(event) for event in copy.deepcopy(report["events"])]
    rewritten = [event for event in events if event["kind"] == "verdict" and event["status"] == "admitted"
                 and event["payload"]["expect"] == "/staging/"]
    assert len(rewritten) == 1
    rewritten[0]["payload"]["expect"] = "ag"  # the page's rewrite: a part of the quote the 404 page shows
    lie = {**report, "events": events}
    forged = seal(build_report(redo(lie), SECTIONS, given_by(lie)))
    assert forged["run"] == report["run"] and len(forged["events"]) == len(report["events"])
    assert sorted(finding["verdict"] for finding in forged["findings"]) == ["confirmed"] * 6
    verification = verify(forged)
    assert verification.ok, verification.message
    assert replay(forged).divergences == ()
    kept = report["seal"]["head"]
    assert forged["seal"]["head"] != kept
    assert not against_kept_head(verification, forged, kept).ok
    assert against_kept_head(verify(report), report, kept).ok


def test_the_page_points_each_part_of_the_report_to_the_lesson_that_builds_it():
    """The page's tour of the report names every later lesson, 2 to 10, by its page."""
    text = PAGE.read_text(encoding="utf-8")
    tour = pages.section(text, "Inspect it")
    # The reference run uses the part of every lesson from 2 to 11; lesson 12, an optional extra, builds none of it.
    missing = [lesson.number for lesson in manifest.load(REPO) if 1 < lesson.number <= 11
               and Path(lesson.page).name not in tour]
    assert missing == [], f"the tour does not name the pages of lessons {missing}"


class _Marks(HTMLParser):
    """The elements of an SVG picture that carry a class and data-* attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("class") and any(key.startswith("data-") for key in attrs):
            self.marks.append((attrs["class"], attrs))


def _marks(svg: str, cls: str) -> list[dict]:
    parser = _Marks()
    parser.feed(svg)
    return [attrs for found, attrs in parser.marks if found == cls]


def test_the_run_timeline_draws_each_event_in_the_stage_it_was_recorded_in(report):
    """The run timeline draws every event in the band of the stage it was recorded in, a transition in the stage it leaves and authorize first, each band in its stage's colour in the stage machine."""
    expected, stage = [], "authorize"  # read from the ledger's payloads, not the way the picture reads ids
    for event in report["events"]:
        if expected and expected[-1][0] == stage:
            expected[-1][2] = event["seq"]
        else:
            expected.append([stage, event["seq"], event["seq"]])
        if event["kind"] == "transition" and event["status"] == "admitted":
            stage = event["payload"]["to"]
    bands = _marks(pictures.draw("run-timeline"), "stage-band")
    assert [[b["data-stage"], int(b["data-first"]), int(b["data-last"])] for b in bands] == expected
    assert expected[0] == ["authorize", 1, 1] and expected[-1][0] == report["stage"]
    colour_of = {m["data-stage"]: m["data-colour"] for m in _marks(pictures.draw("stage-machine"), "stage")}
    assert all(band["data-colour"] == colour_of[band["data-stage"]] for band in bands)
    assert len(set(colour_of.values())) == len(colour_of)
