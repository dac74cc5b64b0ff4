"""Lesson 6 completion test: your write-ahead step, with the check's own door and the check's own adapters.

Your file runs in a process of its own (course/student.py) with the
reference executor, core.run.execute, unavailable to it (all but NotSent).
The door and the adapters stay here, in the check's process: your
``write_ahead`` gets them as two functions, ``record`` and ``fetch``, that
send their arguments here and bring the answer back. So the check sees each
step as it happens: what the ledger held when the adapter was asked, what was
recorded after, and what the door refused.

The adapters answer from tables this run makes from a seed it draws and
prints when a case fails (``COURSE_SEED=N course check 6`` makes them again):
URLs with responses of many statuses, URLs nothing was sent to, requests
that time out or are reset once they may have reached the target, answers
that are not responses. One check runs your step in the lesson's loop
(core/run/drive.py:work) and compares the ledger with the reference
executor's on the same acts; the last asks every edge class of the contract,
listed as data (``EDGE_CLASSES``), each act in a run of its own. By default
the checks run starter/lesson06.py; `course check 6` shows each.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from dataclasses import dataclass

import pytest

from core.run.drive import door_without_selection
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.drive import work
from core.run.execute import AdapterResult, ExecutionResult, NotSent, execute, request_url
from core.run.observe import render_response
from core.run.policy import reference_policy
from core.run.records import make_run
from course.differ import Edge, Rule, compare
from course.student import Callback, Raised, Relayed, Student, seed

yours = Student(6, names=("write_ahead",), blocked=("core.run.execute",), unreadable=("data",),
                let_out={"core.run.execute": ("NotSent",)})

LAB = "https://lab.example"
WORDS = ("seeds", "tools", "shed", "hose", "rake", "bulbs", "soil", "trowel", "fern", "moss", "cedar", "wren")
RESPONSES = (200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 410, 418, 429, 500, 502, 503, 504)
NAMES = ("Content-Type", "content-type", "X-Served-By", "Cache-Control", "ETag", "Retry-After", "Location")
AFTER_SENDING = (TimeoutError, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


# --- the check's adapters: a table of what each URL does -------------------------------------------


@dataclass(frozen=True)
class Case:
    """One act and what the adapter does when it is asked for the act's URL."""

    path: str
    does: str  # "responds", "not sent", "after sending", "odd", "refused capture", and two of REFUSED_SETTLEMENT
    status: int = 0
    headers: tuple[tuple[str, str], ...] = ()
    body: str = ""
    error: str = ""  # the exception's class name, for "after sending"
    message: str = ""

    @property
    def url(self) -> str:
        return f"{LAB}:443{self.path}"

    @property
    def adapter_does(self) -> str:
        """What the adapter does for this case (a refused settlement is the door's doing, not the adapter's)."""
        return REFUSED_SETTLEMENT.get(self.does, self.does)

    def answer(self):
        """What the adapter gives the reference executor: an AdapterResult, or it raises."""
        if self.adapter_does == "not sent":
            raise NotSent(self.message)
        if self.does == "after sending":
            raise next(kind for kind in AFTER_SENDING if kind.__name__ == self.error)(self.message)
        if self.does == "odd":
            return None  # not a response at all
        return AdapterResult(self.status, self.headers, self.body)

    def as_data(self):
        """What the adapter gives your step: the same answer, as data."""
        answer = self.answer()
        if answer is None:
            return None
        return {"status": answer.status, "headers": [list(pair) for pair in answer.headers], "body": answer.body}

    def said(self) -> str:
        """What the adapter did, in words, for a failure message."""
        if self.does in REFUSED_SETTLEMENT:
            return (Case(self.path, self.adapter_does, self.status, self.headers, self.body, self.error,
                         self.message).said() + ", and the door refused the settlement")
        if self.does == "responds":
            return f"the adapter answered HTTP {self.status}"
        if self.does == "refused capture":
            return f"the adapter answered with status {self.status}, which no capture can hold"
        if self.does == "not sent":
            return f"the adapter raised NotSent({self.message!r})"
        if self.does == "after sending":
            return f"the adapter raised {self.error}({self.message!r}) after the request may have reached the lab"
        return "the adapter answered None, which is not a response"


class Table:
    """The check's adapter: it answers each URL as its case says, and nothing else."""

    def __init__(self, cases):
        self.cases = {case.url: case for case in cases}

    def fetch(self, url: str) -> AdapterResult:
        case = self.cases.get(url)
        if case is None:
            raise NotSent(f"no recorded response for {url}")
        return case.answer()


# Cases whose settlement the check's door refuses (standing in for a door that cannot take it), with what
# the adapter does in them: the act is then left unresolved, as with a refused capture.
REFUSED_SETTLEMENT = {"settlement refused": "responds", "failure refused": "not sent"}
SETTLEMENT_REFUSAL = "the check's door refuses this settlement (a stand-in for a door that cannot take it)"


def made(rng: random.Random, does: str, number: int) -> Case:
    """A fresh case of the kind ``does``."""
    if does in REFUSED_SETTLEMENT:
        made_as = made(rng, REFUSED_SETTLEMENT[does], number)
        return Case(made_as.path, does, made_as.status, made_as.headers, made_as.body, made_as.error, made_as.message)
    path = f"/{rng.choice(WORDS)}-{rng.randint(10, 99)}-{number}"
    if does in ("responds", "refused capture"):
        status = rng.choice(RESPONSES) if does == "responds" else rng.choice((42, 600, 700, 999))
        headers = tuple((rng.choice(NAMES), f"{rng.choice(WORDS)}-{rng.randint(0, 9)}") for _ in range(rng.randint(0, 3)))
        body = f"<p>{rng.choice(WORDS)} {rng.randint(0, 10**6)}</p>\n" * rng.randint(0, 2)
        return Case(path, does, status, headers, body)
    if does == "not sent":
        return Case(path, does, message=rng.choice(("connection refused", f"no recorded response for {LAB}:443{path}",
                                                    "the request could not be built")))
    if does == "after sending":
        error = rng.choice(AFTER_SENDING).__name__
        return Case(path, does, error=error, message=f"{rng.choice(WORDS)} went quiet after {rng.randint(1, 30)} s")
    return Case(path, does)


def fresh(does: str, count: int, salt: int) -> list[Case]:
    rng = random.Random(seed() * 31 + salt)
    return [made(rng, does, number) for number in range(count)]


def from_seed() -> str:
    chosen = seed()
    return f"(a case made from seed {chosen}: COURSE_SEED={chosen} course check 6 makes it again)"


# --- your step, on the check's door ---------------------------------------------------------------


@dataclass
class Step:
    """One act your step carried out: what it returned, each time the adapter was asked, what was recorded."""

    case: Case
    act: dict
    answer: object
    calls: list[dict]
    events: list[dict]  # the ledger's events from your step, each with its payload
    refused_settlements: list[dict]  # the settlements your step asked for that the check's door refused


def admitted_act(door, case: Case) -> dict:
    """Record the case's action through the door (the check's half of execute); the act as your step gets it."""
    payload = {"run_id": door.run.run_id, "tool": "inspect_headers", "destination": f"{LAB}{case.path}",
               "arguments": {}}
    answer = door.record("action", payload)
    assert answer["recorded"], f"the check's door refused its own act: {answer['reason']}"
    action = door.get("action", answer["id"])
    return {"run_id": door.run.run_id, "action_id": answer["id"],
            "url": request_url(action, door.policy.tool_named("inspect_headers"))}


def outcomes_of(door, action_id: str) -> list[dict]:
    return [outcome for outcome in door.records("outcome") if outcome["action_id"] == action_id]


def your_step(door, act: dict, case: Case) -> Step:
    """Hand ``act`` to your write_ahead with the door's record and an adapter that answers as ``case`` says."""
    calls: list[dict] = []

    def fetch(url):
        held = outcomes_of(door, act["action_id"])
        calls.append({"url": url, "outcomes": [o["status"] for o in held], "settled": act["action_id"] in door.settled})
        if url != act["url"]:
            raise NotSent(f"the check's adapter has no answer for {url}")
        return case.as_data()

    refused_settlements: list[dict] = []

    def record(kind, payload):
        if (case.does in REFUSED_SETTLEMENT and kind == "outcome" and isinstance(payload, dict)
                and payload.get("status") in ("succeeded", "failed")):
            refused_settlements.append(payload)
            return {"recorded": False, "reason": SETTLEMENT_REFUSAL}
        return door.record(kind, payload)

    first = len(door.events)
    try:
        answer = yours.call("write_ahead", act, Callback(record), Callback(fetch))
    except pytest.fail.Exception as failure:
        if calls and case.adapter_does in ("not sent", "after sending", "odd") and "raised:" in str(failure):
            pytest.fail(f"{case.said()} and your step let the error out ({failure}): an adapter's error is "
                        "recorded in the ledger, and the run goes on", pytrace=False)
        raise
    return Step(case, act, answer, calls, door.ledger[first:], refused_settlements)


def problem(step: Step, door) -> str:
    """Why your step broke a rule on this act, or ""."""
    case, act, where = step.case, step.act, f"For {step.case.path}, {step.case.said()}"
    mine = [event for event in step.events if not isinstance(event["payload"], dict)
            or event["payload"].get("action_id") != act["action_id"] or event["kind"] not in ("outcome", "capture")]
    if mine:
        event = mine[0]
        return (f"For {case.path}, your step recorded a {event['kind']} that is not this act's outcome or capture: "
                "the step records only the act's own outcomes and its capture")
    refused = [e for e in step.events if e["status"] == "refused" and not (e["kind"] == "capture"
                                                                            and case.does == "refused capture")]
    if refused and refused[0]["code"] == "already_settled":
        return (f"{where}; the door refused a second settlement ({refused[0]['reason']}): an act is settled once, "
                "and a settled outcome never changes")
    if refused:
        return f"{where}; the door refused your step's {refused[0]['kind']}: {refused[0]['reason']}"
    if not step.calls:
        return (f"{where.replace(case.said(), 'the adapter was never asked')}: once the door has admitted the "
                "unresolved outcome, the step asks the adapter for the act's URL")
    started = step.calls[0]
    if "unresolved" not in started["outcomes"] or started["settled"]:
        return (f"For {case.path}, the adapter was asked while the ledger held {started['outcomes'] or 'no outcome'} "
                "for the act: the ledger must say the act started (an unresolved outcome, nothing settled) before "
                "the adapter is asked")
    if started["url"] != act["url"]:
        return f"For {case.path}, the adapter was asked for {started['url']!r}, not the act's own URL {act['url']!r}"
    if len(step.calls) > 1:
        return (f"{where}; the adapter was asked {len(step.calls)} times for one act: the step asks once, since a "
                "retry nobody decided on could act twice")
    captures = [e["payload"] for e in step.events if e["kind"] == "capture" and e["status"] == "admitted"]
    outcomes = [e["payload"] for e in step.events if e["kind"] == "outcome"]
    settled = [o for o in outcomes if o.get("status") in ("succeeded", "failed")]
    if len(settled) > 1:
        return f"{where}; your step settled the act {len(settled)} times: an act is settled once"
    if case.does in REFUSED_SETTLEMENT:
        tried = [o.get("status") for o in step.refused_settlements]
        wanted = "succeeded" if case.adapter_does == "responds" else "failed"
        if wanted not in tried:
            return (f"{where}; your step never asked to settle the act {wanted}, which is what the adapter's answer "
                    "calls for")
        if case.adapter_does == "responds" and not captures:
            return f"{where}, and your step recorded no capture: a response, whatever its status, is captured"
        return returned_problem(step, door, refused_settlement=True)
    if case.does == "responds":
        expected = render_response(case.status, case.headers, case.body)
        if not captures:
            return f"{where}, and your step recorded no capture: a response, whatever its status, is captured"
        if captures[0]["status"] != case.status:
            return (f"{where}, and your capture says {captures[0]['status']}: the capture keeps the status the "
                    "adapter reported")
        if captures[0]["body"] != expected:
            return (f"{where}, and your capture's body is not that response as render_response writes it: the "
                    "capture holds the response the adapter gave, and nothing else")
        cited = [o for o in settled if o.get("status") == "succeeded"]
        if not cited or cited[0].get("capture_id") != door_capture(door, act):
            return (f"{where}; the act must be settled succeeded, citing its capture (any response counts: the "
                    f"request was carried out), and your step recorded {[o.get('status') for o in outcomes]}")
    elif captures:
        return (f"{where}, and your step recorded a capture with status {captures[0]['status']}: a response the "
                "adapter never gave is never recorded")
    elif case.does == "not sent":
        failed = [o for o in settled if o.get("status") == "failed"]
        if not failed:
            return (f"{where}: nothing was sent, so the act is settled failed at once, and your step recorded "
                    f"{[o.get('status') for o in outcomes]}")
        if case.message not in str(failed[0].get("detail")):
            return f"{where}; the failed outcome's detail must name the error ({case.message!r}), so the ledger says why"
    elif case.does == "refused capture":
        if settled:
            return (f"{where}; the door refused its capture, so the ledger holds no evidence of a response: the act "
                    f"stays unresolved, in doubt, but your step settled it {settled[0].get('status')}")
        if len(outcomes) < 2 or not str(outcomes[-1].get("detail")).strip():
            return (f"{where}; the door refused its capture, so the act stays unresolved, and a second unresolved "
                    "outcome says why")
    else:
        if settled:
            return (f"{where}; the request may have reached the target, so the act is in doubt and stays "
                    f"unresolved, but your step settled it {settled[0].get('status')}")
        if len(outcomes) < 2 or not str(outcomes[-1].get("detail")).strip():
            return (f"{where}; the act stays unresolved, and a second unresolved outcome names what went wrong, so "
                    "the ledger says the act is in doubt and why")
        named = case.message or case.error  # an error with no message is named by its kind
        if case.does == "after sending" and named not in str(outcomes[-1].get("detail")):
            return f"{where}; the unresolved outcome's detail must name the error ({named!r})"
    return returned_problem(step, door)


def door_capture(door, act: dict) -> str:
    held = [c["capture_id"] for c in door.records("capture") if c["action_id"] == act["action_id"]]
    return held[-1] if held else ""


def returned_problem(step: Step, door, refused_settlement: bool = False) -> str:
    """Why what your step returned does not say how the act ended, or ""."""
    answer, act = step.answer, step.act
    if not isinstance(answer, dict) or not {"status", "capture_id"} <= set(answer):
        return (f"For {step.case.path}, write_ahead returned {answer!r}: it returns how the act ended, "
                "{\"status\": ..., \"capture_id\": ..., \"detail\": ...}")
    if refused_settlement:
        if answer["status"] != "unresolved":
            return (f"For {step.case.path}, {step.case.said()}, and write_ahead returned status {answer['status']!r}: "
                    "a settlement the door refuses leaves the act unresolved, so the step returns 'unresolved'")
        if answer["capture_id"] != "":
            return (f"For {step.case.path}, {step.case.said()}, and write_ahead returned capture "
                    f"{str(answer['capture_id'])[:12]!r}: a settlement the door refuses leaves the act unresolved, "
                    "and no settlement cites a capture, so the step returns capture_id \"\"")
        return ""
    settled = [o["status"] for o in outcomes_of(door, act["action_id"]) if o["status"] != "unresolved"]
    status = settled[0] if settled else "unresolved"
    if answer["status"] != status or answer["capture_id"] != (door_capture(door, act) if status == "succeeded" else ""):
        return (f"For {step.case.path}, write_ahead returned status {answer['status']!r} and capture "
                f"{str(answer['capture_id'])[:12]!r}, but the ledger holds {status!r} for the act: it returns the "
                "status the ledger holds and the capture it cites")
    return ""


def check(cases: list[Case], world: str) -> None:
    """Run your step on each case in one run (the run goes on after each), failing on the first broken rule."""
    door = door_without_selection(world, max_actions=len(cases) + 4)
    for case in cases:
        found = problem(your_step(door, admitted_act(door, case), case), door)
        if found:
            pytest.fail(f"{found} {from_seed()}", pytrace=False)


# --- the checks -----------------------------------------------------------------------------------


def test_the_start_is_written_before_the_adapter_is_asked():
    check(fresh("responds", 3, 1), "lesson06-start")


def test_a_response_is_captured_as_the_adapter_gave_it_and_settled_once():
    rng = random.Random(seed() * 31 + 2)
    cases = [made(rng, "responds", number) for number in range(4)]
    check([Case(c.path, c.does, rng.choice((200, 201, 204)), c.headers, c.body) for c in cases], "lesson06-200")


def test_a_404_or_a_503_is_a_response_too():
    rng = random.Random(seed() * 31 + 3)
    cases = [made(rng, "responds", number) for number in range(6)]
    statuses = [404, 503, *rng.sample([s for s in RESPONSES if s >= 300], 4)]
    check([Case(c.path, c.does, status, c.headers, c.body) for c, status in zip(cases, statuses)], "lesson06-4xx")


def test_nothing_sent_is_settled_failed_and_the_run_goes_on():
    cases = fresh("not sent", 3, 4) + fresh("responds", 1, 5)
    check(cases, "lesson06-not-sent")


def test_an_error_after_sending_leaves_the_act_in_doubt():
    silent = [Case(f"/silent-{kind.__name__}", "after sending", error=kind.__name__) for kind in AFTER_SENDING]
    cases = fresh("after sending", 3, 6) + silent + fresh("odd", 1, 7) + fresh("responds", 1, 8)
    check(cases, "lesson06-in-doubt")  # an error with no message at all is named by its kind


def test_a_start_the_door_refuses_is_never_attempted():
    door = door_without_selection("lesson06-refused-start", max_actions=8)
    for case in fresh("responds", 2, 9):
        act = admitted_act(door, case)
        settled = door.record("outcome", {"run_id": act["run_id"], "action_id": act["action_id"], "status": "failed",
                                          "capture_id": "", "detail": "settled by the operator before it ran"})
        assert settled["recorded"], settled
        step = your_step(door, act, case)
        if step.calls:
            pytest.fail(f"For {case.path}, the door refused the unresolved outcome (the act is already settled), and "
                        "your step asked the adapter anyway: without a written start the act is never attempted "
                        f"{from_seed()}", pytrace=False)
        admitted = [e for e in step.events if e["status"] == "admitted"]
        if admitted:
            pytest.fail(f"For {case.path}, the door refused the unresolved outcome, and your step went on to record "
                        f"a {admitted[0]['kind']}: without a written start the act is never attempted "
                        f"{from_seed()}", pytrace=False)


def test_a_capture_the_door_refuses_is_not_a_success():
    check(fresh("refused capture", 2, 10) + fresh("responds", 1, 11), "lesson06-refused-capture")


def test_a_settlement_the_door_refuses_leaves_the_act_unresolved():
    check(fresh("settlement refused", 2, 14) + fresh("failure refused", 2, 15) + fresh("responds", 1, 16),
          "lesson06-refused-settlement")


def test_fresh_tables_of_acts():
    rng = random.Random(seed() * 31 + 12)
    kinds = (["responds"] * 8 + ["not sent"] * 3 + ["after sending"] * 3
             + ["odd", "refused capture", "settlement refused", "failure refused"])
    rng.shuffle(kinds)
    check([made(rng, does, number) for number, does in enumerate(kinds)], "lesson06-fresh")


# --- the lesson's loop, with your step and with the reference executor ------------------------------


def loop_cases() -> list[Case]:
    rng = random.Random(seed() * 31 + 13)
    kinds = ["responds", "responds", "not sent", "after sending", "responds", "refused capture", "responds"]
    return [made(rng, does, number) for number, does in enumerate(kinds)]


def loop(cases: list[Case], step) -> object:
    """Lesson 6's door and the one driver's loop over ``cases``: a scripted model proposes every case at once."""
    policy = reference_policy(tools=("inspect_headers",), max_actions=len(cases), max_model_calls=len(cases) + 2)
    door = door_for(6, make_run(policy.snapshot(), {"world": "lesson06-loop"}), policy)
    replies = ([proposal("inspect_headers", case.path, f"act {number}") for number, case in enumerate(cases)],)
    work(door, scripted(replies), Table(cases), act=step)
    return door


def with_your_step(door, payload: dict, adapter: Table, reviews) -> ExecutionResult:
    """execute's first half here (the action through the door), your write_ahead for the rest."""
    answer = door.record("action", payload)
    if not answer["recorded"]:
        return ExecutionResult("", "refused", "", answer["reason"], (answer,))
    action = door.get("action", answer["id"])
    act = {"run_id": door.run.run_id, "action_id": answer["id"],
           "url": request_url(action, door.policy.tool_named(action["tool"]))}
    case = adapter.cases[act["url"]]
    step = your_step(door, act, case)
    found = problem(step, door)
    if found:
        pytest.fail(f"In the lesson's loop: {found} {from_seed()}", pytrace=False)
    returned, last = step.answer, outcomes_of(door, answer["id"])[-1]  # the outcome a settled act is credited by
    return ExecutionResult(answer["id"], returned["status"], returned["capture_id"], str(returned.get("detail", "")),
                           (answer, {"recorded": True, "kind": "outcome", "id": last["outcome_id"]}))


def shape(door) -> list[tuple]:
    """The ledger as the run's later steps read it: each event's kind and status, an outcome's status and capture."""
    shaped = []
    for event in door.ledger:
        payload = event["payload"] if isinstance(event["payload"], dict) else {}
        extra = (payload.get("status"), payload.get("capture_id")) if event["kind"] == "outcome" else ()
        shaped.append((event["kind"], event["status"], event["code"], *extra,
                       event["id"] if event["kind"] in ("capture", "action", "transition") else ""))
    return shaped


def test_your_step_in_the_lessons_loop():
    cases = loop_cases()
    reference = loop(cases, lambda door, payload, adapter, reviews: execute(door, payload, adapter))
    mine = loop(cases, with_your_step)
    theirs, ours = shape(reference), shape(mine)
    if ours != theirs:
        at = next(index for index, (a, b) in enumerate(zip(ours, theirs)) if a != b) if len(ours) == len(theirs) \
            else min(len(ours), len(theirs))
        said = f"{ours[at][:4]}" if at < len(ours) else "nothing more"
        pytest.fail(f"In the lesson's loop, event {at + 1} of your run is {said}, where the reference executor's is "
                    f"{theirs[at][:4] if at < len(theirs) else 'nothing more'}: the loop goes on after every act, "
                    f"and each act leaves the ledger as the rules above say {from_seed()}", pytrace=False)


# --- the edge classes of write_ahead's contract, each asked in every run -------------------------------------
#
# Each class is a kind of act the rules above judge, listed as data: questions every run asks, and more that
# Hypothesis draws from this run's seed. Each question is one act on a door of its own (a run of its own), so a
# file that remembers an earlier act is asked about the same URL again. What the contract fixes is compared with
# what the rule gives: the act's outcomes and capture as the door admitted them, how often the adapter was asked,
# the status write_ahead returns and the capture it cites, whether the detail names the error, and that the act
# comes back as it was sent. The details' words are the other checks' business.

EDGE_KINDS = {  # the exceptions an adapter raises in the edge classes, by name: after sending, or stopping the run
    kind.__name__: kind for kind in (TimeoutError, ConnectionResetError, BrokenPipeError, ConnectionAbortedError,
                                     ConnectionRefusedError, OSError, ValueError, KeyError, RuntimeError, TypeError,
                                     Exception, KeyboardInterrupt, SystemExit)}
STOPS = ("KeyboardInterrupt", "SystemExit")  # BaseExceptions that are no Exception: no adapter's error
RULES = {  # the rule that decides a question, in the contract's fixed words
    "response": "a response, whatever its status, is captured exactly as the adapter reported it and the act is "
                "settled succeeded, citing that capture; the adapter is asked once, after the start is written",
    "refused capture": "a response the door cannot capture leaves the act in doubt: a second unresolved outcome, "
                       "nothing settled",
    "not sent": "an act with nothing sent (NotSent) is settled failed, with a detail naming the error",
    "in doubt": "an error once the request may have left leaves the act in doubt: a second unresolved outcome "
                "naming the error, nothing settled",
    "odd": "an answer that is not a response leaves the act in doubt: a second unresolved outcome, nothing settled",
    "stops": "a KeyboardInterrupt or SystemExit is no adapter's error: the step lets it out, and the ledger keeps "
             "the unresolved start",
    "refused start": "an act whose unresolved start the door refuses is never attempted: the adapter is not asked",
    "refused settlement": "a settlement the door refuses leaves the act unresolved, and the step returns "
                          "'unresolved' with capture_id \"\", since no settlement cites a capture",
}


@dataclass(frozen=True)
class Ask:
    """One question of an edge class: an act on ``path``, what the adapter does, and what the door does."""

    path: str
    adapter: str  # "responds", "not sent", "raises" (EDGE_KINDS[error]), "odd" (answers ``odd``, JSON)
    status: object = 200
    headers: tuple[tuple[str, str], ...] = ()
    body: str = ""
    error: str = ""
    message: str = ""
    odd: str = "null"
    door: str = "admits"  # or "refuses the start", "refuses the settlement"

    def fetch(self):
        """What the check's adapter does for this act's URL."""
        if self.adapter == "responds":
            return {"status": self.status, "headers": [list(pair) for pair in self.headers], "body": self.body}
        if self.adapter == "not sent":
            raise NotSent(self.message)
        if self.adapter == "raises":
            error = EDGE_KINDS[self.error](self.message) if self.message else EDGE_KINDS[self.error]()
            if self.error in STOPS:
                raise Relayed(error)
            raise error
        return json.loads(self.odd)


def capturable(status) -> bool:
    return type(status) is int and 100 <= status <= 599


def ask_rule(ask: Ask) -> Rule:
    """What the contract fixes for ``ask``: the act's admitted records, the adapter's calls, what comes back."""
    start = "unresolved"
    if ask.door == "refuses the start":
        return Rule((("ledger", ()), ("adapter asked", 0), ("returned", "unresolved"), ("cites its capture", False),
                     ("names the error", None), ("returns only the capture its settlement cites", True)),
                    RULES["refused start"])
    named = None
    if ask.adapter == "responds" and capturable(ask.status):
        ledger, status, why = (start, f"capture {ask.status} as given", "succeeded"), "succeeded", "response"
    elif ask.adapter == "responds":
        ledger, status, why = (start, "unresolved"), "unresolved", "refused capture"
    elif ask.adapter == "not sent":
        ledger, status, why, named = (start, "failed"), "failed", "not sent", True
    elif ask.adapter == "raises" and ask.error in STOPS:
        return Rule((("ledger", (start,)), ("adapter asked", 1), ("returned", f"lets {ask.error} out"),
                     ("cites its capture", False), ("names the error", None),
                     ("returns only the capture its settlement cites", True)), RULES["stops"])
    elif ask.adapter == "raises":
        ledger, status, why, named = (start, "unresolved"), "unresolved", "in doubt", True
    else:
        ledger, status, why = (start, "unresolved"), "unresolved", "odd"
    if ask.door == "refuses the settlement" and status != "unresolved":
        ledger, status, why, named = ledger[:-1], "unresolved", "refused settlement", None
    return Rule((("ledger", ledger), ("adapter asked", 1), ("returned", status),
                 ("cites its capture", status == "succeeded"), ("names the error", named),
                 ("returns only the capture its settlement cites", True)), RULES[why])


ASKED: list[dict] = []  # the question being asked: its door, its act and each adapter call (read by ask_answered)
RUNS: list[tuple] = []  # the run questions are asked in now: its door and the paths acted on there
_worlds = iter(range(10**9))
ACTS_PER_RUN = 60


def run_for(path: str):
    """The door of a run that has not acted on ``path`` yet: a URL asked again is asked in another run."""
    if not RUNS or path in RUNS[0][1] or len(RUNS[0][1]) >= ACTS_PER_RUN:
        RUNS[:] = [(door_without_selection(f"lesson06-edge-{next(_worlds)}", max_actions=ACTS_PER_RUN), set())]
    RUNS[0][1].add(path)
    return RUNS[0][0]


def ask_arguments(ask: Ask) -> tuple:
    """A run's door, the act admitted there, and the two functions your write_ahead gets for it."""
    door = run_for(ask.path)
    act = admitted_act(door, Case(ask.path, "responds"))
    if ask.door == "refuses the start":
        door.record("outcome", {"run_id": act["run_id"], "action_id": act["action_id"], "status": "failed",
                                "capture_id": "", "detail": "settled by the operator before it ran"})
    state = {"ask": ask, "door": door, "act": act, "calls": [], "first": len(door.ledger)}
    ASKED[:] = [state]

    def fetch(url):
        held = [o["status"] for o in outcomes_of(door, act["action_id"])]
        state["calls"].append((url == act["url"], held == ["unresolved"]))
        if url != act["url"]:
            raise NotSent(f"the check's adapter has no answer for {url}")
        return ask.fetch()

    def record(kind, payload):
        if (ask.door == "refuses the settlement" and kind == "outcome" and isinstance(payload, dict)
                and payload.get("status") in ("succeeded", "failed")):
            return {"recorded": False, "reason": SETTLEMENT_REFUSAL}
        return door.record(kind, payload)

    return dict(act), Callback(record), Callback(fetch)


def ask_answered(found) -> object:
    """What the contract fixes of the act your write_ahead carried out (read from the door and the adapter)."""
    state = ASKED[0]
    ask, door, act = state["ask"], state["door"], state["act"]
    mine = [e for e in door.ledger[state["first"]:] if e["status"] == "admitted"]
    ledger = []
    for event in mine:
        payload = event["payload"] if isinstance(event["payload"], dict) else {}
        if event["kind"] == "capture":
            exact = payload.get("body") == render_response(ask.status, ask.headers, ask.body) \
                if ask.adapter == "responds" and capturable(ask.status) else False
            ledger.append(f"capture {payload.get('status')} " + ("as given" if exact else "not as given"))
        elif event["kind"] == "outcome" and payload.get("action_id") == act["action_id"]:
            ledger.append(str(payload.get("status")))
        else:
            ledger.append(f"{event['kind']} of another act")
    calls = state["calls"]
    asked_once = len(calls) if all(own and after_start for own, after_start in calls) else \
        "for another URL, or before the start was written"
    if isinstance(found, Raised):
        return (("ledger", tuple(ledger)), ("adapter asked", asked_once), ("returned", f"lets {found.type} out"),
                ("cites its capture", False), ("names the error", None),
                ("returns only the capture its settlement cites", True))
    if not isinstance(found, dict) or not {"status", "capture_id", "detail"} <= set(found):
        return f"no answer (it returned {str(found)[:60]!r}, not {{'status': ..., 'capture_id': ..., 'detail': ...}})"
    captured = door_capture(door, act)
    outcomes = outcomes_of(door, act["action_id"])
    named = None
    if dict(ask_rule(ask).answer)["names the error"] is not None and outcomes:  # an outcome that must name it
        detail = str(outcomes[-1].get("detail"))
        kinds = ("NotSent", "not sent") if ask.adapter == "not sent" else (ask.error,)  # its kind, in words too
        named = ask.message in detail if ask.message else any(kind in detail for kind in kinds)
    return (("ledger", tuple(ledger)), ("adapter asked", asked_once), ("returned", found["status"]),
            ("cites its capture", found["status"] == "succeeded" and bool(captured)
             and found["capture_id"] == captured), ("names the error", named),
            ("returns only the capture its settlement cites",
             found["capture_id"] in (("", captured) if found["status"] == "succeeded" else ("",))))


def ask_in_words(ask: Ask) -> str:
    adapter = {"responds": f"the adapter answering {{'status': {ask.status!r}, 'headers': "
                           f"{[list(p) for p in ask.headers]!r}, 'body': {ask.body!r}}}",
               "not sent": f"the adapter raising NotSent({ask.message!r})",
               "raises": f"the adapter raising {ask.error}({ask.message!r})",
               "odd": f"the adapter answering {ask.odd}"}[ask.adapter]
    door = "" if ask.door == "admits" else f", the door {ask.door.replace('refuses', 'refusing')}"
    return f"an act on {ask.path}, {adapter}{door}"


ODD = ("null", "[]", '"HTTP/1.1 200 OK"', "200", "{}", '{"status": 200}', '{"status": 200, "body": ""}',
       '{"headers": [], "body": "x"}')
IN_DOUBT = tuple(name for name in EDGE_KINDS if name not in STOPS)
LOOKS = ("", "x", "X", "\u0445", "caf\u00e9", "cafe\u0301", "a ", "a\r\n", "\u00a0", "<p>fern</p>\n",
         "<p>fern</p>\n\n")  # bodies that differ in case, look-alikes, or only at the end
HEADER_SETS = ((), (("Content-Type", "text/html"),), (("content-type", "text/html"),),
               (("Content-Type", "text/html"), ("content-type", "text/plain")),
               (("X-B", "2"), ("X-A", "1")), (("X-A", "1"), ("X-B", "2")), (("X-A", "1"), ("X-A", "1")),
               (("ETag", "\u0435tag"),), (("ETag", "etag"),))


STATUSES = (100, 101, 102, 199, 200, 201, 202, 204, 206, 299, 300, 301, 302, 304, 307, 399, 400, 401, 403, 404, 405,
            410, 418, 429, 451, 499, 500, 501, 502, 503, 504, 505, 507, 511, 598, 599)  # each class's ends, and more


def fixed_statuses() -> list[list[Ask]]:
    return [[Ask(f"/status-{status}", "responds", status, (("Content-Type", "text/html"),), f"<p>{status}</p>\n")
             for status in STATUSES]]


def drawn_asks(adapters=("responds", "not sent", "raises", "odd"), doors=("admits",), same_path: bool = False):
    """Hypothesis: one act (or a few on the same URL), the adapter doing one of ``adapters``, the door ``doors``."""
    from hypothesis import strategies as st

    message = st.text(alphabet="abcXYZ 09-:.\u00e9", max_size=12)
    status = st.one_of(st.integers(100, 599), st.integers(100, 599), st.integers(-10, 1000),
                       st.integers(2**31, 2**70), st.booleans())
    headers = st.sampled_from(HEADER_SETS)
    body = st.sampled_from(LOOKS)
    one = st.builds(lambda path, adapter, status, headers, body, error, message, odd, door: Ask(
        path, adapter, status, headers, body, error if adapter == "raises" else "", message, odd, door),
        st.sampled_from(("/about", "/About", "/about/", "/ab\u03bfut")), st.sampled_from(adapters), status, headers,
        body, st.sampled_from(IN_DOUBT), message, st.sampled_from(ODD), st.sampled_from(doors))
    if not same_path:
        return one.map(lambda ask: [ask])
    return st.lists(one, min_size=2, max_size=4).map(lambda asks: [Ask("/again", *astuple(a)[1:]) for a in asks])


def astuple(ask: Ask) -> tuple:
    return (ask.path, ask.adapter, ask.status, ask.headers, ask.body, ask.error, ask.message, ask.odd, ask.door)


DRAWS = 8  # inputs drawn per class beyond the fixed ones: each act is five calls across the channel
STEP_EDGE_CLASSES = (
    Edge("the same URL asked again by another act, the adapter answering otherwise",  # first: asked again at once
         fixed=lambda: [[Ask("/again", "responds", 200, (("Content-Type", "text/html"),), "<p>first</p>\n"),
                         Ask("/again", "responds", 503, (), "<p>second</p>\n"),
                         Ask("/again", "raises", error="TimeoutError"),
                         Ask("/again", "not sent", message="connection refused"),
                         Ask("/again", "responds", 404, (), ""),
                         Ask("/again", "odd", odd="null"),
                         Ask("/again", "responds", 200, (("Content-Type", "text/html"),), "<p>first</p>\n")]],
         drawn=lambda: drawn_asks(same_path=True), draws=5),
    Edge("a response of any status from 100 to 599", fixed=fixed_statuses, drawn=lambda: drawn_asks(("responds",)),
         draws=DRAWS),
    Edge("a status no capture can hold: below 100, past 599, huge, a boolean or a string",
         fixed=lambda: [[Ask(f"/odd-status-{n}", "responds", status, (), "<p>x</p>\n")
                         for n, status in enumerate((0, 99, 600, 999, -200, 2**31, 10**20, True, False, "200"))]],
         drawn=lambda: drawn_asks(("responds",)), draws=DRAWS),
    Edge("headers and bodies that differ in letter case, look-alike characters, order, or only at their end",
         fixed=lambda: [[Ask(f"/looks-{n}", "responds", 200, HEADER_SETS[n % len(HEADER_SETS)], body)
                         for n, body in enumerate(LOOKS)],
                        [Ask(f"/headers-{n}", "responds", 200, headers, LOOKS[-1])
                         for n, headers in enumerate(HEADER_SETS)]],
         drawn=lambda: drawn_asks(("responds",)), draws=DRAWS),
    Edge("nothing sent (NotSent), with a message or with none",
         fixed=lambda: [[Ask(f"/not-sent-{n}", "not sent", message=message)
                         for n, message in enumerate(("connection refused", "", "x", "no route to lab.example"))]],
         drawn=lambda: drawn_asks(("not sent",)), draws=DRAWS),
    Edge("an error once the request may have left, of every Exception family, with a message or with none",
         fixed=lambda: [[Ask(f"/in-doubt-{name}-{bool(message)}", "raises", error=name, message=message)
                         for name in IN_DOUBT for message in ("went quiet after 30 s", "")]],
         drawn=lambda: drawn_asks(("raises",)), draws=DRAWS),
    Edge("an answer that is not a response",
         fixed=lambda: [[Ask(f"/not-a-response-{n}", "odd", odd=odd) for n, odd in enumerate(ODD)]],
         drawn=lambda: drawn_asks(("odd",)), draws=DRAWS),
    Edge("a door that refuses the start, or the settlement",
         fixed=lambda: [[Ask(f"/refusing-{n}", adapter, 200, (), "<p>x</p>\n", message="connection refused", door=door)
                         for adapter in ("responds", "not sent") for n, door in enumerate(
                             ("refuses the start", "refuses the settlement"))]],
         drawn=lambda: drawn_asks(("responds", "not sent", "raises", "odd"),
                                  ("refuses the start", "refuses the settlement")), draws=DRAWS),
)
INTERRUPT_EDGE_CLASSES = (
    Edge("a KeyboardInterrupt from the adapter (a BaseException, no Exception)",
         fixed=lambda: [[Ask("/interrupted", "raises", error="KeyboardInterrupt"),
                         Ask("/interrupted-said", "raises", error="KeyboardInterrupt", message="Ctrl-C")]],
         drawn=lambda: drawn_asks(("raises",)).map(
             lambda asks: [Ask(*astuple(a)[:5], "KeyboardInterrupt", *astuple(a)[6:]) for a in asks]), draws=3),
)
EXIT_EDGE_CLASSES = (
    Edge("a SystemExit from the adapter (a BaseException, no Exception)",
         fixed=lambda: [[Ask("/exited", "raises", error="SystemExit"),
                         Ask("/exited-said", "raises", error="SystemExit", message="told to stop")]],
         drawn=lambda: drawn_asks(("raises",)).map(
             lambda asks: [Ask(*astuple(a)[:5], "SystemExit", *astuple(a)[6:]) for a in asks]), draws=3),
)
EDGE_CLASSES = STEP_EDGE_CLASSES + INTERRUPT_EDGE_CLASSES + EXIT_EDGE_CLASSES


def test_every_edge_class_of_the_contract_gets_the_rules_answer():
    for classes, allowed in ((STEP_EDGE_CLASSES, None), (INTERRUPT_EDGE_CLASSES, KeyboardInterrupt),
                             (EXIT_EDGE_CLASSES, SystemExit)):
        compare(yours, "write_ahead", classes, rule=ask_rule, judged=ask_answered, shown=ask_in_words,
                arguments=ask_arguments, allowed=allowed, unchanged=True)


# --- python3 starter/lesson06_test.py: a small run with your step ------------------------------------


SHOWN = (Case("/about", "responds", 200, (("Content-Type", "text/html"),), "<h1>About us</h1>\n"),
         Case("/gone", "responds", 410, (), "Gone\n"),
         Case("/down", "not sent", message="connection refused"),
         Case("/slow", "after sending", error="TimeoutError", message="the lab did not answer within 10 s"))


def show() -> None:
    """Print what the door recorded for each act when your step carries it out."""
    door = door_without_selection("lesson06-shown", max_actions=len(SHOWN))
    for case in SHOWN:
        act = admitted_act(door, case)
        step = your_step(door, act, case)
        print(textwrap.fill(f"{case.path}: {case.said()}", 88, subsequent_indent="    "))
        answer = step.answer if isinstance(step.answer, dict) else {"status": step.answer}
        print(f"  write_ahead returned {answer.get('status')!r}, capture "
              f"{str(answer.get('capture_id', ''))[:12]!r}")
        for event in step.events:
            payload = event["payload"] if isinstance(event["payload"], dict) else {}
            if event["status"] == "refused":
                said = f"REFUSED: {event['reason']}"
            elif event["kind"] == "outcome":
                said = f"{payload.get('status')}: {payload.get('detail') or 'cites ' + str(payload.get('capture_id'))[:12]}"
            else:
                said = f"status {payload.get('status')}, capture {event['id'][:12]}"
            print(textwrap.fill(f"  {event['seq']:>2} {event['kind']:8} {said}", 88, subsequent_indent=" " * 14))


if __name__ == "__main__":
    try:
        show()
    except pytest.fail.Exception as failure:  # one line: what is not written yet, or what broke
        sys.exit(str(failure))
