"""Gate: may an authorized act run now, or must a person approve that exact act first?

The policy says whether an act is *authorized*. The gate says whether it may
run *now*. It is the door's last guard, on every action, after the policy
has said yes, so no caller can skip it. The taxonomy (taxonomy.py) classes
the act by its tool's declared class, and the gate answers:

* ``allow``: the act is admitted;
* ``hold``: refused with the reason, and remembered as held. The run goes
  on; a ``review`` of that exact act by the class's approver role may come
  later, and after an approval the same act passes the whole door again;
* ``deny``: refused, and no review can release it (the class has no
  approver role, or the approver rejected it).

A review approves an **exact act**, not a name: its subject is the act's
identity together with the digest of its arguments (``act_subject``). The
same identity with other arguments is another act, held again, and counted
under the trigger class ``CHANGE`` because it amends something a person
approved.

Non-consequential classes run freely within their cap (``caps``, keyed by
canonical class; legacy names resolve). Over its cap such a class needs a
review too, or is denied when it has no approver role. A catalogue tool
whose class is not consequential may take no arguments at all, so a passive
tool cannot carry a probe's input past the gate.

Fail-open is a real, narrow path. While an earlier act's outcome is still
unresolved, the gate cannot vouch for the run's state (the act may still be
running, or may have done more than it reported): its view is *stale*. Then
only a class the taxonomy allows to fail open *and* the run configures in
``fail_open_classes`` proceeds; everything else is denied, fail-closed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from core.run.canon import digest
from core.run.policy import Policy
from core.run.recorder import Kind, Recorder, Refusal, Request, build_review
from core.run.records import ReviewDecision, make_review, require_keys, shown
from core.run.taxonomy import (
    UNCLASSIFIED,
    ActionClass,
    TaxonomyError,
    TaxonomyTable,
    carried_taxonomy,
    check_catalogue,
)

GATING_FIELDS = ("taxonomy_version", "caps", "fail_open_classes")
VERDICTS = ("allow", "hold", "deny")
GATE = "gate"  # the key of this module's state in the door


class GatingError(ValueError):
    """The gating configuration, or a catalogue under it, breaks its contract; the message says where."""


# --- the configuration -------------------------------------------------------------------


@dataclass(frozen=True)
class Gating:
    """The run's gating: the taxonomy table it decides under, caps per class, and fail-open classes."""

    taxonomy_version: int
    table: TaxonomyTable
    caps: Mapping[str, int]  # canonical class -> how many acts of it run without review
    fail_open_classes: tuple[str, ...]  # may proceed while the gate's view is stale

    @classmethod
    def from_dict(cls, data: object, taxonomy_dir: str | Path | None = None) -> Gating:
        """Gating from the operator's JSON; caps and fail-open classes resolve to canonical rows."""
        require_keys("gating", data, GATING_FIELDS, error=GatingError)
        try:
            table = carried_taxonomy(data["taxonomy_version"], taxonomy_dir)
        except TaxonomyError as exc:
            raise GatingError(f"gating taxonomy_version: {exc}") from None
        caps = data["caps"]
        if not isinstance(caps, dict):
            raise GatingError("gating caps must map action classes to counts")
        for name, cap in caps.items():
            if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
                raise GatingError(f"gating cap of {name} must be a non-negative integer, got {shown(cap)}")
        try:
            caps = table.canonical_caps(caps)
        except TaxonomyError as exc:
            raise GatingError(f"gating caps: {exc}") from None
        fail_open = data["fail_open_classes"]
        if not isinstance(fail_open, list):
            raise GatingError("gating fail_open_classes must be a list of action classes")
        resolved = set()
        for name in fail_open:
            row = table.resolve(name)
            if row is None:
                raise GatingError(f"gating fail_open_classes names {shown(name)}, which is no class "
                                  f"of taxonomy version {table.version}")
            if not row.fail_open_allowed:
                raise GatingError(f"gating fail_open_classes lists {name}, which the taxonomy does not let fail open")
            resolved.add(row.name)
        return cls(table.version, table, MappingProxyType(caps), tuple(sorted(resolved)))

    def snapshot(self) -> dict:
        """The configuration as JSON-ready data; from_dict(snapshot()) gives the same gating."""
        return {"taxonomy_version": self.taxonomy_version, "caps": dict(self.caps),
                "fail_open_classes": list(self.fail_open_classes)}


def catalogue_problems(policy: Policy, table: TaxonomyTable) -> list[str]:
    """What is wrong with a catalogue under a table: undeclared classes, and passive tools that take input."""
    problems = check_catalogue({tool.tool_id: tool.activity for tool in policy.tools}, table)
    for tool in policy.tools:
        row = table.resolve(tool.activity)
        if row is not None and not row.consequential and tool.arguments:
            problems.append(f"tool {tool.tool_id!r} is of the class {row.name!r}, which is not consequential, "
                            f"so it may take no arguments (it declares {', '.join(tool.arguments)})")
    return problems


# --- the decision --------------------------------------------------------------------------


@dataclass(frozen=True)
class GateDecision:
    """The gate's verdict for one act, the class it was judged as, the trigger it counts toward, and why."""

    verdict: str  # allow, hold or deny
    action_class: str  # the canonical class, or "unclassified"
    trigger_class: str | None  # None for a non-consequential class; CHANGE for an amendment
    reason: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {self.verdict!r}")


def act_subject(action_id: str, arguments: Mapping) -> str:
    """What a review of one exact act names: the act's identity and the digest of its arguments."""
    return f"{action_id} with arguments {digest(dict(arguments))}"


@dataclass
class GateState:
    """What the gate keeps in the door, each index updated as the ledger grows."""

    used: dict[str, int] = field(default_factory=dict)  # canonical class -> admitted acts
    held: dict[str, tuple[str, str]] = field(default_factory=dict)  # held subject -> class, action identity
    decided: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # subject -> decision, reviewer, id
    approved: dict[str, set[str]] = field(default_factory=dict)  # action identity -> its approved subjects
    triggers: dict[str, int] = field(default_factory=dict)  # trigger class -> admitted consequential acts


def gate_state(door: Recorder) -> GateState:
    return door.state.setdefault(GATE, GateState())


def decide(gating: Gating, declared: object, action_id: str, subject: str, state: GateState,
           stale_view: bool = False) -> GateDecision:
    """The gate's verdict for the act ``subject`` (of identity ``action_id``) whose tool declares ``declared``."""
    table = gating.table
    row = table.classify(declared)
    label = _label(declared, row)
    if stale_view:
        return _stale_view_decision(row, label, gating.fail_open_classes)
    amends = row.consequential and any(other != subject for other in state.approved.get(action_id, ()))
    trigger = table.trigger_class(declared, after_prior_approval=amends)
    if row.consequential:
        why = f"{label} is consequential" + (" by default (fail-closed)" if row is UNCLASSIFIED else "")
        if amends:
            why += f" and amends an act approved with other arguments (trigger {trigger})"
    else:
        cap, count = gating.caps.get(row.name, 0), state.used.get(row.name, 0)
        cap_text = f"has used {count} of its cap of {cap}" if row.name in gating.caps else "has no configured cap"
        if count < cap:
            return GateDecision("allow", row.name, trigger, f"{label} is not consequential and {cap_text}")
        why = f"{label} is not consequential but {cap_text}"
    if row.approver_role is None:
        return GateDecision("deny", row.name, trigger,
                            f"{why}; no approver role is declared for it, so it is denied, not held")
    role = row.approver_role
    decision, reviewer, review_id = state.decided.get(subject, ("", "", ""))
    if reviewer != role:  # only the class's approver role can release or deny an act
        decision = ""
    if decision == "rejected":
        return GateDecision("deny", row.name, trigger, f"{why}; {role} rejected this exact act in review {review_id}")
    if decision == "approved":
        return GateDecision("allow", row.name, trigger, f"{why}; {role} approved this exact act in review {review_id}")
    return GateDecision("hold", row.name, trigger, f"{why}; it waits for an approved review of this exact act by {role}")


def _label(declared: object, row: ActionClass) -> str:
    """How a reason names the class: the canonical name, and the name given if it differs."""
    if declared is None:
        return "an undeclared class"
    if row is UNCLASSIFIED:
        return f"the unknown class {declared!r}"
    if declared != row.name:
        return f"{row.name} (legacy name {declared!r})"
    return row.name


def _stale_view_decision(row: ActionClass, label: str, configured: Iterable[str]) -> GateDecision:
    """Fail open only where both the table allows it and the run asked for it."""
    prefix = f"the gate's view is stale (an earlier act's outcome is unresolved); {label}"
    if row.fail_open_allowed and row.name in configured:
        return GateDecision("allow", row.name, row.trigger_class,
                            f"{prefix} may fail open and this run configures it to")
    if row.fail_open_allowed:
        reason = f"{prefix} may fail open but this run does not configure it to: fail closed"
    else:
        reason = f"{prefix} may not fail open: fail closed"
    return GateDecision("deny", row.name, row.trigger_class, reason)


def view_is_stale(door: Recorder) -> bool:
    """Whether some admitted act has no settled outcome yet: then the gate cannot vouch for the run's state."""
    return door.count("action") > len(door.settled)


# --- the guard and the rows it changes -----------------------------------------------------


def the_gate(door: Recorder, request: Request) -> str:
    """The door's last guard: an authorized action runs only if the gate allows it now."""
    if request.kind != "action":
        return ""
    action = request.record
    declared = door.policy.tool_named(action.tool).activity
    subject = act_subject(action.action_id, action.arguments)
    state = gate_state(door)
    decision = decide(door.parts["gating"], declared, action.action_id, subject, state, view_is_stale(door))
    if decision.verdict == "allow":
        return ""
    if decision.verdict == "hold":
        state.held[subject] = (decision.action_class, action.action_id)
    return decision.reason


def build_gated_review(door: Recorder, payload: dict) -> ReviewDecision:
    """A review of a held act must come from its class's approver role; other reviews are lesson 2's."""
    subject = payload["subject_id"]
    state = gate_state(door)
    if subject not in state.held:
        return build_review(door, payload)
    role = door.parts["gating"].table.classify(state.held[subject][0]).approver_role
    if payload["reviewer"] != role:
        raise Refusal(f"held act {shown(subject)} waits for a review by {role}, not by {shown(payload['reviewer'])}")
    if subject in door.reviewed:
        raise Refusal(f"subject {shown(subject)} already has a review decision")
    return make_review(door.run.run_id, subject, payload["decision"], payload["reviewer"], payload["reason"])


def _note_action(door: Recorder, action) -> None:
    """Count the admitted act against its class, and toward its trigger class if it is consequential."""
    gating, state = door.parts["gating"], gate_state(door)
    declared = door.policy.tool_named(action.tool).activity
    row = gating.table.classify(declared)
    state.used[row.name] = state.used.get(row.name, 0) + 1
    subject = act_subject(action.action_id, action.arguments)
    amends = any(other != subject for other in state.approved.get(action.action_id, ()))
    trigger = gating.table.trigger_class(declared, after_prior_approval=row.consequential and amends)
    if trigger is not None:
        state.triggers[trigger] = state.triggers.get(trigger, 0) + 1


def _note_review(door: Recorder, review: ReviewDecision) -> None:
    door.reviewed.add(review.subject_id)
    state = gate_state(door)
    if review.subject_id in state.held:
        state.decided[review.subject_id] = (review.decision, review.reviewer, review.review_id)
        if review.decision == "approved":
            identity = state.held[review.subject_id][1]
            state.approved.setdefault(identity, set()).add(review.subject_id)


def gated(kinds: Iterable[Kind]) -> list[Kind]:
    """The action row counting what the gate admits, and the review row that can release a held act."""
    changes = {
        "action": {"admitted": _note_action},
        "review": {"build": build_gated_review, "admitted": _note_review},
    }
    return [dataclasses.replace(row, **changes[row.name]) if row.name in changes else row for row in kinds]


def require_gateable(policy: Policy, gating: Gating) -> None:
    """Refuse, before a run starts, a catalogue the gate could not judge."""
    problems = catalogue_problems(policy, gating.table)
    if problems:
        raise GatingError("; ".join(problems))
