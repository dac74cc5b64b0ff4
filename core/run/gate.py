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
``fail_open_classes`` proceeds, and only within its cap; everything else is
denied, fail-closed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from core.run.canon import CanonError, digest
from core.run.policy import Policy
from core.run.recorder import Recorder, Refusal, Request
from core.run.records import RecordError, ReviewDecision, action_identity, require_keys, shown
from core.run.select import is_the_selection
from core.run.stages import stage_of
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
        for name in caps:  # each consequential act is reviewed on its own: a cap on its class would never be read
            if table.resolve(name).consequential:
                raise GatingError(f"gating caps name {name}, which is consequential: every act of it waits "
                                  "for its own review, so a cap would be ignored")
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


def subject_of(identity_or_tool: object, arguments: object, destination: object = None) -> str:
    """The review subject of an exact act, or "" when the act cannot have one.

    Given an action identity (``"tool -> destination"``) and arguments, as an
    operator's review names the act, or a tool, arguments and a destination,
    as a payload carries them.
    """
    try:
        if destination is None:
            tool, _, destination = identity_or_tool.partition(" -> ")
        else:
            tool = identity_or_tool
        return act_subject(action_identity(tool, destination), arguments)
    except (RecordError, CanonError, AttributeError, TypeError, ValueError):
        return ""


@dataclass
class GateState:
    """What the gate keeps in the door, each index updated as the ledger grows."""

    used: dict[str, int] = field(default_factory=dict)  # canonical class -> admitted acts
    held: dict[str, tuple[str, str]] = field(default_factory=dict)  # held subject -> class, action identity
    decided: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # subject -> decision, reviewer, id
    approved: dict[str, set[str]] = field(default_factory=dict)  # action identity -> its approved subjects
    triggers: dict[str, int] = field(default_factory=dict)  # trigger class -> admitted consequential acts

    def counted(self) -> dict:
        """What the gate has counted, as data: admitted acts per class (``used``) and per trigger class."""
        return {"used": dict(sorted(self.used.items())), "trigger_classes": dict(sorted(self.triggers.items()))}


def gate_state(door: Recorder) -> GateState:
    return door.state.setdefault(GATE, GateState())


def decide(gating: Gating, declared: object, action_id: str, subject: str, state: GateState,
           stale_view: bool = False) -> GateDecision:
    """The gate's verdict for the act ``subject`` (of identity ``action_id``) whose tool declares ``declared``."""
    table = gating.table
    row = table.classify(declared)
    label = _label(declared, row)
    if stale_view:  # failing open never lifts a cap: past it, the class fails closed like any other
        within_cap = not row.consequential and state.used.get(row.name, 0) < gating.caps.get(row.name, 0)
        return _stale_view_decision(row, label, gating.fail_open_classes, within_cap)
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


def _stale_view_decision(row: ActionClass, label: str, configured: Iterable[str], within_cap: bool) -> GateDecision:
    """Fail open only where both the table allows it and the run asked for it, and only within the class's cap."""
    prefix = f"the gate's view is stale (an earlier act's outcome is unresolved); {label}"
    if row.fail_open_allowed and row.name in configured and within_cap:
        return GateDecision("allow", row.name, row.trigger_class,
                            f"{prefix} may fail open and this run configures it to")
    if row.fail_open_allowed and row.name in configured:
        reason = f"{prefix} may fail open, but not past its cap: fail closed"
    elif row.fail_open_allowed:
        reason = f"{prefix} may fail open but this run does not configure it to: fail closed"
    else:
        reason = f"{prefix} may not fail open: fail closed"
    return GateDecision("deny", row.name, row.trigger_class, reason)


def view_is_stale(door: Recorder) -> bool:
    """Whether some admitted act has no settled outcome yet: then the gate cannot vouch for the run's state."""
    return door.count("action") > len(door.settled)


# --- the door's guards and the hooks it adds ---------------------------------------------


def the_gate(door: Recorder, request: Request) -> None:
    """The door's last guard: an authorized action runs only if the gate allows it now (``decision_now``)."""
    if request.kind != "action":
        return
    action, gating = request.record, gating_now(door)
    decision = decision_now(door, action.tool, action.action_id, action.arguments, gating)
    if decision.verdict == "allow":
        return
    kept = door.parts["gating"].caps.get(decision.action_class, 0) - gating.caps.get(decision.action_class, 0)
    reason = decision.reason + (f" (the work loop's share: the verification plan keeps {kept} of the cap)"
                                if kept else "")
    if decision.verdict == "hold":  # a review may now name this exact act
        gate_state(door).held[act_subject(action.action_id, action.arguments)] = (decision.action_class,
                                                                                  action.action_id)
        raise Refusal("held_for_review", reason)
    raise Refusal("denied", reason)


def decision_now(door: Recorder, tool: str, action_id: str, arguments: Mapping,
                 gating: Gating | None = None) -> GateDecision:
    """What the gate decides, asked now, for the act ``action_id`` of ``tool`` with ``arguments``.

    It is the_gate's own question, under ``gating_now(door)`` unless given,
    so a reader who wants the class and trigger class behind the door's
    answer (lesson 8's demo) asks exactly what the door will ask. It records
    nothing and holds nothing: only the_gate's refusal does.
    """
    gating = gating if gating is not None else gating_now(door)
    return decide(gating, door.policy.tool_named(tool).activity, action_id, act_subject(action_id, arguments),
                  gate_state(door), view_is_stale(door))


def gating_now(door: Recorder) -> Gating:
    """The gating an act is held to now: the work loop's share in the execute stage of a selection-driven run
    (lesson 7's ``is_the_selection`` in the door), the run's whole gating anywhere else."""
    work_loop = stage_of(door) == "execute" and is_the_selection in door.guards
    return work_loop_share(door) if work_loop else door.parts["gating"]


def work_loop_share(door: Recorder) -> Gating:
    """The gating the work loop is held to: each class's cap less one for each act of it the verification plan holds.

    The plan's acts run in the verify stage, through this same gate and its
    caps; a work loop steered into spending a whole cap would leave them
    denied. (Lesson 7's plan guard keeps the action budget's share the same way.)
    """
    gating, plan = door.parts["gating"], door.parts.get("plan")
    tools = plan.tools() if plan is not None else []
    planned: dict[str, int] = {}
    for tool_id in tools:
        tool = door.policy.tool_named(tool_id)
        if tool is not None:
            row = gating.table.classify(tool.activity)
            planned[row.name] = planned.get(row.name, 0) + 1
    if not planned:
        return gating
    caps = {name: max(0, cap - planned.get(name, 0)) for name, cap in gating.caps.items()}
    return Gating(gating.taxonomy_version, gating.table, MappingProxyType(caps), gating.fail_open_classes)


def reviewed_by_its_approver(door: Recorder, request: Request) -> None:
    """A review of a held act counts only from its class's approver role; other reviews are lesson 2's."""
    if request.kind != "review":
        return
    subject, state = request.payload.get("subject_id"), gate_state(door)
    if not isinstance(subject, str) or subject not in state.held:
        return
    role = door.parts["gating"].table.classify(state.held[subject][0]).approver_role
    if request.payload.get("reviewer") != role:
        raise Refusal("not_the_approver", f"held act {shown(subject)} waits for a review by {role}, "
                                          f"not by {shown(request.payload.get('reviewer'))}")


def note_gated_action(door: Recorder, action) -> None:
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


def note_gated_review(door: Recorder, review: ReviewDecision) -> None:
    """A decision on a held act: the gate remembers it, and an approval releases that exact act."""
    state = gate_state(door)
    if review.subject_id in state.held:
        state.decided[review.subject_id] = (review.decision, review.reviewer, review.review_id)
        if review.decision == "approved":
            identity = state.held[review.subject_id][1]
            state.approved.setdefault(identity, set()).add(review.subject_id)


HOOKS = {"action": (note_gated_action,), "review": (note_gated_review,)}  # added to lesson 2's rows


def holds_for_review(door: Recorder, subject_id: str) -> bool:
    """Whether the gate holds the exact act ``subject_id`` for review: lesson 2's review row may name it."""
    return subject_id in gate_state(door).held


KNOWS = {"review": (holds_for_review,)}  # what lesson 2's rows may name besides the run's records
ADMITTED_IN = {"review": ("execute", "verify")}  # a held act waits for its review where it was tried
CODES = {
    "held_for_review": "a consequential act (or one past its class's cap) waits for a review of that exact act",
    "denied": "the gate denies the act: no approver role, a rejection, or a stale view that may not fail open",
    "not_the_approver": "a review of a held act by someone other than its class's approver role",
}


def start(door: Recorder) -> None:
    """Refuse, before a run starts, a catalogue the gate could not judge."""
    require_gateable(door.policy, door.parts["gating"])


def require_gateable(policy: Policy, gating: Gating) -> None:
    """Refuse a catalogue the gate could not judge under ``gating``; GatingError says why."""
    problems = catalogue_problems(policy, gating.table)
    if problems:
        raise GatingError("; ".join(problems))
