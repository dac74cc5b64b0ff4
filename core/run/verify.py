"""Verify: a quote proves that a page said something, not that the claim is true.

The door already makes a finding quote its capture verbatim (lesson 2). That
ties the claim to evidence; it says nothing about exploitability. robots.txt
may name a path that does not exist; a page may echo a word without echoing
markup. So a finding is tested, the way an experiment is:

* a **confirming action**, distinct from the act the finding quotes, that
  should show the quoted evidence again if the claim is true;
* a **negative control**, a look-alike where the weakness should be absent,
  that must *not* show it. Without a control, a check that fires on every
  page would confirm every claim.

The evidence a check looks for, ``expect``, is a part of the finding's own
quote: a check asks the lab again for what the finding showed, never for
some other text that happens to tell two pages apart. The door refuses a
verdict whose ``expect`` is not in the quote, and the configuration refuses
such a plan before the run starts.

Both actions are ordinary actions: they pass the same policy, door, gate
and budgets as anything a model proposed, and in the verify stage the door
admits only the acts of the operator's plan (``in_the_plan``, the part
``Plan`` a door is given), as in the execute stage it admits only the
selection. Then a ``verdict`` is recorded, and the door decides it from the
two captures itself (``judge``), so a caller can bring evidence but cannot
pick the verdict:

* ``refuted``: the confirming act got a response, and it lacks the evidence
  (a 404 lacks it as surely as a 200 does);
* ``confirmed``: the confirming capture shows it and the control's does not;
* ``inconclusive``: a capture is missing (the act was refused, or the
  transport failed), a response is a server error (5xx: the server did not
  answer the question), or the control shows the evidence too, so the check
  cannot tell a weak page from a sound one.

``judge`` is a substring test over the whole capture text, status line and
headers included: it does not parse markup, so evidence written inside an
HTML comment counts as shown. A verdict is a claim about two captures, not a
proof of exploitability.

A refuted finding is not removed. It stays in the ledger with its verdict:
what the run once believed, and why it stopped believing it, are both part
of the record.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass

from core.run.canon import CanonError, canonical_bytes
from core.run.execute import ExecutionResult
from core.run.recorder import Kind, Recorder, Refusal, Request
from core.run.records import (
    Capture,
    RecordError,
    action_identity,
    named_by_content,
    record_data,
    require_keys,
    require_text,
    shown,
)
from core.run.select import is_the_selection
from core.run.stages import stage_of

VERDICT_KIND = "verdict"
VERDICTS = ("confirmed", "refuted", "inconclusive")
CHECK_FIELDS = ("claim", "evidence", "confirm", "control", "expect")
ACTION_FIELDS = ("tool", "destination", "arguments")
SERVER_ERROR = 500  # a status from here up says the server failed: its answer is not the page the claim is about
PLAN = "plan"  # the door's part that holds the operator's verification plan

Act = Callable[[dict], ExecutionResult]  # runs one action payload through the door (execute.execute)


class CheckError(ValueError):
    """A verification plan in the operator's configuration breaks its shape; the message says where."""


# --- the new record ------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What verification concluded about one finding, with the two captures it rests on."""

    run_id: str
    finding_id: str
    verdict: str
    confirming_capture_id: str  # "" when no confirming capture was made
    control_capture_id: str  # "" when no control capture was made
    reason: str
    verdict_id: str = ""  # the digest of the other six

    def __post_init__(self) -> None:
        for name in ("run_id", "finding_id", "reason"):
            require_text(name, getattr(self, name))
        if self.verdict not in VERDICTS:
            raise RecordError(f"verdict must be one of {', '.join(VERDICTS)}, got {shown(self.verdict)}")
        for name in ("confirming_capture_id", "control_capture_id"):
            require_text(name, getattr(self, name), may_be_empty=True)
        named_by_content(self, "verdict_id")

    to_dict = record_data


def expect_problem(quote: str, expect: str) -> str:
    """Why ``expect`` is not evidence the finding quoted, or "" when it is a part of the quote.

    A check looks again for what the finding showed. Text from elsewhere on
    the page ("About us", say) may tell two pages apart, but it tests
    something the finding never quoted.
    """
    if expect in quote:
        return ""
    return f"expect {shown(expect)} is not part of the finding's quote, so it tests something the finding never showed"


def judge(expect: str, confirming: Capture | None, control: Capture | None) -> tuple[str, str]:
    """The verdict two captures support for the evidence ``expect``, and the reason, in a fixed order."""
    wanted = shown(expect)
    if confirming is None:
        return "inconclusive", "no confirming capture was made, so the claim was never tested"
    if confirming.status >= SERVER_ERROR:
        return "inconclusive", (f"the confirming capture is HTTP {confirming.status}, a server error: it neither "
                                f"shows nor disproves {wanted}")
    if expect not in confirming.body:
        return "refuted", f"the confirming capture (HTTP {confirming.status}) does not show {wanted}"
    if control is None:
        return "inconclusive", f"the confirming capture shows {wanted}, but no negative control was captured"
    if control.status >= SERVER_ERROR:
        return "inconclusive", (f"the confirming capture shows {wanted}, but the negative control is HTTP "
                                f"{control.status}, a server error: it did not really run")
    if expect in control.body:
        return "inconclusive", (f"the negative control shows {wanted} too, so the check cannot tell "
                                "the weakness from its absence")
    return "confirmed", (f"the confirming capture (HTTP {confirming.status}) shows {wanted} and the "
                         f"negative control (HTTP {control.status}) does not")


# --- the row of the door --------------------------------------------------------------


def build_verdict(door: Recorder, payload: dict) -> Verdict:
    """One verdict per finding, judged here from evidence gathered after the finding by other acts."""
    finding_id = payload["finding_id"]
    if not door.holds("finding", finding_id):
        raise Refusal("unknown_finding", f"verdict names finding {shown(finding_id)} that this run does not hold")
    judged = door.state.setdefault(VERDICT_KIND, set())  # findings that already have a verdict
    if finding_id in judged:
        raise Refusal("already_judged", f"finding {shown(finding_id)} already has a verdict")
    expect = payload["expect"]
    if not isinstance(expect, str) or not expect:
        raise Refusal("malformed_payload", f"expect must be the text the evidence should show, got {shown(expect)}")
    finding = door.stored("finding", finding_id)
    problem = expect_problem(finding.quote, expect)
    if problem:
        raise Refusal("expect_not_quoted", problem)
    taken = {door.stored("capture", finding.capture_id).action_id: "the act the finding quotes"}
    confirming = _evidence(door, "confirming", payload.get("confirming_capture_id", ""), finding_id, taken)
    if confirming is not None:
        taken[confirming.action_id] = "the confirming act"
    control = _evidence(door, "control", payload.get("control_capture_id", ""), finding_id, taken)
    verdict, reason = judge(expect, confirming, control)
    return Verdict(door.run.run_id, finding_id, verdict, _id_of(confirming), _id_of(control), reason)


def _evidence(door: Recorder, role: str, capture_id: object, finding_id: str, taken: dict[str, str]) -> Capture | None:
    """The capture cited as ``role`` evidence, or None for ""; refuse evidence that tests nothing new."""
    if capture_id == "":
        return None
    if not door.holds("capture", capture_id):
        raise Refusal("unknown_capture", f"verdict cites {role} capture {shown(capture_id)} that this run does not hold")
    capture = door.stored("capture", capture_id)
    if capture.action_id in taken:
        raise Refusal("evidence_not_distinct",
                      f"the {role} capture comes from {taken[capture.action_id]}; it must come from a distinct act")
    if door.seq_of[("capture", capture_id)] < door.seq_of[("finding", finding_id)]:
        raise Refusal("evidence_before_finding",
                      f"the {role} capture was made before the finding, so it was not planned to test it")
    return capture


def note_verdict(door: Recorder, verdict: Verdict) -> None:
    door.state.setdefault(VERDICT_KIND, set()).add(verdict.finding_id)


KINDS = (
    Kind(VERDICT_KIND, ("run_id", "finding_id", "expect", "confirming_capture_id", "control_capture_id"),
         "verdicts", "verdict_id", build_verdict, (note_verdict,)),
)
# Verification acts run in the verify stage, through the same door as the work's.
ADMITTED_IN = {"action": ("verify",), "capture": ("verify",), "outcome": ("verify",), VERDICT_KIND: ("verify",)}
CODES = {
    "unknown_finding": "the verdict names a finding this run does not hold",
    "already_judged": "the finding already has a verdict",
    "expect_not_quoted": "the verdict's expected evidence is not part of the finding's quote",
    "evidence_not_distinct": "the evidence comes from the act the finding quotes, or the confirming act",
    "evidence_before_finding": "the evidence was captured before the finding was recorded",
    "not_planned": "in the verify stage, an act that is not in the operator's verification plan",
    "reserved_for_the_plan": "in the work loop, an act the operator's verification plan holds",
    "budget_reserved": "in the work loop, an act past the action budget but the verification plan's share",
    "nothing_to_quote": "no capture of the check's evidence act is held (the caller's refusal)",
}


def _id_of(capture: Capture | None) -> str:
    return "" if capture is None else capture.capture_id


# --- planning and running a check ----------------------------------------------------


@dataclass(frozen=True)
class Check:
    """How one claim is asserted and tested, as the operator wrote it.

    ``evidence`` names the action whose capture the finding quotes and the
    quote; ``confirm`` and ``control`` are the two planned actions (tool,
    destination, arguments); ``expect`` is the part of the quote the
    confirming capture should show and the control must not.
    """

    claim: str
    evidence_action: str
    quote: str
    confirm: dict
    control: dict
    expect: str

    @classmethod
    def from_dict(cls, data: object, where: str = "check") -> Check:
        require_keys(where, data, CHECK_FIELDS, error=CheckError)
        evidence = data["evidence"]
        require_keys(f"{where} evidence", evidence, ("action", "quote"), error=CheckError)
        for name in ("confirm", "control"):
            require_keys(f"{where} {name}", data[name], ACTION_FIELDS, error=CheckError)
            if not isinstance(data[name]["arguments"], dict):
                raise CheckError(f"{where} {name} arguments must be an object")
        for label, value in (("claim", data["claim"]), ("evidence action", evidence["action"]),
                             ("evidence quote", evidence["quote"]), ("expect", data["expect"]),
                             ("confirm tool", data["confirm"]["tool"]), ("control tool", data["control"]["tool"]),
                             ("confirm destination", data["confirm"]["destination"]),
                             ("control destination", data["control"]["destination"])):
            if not isinstance(value, str) or not value.strip():
                raise CheckError(f"{where} {label} must be non-empty text")
        problem = expect_problem(evidence["quote"], data["expect"])
        if problem:
            raise CheckError(f"{where}: {problem}")
        acts = {}
        for name in ("confirm", "control"):
            try:
                acts[name] = _copied(data[name])
                _act_of(acts[name])
            except (RecordError, CanonError, ValueError, TypeError) as exc:
                raise CheckError(f"{where} {name} is not an act the door can name: {exc}") from None
        return cls(data["claim"], evidence["action"], evidence["quote"], acts["confirm"], acts["control"],
                   data["expect"])

    def to_dict(self) -> dict:
        """The check as the operator wrote it (the shape ``from_dict`` reads)."""
        return {"claim": self.claim, "evidence": {"action": self.evidence_action, "quote": self.quote},
                "confirm": _copied(self.confirm), "control": _copied(self.control), "expect": self.expect}


def _copied(action: dict) -> dict:
    """A fresh copy of a planned action, read back from its canonical JSON: nothing outside can edit the plan."""
    return json.loads(canonical_bytes(action))


def _act_of(action: dict) -> tuple[str, bytes]:
    """What the plan guard compares: the act's identity and the canonical bytes of its arguments."""
    return action_identity(action["tool"], action["destination"]), canonical_bytes(action["arguments"])


@dataclass(frozen=True)
class Plan:
    """The operator's verification plan, as a part of the door: the checks, and the acts they may carry out.

    In the verify stage the door admits an action only if it is one of
    these acts, its identity and its arguments exactly as the plan wrote
    them. An empty plan (``Plan()``, what a door is given by default) lets
    nothing act in the verify stage.
    """

    checks: tuple[Check, ...] = ()

    def __post_init__(self) -> None:
        if not all(isinstance(check, Check) for check in self.checks):
            raise CheckError("a plan is made of checks (verify.Check)")

    @functools.cached_property
    def acts(self) -> frozenset[tuple[str, bytes]]:
        return frozenset(_act_of(act) for check in self.checks for act in (check.confirm, check.control))

    @functools.cached_property
    def identities(self) -> frozenset[str]:
        """The identities of the plan's acts: kept for the verify stage (``in_the_plan``)."""
        return frozenset(identity for identity, _ in self.acts)

    def tools(self) -> list[str]:
        """The tool of each of the plan's acts (the gate keeps each class's share of its cap for them)."""
        return [act["tool"] for check in self.checks for act in (check.confirm, check.control)]

    def snapshot(self) -> list[dict]:
        """The plan as a report keeps it: each check as the operator wrote it."""
        return [check.to_dict() for check in self.checks]

    @classmethod
    def from_dict(cls, data: object, where: str = "plan") -> Plan:
        """A plan from its snapshot (a list of checks), or CheckError naming what is wrong."""
        if not isinstance(data, list):
            raise CheckError(f"{where} must be a list of checks")
        return cls(tuple(Check.from_dict(entry, f"{where}[{index}]") for index, entry in enumerate(data)))


def in_the_plan(door: Recorder, request: Request) -> None:
    """In the verify stage an action is admitted only if the operator's plan holds it; in the work loop, never one it holds.

    Whatever drives the run cannot use the verify stage to act freely: a
    confirming act or a control nobody planned is turned away before the
    policy is asked, as lesson 5's guard turns away an act nobody chose.

    And the work loop cannot spend what verification needs. In the execute
    stage of a door that binds execution to the selection (lesson 5's
    guard: that is the work loop), an act whose identity the plan holds is
    turned away (an act runs once: run early, the plan's act would be
    refused as already recorded, and an approval given for it would be
    spent), and so is any act once the work loop has used all of the action
    budget but the plan's share, one action for each of its acts. (The gate
    keeps the plan's share of each class's cap the same way.) A door built
    without the selection guard has no work loop to hold back: whoever acts
    in its execute stage acts by hand, as a test or a demo does.
    """
    if request.kind != "action" or stage_of(door) not in ("verify", "execute"):
        return
    plan = door.parts.get(PLAN) or Plan()
    identity = action_identity(request.payload["tool"], request.payload["destination"])
    if stage_of(door) == "verify":
        if _act_of(request.payload) not in plan.acts:
            raise Refusal("not_planned", f"action {shown(identity)} is not an act of the operator's verification plan")
        return
    if is_the_selection not in door.guards:
        return
    if identity in plan.identities:
        raise Refusal("reserved_for_the_plan", f"action {shown(identity)} is an act of the operator's verification "
                                               "plan, kept for the verify stage")
    share = door.policy.max_actions - len(plan.acts)
    if door.count("action") >= share:
        raise Refusal("budget_reserved", f"the work loop's share of the action budget ({share} of "
                                         f"{door.policy.max_actions}, the rest kept for the verification plan) is spent")


def plan_sections(door: Recorder, given: object) -> dict:
    """The plan a run's verify stage was held to, for its report: what ``rederive.redo`` rebuilds the door with."""
    plan = door.parts.get(PLAN)
    return {} if plan is None else {"plan": plan.snapshot()}


def capture_of(door: Recorder, action_id: str) -> str | None:
    """The id of the latest capture the action ``action_id`` brought back, or None."""
    captures = [c["capture_id"] for c in door.records("capture") if c["action_id"] == action_id]
    return captures[-1] if captures else None


def record_finding(door: Recorder, check: Check) -> dict:
    """Assert the check's claim as a finding quoting the capture of its evidence action."""
    capture_id = capture_of(door, check.evidence_action)
    if capture_id is None:
        return door.refuse("finding", f"no capture of {shown(check.evidence_action)} is held to quote",
                           code="nothing_to_quote", by="verify.record_finding")
    payload = {"run_id": door.run.run_id, "capture_id": capture_id, "quote": check.quote, "claim": check.claim}
    return door.record("finding", payload)


def verify_finding(door: Recorder, finding_id: str, check: Check, act: Act) -> dict:
    """Run the confirming action, then the control, through ``act``; record the verdict the door judges."""
    run_id = door.run.run_id
    confirming = act({"run_id": run_id, **check.confirm})
    control = act({"run_id": run_id, **check.control})
    payload = {"run_id": run_id, "finding_id": finding_id, "expect": check.expect,
               "confirming_capture_id": confirming.capture_id, "control_capture_id": control.capture_id}
    return door.record(VERDICT_KIND, payload)


def check_finding(door: Recorder, check: Check, act: Act) -> list[dict]:
    """Record the check's finding and, if it is admitted, verify it; the door's answers in order."""
    finding = record_finding(door, check)
    if not finding["recorded"]:
        return [finding]
    return [finding, verify_finding(door, finding["id"], check, act)]


# --- what a check shows ----------------------------------------------------------------


def evidence(door: Recorder, result: ExecutionResult, expect: str) -> dict:
    """One verification act as the verdict sees it: its identity, how it ended, and what its capture shows.

    ``line`` is the first line of the capture that shows ``expect``, or its
    status line when none does ("" when no capture was made).
    """
    found = {"action_id": result.action_id, "execution": result.status, "detail": result.detail,
             "capture_id": result.capture_id}
    if not result.capture_id:
        return {**found, "http_status": None, "shows_expect": False, "line": ""}
    capture = door.get("capture", result.capture_id)
    lines = capture["body"].splitlines()
    showing = [line.strip() for line in lines if expect in line]
    return {**found, "http_status": capture["status"], "shows_expect": bool(showing),
            "line": showing[0] if showing else lines[0]}


def verify_check(door: Recorder, check: Check, act: Act) -> dict:
    """Run one check through the door (check_finding); the finding, both acts with their evidence, and the verdict.

    ``confirming``, ``control`` and ``verdict`` are there only when the
    finding was admitted; ``verdict`` is the verdict record, or the door's
    refusal of it.
    """
    results: list[ExecutionResult] = []

    def acting(payload: dict) -> ExecutionResult:
        results.append(act(payload))
        return results[-1]

    answers = check_finding(door, check, acting)
    step = {"claim": check.claim, "plan": {"evidence": {"action": check.evidence_action, "quote": check.quote},
                                           "confirm": check.confirm, "control": check.control,
                                           "expect": check.expect},
            "finding": answers[0]}
    if len(answers) == 2:
        step["confirming"], step["control"] = (evidence(door, result, check.expect) for result in results)
        step["verdict"] = door.get(VERDICT_KIND, answers[1]["id"]) if answers[1]["recorded"] else answers[1]
    return step


def verdict_with_evidence(step: dict) -> dict:
    """A checked finding (``verify_check``'s step, its verdict admitted) as its verdict reads.

    The claim, the verdict and its reason, and both acts' evidence.
    """
    return {"claim": step["claim"], "verdict": step["verdict"]["verdict"], "reason": step["verdict"]["reason"],
            "confirming": step["confirming"], "control": step["control"]}


def kept_beside_its_verdict(door: Recorder, verdict: dict) -> dict:
    """Where an admitted ``verdict`` and the finding it judged stand in the ledger: a verdict replaces nothing.

    The finding's id, claim and seq, the verdict's seq, and ``still_held``:
    whether the door still holds the finding (it always does; a refuted
    finding stays beside its verdict).
    """
    finding_id = verdict["finding_id"]
    return {"finding_id": finding_id, "finding_seq": door.seq_of[("finding", finding_id)],
            "verdict_seq": door.seq_of[(VERDICT_KIND, verdict["verdict_id"])],
            "still_held": door.holds("finding", finding_id), "claim": door.get("finding", finding_id)["claim"]}
