"""Lesson 1 completion test: your derivation of four sections, on reports this check makes fresh.

Your file runs in a process of its own (course/student.py) with the harness
(core/) and the course's data unavailable to it. The check makes the reports
here, in its own process, with the one driver (core/run/drive.py): the
committed reference run, runs under other budgets, verification plans and lab
edits, runs closed early by the operator, and ledgers rewritten through a
fresh door and resealed, all drawn from a seed this run prints
(`COURSE_SEED=N course check 1` makes the same reports again). It sends each
report as JSON, with the verdicts its sections state told otherwise (the
ledger unchanged), and judges what comes back against what the harness itself
derived. Then it edits sections of genuine reports at random, reseals them,
and asks your first_disagreeing_section to name the first one; `seal verify`
is asked the same question about each edited copy, and must agree. By default the checks
load starter/lesson01.py; `course check 1` shows each. The last two checks
ask both functions about small ledgers made on each edge class of the
contract, listed as data (``EDGE_CLASSES``), and compare your answers with
the contract's own derivation.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from core.run.doors import final_door
from core.run.rederive import SECTIONS, given_by, redo, verify
from core.run.drive import DEFAULT_LAB, lab_adapter, reference_config, run, seal_report, work
from core.run.observe import render_response
from core.run.plugins import load_plugin
from core.run.records import make_capture, make_run
from core.run.report import build_report
from core.run.seal import abort, reseal, seal, unchained
from core.run.stages import STAGES, advance
from core.run.verify import Plan
from core.safety import load_safety_pack
from course.differ import Edge, Rule, compare
from course.manifest import course_root
from course.student import Student, on_the_wire, seed

yours = Student(1, names=("derive_sections", "first_disagreeing_section"), blocked=("core", "tlog"),
                unreadable=("data",),
                why="it is the harness that wrote the report; lesson 1's functions read the report's JSON alone")

CHECKED = ("closed", "counts", "findings", "stage")  # the four sections, in the order seal verify names them
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
VERDICTS = ("confirmed", "refuted", "inconclusive", "unverified")
RUNS, CLOSED_EARLY = 4, 2
EDITS, SEVERAL = 8, 6
def parts_of(quote: str, rng: random.Random) -> list[str]:
    """Texts a verification plan may expect: parts of the finding's quote (lesson 7's door takes no other),
    some on the pages its acts fetch and some on none."""
    words = [word for word in quote.split() if len(word) > 1]
    start = rng.randrange(len(quote))
    return [quote, *words, quote[start:start + rng.randint(2, 6)]]
WITHDRAWN = ("the operator withdrew the authorization", "the lab's owner asked to stop", "the budget review ended it")


# --- the reports: the committed one, and reports made here from the seed ----------------------------


def edit_lab(lab: Path) -> None:
    """Edits to a copy of the lab that change what a run finds: the injected note removed, /staging/ served,
    three pages the verification plan visits answering with a server error (a confirming act's page, and two
    controls' pages), and one control's page showing what its confirming page shows: the verdicts of runs against
    it turn on a capture's status, and on what the control shows, too."""
    site = lab / "sites" / "lab.example"
    news = site / "news.html"
    news.write_text(re.sub(r"\s*<!--.*?-->", "", news.read_text(encoding="utf-8"), flags=re.S), encoding="utf-8")
    pages = json.loads((site / "site.json").read_text(encoding="utf-8"))
    pages["pages"]["/staging/"] = {"status": 200, "headers": {"Content-Type": "text/html; charset=utf-8"},
                                   "body": "staging.html"}
    for path, status in (("/gifts/", 500), ("/secure/orders", 503), ("/faq", 502)):
        pages["pages"][path]["status"] = status
    pages["pages"]["/downloads/"]["body"] = pages["pages"]["/backup/"]["body"]  # the control shows the listing
    (site / "site.json").write_text(json.dumps(pages, indent=2) + "\n", encoding="utf-8")
    listing = (site / "backup.html").read_text(encoding="utf-8").replace("/backup/", "/staging/")
    (site / "staging.html").write_text(listing, encoding="utf-8")


def plan(rng: random.Random, reference: list[dict], refused: str = "") -> list[dict]:
    """The reference verification plan, changed at random: other claims, expected texts, quotes and controls.

    ``refused`` makes sure of one refused finding: "quote" (not verbatim, refused by the door) or
    "evidence" (never captured, so the harness refuses it before there is a question for the door).
    """
    checks = []
    for number, check in enumerate(copy.deepcopy(reference)):
        roll = rng.random()
        if roll < 0.12 or (refused == "quote" and number == 1):  # robots.txt: captured early in every run
            check["evidence"]["quote"] += " (as the page said)"  # not verbatim: the door refuses the finding
        elif roll < 0.2 or (refused == "evidence" and number == 0):
            check["evidence"]["action"] = "inspect_headers -> https://lab.example:443/nowhere"  # nothing to quote
        if rng.random() < 0.45:
            check["expect"] = rng.choice(parts_of(check["evidence"]["quote"], rng))
        if rng.random() < 0.2:
            check["control"] = copy.deepcopy(check["confirm"])
        if rng.random() < 0.3:
            check["claim"] += f" Seen again on visit {rng.randint(2, 99)}."
        checks.append(check)
    rng.shuffle(checks)
    return checks


@functools.cache
def reference_verification() -> list[dict]:
    """The reference configuration's verification plan, read once (plan() changes a copy of it)."""
    return reference_config().raw["verification"]


def fresh_config(rng: random.Random, refused: str = "", mark: str = ""):
    """A configuration changed at random; ``mark`` in a claim makes its run one of its own (the plan names the run)."""
    checks = plan(rng, reference_verification(), refused)
    if mark:
        checks[0]["claim"] += f" ({mark})"
    kept = len(Plan(reference_config(verification=checks).checks).acts)  # the verify stage's share of the budget
    return reference_config(policy={"max_actions": kept + rng.randint(2, 10), "max_model_calls": rng.randint(6, 10)},
                            verification=checks)


def closed_early(rng: random.Random, config, lab: Path, world: str) -> dict:
    """A run the operator aborts after a few acts, with a stage move or two tried first (some refused)."""
    door = final_door(make_run(config.policy.snapshot(), {"world": world}), config.policy, config.gating,
                      plan=Plan(config.checks))
    acts, done = rng.randint(1, 5), []

    def withdraw(step: str, answer: object) -> None:
        if step == "executed" and door.closed is None:
            done.append(step)
            if len(done) == acts:
                for to in (rng.choice(STAGES), "launch"):  # the second is refused: no such stage
                    advance(door, to)
                abort(door, rng.choice(WITHDRAWN))

    with lab_adapter(config.plugins, "inprocess", lab) as adapter:
        work(door, load_plugin(config.plugins["model"])(lab), adapter, config.reviews, watch=withdraw)
    if door.closed is None:
        abort(door, rng.choice(WITHDRAWN))
    return seal_report(door, load_safety_pack())


def through_a_fresh_door(report: dict, events: list[dict]) -> dict:
    """``events`` asked of a fresh final door, its report built as a run builds it, and sealed."""
    rewritten = {**report, "events": events}
    forged = seal(build_report(redo(rewritten), SECTIONS, given_by(rewritten)))
    verification = verify(forged)
    if not verification.ok:  # the check's own forgery must pass the harness's own verification
        raise RuntimeError(f"the check's rewritten ledger does not verify: {verification.message}")
    return forged


def rewrites(rng: random.Random, report: dict) -> list[tuple[str, dict]]:
    """Ledgers a forger might write, each fed through a fresh door and resealed: what they changed, and the report."""
    made = []
    events = [unchained(event) for event in report["events"]]
    verdicts = [e for e in events if e["kind"] == "verdict" and e["status"] == "admitted"]
    bodies = {e["id"]: e["payload"]["body"] for e in events if e["kind"] == "capture" and e["status"] == "admitted"}
    quotes = {e["id"]: e["payload"]["quote"] for e in events if e["kind"] == "finding" and e["status"] == "admitted"}
    for event in rng.sample(verdicts, len(verdicts)):
        confirming = bodies.get(event["payload"]["confirming_capture_id"], "")
        control = bodies.get(event["payload"]["control_capture_id"], "")
        quote = quotes.get(event["payload"]["finding_id"], "")
        parts = sorted({quote[i:j] for i in range(len(quote)) for j in range(i + 1, len(quote) + 1)})
        # a part of the quote the confirming answer shows and the control does not: the door takes it
        lines = [part for part in parts if part in confirming and part not in control
                 and part != event["payload"]["expect"]]
        if lines and control:
            changed = copy.deepcopy(events)
            changed[events.index(event)]["payload"]["expect"] = rng.choice(lines)
            made.append(("a verdict's expected text rewritten", through_a_fresh_door(report, changed)))
            break
    findings = [i for i, e in enumerate(events) if e["kind"] == "finding" and e["status"] == "admitted"]
    if findings:
        changed = copy.deepcopy(events)
        changed[rng.choice(findings)]["payload"]["claim"] += " (reworded)"
        made.append(("a finding's claim rewritten", through_a_fresh_door(report, changed)))
    kept = [e for e in events if not (e["status"] == "refused" and e["kind"] == "proposal")]
    if len(kept) < len(events):
        made.append(("its refused proposals left out", through_a_fresh_door(report, kept)))
    return made


def controls_told(report: dict) -> list[tuple[str, dict]]:
    """The committed ledger with its first verdict's control answered otherwise, through a fresh door.

    The control comes back a 404 without the expected text (a real answer, so the finding stands confirmed),
    and a 200 that shows the expected text only in other letters (which is not the text: confirmed too).
    """
    events = [unchained(event) for event in report["events"]]
    captures = {e["id"]: e for e in events if e["kind"] == "capture" and e["status"] == "admitted"}
    verdict = next(e for e in events if e["kind"] == "verdict" and e["status"] == "admitted"
                   and e["payload"]["expect"].swapcase() != e["payload"]["expect"])
    control = captures[verdict["payload"]["control_capture_id"]]
    page = control["payload"]["body"].partition("\n\n")[2]
    made = []
    for what, status, extra in (("its first verdict's control a 404 that lacks the expected text", 404, ""),
                                ("its first verdict's control showing the expected text only in other letters", 200,
                                 f"<p>{verdict['payload']['expect'].swapcase()}</p>\n")):
        body = render_response(status, {}, page + extra)
        held = make_capture(control["payload"]["run_id"], control["payload"]["action_id"], status, body)
        changed = json.loads(json.dumps(events).replace(control["id"], held.capture_id))
        for event in changed:
            if event["kind"] == "capture" and event["id"] == held.capture_id:
                event["payload"]["status"], event["payload"]["body"] = status, body
        made.append((f"the committed report with {what}", through_a_fresh_door(report, changed)))
    return made


@pytest.fixture(scope="module")
def labs():
    """The lab, and a copy of it with edit_lab's edits."""
    with tempfile.TemporaryDirectory() as folder:
        edited = Path(folder) / "lab"
        shutil.copytree(DEFAULT_LAB, edited)
        edit_lab(edited)
        yield DEFAULT_LAB, edited


@pytest.fixture(scope="module")
def reports(labs) -> Made:
    return Made(made_from(seed(), labs))


class Made:
    """The reports of made_from, each made when a check first reaches it and kept for the checks after.

    Every check asks about the committed report first, so a function that is
    not written yet fails there, before any fresh run is made for it.
    """

    def __init__(self, making) -> None:
        self.making, self.made = making, []

    def __iter__(self):
        index = 0
        while True:
            if index == len(self.made):
                try:
                    self.made.append(next(self.making))
                except StopIteration:
                    return
            yield self.made[index]
            index += 1


def again(chosen: int) -> str:
    return f"seed {chosen} (COURSE_SEED={chosen} course check 1 makes it again)"


def made_from(chosen: int, labs: tuple[Path, Path]):
    """Every report the check asks about intact, each with the words that name it, made one at a time."""
    rng = random.Random(chosen)
    committed = json.loads((course_root() / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    yield "the committed report", committed
    for how, forged in rewrites(rng, committed):  # early: a check that fails on the first waits for no run
        yield (f"a report whose ledger was rewritten ({how}) through a fresh door and resealed, "
               f"made from {again(chosen)}", forged)
    for number in range(1, RUNS + 1):
        refused = {1: "quote", 2: "evidence"}.get(number, "")
        report = run(fresh_config(rng, refused), labs[number % 2]).report  # each lab, twice
        if number == 1:
            first_run = report  # its ledger is rewritten below, as the committed one is
        yield f"run {number} of {RUNS} made from {again(chosen)}", report
    yield ("the reference configuration run against the edited lab (a server error on a confirming page and "
           "two controls', a control that shows what its confirming page shows)", run(reference_config(), labs[1]).report)
    for number in range(1, CLOSED_EARLY + 1):
        world = f"lesson01-closed-early-{chosen}-{number}"
        yield (f"run {number} of {CLOSED_EARLY} closed early, made from {again(chosen)}",
               closed_early(rng, fresh_config(rng), DEFAULT_LAB, world))
    for how, forged in rewrites(rng, first_run):
        yield (f"a report whose ledger was rewritten ({how}) through a fresh door and resealed, "
               f"made from {again(chosen)}", forged)


class Unseen:
    """Runs made for one use each and never shown intact, so an edited copy is all your functions see of them:
    nothing remembered from an earlier call can stand in for deriving its sections."""

    def __init__(self, labs: tuple[Path, Path], use: str) -> None:
        self.chosen, self.use, self.labs, self.made = seed(), use, labs, 0
        self.rng = random.Random(f"{self.chosen} {use}")

    def next(self, with_verdicts: bool = False) -> tuple[str, dict]:
        for _ in range(20):
            self.made += 1
            mark = f"{self.use}, case {self.made}"
            config = fresh_config(self.rng, mark=mark)
            if self.rng.random() < 0.2 and not with_verdicts:
                report = closed_early(self.rng, config, DEFAULT_LAB, f"lesson01-{self.chosen}-{mark}")
            else:
                report = run(config, self.rng.choice(self.labs)).report
            if report.get("verdicts") or not with_verdicts:
                return f"a run made for this check only ({mark}, from {again(self.chosen)})", report
        raise RuntimeError("twenty fresh runs in a row held no verdict")


def asked_first(reports: Made, ask) -> None:
    """Ask ``ask`` about the committed report: a function not written yet fails here, before a run is made for it."""
    for _, committed in reports:
        ask(committed)
        return


def genuine(reports: Made):
    return ((which, report) for which, report in reports if "rewritten" not in which)


# --- what the harness derived, and what yours derives -------------------------------------------------


def written(report: dict) -> dict:
    """The four sections as the report holds them, each finding cut to the five fields you derive."""
    return {"closed": report.get("closed"), "counts": report.get("counts"), "stage": report.get("stage"),
            "findings": [{field: finding.get(field) for field in FINDING_FIELDS}
                         for finding in report.get("findings", [])]}


_derived: dict[int, dict] = {}


ANOTHER_VERDICT = {"confirmed": "refuted", "refuted": "inconclusive", "inconclusive": "unverified",
                   "unverified": "confirmed"}


def with_verdicts_told_otherwise(report: dict) -> dict:
    """``report`` with every verdict its sections state turned to another, and each verdict's reason blanked.

    derive_sections is asked about this copy: the ledger is the same, so a
    verdict judged again from it is the same, and one read off the sections
    (the verdict, or the words of its reason) is not.
    """
    told = {**report, **{key: copy.deepcopy(report[key]) for key in ("findings", "verdicts") if key in report}}
    for record in (*told.get("findings", []), *told.get("verdicts", [])):  # the ledger is shared, never changed
        if record.get("verdict") in ANOTHER_VERDICT:
            record["verdict"] = ANOTHER_VERDICT[record["verdict"]]
        for field in ("reason", "verdict_reason"):
            if field in record:
                record[field] = ""
    return told


def derived(report: dict) -> dict:
    """Your derive_sections of ``report`` (asked once per report, with its verdicts told otherwise), checked to be
    the four sections."""
    key = id(report)
    if key not in _derived:
        answer = yours.call("derive_sections", with_verdicts_told_otherwise(report))
        if not isinstance(answer, dict) or sorted(answer) != sorted(CHECKED):
            yours.fail(f"derive_sections returned {str(answer)[:100]!r}: it returns a dict with exactly the keys "
                       f"{', '.join(CHECKED)}")
        _derived[key] = answer
    return _derived[key]


def test_counts_derived_from_the_ledger(reports):
    for which, report in reports:
        answer, expected = derived(report)["counts"], report["counts"]
        assert answer == expected, (
            f"derive_sections gave the counts {answer} for {which}, whose ledger holds {len(report['events'])} "
            f"events: every event is admitted or refused, by its status, and the counts are "
            f"{{'admitted': ..., 'refusals': ...}} over all of them")


def test_the_stage_the_run_ended_in(reports):
    for which, report in reports:
        answer, expected = derived(report)["stage"], report["stage"]
        refused = sum(e["kind"] == "transition" and e["status"] == "refused" for e in report["events"])
        assert answer == expected, (
            f"derive_sections gave the stage {answer!r} for {which}, whose run ended in {expected!r}: a run "
            "starts in 'authorize' and each admitted transition moves it to the stage its payload names"
            + (f"; a refused transition (this ledger has {refused}) moves nothing" if refused else ""))


def test_how_the_run_was_closed(reports):
    for which, report in reports:
        answer, expected = derived(report)["closed"], report["closed"]
        assert answer == expected, (
            f"derive_sections gave closed = {str(answer)[:120]} for {which}: closed is the admitted close "
            "event's how and reason, as its payload says, with the seq of that event")


def test_each_admitted_finding_in_ledger_order(reports):
    for which, report in reports:
        answer = derived(report)["findings"]
        expected = [{k: v for k, v in finding.items() if k != "verdict"} for finding in written(report)["findings"]]
        if not isinstance(answer, list) or not all(isinstance(f, dict) for f in answer):
            yours.fail(f"derive_sections gave findings = {str(answer)[:80]!r} for {which}: a list of dicts")
        got = [{k: v for k, v in finding.items() if k != "verdict"} for finding in answer]
        if got == expected:
            continue
        refused = sum(e["kind"] == "finding" and e["status"] == "refused" for e in report["events"])
        assert False, (
            f"derive_sections gave {len(got)} finding(s) for {which}, whose ledger admitted {len(expected)}"
            f"{f' and refused {refused}' if refused else ''}"
            + ("" if len(got) != len(expected) else " (the same number, but not the same findings in the same order)")
            + ": each admitted finding event, in ledger order, gives finding_id (its id), capture_id, quote and "
            "claim (its payload's); a refused finding is not in the report")


JUDGED_AGAIN = ("a finding's verdict is judged again from its admitted verdict event's expected text and the texts "
                "of its confirming and control captures, in verification's order (no confirming capture, or one "
                "that is a server error, 5xx, is inconclusive; a confirming capture without the text, refuted; no "
                "control, a control that is a server error, or one that shows the text too, inconclusive; "
                "otherwise confirmed), and a finding with no admitted verdict is 'unverified'")


def test_the_verdict_of_each_finding_judged_again_from_its_evidence(reports, labs):
    asked_first(reports, derived)
    # Every run: a control that is a 404, and one that shows the text in other letters, still confirm.
    for which, report in controls_told(next(iter(reports))[1]):
        answer = [finding.get("verdict") for finding in yours.call("derive_sections", report)["findings"]]
        expected = [finding["verdict"] for finding in report["findings"]]
        assert answer == expected, (
            f"derive_sections judged the findings of {which} {answer}, where verification judged them {expected}: "
            f"a 404 is an answer, and a text in other letters is not the text; {JUDGED_AGAIN}")
    for which, report in reports:
        answer = [finding.get("verdict") for finding in derived(report)["findings"]]
        expected = [finding["verdict"] for finding in report["findings"]]
        if len(answer) != len(expected):
            yours.fail(f"derive_sections gave {len(answer)} finding(s) for {which}, not {len(expected)}: see the "
                       "row about the admitted findings")
        for number, (got, verdict) in enumerate(zip(answer, expected), start=1):
            assert got == verdict, (
                f"derive_sections judged finding {number} of {which} {got!r}, where verification judged it "
                f"{verdict!r}: {JUDGED_AGAIN}")
    # The verdicts section is part of the report a reader checks, not of its ledger.
    unseen = Unseen(labs, "verdicts told otherwise")
    for which, report in (unseen.next(with_verdicts=True) for _ in range(2)):
        told = copy.deepcopy(report)
        for verdict in told["verdicts"]:
            verdict["verdict"] = "confirmed" if verdict["verdict"] != "confirmed" else "refuted"
        answer = [finding.get("verdict") for finding in yours.call("derive_sections", reseal(told))["findings"]]
        expected = [finding["verdict"] for finding in report["findings"]]
        assert answer == expected, (
            f"asked about {which} with its verdicts section saying otherwise than its ledger, derive_sections "
            f"judged its findings {answer}, not {expected}: the verdicts section is part of the report you check, "
            f"and {JUDGED_AGAIN}")


def test_the_sections_come_from_the_events_not_from_the_report(reports, labs):
    asked_first(reports, derived)
    unseen = Unseen(labs, "one section edited")
    rng = random.Random(f"{seed()} sections")
    for section in CHECKED * 2:
        which, report = unseen.next()
        edited, what = edit(rng, report, section)
        answer = yours.call("derive_sections", reseal(edited))  # as a forger would hand it over
        expected = written(report)[section]
        theirs = written(edited)[section]
        mine = answer.get(section) if isinstance(answer, dict) else None
        if section == "findings" and isinstance(mine, list):
            mine = [{f: finding.get(f) for f in FINDING_FIELDS} if isinstance(finding, dict) else finding
                    for finding in mine]
        assert mine == expected, (
            f"asked about {which} with its {section} section edited ({what}) and its ledger as it was, "
            f"derive_sections gave {'the edited section' if mine == theirs else str(mine)[:80]}: a section is "
            "what you check, so it is derived from the report's events alone, never copied from the report")


# --- naming the first section that disagrees ------------------------------------------------------------


def edit(rng: random.Random, report: dict, section: str, change: str = "") -> tuple[dict, str]:
    """A copy of ``report`` with one section edited so that it no longer agrees with its ledger, and what changed.

    ``change`` chooses how a finding is edited (by default, at random). Only the sections an edit changes are
    copied (a finding's verdict may change the verdicts section too); the ledger is shared, never changed.
    """
    changed = (section, "verdicts") if section == "findings" else (section,)
    edited = {**report, **{key: copy.deepcopy(report[key]) for key in changed if key in report}}
    if section == "counts":
        counts, key = edited["counts"], rng.choice(["admitted", "refusals"])
        step = rng.choice([-2, -1, 1, 3]) if counts[key] > 2 else rng.choice([1, 2])
        counts[key] += step
        return edited, f"{key} made {counts[key]}"
    if section == "stage":
        edited["stage"] = rng.choice([stage for stage in STAGES if stage != report["stage"]])
        return edited, f"the stage made {edited['stage']!r}"
    if section == "closed":
        closed = edited["closed"]
        change = rng.choice(["how", "reason", "seq"])
        if change == "how":
            closed["how"] = "aborted" if closed["how"] == "finished" else "finished"
        elif change == "reason":
            closed["reason"] += " (and nothing went wrong)"
        else:
            closed["seq"] -= 1
        return edited, f"its {change} changed"
    findings = edited["findings"]
    if not findings:
        held = [capture["capture_id"] for capture in report["captures"]] or ["0" * 64]
        forged = {"capture_id": held[0], "claim": "The lab is misconfigured.",
                  "finding_id": "f" * 64, "quote": "HTTP/1.1 200 OK", "run_id": report["run"]["run_id"],
                  "verdict": "confirmed", "verdict_id": "", "verdict_reason": "checked by hand"}
        findings.append(forged)
        return edited, "a finding added that the ledger never admitted"
    change = change or rng.choice(["verdict", "verdict in both", "claim", "quote", "dropped", "repeated"])
    target = rng.randrange(len(findings))
    finding = findings[target]
    if change.startswith("verdict"):
        old = finding["verdict"]
        finding["verdict"] = rng.choice([v for v in VERDICTS if v != old])
        if change == "verdict in both":  # the verdicts section told the same story: still not what the ledger says
            for verdict in edited.get("verdicts", []):
                if verdict["verdict_id"] == finding["verdict_id"] and finding["verdict"] != "unverified":
                    verdict["verdict"] = finding["verdict"]
        return edited, f"finding {target + 1}'s verdict made {finding['verdict']!r} (it was {old!r})"
    if change in ("claim", "quote"):
        finding[change] += " and more"
        return edited, f"finding {target + 1}'s {change} reworded"
    if change == "dropped":
        del findings[target]
        return edited, f"finding {target + 1} left out"
    findings.append(copy.deepcopy(finding))
    return edited, f"finding {target + 1} listed twice"


def named_by_verify(resealed: dict) -> str:
    """The section seal verify names first in ``resealed``: the check's own route to the answer."""
    verification = verify(resealed)
    return verification.section if not verification.ok else ""


def answer_of(report: dict) -> object:
    answer = yours.call("first_disagreeing_section", report)
    if answer is not None and answer not in CHECKED:
        yours.fail(f"first_disagreeing_section returned {str(answer)[:60]!r}: it returns one of "
                   f"{', '.join(CHECKED)}, or None")
    return answer


def test_an_intact_report_has_no_disagreeing_section(reports):
    for which, report in genuine(reports):
        answer = answer_of(report)
        assert answer is None, (
            f"first_disagreeing_section named {answer!r} for {which}, which the harness sealed as it derived it: "
            "every section agrees with its ledger, so there is none to name (None)")


def test_an_edited_section_is_named(reports, labs):
    asked_first(reports, answer_of)
    committed = next(iter(reports))[1]  # every run: its findings listed in another order, each one kept as it was
    reordered = copy.deepcopy(committed)
    reordered["findings"] = reordered["findings"][1:] + reordered["findings"][:1]
    reordered = reseal(reordered)
    if named_by_verify(reordered) != "findings":
        raise RuntimeError("seal verify does not name findings after the check's reordering")
    answer = answer_of(reordered)
    assert answer == "findings", (
        f"the committed report with its findings listed in another order, each kept as it was: "
        f"first_disagreeing_section returned {answer!r}. The findings section is a list in ledger order, so "
        "another order disagrees with the ledger, and a section that disagrees with its ledger is named")
    chosen = seed()
    rng = random.Random(f"{chosen} one edit")
    unseen = Unseen(labs, "a section edited")
    for number in range(1, EDITS + 1):
        section = CHECKED[(number - 1) % len(CHECKED)]
        first_of_findings = section == "findings" and number <= len(CHECKED)  # one verdict edit, whatever the seed
        which, report = unseen.next(with_verdicts=first_of_findings)  # a run whose findings have verdicts to edit
        change = rng.choice(["verdict", "verdict in both"]) if first_of_findings else ""
        edited, what = edit(rng, report, section, change)
        edited = reseal(edited)  # resealed, as a forger would hand it over: chain and seal hold
        if named_by_verify(edited) != section:
            raise RuntimeError(f"seal verify does not name {section} after the check's edit ({what})")
        answer = answer_of(edited)
        assert answer == section, (
            f"{which} with its {section} section edited ({what}): first_disagreeing_section returned {answer!r}. "
            f"The {section} section is not what its ledger derives, and a section that disagrees with its ledger "
            f"is named (edit {number} of seed {chosen})")


def test_the_first_of_several_edited_sections_is_named(reports, labs):
    asked_first(reports, answer_of)
    chosen = seed()
    rng = random.Random(f"{chosen} several edits")
    unseen = Unseen(labs, "sections edited")
    for number in range(1, SEVERAL + 1):
        which, report = unseen.next()
        sections = sorted(rng.sample(CHECKED, rng.randint(2, 4)), key=CHECKED.index)
        edited, whats = report, []
        for section in sections:
            edited, what = edit(rng, edited, section)
            whats.append(f"{section}: {what}")
        edited = reseal(edited)
        if named_by_verify(edited) != sections[0]:
            raise RuntimeError(f"seal verify does not name {sections[0]} first after the check's edits ({whats})")
        answer = answer_of(edited)
        assert answer == sections[0], (
            f"{which} with the sections {', '.join(sections)} edited ({'; '.join(whats)}): "
            f"first_disagreeing_section returned {answer!r}. Of the sections that disagree with their ledger, the "
            f"first in the order {', '.join(CHECKED)} is named: {sections[0]!r} (edit {number} of seed {chosen})")


def test_a_ledger_rewritten_through_a_fresh_door_and_resealed(reports):
    asked_first(reports, answer_of)
    asked = 0
    for which, report in reports:
        if "rewritten" not in which:
            continue
        asked += 1
        answer = answer_of(report)
        assert answer is None, (
            f"first_disagreeing_section named {answer!r} for {which}. Each of its sections was derived from that "
            "ledger by a door, so each agrees with it, and comparing them cannot tell it from a report sealed as it "
            "ran: a function that claims to is reading something other than the report's own ledger")
    assert asked, "the check made no rewritten ledger to ask about"


# --- the edge classes of the two contracts, each asked in every run --------------------------------------
#
# Ledgers made here, small enough to read in a failing row, each built to sit on one of the contract's edges;
# the rule is the contract's own (starter/lesson01.py's docstring), and the answer compared is what it fixes:
# a section, a verdict, a section's name. Every ledger is sent with its sections told otherwise, so a section
# copied from the report is not a section derived from its events.

LAB = "https://lab.example:443"
SERVER_ERROR_FROM = 500
WORDS_OF = {
    "counts": "every event is admitted or refused, by its status, and the counts are {'admitted': ..., "
              "'refusals': ...} over all of them",
    "stage": "a run starts in 'authorize', and each admitted transition enters the stage its payload names; a "
             "refused one moves nothing",
    "closed": "closed is the admitted close event's how and reason, with that event's own seq, or None for a run "
              "never closed",
    "findings": "each admitted finding event, in ledger order, gives finding_id (its id), capture_id, quote and "
                "claim; a refused finding is no finding",
    "verdicts": "a verdict is judged again from its admitted verdict event and admitted captures: no confirming "
                "capture or one of status 500 to 599, inconclusive; one without the text, letter for letter, "
                "refuted; no control, one of status 500 to 599, or one that shows the text, inconclusive; else "
                "confirmed; a finding no admitted verdict names, unverified",
    "all": "the four sections are derived from the report's events alone, the same whatever was asked before",
    "first": "the first of closed, counts, findings and stage, in that order, whose value in the report is not "
             "what its ledger derives is named, or None when all four agree; a finding is compared on its five "
             "fields alone",
}


def event(kind: str, payload, status: str = "admitted", key: str = "") -> dict:
    """One ledger event, its seq given when the ledger is made; a refused one keeps its payload or None."""
    return {"kind": kind, "status": status, "id": key if status == "admitted" else "", "payload": payload,
            "reason": "" if status == "admitted" else "refused by the check's ledger", "code": ""}


def ledger(*events: dict) -> list[dict]:
    return [{**made, "seq": seq} for seq, made in enumerate(events)]


def capture_event(key: str, status: int, page: str, admitted: str = "admitted") -> dict:
    return event("capture", {"run_id": "r" * 64, "action_id": f"inspect_headers -> {LAB}/{key}", "status": status,
                             "body": f"HTTP/1.1 {status} X\nContent-Type: text/html\n\n{page}"}, admitted, key)


def finding_event(key: str, capture: str = "c1", quote: str = "lab-fern-7", admitted: str = "admitted") -> dict:
    return event("finding", {"run_id": "r" * 64, "capture_id": capture, "quote": quote,
                             "claim": f"The page shows {quote}."}, admitted, key)


def verdict_event(finding: str, expect: str, confirming: str, control: str, admitted: str = "admitted") -> dict:
    return event("verdict", {"run_id": "r" * 64, "finding_id": finding, "expect": expect,
                             "confirming_capture_id": confirming, "control_capture_id": control}, admitted,
                 f"v-{finding}")


def rule_sections(events: list[dict]) -> dict:
    """The four sections the contract derives from ``events``."""
    def admitted(kind):
        return [e for e in events if e["kind"] == kind and e["status"] == "admitted"]

    refused = sum(e["status"] == "refused" for e in events)
    stage = "authorize"
    for move in admitted("transition"):
        stage = move["payload"]["to"]
    closed = None
    for close in admitted("close"):
        closed = {"how": close["payload"]["how"], "reason": close["payload"]["reason"], "seq": close["seq"]}
    captures = {e["id"]: e["payload"] for e in admitted("capture")}
    verdicts = {}
    for verdict in admitted("verdict"):
        payload = verdict["payload"]
        confirming, control = (captures.get(payload[key]) for key in ("confirming_capture_id", "control_capture_id"))
        expect = payload["expect"]
        if confirming is None or confirming["status"] >= SERVER_ERROR_FROM:
            verdicts[payload["finding_id"]] = "inconclusive"
        elif expect not in confirming["body"]:
            verdicts[payload["finding_id"]] = "refuted"
        elif control is None or control["status"] >= SERVER_ERROR_FROM or expect in control["body"]:
            verdicts[payload["finding_id"]] = "inconclusive"
        else:
            verdicts[payload["finding_id"]] = "confirmed"
    findings = [{"finding_id": e["id"], "capture_id": e["payload"]["capture_id"], "quote": e["payload"]["quote"],
                 "claim": e["payload"]["claim"], "verdict": verdicts.get(e["id"], "unverified")}
                for e in admitted("finding")]
    return {"closed": closed, "counts": {"admitted": len(events) - refused, "refusals": refused},
            "findings": findings, "stage": stage}


def sections_told_otherwise(events: list[dict]) -> dict:
    """A report of ``events`` whose sections say otherwise than its ledger, each of the four."""
    derived = rule_sections(events)
    return {"events": events, "closed": {"how": "finished", "reason": "told otherwise", "seq": len(events)},
            "counts": {"admitted": derived["counts"]["refusals"] + 1, "refusals": derived["counts"]["admitted"] + 1},
            "stage": "report" if derived["stage"] != "report" else "verify",
            "findings": [{**finding, "verdict": "confirmed" if finding["verdict"] != "confirmed" else "refuted",
                          "claim": finding["claim"] + " (told otherwise)", "run_id": "r" * 64}
                         for finding in derived["findings"][::-1]]}


_question: list = []  # the question being compared, so the answer is cut to the section its class judges


def derive_rule(question: tuple) -> Rule:
    _question[:] = [question]
    section, report = question
    return Rule(cut(rule_sections(report["events"]), section), WORDS_OF[section])


def cut(sections, section: str) -> object:
    """The part of derive_sections' answer that ``section``'s class judges."""
    if not isinstance(sections, dict) or sorted(sections) != sorted(CHECKED):
        return f"no answer (it returned {str(sections)[:80]!r}, not a dict of exactly {', '.join(CHECKED)})"
    if section == "all":
        return on_the_wire({**sections, "findings": five_fields(sections["findings"])})
    if section in ("findings", "verdicts"):
        findings = five_fields(sections["findings"])
        if section == "verdicts" and isinstance(findings, list):
            return [finding.get("verdict") if isinstance(finding, dict) else finding for finding in findings]
        return findings
    return sections[section]


def five_fields(findings) -> object:
    if not isinstance(findings, list):
        return findings
    return [{field: finding.get(field) for field in FINDING_FIELDS} if isinstance(finding, dict) else finding
            for finding in findings]


def derived_part(answer) -> object:
    return cut(answer, _question[0][0])


def report_in_words(question: tuple) -> str:
    report = question[-1]
    told = []
    for e in report["events"]:
        payload = e["payload"] if isinstance(e["payload"], dict) else {}
        shown_payload = {key: (value if not isinstance(value, str) or len(value) < 60 else value[:57] + "...")
                         for key, value in payload.items() if key not in ("run_id", "action_id")}
        told.append(f"{e['seq']} {e['kind']} {e['status']}{' ' + e['id'] if e['id'] else ''} "
                    f"{shown_payload if e['payload'] is not None else 'no payload'}")
    return f"the ledger [{'; '.join(told)}]"


def report_of(*events: dict) -> dict:
    return sections_told_otherwise(ledger(*events))


@functools.cache  # a strategy is a value: each class that draws from one section's ledgers shares it
def drawn_ledgers(section: str):
    """Ledgers drawn from the events a run records, near the classes' edges."""
    from hypothesis import strategies as st

    statuses = st.sampled_from(("admitted", "admitted", "admitted", "refused"))
    http = st.sampled_from((200, 404, 499, 500, 501, 507, 599, 100, 302))
    text = st.sampled_from(("lab-fern-7", "Lab-Fern-7", "lab-fern-", "lab-fern-7 ", "lab-fern-70", "lab-fern-\u0437"))
    one = st.one_of(
        st.builds(lambda to, status, n: event("transition", {"to": to}, status, f"t{n}"), st.sampled_from(STAGES),
                  statuses, st.integers(0, 10**6)),
        st.builds(lambda how, status: event("close", {"how": how, "reason": "the check closed it"}, status, "x"),
                  st.sampled_from(("finished", "aborted")), statuses),
        st.builds(lambda key, code, page, status: capture_event(key, code, page, status),
                  st.sampled_from(("c1", "c2", "c3")), http, text, statuses),
        st.builds(lambda key, quote, status: finding_event(key, "c1", quote, status),
                  st.sampled_from(("f1", "f2", "f3")), text, statuses),
        st.builds(lambda finding, expect, confirming, control, status: verdict_event(finding, expect, confirming,
                                                                                     control, status),
                  st.sampled_from(("f1", "f2", "f3")), text, st.sampled_from(("c1", "c2", "c3", "")),
                  st.sampled_from(("c1", "c2", "c3", "")), statuses),
        st.builds(lambda status: event("proposal", None if status == "refused" else {"tool": "x"}, status, "p"),
                  statuses))

    def unique(events):  # the door never admits two records of one id
        seen, kept = set(), []
        for made in events:
            if made["status"] == "admitted" and made["id"] in seen:
                continue
            seen.add(made["id"])
            kept.append(made)
        return kept

    return st.lists(one, max_size=12).map(lambda events: [(section, report_of(*unique(events)))])


def page_of(status: int, shows: bool, expect: str = "lab-fern-7") -> str:
    return f"<p>{expect if shows else 'nothing here'}</p>"


def status_questions() -> list[list]:
    """Every status from 100 to 599, as the confirming capture (showing the text or not) and as the control."""
    made = []
    for start in range(100, 600, 100):
        events = []
        for number, status in enumerate(range(start, start + 100)):
            shows = number % 2 == 0
            events += [capture_event(f"c{status}", status, page_of(status, shows)),
                       capture_event(f"k{status}", status, page_of(status, False)),
                       capture_event(f"s{status}", 200, page_of(200, True)),
                       finding_event(f"f{status}", f"c{status}"), finding_event(f"g{status}", f"s{status}"),
                       verdict_event(f"f{status}", "lab-fern-7", f"c{status}", "n0"),
                       verdict_event(f"g{status}", "lab-fern-7", f"s{status}", f"k{status}")]
        made.append([("verdicts", report_of(capture_event("n0", 200, page_of(200, False)), *events))])
    return made


def text_questions() -> list[list]:
    pages = ("lab-fern-7", "LAB-FERN-7", "lab-fern-", "lab-fern-7 ", "lab-fern-70", "lab\u2011fern\u20117", "")
    made = []
    for expect in ("lab-fern-7", "Lab-Fern-7", "lab-fern-7 ", " lab-fern-7", "lab-fern-70", "lab-fern-"):
        events = [capture_event("k", 404, "<p>nothing</p>")]
        for number, page in enumerate(pages):
            events += [capture_event(f"c{number}", 200, f"<p>{page}</p>"),
                       capture_event(f"d{number}", 404, f"<p>{page}</p>"),
                       finding_event(f"f{number}", f"c{number}"), finding_event(f"g{number}", "k"),
                       verdict_event(f"f{number}", expect, f"c{number}", "k"),
                       verdict_event(f"g{number}", expect, "c0", f"d{number}")]
        made.append([("verdicts", report_of(*events))])
    return made


def missing_questions() -> list[list]:
    return [[("verdicts", report_of(
        capture_event("c1", 200, "<p>lab-fern-7</p>"), capture_event("k1", 404, "<p>none</p>"),
        capture_event("c2", 200, "<p>lab-fern-7</p>", "refused"), capture_event("k2", 404, "<p>none</p>", "refused"),
        finding_event("f1"), finding_event("f2"), finding_event("f3"), finding_event("f4"), finding_event("f5"),
        finding_event("f6"), finding_event("f7"),
        verdict_event("f1", "lab-fern-7", "", "k1"), verdict_event("f2", "lab-fern-7", "c1", ""),
        verdict_event("f3", "lab-fern-7", "c2", "k1"), verdict_event("f4", "lab-fern-7", "c1", "k2"),
        verdict_event("f5", "lab-fern-7", "c1", "k1", "refused"), verdict_event("f6", "lab-fern-7", "k9", "k1"),
        verdict_event("f9", "lab-fern-7", "c1", "k1"),
        event("verdict", None, "refused"), verdict_event("f7", "lab-fern-7", "k1", "c1"),
    ))]]


def count_questions() -> list[list]:
    return [[("counts", report_of())], [("counts", report_of(event("proposal", {"tool": "x"}, key="p")))],
            [("counts", report_of(event("proposal", None, "refused")))],
            [("counts", report_of(*(event("action", None, "refused") for _ in range(3)),
                                  event("proposal", {"tool": "x"}, key="p")))]]


def stage_questions() -> list[list]:
    moves = (((), "authorize"), (("observe",), ""), (("observe", "propose", "observe"), ""),
             (("verify",), "refused"), (("propose", "propose"), ""), (("report", "launch"), "last refused"))
    made = []
    for stages, how in moves:
        events = [event("transition", {"to": to}, "refused" if how == "refused" or
                        (how == "last refused" and number == len(stages) - 1) else "admitted", f"t{number}")
                  for number, to in enumerate(stages)]
        events.insert(0, event("transition", None, "refused"))
        made.append([("stage", report_of(*events))])
    return made


def close_questions() -> list[list]:
    def close(how: str, status: str = "admitted") -> dict:
        return event("close", {"how": how, "reason": f"{how} by the check"}, status, "x")
    return [[("closed", report_of(event("proposal", {"tool": "x"}, key="p"), close("aborted")))],
            [("closed", report_of(close("finished", "refused"), event("proposal", {"tool": "x"}, key="p")))],
            [("closed", report_of(event("proposal", {"tool": "x"}, key="p"), event("close", None, "refused")))],
            [("closed", report_of(*(event("action", None, "refused") for _ in range(4)), close("finished")))],
            [("closed", report_of())]]


def finding_questions() -> list[list]:
    return [[("findings", report_of(capture_event("c1", 200, "x"), finding_event("f2"), finding_event("f1"),
                                    finding_event("f3", quote="lab-moss-1", admitted="refused"), finding_event("f0")))],
            [("findings", report_of(event("finding", None, "refused"), finding_event("f1")))],
            [("findings", report_of(*(finding_event(f"f{n}", quote="the same quote") for n in (9, 3, 5, 1))))],
            [("findings", report_of())]]


def twice_questions() -> list[list]:
    first = report_of(capture_event("c1", 200, "<p>lab-fern-7</p>"), capture_event("k1", 404, "x"),
                      finding_event("f1"), verdict_event("f1", "lab-fern-7", "c1", "k1"),
                      event("transition", {"to": "observe"}, key="t"))
    other = report_of(capture_event("c1", 200, "<p>none</p>"), capture_event("k1", 404, "x"),
                      finding_event("f1"), verdict_event("f1", "lab-fern-7", "c1", "k1"))
    return [[("all", first), ("all", other), ("all", first), ("all", report_of()), ("all", other)]]


DERIVE_EDGE_CLASSES = (
    Edge("the same ledger asked again, after another", fixed=twice_questions,
         drawn=lambda: drawn_ledgers("all").map(lambda questions: questions * 2), draws=5),
    Edge("a confirming or control capture of any status from 100 to 599", fixed=status_questions,
         drawn=lambda: drawn_ledgers("verdicts"), draws=8),
    Edge("an expected text in other letters, or that differs from the page only at its end", fixed=text_questions,
         drawn=lambda: drawn_ledgers("verdicts"), draws=8),
    Edge("a verdict whose capture is missing, refused, or not a capture at all, and a verdict of no finding",
         fixed=missing_questions, drawn=lambda: drawn_ledgers("verdicts"), draws=8),
    Edge("a ledger of no events, of one, of refusals only, and refusals with no payload", fixed=count_questions,
         drawn=lambda: drawn_ledgers("counts"), draws=5),
    Edge("transitions refused, repeated, and back to an earlier stage", fixed=stage_questions,
         drawn=lambda: drawn_ledgers("stage"), draws=5),
    Edge("a close refused, a close with no payload, and no close", fixed=close_questions,
         drawn=lambda: drawn_ledgers("closed"), draws=5),
    Edge("findings refused, with no payload, out of id order, and with one quote repeated",
         fixed=finding_questions, drawn=lambda: drawn_ledgers("findings"), draws=5),
)


def first_rule(question: tuple) -> Rule:
    report = question[1]
    derived = rule_sections(report["events"])
    written = {section: report.get(section) for section in CHECKED}
    written["findings"] = five_fields(report.get("findings", []))
    return Rule(next((section for section in CHECKED if written[section] != derived[section]), None), WORDS_OF["first"])


def named(answer) -> object:
    return answer if answer is None or answer in CHECKED else f"no answer (it returned {str(answer)[:60]!r})"


def agreeing(*events: dict) -> dict:
    """A report of ``events`` whose sections are what its ledger derives (each finding with more fields)."""
    events = ledger(*events)
    derived = rule_sections(events)
    return {"events": events, **derived,
            "findings": [{**finding, "run_id": "r" * 64, "verdict_id": "", "verdict_reason": ""}
                         for finding in derived["findings"]]}


RUN = (capture_event("c1", 200, "<p>lab-fern-7</p>"), capture_event("k1", 404, "<p>none</p>"),
       finding_event("f1"), finding_event("f2", quote="lab-moss-2"), finding_event("f3", admitted="refused"),
       verdict_event("f1", "lab-fern-7", "c1", "k1"), event("transition", {"to": "observe"}, key="t1"),
       event("transition", {"to": "launch"}, "refused"), event("close", {"how": "finished", "reason": "done"},
                                                                key="x"))


def edited(report: dict, *changes) -> dict:
    told = copy.deepcopy(report)
    for change in changes:
        change(told)
    return told


def first_questions() -> list[list]:
    base = agreeing(*RUN)
    edits = {
        "closed": lambda r: r["closed"].update(seq=r["closed"]["seq"] - 1),
        "counts": lambda r: r["counts"].update(refusals=r["counts"]["refusals"] + 1),
        "findings": lambda r: r["findings"][0].update(verdict="refuted"),
        "stage": lambda r: r.update(stage="launch"),
    }
    made = [[("first", base)], [("first", edited(base, lambda r: r["findings"][0].update(extra="kept")))]]
    for number in range(1, 16):  # every set of sections edited at once
        chosen = [section for bit, section in enumerate(CHECKED) if number >> bit & 1]
        made.append([("first", edited(base, *(edits[section] for section in chosen)))])
    return made


def finding_order_questions() -> list[list]:
    base = agreeing(*RUN)
    return [[("first", edited(base, lambda r: r["findings"].reverse()))],
            [("first", edited(base, lambda r: r["findings"].append(copy.deepcopy(r["findings"][0]))))],
            [("first", edited(base, lambda r: r["findings"].pop()))],
            [("first", edited(base, lambda r: r["findings"][1].update(claim=r["findings"][1]["claim"] + " ")))],
            [("first", edited(base, lambda r: r["findings"][1].pop("verdict_reason")))],
            [("first", agreeing(*RUN[:-1]))]]


def first_twice_questions() -> list[list]:
    base = agreeing(*RUN)
    told = edited(base, lambda r: r.update(stage="launch"))
    return [[("first", base), ("first", told), ("first", base), ("first", told)]]


@functools.cache
def drawn_first():
    from hypothesis import strategies as st

    def make(questions, sections, text):
        report = agreeing(*questions[0][1]["events"])
        for section in sections:
            if section == "findings" and report["findings"]:
                report["findings"][-1]["quote"] += text
            elif section == "counts":
                report["counts"]["admitted"] += len(text)
            elif section == "stage":
                report["stage"] = report["stage"] + text
            elif section == "closed":
                report["closed"] = None if report["closed"] else {"how": "finished", "reason": text, "seq": 0}
        return [("first", report)]

    return st.builds(make, drawn_ledgers("first"), st.sets(st.sampled_from(CHECKED)), st.sampled_from((" ", "!", "x")))


FIRST_EDGE_CLASSES = (
    Edge("every set of sections edited at once, and none", fixed=first_questions, drawn=drawn_first, draws=8),
    Edge("findings reordered, repeated, dropped, respelt at their end, or with fewer extra fields",
         fixed=finding_order_questions, drawn=drawn_first, draws=5),
    Edge("the same report asked again, after an edited copy", fixed=first_twice_questions,
         drawn=lambda: drawn_first().map(lambda questions: questions * 2), draws=5),
)
EDGE_CLASSES = DERIVE_EDGE_CLASSES + FIRST_EDGE_CLASSES


def test_every_edge_class_of_derive_sections_gets_the_rules_answer():
    compare(yours, "derive_sections", DERIVE_EDGE_CLASSES, rule=derive_rule, judged=derived_part,
            shown=report_in_words, arguments=lambda question: (question[1],), unchanged=True)


def test_every_edge_class_of_first_disagreeing_section_gets_the_rules_answer():
    compare(yours, "first_disagreeing_section", FIRST_EDGE_CLASSES, rule=first_rule, judged=named,
            shown=report_in_words, arguments=lambda question: (question[1],), unchanged=True)
