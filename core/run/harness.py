"""Harness: the gated door of lesson 8, and the pieces that drive a whole run.

The policy says whether an act is *authorized*. The gate says whether it may
run *now*: the taxonomy (taxonomy.py) classes every catalogue tool, and a
consequential act, or one over its class's cap, waits for an approved review
by the class's approver role. The gate sits in the door, on every action,
after the policy has said yes, so no caller can skip it:

* ``allow``: the action is admitted;
* ``deny``: refused with the gate's reason (no approver role could release it);
* ``hold``: refused with the gate's reason, and the door remembers the
  identity as held. The run goes on. A ``review`` may then name that held
  identity (the base door accepts reviews only of records it holds) if it
  comes from the class's approver role; after an approved review the same
  action is admitted. The approval is a record in the ledger, not a bypass.

``make_recorder`` builds this final door for a run; the reference run
(demo_report.py) and audit replay both build theirs with it. The rest of
the module drives a run through its stages with those parts: the work loop,
execution with scripted reviews, and verification.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from core.run.execute import Adapter, ExecutionResult, execute
from core.run.observe import observe
from core.run.policy import Policy
from core.run.propose import Model, propose
from core.run.recorder import Refusal
from core.run.records import (
    REVIEW_DECISIONS,
    Action,
    RecordError,
    ReviewDecision,
    Run,
    action_identity,
    make_review,
    shown,
)
from core.run.select import select_next
from core.run.taxonomy import GateDecision, TaxonomyError, TaxonomyTable, carried_taxonomy, check_catalogue, gate
from core.run.verify import Check, VerificationRecorder, verify

GATING_FIELDS = ("taxonomy_version", "caps", "fail_open_classes")
REVIEWER_FIELDS = ("subject", "reviewer", "decision", "reason")


class GatingError(ValueError):
    """The gating configuration, or a catalogue under it, breaks its contract; the message says where."""


class HarnessError(RuntimeError):
    """The driver tried a stage move the table refuses: the driver itself is wrong, so the run stops."""


# --- the gating configuration ----------------------------------------------------------


@dataclass(frozen=True)
class Gating:
    """The run's gating: the taxonomy table it decides under, caps per class, and fail-open classes."""

    taxonomy_version: int
    table: TaxonomyTable
    caps: Mapping[str, int]  # canonical class -> how many acts of it run without review
    fail_open_classes: tuple[str, ...]  # may proceed when the gating view is stale

    @classmethod
    def from_dict(cls, data: object, taxonomy_dir: str | Path | None = None) -> Gating:
        """Gating from the operator's JSON; every class named must be canonical in the chosen table."""
        if not isinstance(data, dict) or sorted(data) != sorted(GATING_FIELDS):
            raise GatingError(f"gating must be an object with exactly the keys {', '.join(GATING_FIELDS)}")
        try:
            table = carried_taxonomy(data["taxonomy_version"], taxonomy_dir)
        except TaxonomyError as exc:
            raise GatingError(f"gating taxonomy_version: {exc}") from None
        caps = data["caps"]
        if not isinstance(caps, dict):
            raise GatingError("gating caps must map action classes to counts")
        for name, cap in caps.items():
            _require_class(table, "caps", name)
            if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
                raise GatingError(f"gating cap of {name} must be a non-negative integer, got {shown(cap)}")
        fail_open = data["fail_open_classes"]
        if not isinstance(fail_open, list):
            raise GatingError("gating fail_open_classes must be a list of action classes")
        for name in fail_open:
            _require_class(table, "fail_open_classes", name)
            if not table.classes[name].fail_open_allowed:
                raise GatingError(f"gating fail_open_classes lists {name}, which the taxonomy does not let fail open")
        return cls(table.version, table, MappingProxyType(dict(sorted(caps.items()))), tuple(sorted(set(fail_open))))

    def snapshot(self) -> dict:
        """The configuration as JSON-ready data; from_dict(snapshot()) gives the same gating."""
        return {"taxonomy_version": self.taxonomy_version, "caps": dict(self.caps),
                "fail_open_classes": list(self.fail_open_classes)}

    def decide(self, action_class: str | None, action_id: str, reviews: Iterable[Mapping],
               used: Mapping[str, int], stale_view: bool = False) -> GateDecision:
        """The gate's verdict for one act under this configuration."""
        return gate(action_class, action_id=action_id, reviews=reviews, caps=self.caps, used=used,
                    fail_open_classes=self.fail_open_classes, stale_view=stale_view, table=self.table)


def _require_class(table: TaxonomyTable, where: str, name: object) -> None:
    if not isinstance(name, str) or name not in table.classes:
        raise GatingError(f"gating {where} names {shown(name)}, which is not a canonical class "
                          f"of taxonomy version {table.version}")


# --- the gated door ----------------------------------------------------------------------


class GatedRecorder(VerificationRecorder):
    """The door of lesson 7 with the gate on every action."""

    def __init__(self, run: Run, policy: Policy, gating: Gating) -> None:
        super().__init__(run, policy)
        self.gating = gating
        # The door's memory of its own holds (held identity -> action class). It is
        # not a store: it changes only when the ledger gains the refusal that says so,
        # and replaying the ledger's payloads rebuilds it exactly.
        self._held: dict[str, str] = {}

    def _build_action(self, payload: dict) -> Action:
        """The policy first, then the gate: only an authorized act is ever gated."""
        action = super()._build_action(payload)
        if self._holds("action", action.action_id):
            raise Refusal(f"action {shown(action.action_id)} is already recorded")
        activity = self.policy.tool_named(action.tool).activity
        decision = self.gating.decide(activity, action.action_id, self.records("review"), self.class_usage(),
                                      stale_view=self.gating_view_is_stale())
        if decision.verdict == "allow":
            return action
        if decision.verdict == "hold":
            self._held[action.action_id] = decision.action_class
        raise Refusal(decision.reason)

    def _build_review(self, payload: dict) -> ReviewDecision:
        """A review may also name a held action identity, if its reviewer is the class's approver role."""
        subject = payload["subject_id"]
        if subject not in self._held or self._holds("action", subject):
            return super()._build_review(payload)
        role = self.gating.table.classify(self._held[subject]).approver_role
        if payload["reviewer"] != role:
            raise Refusal(f"held action {shown(subject)} waits for a review by {role}, "
                          f"not by {shown(payload['reviewer'])}")
        if any(review.subject_id == subject for review in self._stores["review"].values()):
            raise Refusal(f"subject {shown(subject)} already has a review decision")
        return make_review(self.run.run_id, subject, payload["decision"], payload["reviewer"], payload["reason"])

    def class_usage(self) -> dict[str, int]:
        """How many admitted actions each canonical class has, which is what its cap counts."""
        used: dict[str, int] = {}
        for action in self._stores["action"].values():
            name = self.gating.table.classify(self.policy.tool_named(action.tool).activity).name
            used[name] = used.get(name, 0) + 1
        return dict(sorted(used.items()))

    def held_actions(self) -> dict[str, str]:
        """Every action identity the gate has held, with its class (a copy: only the door writes)."""
        return dict(self._held)

    def gating_view_is_stale(self) -> bool:
        """Whether the gate's inputs can be trusted. Never stale here.

        This door counts and reads reviews from its own stores, which are
        always current. A harness whose counts live in a shared store that
        can lag answers True when it cannot trust them; then only a
        configured fail-open class proceeds.
        """
        return False


def make_recorder(run: Run, policy: Policy, gating: Gating) -> GatedRecorder:
    """The final door for ``run``; refuses a catalogue whose tools do not each declare a canonical class."""
    problems = check_catalogue({tool.tool_id: tool.activity for tool in policy.tools}, gating.table)
    if problems:
        raise GatingError("; ".join(problems))
    return GatedRecorder(run, policy, gating)


# --- driving a run -------------------------------------------------------------------------


def load_reviews(entries: object) -> dict[str, dict]:
    """Scripted review decisions from the configuration: held identity -> the review's fields."""
    if not isinstance(entries, list):
        raise GatingError("reviewers must be a list of review decisions")
    reviews: dict[str, dict] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or sorted(entry) != sorted(REVIEWER_FIELDS):
            raise GatingError(f"reviewers[{index}] must have exactly the keys {', '.join(REVIEWER_FIELDS)}")
        if not all(isinstance(entry[key], str) and entry[key].strip() for key in REVIEWER_FIELDS):
            raise GatingError(f"reviewers[{index}] values must be non-empty text")
        if entry["decision"] not in REVIEW_DECISIONS:
            raise GatingError(f"reviewers[{index}] decision must be one of {', '.join(REVIEW_DECISIONS)}")
        if entry["subject"] in reviews:
            raise GatingError(f"reviewers[{index}] decides {shown(entry['subject'])} a second time")
        reviews[entry["subject"]] = {key: entry[key] for key in ("reviewer", "decision", "reason")}
    return reviews


def execute_reviewed(recorder: GatedRecorder, payload: dict, adapter: Adapter,
                     reviews: Mapping[str, dict]) -> ExecutionResult:
    """Execute; if the gate held the action and a reviewer decided on it, record the decision and try again.

    The second attempt passes the whole door again: the review only counts
    because the gate finds it among the run's records.
    """
    result = execute(recorder, payload, adapter)
    subject = _identity(payload)
    if result.status != "refused" or subject not in recorder.held_actions() or subject not in reviews:
        return result
    review = recorder.record("review", {"run_id": recorder.run.run_id, "subject_id": subject, **reviews[subject]})
    if not review["recorded"]:
        return result
    return execute(recorder, payload, adapter)


def _identity(payload: object) -> str:
    """The identity an action payload would have, or "" if it cannot have one."""
    try:
        return action_identity(payload["tool"], payload["destination"])
    except (KeyError, TypeError, RecordError):
        return ""


def enter(recorder: GatedRecorder, stage: str) -> None:
    """Move to ``stage``; the driver follows the stage table, so a refused move is a bug that stops the run."""
    answer = recorder.advance(stage)
    if not answer["recorded"]:
        raise HarnessError(f"the run could not enter {stage}: {answer['reason']}")


def work(recorder: GatedRecorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict]) -> None:
    """The loop of lessons 3 to 6, from authorize until selection finds nothing left worth doing.

    Each round selects one proposal, executes it (with its review if the
    gate holds it), credits a settled outcome, observes the capture and asks
    the model again. The loop ends in the select stage, ready for verify:
    when selection is refused (nothing eligible, or the action budget is
    spent), or when the chosen action did not pass the door, since it would
    only be chosen again.
    """
    enter(recorder, "observe")
    enter(recorder, "propose")
    propose(recorder, model)
    while True:
        enter(recorder, "select")
        chosen = select_next(recorder)
        if not chosen["recorded"]:
            return
        action_id = next(s["action_id"] for s in recorder.records("selection") if s["selection_id"] == chosen["id"])
        proposal = next(p for p in recorder.records("proposal") if p["action_id"] == action_id)
        enter(recorder, "execute")
        payload = {key: proposal[key] for key in ("run_id", "tool", "destination", "arguments")}
        result = execute_reviewed(recorder, payload, adapter, reviews)
        if result.status == "succeeded":
            recorder.record("feedback", {"run_id": recorder.run.run_id, "outcome_id": result.answers[-1]["id"]})
        enter(recorder, "observe")
        if result.capture_id:
            observe(recorder, result.capture_id)
        enter(recorder, "propose")
        if result.status == "refused":
            enter(recorder, "select")
            return
        propose(recorder, model)


def verify_findings(recorder: GatedRecorder, checks: Iterable[Check], adapter: Adapter,
                    reviews: Mapping[str, dict]) -> None:
    """Lesson 7 in the run: assert each planned finding and verify it through the same gated door."""
    enter(recorder, "verify")
    for check in checks:
        verify(recorder, check, lambda payload: execute_reviewed(recorder, payload, adapter, reviews))


def run_through(recorder: GatedRecorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict],
                checks: Iterable[Check]) -> None:
    """Every stage of a run in order: the work loop, verification, review and the report stage."""
    work(recorder, model, adapter, reviews)
    verify_findings(recorder, checks, adapter, reviews)
    enter(recorder, "review")
    enter(recorder, "report")
