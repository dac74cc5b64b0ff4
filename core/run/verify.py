"""Verify: a quote proves that a page said something, not that the claim is true.

The door already makes a finding quote its capture verbatim (lesson 2). That
ties the claim to evidence; it says nothing about exploitability. robots.txt
may name a path that does not exist; a page may echo a word without echoing
markup. So a finding is tested, the way an experiment is:

* a **confirming action**, distinct from the act the finding quotes, that
  should show the expected evidence if the claim is true;
* a **negative control**, a look-alike where the weakness should be absent,
  that must *not* show it. Without a control, a check that fires on every
  page would confirm every claim.

Both are ordinary actions: they pass the same policy, door, gate and budgets
as anything a model proposed. Then a ``verdict`` is recorded, and the door
decides it from the two captures itself (``judge``), so a caller can bring
evidence but cannot pick the verdict:

* ``refuted``: the confirming capture lacks the evidence;
* ``confirmed``: the confirming capture shows it and the control does not;
* ``inconclusive``: a capture is missing, or the control shows the evidence
  too, so the check cannot tell a weak page from a sound one.

A refuted finding is not removed. It stays in the ledger with its verdict:
what the run once believed, and why it stopped believing it, are both part
of the record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.run.execute import ExecutionResult
from core.run.recorder import Kind, Recorder, Refusal
from core.run.records import Capture, RecordError, named_by_content, record_data, require_keys, require_text, shown

VERDICT_KIND = "verdict"
VERDICTS = ("confirmed", "refuted", "inconclusive")
CHECK_FIELDS = ("claim", "evidence", "confirm", "control", "expect")
ACTION_FIELDS = ("tool", "destination", "arguments")

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


def judge(expect: str, confirming: Capture | None, control: Capture | None) -> tuple[str, str]:
    """The verdict two captures support for the evidence ``expect``, and the reason, in a fixed order."""
    wanted = shown(expect)
    if confirming is None:
        return "inconclusive", "no confirming capture was made, so the claim was never tested"
    if expect not in confirming.body:
        return "refuted", f"the confirming capture (HTTP {confirming.status}) does not show {wanted}"
    if control is None:
        return "inconclusive", f"the confirming capture shows {wanted}, but no negative control was captured"
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
    "evidence_not_distinct": "the evidence comes from the act the finding quotes, or the confirming act",
    "evidence_before_finding": "the evidence was captured before the finding was recorded",
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
    destination, arguments); ``expect`` is the text the confirming capture
    should show and the control must not.
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
        return cls(data["claim"], evidence["action"], evidence["quote"], dict(data["confirm"]), dict(data["control"]),
                   data["expect"])


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


def run_check(door: Recorder, check: Check, act: Act) -> list[dict]:
    """Record the check's finding and, if it is admitted, verify it; the door's answers in order."""
    finding = record_finding(door, check)
    if not finding["recorded"]:
        return [finding]
    return [finding, verify_finding(door, finding["id"], check, act)]
