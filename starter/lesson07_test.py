"""Lesson 7 completion test: your judgement on captures the check makes, and your plan through the real door.

Your file runs in a process of its own (course/student.py) with the
reference verifier, core.run.verify, unavailable to it. The check sends
``verdict_for`` quotes, expected texts and captures as data, and judges what
comes back here: most cases are made from a seed this run draws and prints
when a case fails (``COURSE_SEED=N course check 7`` makes them again), and
one check hands it the captures the lab really gives for the reference run's
two checks, which the door confirms and refutes. Your plan is run through
lesson 7's whole door in this process, with the plan as the door's own: in
the verify stage the door admits only its acts. By default the checks run
starter/lesson07.py; `course check 7` shows each.
"""

from __future__ import annotations

import random
import sys
import textwrap
from contextlib import closing
from dataclasses import dataclass

import pytest

from core.run.demo_selection import proposal, scripted
from core.run.demo_verification import reference_checks, verify_check, verifying
from core.run.doors import door_for
from core.run.drive import enter, work
from core.run.execute import execute
from core.run.observe import render_response
from core.run.origins import OriginError, canonical_destination
from core.run.policy import Policy
from core.run.records import Capture, action_identity, make_run
from core.run.verify import Check, CheckError, Plan, expect_problem, judge
from course.differ import Edge, Rule, compare
from course.student import Student, seed
from lab.plugin import make_adapter

yours = Student(7, names=("verdict_for", "my_generator_check"), blocked=("core.run.verify",), unreadable=("data",))

LAB = "https://lab.example:443"
ABOUT, CONTACT = f"{LAB}/about", f"{LAB}/contact"
FINDING_ACT = f"inspect_metadata -> {ABOUT}"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
VERDICTS = ("confirmed", "refuted", "inconclusive")
WORDS = ("seeds", "tools", "shed", "hose", "rake", "bulbs", "soil", "fern", "moss", "cedar", "wren", "quill")
ANSWERS = (200, 201, 301, 302, 400, 403, 404, 410)  # responses: each shows or lacks the evidence
SERVER_ERRORS = (500, 502, 503, 504)


# --- cases: a finding's quote, the expected text, and two captures ---------------------------------------


@dataclass(frozen=True)
class Case:
    """One question for ``verdict_for``, and the answer the rules give."""

    what: str  # the case in words, for a failure message
    quote: str
    expect: str
    confirming: dict | None
    control: dict | None
    answer: str  # a verdict, or "refused"

    def asked(self) -> tuple:
        return self.quote, self.expect, self.confirming, self.control


def capture(status: int, page: str, headers: dict | None = None) -> dict:
    return {"status": status, "body": render_response(status, headers or {"Content-Type": "text/html"}, page)}


def the_rules(case: Case) -> str:
    """What the door's own rule gives for ``case`` (the check's cases must agree with it)."""
    if expect_problem(case.quote, case.expect):
        return "refused"

    def held(data):
        return None if data is None else Capture("r" * 64, "a -> https://lab.example:443/", data["status"], data["body"])

    return judge(case.expect, held(case.confirming), held(case.control))[0]


def made(rng: random.Random, kind: str, number: int) -> Case:
    """A fresh case of ``kind``: a quote with a marker in it, and captures that show or lack the marker."""
    word, n = rng.choice(WORDS), rng.randint(1, 99)
    marker = f"lab-{word}-<{rng.choice('bius')}>{n}</{rng.choice('bius')}>"
    quote = rng.choice([f"You asked for: {marker}", f'<meta name="{word}" content="{marker}">', f"Index of /{marker}/"])
    tag = marker.index("<")
    expect = rng.choice([marker, quote, marker[:tag + 2], marker[tag:]])  # each holds a "<" the control escapes
    page = f"<h1>{word.title()} {number}</h1>\n<p>{rng.choice(WORDS)} and {rng.choice(WORDS)}</p>\n"

    def shows(status: int) -> dict:
        return capture(status, page + f"<p>{quote}</p>\n")

    def lacks(status: int) -> dict:
        return capture(status, page + f"<p>{marker.replace('<', '&lt;').replace('>', '&gt;')}</p>\n")

    answer, error = rng.choice(ANSWERS), rng.choice(SERVER_ERRORS)
    made_for = {
        "confirmed": (shows(answer), lacks(rng.choice(ANSWERS)), "the confirming capture shows it, the control lacks it"),
        "refuted": (lacks(answer), lacks(rng.choice(ANSWERS)), f"the confirming capture (HTTP {answer}) lacks it"),
        "refuted, no control": (lacks(answer), None, f"the confirming capture (HTTP {answer}) lacks it, and no "
                                                     "control was made"),
        "refuted, control error": (lacks(answer), lacks(error), f"the confirming capture (HTTP {answer}) lacks it, "
                                                               f"and the control is HTTP {error}"),
        "refuted, control shows": (lacks(answer), shows(rng.choice(ANSWERS)), f"the confirming capture (HTTP "
                                                                               f"{answer}) lacks it, the control "
                                                                               "shows it"),
        "server error": (rng.choice([lacks, shows])(error), lacks(200), f"the confirming capture is HTTP {error}"),
        "no confirming": (None, rng.choice([lacks(200), None]), "no confirming capture was made"),
        "no control": (shows(answer), None, "the confirming capture shows it, and no control was made"),
        "control error": (shows(answer), lacks(error), f"the control is HTTP {error}, a server error"),
        "control shows": (shows(answer), shows(rng.choice(ANSWERS)), "the control shows it too"),
        "not quoted": (capture(200, page + "<p>About us</p>\n"), lacks(200),
                       "the expected text is not part of the quote"),
    }
    confirming, control, what = made_for[kind]
    if kind == "not quoted":  # text the confirming page shows, the quote's in other letters, or more than it
        expect = ["About us", expect.upper(), expect + " ", f"{word.title()} {number}"][number % 4]
    case = Case(what, quote, expect, confirming, control, "")
    rules = the_rules(case)
    assert rules == ("refuted" if kind.startswith("refuted") else
                     {"confirmed": "confirmed", "not quoted": "refused"}.get(kind, "inconclusive"))
    return Case(what, quote, expect, confirming, control, rules)


KINDS = ("confirmed", "refuted", "server error", "no confirming", "no control", "control error", "control shows",
         "not quoted", "refuted, no control", "refuted, control error", "refuted, control shows")


def fresh(kinds: tuple[str, ...], count: int, salt: int) -> list[Case]:
    rng = random.Random(seed() * 37 + salt)
    return [made(rng, kinds[number % len(kinds)], number) for number in range(count)]


def from_seed() -> str:
    chosen = seed()
    return f"(a case made from seed {chosen}: COURSE_SEED={chosen} course check 7 makes it again)"


# --- asking your verdict_for -----------------------------------------------------------------------------


def said(found) -> str:
    if isinstance(found, dict) and "refused" in found:
        return "refused the verdict"
    if isinstance(found, dict):
        return f"answered {found.get('verdict')!r}"
    return f"returned {found!r}"


def problem(case: Case, found, shown: str = "") -> str:
    """Why ``found`` is not the answer the rules give for ``case``, or ""."""
    where = shown or from_seed()
    asked = f"For the quote {case.quote!r} and expect {case.expect!r} ({case.what}), verdict_for {said(found)}"
    if not isinstance(found, dict) or not (set(found) == {"refused"} or set(found) == {"verdict", "reason"}):
        return (f"verdict_for returned {found!r}: it returns {{'refused': reason}}, or {{'verdict': ..., 'reason': "
                f"...}} {where}")
    if "verdict" in found and found["verdict"] not in VERDICTS:
        return f"{asked}: a verdict is one of {', '.join(VERDICTS)} {where}"
    text = found.get("refused", found.get("reason"))
    if not isinstance(text, str) or not text.strip():
        return f"{asked} with no reason in words: every answer says why {where}"
    got = "refused" if "refused" in found else found["verdict"]
    if got == case.answer and got in ("refuted", "confirmed"):
        status = str(case.confirming["status"])
        if not (case.expect in text or repr(case.expect) in text) or status not in text:
            return (f"{asked}, rightly, but its reason {text[:120]!r} does not name the expected text and the "
                    f"confirming capture's HTTP status ({status}): a refuted or confirmed verdict's reason says what "
                    f"was tested {where}")
    if got == case.answer:
        return ""
    why = {
        "refused": "the evidence comes from the finding's own quote: an expected text that is not a part of the "
                   "quote, letter for letter, tests something the finding never showed, and the door refuses it",
        "refuted": "a response that lacks the evidence refutes the claim, whatever its status",
        "confirmed": "a confirming capture that shows the evidence, against a control that really ran and lacks it, "
                     "confirms the claim",
    }.get(case.answer, "")
    if case.answer == "inconclusive":
        why = ("a claim nobody tested is not disproved: no confirming capture, or a server error (5xx), is "
               "inconclusive, never refuted" if case.confirming is None or case.confirming["status"] >= 500 else
               "the evidence confirms nothing unless a control really ran (a capture, not a server error) and lacks "
               "it; otherwise the check cannot tell the weakness from its absence")
    return f"{asked}, where the rules give {case.answer!r}: {why} {where}"


def ask(cases: list[Case], shown: str = "") -> None:
    for case in cases:
        found = problem(case, yours.call("verdict_for", *case.asked()), shown)
        if found:
            pytest.fail(found, pytrace=False)


# --- the checks: the judgement ---------------------------------------------------------------------------


def test_the_evidence_must_come_from_the_findings_quote():
    ask(fresh(("not quoted",), 4, 1) + fresh(("confirmed",), 2, 11))  # each way of not being quoted, once


def test_a_response_without_the_evidence_refutes_whatever_its_status():
    ask(fresh(("refuted", "refuted, no control", "refuted, control error", "refuted, control shows"), 8, 2))


def test_no_capture_or_a_server_error_is_inconclusive_never_refuted():
    ask(fresh(("server error", "no confirming"), 8, 3))


def test_a_control_must_really_run_and_lack_the_evidence():
    ask(fresh(("no control", "control error", "control shows"), 9, 4))


def test_the_evidence_may_be_in_a_header_or_an_error_page():
    rng = random.Random(seed() * 37 + 5)
    version = f"PHP/{rng.randint(5, 8)}.{rng.randint(0, 4)}.{rng.randint(0, 30)}"
    quote = f"x-powered-by: {version}"
    shows = {"status": 200, "body": render_response(200, {"X-Powered-By": version}, "<p>Welcome</p>\n")}
    secure = {"status": 200, "body": render_response(200, {"Server": "Apache"}, "<p>Welcome</p>\n")}
    marker = f"lab-{rng.choice(WORDS)}-<b>{rng.randint(1, 99)}</b>"
    missing = {"status": 404, "body": render_response(404, {}, f"<p>No page at {marker}</p>\n")}
    escaped = {"status": 404, "body": render_response(404, {}, f"<p>No page at {marker.replace('<', '&lt;')}</p>\n")}
    cases = [Case("the evidence is in a response header", quote, version, shows, secure, "confirmed"),
             Case("a 404 page shows the marker, the control's escapes it", f"No page at {marker}", marker, missing,
                  escaped, "confirmed")]
    assert [the_rules(case) for case in cases] == ["confirmed", "confirmed"]
    ask(cases)


def test_fresh_cases_of_every_kind():
    rng = random.Random(seed() * 37 + 6)
    ask([made(rng, rng.choice(KINDS), number) for number in range(48)])


def test_your_rule_and_the_door_agree_on_the_lab():
    for check in reference_checks():
        with verifying("lesson07-agree") as (door, act):
            step = verify_check(door, check, act)
            held = {role: door.get("capture", step[role]["capture_id"]) for role in ("confirming", "control")}
        verdict = step["verdict"]
        case = Case(f"the lab's own captures for {check.claim[:40]}...", check.quote, check.expect,
                    *({"status": held[role]["status"], "body": held[role]["body"]} for role in ("confirming", "control")),
                    verdict["verdict"])
        found = problem(case, yours.call("verdict_for", *case.asked()),
                        f"(the door judged it {verdict['verdict']}: {verdict['reason']})")
        if found:
            pytest.fail(found, pytrace=False)


# --- the edge classes of verdict_for's contract, each asked in every run ------------------------------------
#
# Each class is a kind of input the rules above judge, listed as data: the inputs every run asks (a class's
# boundaries: every status from 100 to 599), and more drawn by Hypothesis from this run's seed. Your answer's
# verdict (or its refusal) is compared with the rule's; the reason's words are the other checks' business.

STATUSES = range(100, 600)  # every status a capture can have
FILLER = "<h1>Garden</h1>\n<p>seeds and tools</p>\n"
CLAUSES = {  # the rule that decides a question, in the contract's words (the docstring's numbered rules)
    "refused": "rule 1, the evidence comes from the finding's own quote, letter for letter, or the door refuses "
               "the verdict",
    "untested": "rule 2, a claim nobody tested is not disproved: no confirming capture, or one with a status from "
                "500 to 599, is inconclusive",
    "refuted": "rule 3, a confirming capture that lacks the evidence refutes the claim, whatever its status below "
               "500",
    "control": "rule 4, evidence that is shown confirms the claim only against a control that really ran (a "
               "capture with a status below 500) and lacks it",
}


def page(status: int, text: str = "", headers: dict | None = None) -> dict:
    """A capture of ``status`` whose page carries ``text`` (and the headers given)."""
    return {"status": status, "body": render_response(status, headers or {"Content-Type": "text/html"},
                                                      FILLER + (f"<p>{text}</p>\n" if text else ""))}


def rule_for(question: tuple) -> Rule:
    """The answer the rules give for one question (the door's own rule), and the rule that decides it."""
    quote, expect, confirming, _control = question
    answer = the_rules(Case("", quote, expect, confirming, _control, ""))
    if expect not in quote:
        return Rule(answer, CLAUSES["refused"])
    if confirming is None or confirming["status"] >= 500:
        return Rule(answer, CLAUSES["untested"])
    if expect not in confirming["body"]:
        return Rule(answer, CLAUSES["refuted"])
    return Rule(answer, CLAUSES["control"])


def answered(found) -> object:
    """What the contract fixes in verdict_for's answer: the verdict, or that it refused."""
    if isinstance(found, dict) and set(found) == {"refused"}:
        return "refused"
    if isinstance(found, dict) and set(found) == {"verdict", "reason"}:
        return found["verdict"]
    return f"no answer (it returned {found!r}, not {{'refused': ...}} or {{'verdict': ..., 'reason': ...}})"


def capture_in_words(capture: dict | None) -> str:
    if capture is None:
        return "None"
    return f"HTTP {capture['status']} {capture['body'].partition(chr(10))[2]!r}"  # the status line says no more


def question_in_words(question: tuple) -> str:
    quote, expect, confirming, control = question
    return (f"the quote {quote!r}, expect {expect!r}, the confirming capture {capture_in_words(confirming)} and the "
            f"control {capture_in_words(control)}")




QUOTE_OF = "<b>lab-fern-7</b>"  # the fixed questions' quote and evidence; drawn ones vary both
EXPECT_OF = "lab-fern-7"


def drawn_text():
    """Hypothesis strategies for a marker (letters in it, so its case can change) and a quote around it."""
    from hypothesis import strategies as st

    marker = st.text(alphabet="abcXYZ09<>=\"/-", max_size=8).map(lambda text: "lab-" + text)
    around = st.text(alphabet="abc<> =\"", max_size=6)
    return st, marker, around


def drawn_questions(make):
    """Questions drawn from a marker, a quote around it, two statuses and two choices: ``make`` builds them."""
    st, marker, around = drawn_text()
    return st.builds(make, marker, around, around, st.integers(100, 599), st.integers(100, 599), st.booleans(),
                     st.booleans())


def either_way(count: int) -> list[bool]:
    """Whether each of ``count`` confirming captures shows the evidence, drawn from the seed.

    Either way a status tells a server error from an answer (inconclusive, or
    else confirmed or refuted), so each status is asked once; the control's
    are asked lacking the evidence, the only way its status decides.
    """
    rng = random.Random(seed() * 37 + 7)
    return [rng.random() < 0.5 for _ in range(count)]


def quoted(expect: str, before: str, after: str) -> str:
    return before + expect + after


EDGE_CLASSES = (
    Edge("the same quote and expected text asked again, with other captures",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, confirming, control) for confirming, control in (
             (page(200, QUOTE_OF), page(404)), (page(200), page(404)), (page(503, QUOTE_OF), page(404)),
             (page(200, QUOTE_OF), page(200, QUOTE_OF)), (page(200, QUOTE_OF), page(404)))]],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [
             (quoted(e, b, a), e, page(status, quoted(e, b, a) if shows else ""), page(other)),
             (quoted(e, b, a), e, page(other, "" if shows else quoted(e, b, a)),
              page(status, e if control_shows else ""))])),
    Edge("a confirming capture of any status from 100 to 599",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, page(status, QUOTE_OF if shows else "lab-moss-7"), page(200))]
                        for status, shows in zip(STATUSES, either_way(len(STATUSES)))],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), e, page(status, quoted(e, b, a) if shows else ""),
             page(other, e if control_shows else ""))])),
    Edge("a negative control of any status from 100 to 599",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, page(200, QUOTE_OF), page(status))] for status in STATUSES],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), e, page(status % 500 + 100 if status >= 500 else status, quoted(e, b, a)),
             page(other, e if control_shows else ""))])),
    Edge("the evidence shown in other letter case",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, page(200, QUOTE_OF.upper()), page(404))],
                        [(QUOTE_OF, EXPECT_OF, page(200, QUOTE_OF), page(404, EXPECT_OF.title()))]],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), e, page(status, quoted(e, b, a) if shows else e.swapcase()),
             page(other, e.swapcase() if control_shows else ""))])),
    Edge("an expected text that is not letter for letter a part of the quote",
         fixed=lambda: [[(QUOTE_OF, wrong, page(200, QUOTE_OF + wrong), page(404))]
                        for wrong in (EXPECT_OF.upper(), EXPECT_OF + " ", " " + EXPECT_OF, EXPECT_OF + "8",
                                      "lab-fern-8", QUOTE_OF + ".")],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), [e.swapcase(), e + "\u00a0", e + a + "!", "!" + b + e][status % 4],
             page(status % 400 + 100, quoted(e, b, a) + e.swapcase() + "!" + e + "\u00a0"),
             page(other, "" if control_shows else e))])),
    Edge("a missing capture, confirming or control",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, confirming, control)]
                        for confirming in (None, page(200, QUOTE_OF), page(404), page(503, QUOTE_OF))
                        for control in (None, page(404))],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), e, page(status, quoted(e, b, a)) if shows else None,
             None if control_shows or not shows else page(other))])),
    Edge("the evidence only in a header, or only on an error page",
         fixed=lambda: [[(QUOTE_OF, EXPECT_OF, page(200, headers={"X-Generator": EXPECT_OF}), page(200)),
                         (QUOTE_OF, EXPECT_OF, page(404, QUOTE_OF), page(404)),
                         (QUOTE_OF, EXPECT_OF, page(200, QUOTE_OF), page(404, headers={"X-Note": EXPECT_OF}))]],
         drawn=lambda: drawn_questions(lambda e, b, a, status, other, shows, control_shows: [(
             quoted(e, b, a), e, page(status, headers={"X-Marker": quoted(e, b, a)} if shows else None),
             page(other, headers={"X-Marker": e} if control_shows else None))])),
)


def test_every_edge_class_of_the_rules_gets_the_rules_answer():
    compare(yours, "verdict_for", EDGE_CLASSES, rule=rule_for, judged=answered, shown=question_in_words)


# --- the checks: your plan, through lesson 7's door -----------------------------------------------------------

POLICY = {
    "reference": "training-authorization-0001",
    "allowed_origins": [LAB],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "recon.passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 3.0, "cost": 1.0},
        {"tool_id": "probe_reflection", "activity": "probe.active_light", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
    ],
    "max_actions": 6,
    "max_model_calls": 4,
}
REPLIES = ([proposal("inspect_metadata", "/about", "The operator's notes say the about page carries a generator tag.")],)
ACTION_SHAPE = '{"tool": ..., "destination": ..., "arguments": {}}'
ROLES = {"confirm": ("the confirming action", "https://lab.example/about"),
         "control": ("the negative control", "https://lab.example/contact")}


@pytest.fixture(scope="module")
def plan():
    made_plan = yours.call("my_generator_check")  # one line when the file cannot load, lacks it, or it raises
    if not isinstance(made_plan, dict):
        pytest.fail(f"my_generator_check() must return a dict (a verification plan), not {type(made_plan).__name__}",
                    pytrace=False)
    return made_plan


def unwritten(plan: dict, name: str) -> str:
    """Why the plan's ``name`` action is not written yet, or ""."""
    action = plan.get(name)
    what, page = ROLES[name]
    if action is None:
        return f"'{name}' is still None: write {what} on {page} as {ACTION_SHAPE}"
    if not isinstance(action, dict) or sorted(action) != ["arguments", "destination", "tool"]:
        return f"'{name}' must be {what} written as {ACTION_SHAPE}, with exactly those three keys, not {action!r}"
    return ""


def incomplete(plan: dict) -> str:
    """What the plan still lacks before the door can run it, or ""."""
    missing = [unwritten(plan, name) for name in ROLES if unwritten(plan, name)]
    if plan.get("expect") == "":
        missing.append("'expect' is still empty: write the part of the quote the confirming capture must show and "
                       "the control must not")
    if missing:
        return "; ".join(missing)
    try:
        Check.from_dict(plan, "verification[0]")
    except CheckError as exc:
        return f"the configuration would refuse your plan: {exc}"
    return ""


def destination_of(action: dict) -> str:
    try:
        return canonical_destination(action["destination"])
    except (OriginError, TypeError, ValueError):
        return repr(action["destination"])


def identity_of(action: dict) -> str:
    try:
        return action_identity(action["tool"], action["destination"])
    except ValueError:
        return ""


def action_written(plan: dict, name: str) -> dict:
    if unwritten(plan, name):
        pytest.fail(unwritten(plan, name), pytrace=False)
    return plan[name]


def verify_plan(plan: dict) -> dict:
    """The fixed run with ``plan`` as the door's plan: the finding, both acts with their evidence, and the verdict."""
    check = Check.from_dict(plan, "verification[0]")
    policy = Policy.from_dict(POLICY)
    door = door_for(7, make_run(policy.snapshot(), {"world": "lesson07-check"}), policy, plan=Plan((check,)))
    door.record("observation", {"run_id": door.run.run_id, "field": "has_meta", "value": True})
    with closing(make_adapter("inprocess")) as adapter:
        work(door, scripted(REPLIES), adapter, reviews={})
        enter(door, "verify")
        return verify_check(door, check, lambda payload: execute(door, payload, adapter))


def test_your_plan_is_one_the_configuration_accepts(plan):
    if not isinstance(plan.get("claim"), str) or not plan["claim"].strip():
        pytest.fail("keep the plan's claim as it was: the finding's claim, in words", pytrace=False)
    if plan.get("evidence") != {"action": FINDING_ACT, "quote": QUOTE}:
        pytest.fail(f"keep the plan's evidence as it was: {{'action': {FINDING_ACT!r}, 'quote': {QUOTE!r}}}",
                    pytrace=False)
    if incomplete(plan):
        pytest.fail(incomplete(plan), pytrace=False)


def test_the_confirming_action_is_a_new_act_on_the_about_page(plan):
    confirm = action_written(plan, "confirm")
    if destination_of(confirm) != ABOUT:
        pytest.fail(f"the confirming action goes to {destination_of(confirm)}; it must look at "
                    "https://lab.example/about, the page the finding quotes", pytrace=False)
    if identity_of(confirm) == FINDING_ACT:
        pytest.fail(f"the confirming action is {FINDING_ACT}, the very act the finding quotes: the door "
                    "refuses it as already recorded, so nothing would be tested; use another tool", pytrace=False)


def test_the_control_is_an_act_on_the_contact_page(plan):
    control = action_written(plan, "control")
    if destination_of(control) != CONTACT:
        pytest.fail(f"the control goes to {destination_of(control)}; it must look at "
                    "https://lab.example/contact, the look-alike page without a generator", pytrace=False)


def test_the_door_confirms_your_finding_with_your_plan(plan):
    if incomplete(plan):
        pytest.fail("the door cannot run your plan until it is complete (the first plan check says what is missing)",
                    pytrace=False)
    step = verify_plan(plan)
    verdict = step.get("verdict", {})
    if verdict.get("verdict") == "confirmed":
        return
    refused = [f"the {role} act was {step[role]['execution']}: {step[role]['detail']}" for role in ("confirming", "control")
               if step.get(role, {}).get("execution") != "succeeded"]
    pytest.fail(f"the door judged the finding {verdict.get('verdict')}: {verdict.get('reason')}"
                + (f" ({'; '.join(refused)})" if refused else ""), pytrace=False)


# --- python3 starter/lesson07_test.py: what the door answers to your plan ---------------------------------


def show(plan: dict) -> None:
    """Print what the door answered to your plan."""
    def say(label: str, text: str) -> None:
        print(textwrap.fill(text, 79, initial_indent=f"  {label:10} ", subsequent_indent=" " * 13,
                            break_on_hyphens=False))

    step = verify_plan(plan)
    print("your plan:")
    for role, name in (("confirming", "confirm"), ("control", "control")):
        act = step[role]
        done = act["detail"] if act["execution"] != "succeeded" else f"HTTP {act['http_status']}"
        say(role, identity_of(plan[name]))
        say("", f"{act['execution']}: {done}; shows expect: {act['shows_expect']}")
    say("verdict", f"{step['verdict'].get('verdict', 'refused')}: {step['verdict']['reason']}")


if __name__ == "__main__":
    try:
        mine = yours.call("my_generator_check")
    except pytest.fail.Exception as failure:  # one line: the file does not load, or the function raised
        sys.exit(str(failure))
    if not isinstance(mine, dict) or incomplete(mine):
        sys.exit(textwrap.fill(f"your plan is not complete yet: {incomplete(mine) if isinstance(mine, dict) else mine}",
                               79))
    show(mine)
