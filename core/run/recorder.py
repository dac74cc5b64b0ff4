"""The recorder: the single door every change to a run's state passes through.

A Recorder owns all mutable state of one run: its stores of records and one
ordered ledger of events. ``record(kind, payload)`` is the only way in. It
checks the payload's run binding first, then the contract of its kind, and
either admits it (the record is stored and an admitted event appended) or
refuses it (a refused event with the reason is appended and no store
changes). It never raises: a payload that breaks the door's code is a
refusal too, so the ledger tells the whole story, what the run did and what
it declined.

Each event also keeps the payload it was asked with. A decision can then be
checked later by asking a fresh door the same questions in the same order
(lesson 10's replay), instead of trusting the ledger's word for it.

A run ends when it is closed: finished or aborted (lesson 9, seal.py). The
close is an event like any other, and from then on the door refuses
everything: a sealed report must describe a run that can no longer change.

This is an application boundary. The host process and the adapters are
trusted here; containing a hostile adapter needs process and transport
isolation that no in-process door can give.
"""

from __future__ import annotations

import copy
import json

from core.run.canon import canonical_bytes
from core.run.policy import Policy
from core.run.records import (
    Action,
    Capture,
    Finding,
    Observation,
    Outcome,
    RecordError,
    ReviewDecision,
    Run,
    make_action,
    make_capture,
    make_finding,
    make_review,
    shown,
)

RECORD_KINDS = ("observation", "action", "capture", "outcome", "finding", "review")

# The fields each kind of payload may carry; any other field is refused.
PAYLOAD_FIELDS = {
    "observation": ("run_id", "field", "value", "capture_id"),
    "action": ("run_id", "tool", "destination", "arguments"),
    "capture": ("run_id", "action_id", "status", "body", "capture_id"),
    "outcome": ("run_id", "action_id", "status", "capture_id", "detail"),
    "finding": ("run_id", "capture_id", "quote", "claim", "finding_id"),
    "review": ("run_id", "subject_id", "decision", "reviewer", "reason", "review_id"),
}

# Where each kind is kept in the snapshot, and which field holds its identifier.
STORE_NAMES = {
    "observation": "observations",
    "action": "actions",
    "capture": "captures",
    "outcome": "outcomes",
    "finding": "findings",
    "review": "reviews",
}
ID_FIELDS = {
    "observation": "observation_id",
    "action": "action_id",
    "capture": "capture_id",
    "outcome": "outcome_id",
    "finding": "finding_id",
    "review": "review_id",
}

REASON_LIMIT = 200  # a hostile payload must not be able to flood the ledger

# The fields of an event that say what the door decided; each event also keeps its "payload".
DECISION_FIELDS = ("seq", "kind", "status", "id", "reason")

# Closing is a ledger event of its own kind (not a stored record); its id says how the run ended.
CLOSE_KIND = "close"
CLOSE_HOWS = ("finished", "aborted")

# What an event keeps instead of a payload that has no JSON form (a set, an object, NaN...).
UNREPRESENTABLE = "unrepresentable"


class Refusal(Exception):
    """Raised inside the door to turn a payload away; record() catches every one."""


class Recorder:
    """The single door of one run under one policy."""

    # The kinds this door admits, as data. A later lesson adds a kind by
    # extending these four tables (and _build) in a subclass, not by
    # rewriting the door.
    record_kinds = RECORD_KINDS
    payload_fields = PAYLOAD_FIELDS
    store_names = STORE_NAMES
    id_fields = ID_FIELDS

    def __init__(self, run: Run, policy: Policy) -> None:
        self.run = run
        self.policy = policy
        self.stage = ""  # lesson 3's stage machine fills this in
        self.closed = None  # lesson 9's finish or abort: {"how", "reason", "seq"} of the close event
        # One store per kind, keyed by record id; dicts keep admission order.
        self._stores: dict[str, dict[str, object]] = {kind: {} for kind in self.record_kinds}
        self._events: list[dict] = []

    # --- the door ----------------------------------------------------------------

    def record(self, kind: str, payload: dict) -> dict:
        """Admit ``payload`` as a record of ``kind``, or refuse it with a reason."""
        try:
            record, record_id = self._check(kind, payload)
        except Refusal as refusal:
            return self.refuse(kind, str(refusal), payload)
        except Exception as exc:  # a payload must never crash the door
            return self.refuse(kind, f"malformed payload: {exc!r}", payload)
        self._stores[kind][record_id] = record
        self._append(kind, "admitted", record_id, "", payload)
        return {"recorded": True, "kind": kind, "id": record_id}

    def refuse(self, kind: str, reason: str, payload: object = None) -> dict:
        """Write a refusal into the ledger and return the answer the caller sees.

        ``payload`` is what the door was asked with; replay asks a fresh door
        again with it. A caller that refuses for reasons of its own (a model
        reply that does not parse) passes none: there was no question for the
        door, only the caller's judgement, which replay copies as it stands.
        """
        if not isinstance(reason, str) or not reason.strip():
            raise RecordError("a refusal must carry a reason")
        reason = _bounded(reason)
        self._append(kind, "refused", "", reason, payload)
        return {"recorded": False, "reason": reason}

    def close(self, how: str, reason: str) -> dict:
        """Close the run as ``finished`` or ``aborted`` for ``reason``; the close is a ledger event.

        Everything admitted before stays as it is; from the close on, every
        record is refused. A close that names no reason, or a second close, is
        refused like any other bad request. seal.finish and seal.abort are the
        names a run uses for this.
        """
        payload = {"how": how, "reason": reason}
        problem = self._check_open() or _close_problem(how, reason)
        if problem:
            return self.refuse(CLOSE_KIND, problem, payload)
        reason = _bounded(reason)
        self._append(CLOSE_KIND, "admitted", how, reason, payload)
        self.closed = {"how": how, "reason": reason, "seq": len(self._events)}
        return {"recorded": True, "kind": CLOSE_KIND, "id": how}

    def _check(self, kind: str, payload: dict) -> tuple[object, str]:
        """The validated record for ``payload`` and its id; raises Refusal (or anything) otherwise."""
        closed_reason = self._check_open()
        if closed_reason:
            raise Refusal(closed_reason)
        if not isinstance(payload, dict):
            raise Refusal(f"malformed payload: payload must be an object, got {type(payload).__name__}")
        if kind not in self.record_kinds:
            raise Refusal(f"unknown record kind {shown(kind)}")
        if payload.get("run_id") != self.run.run_id:
            raise Refusal("payload run_id does not belong to this run")
        stage_reason = self._check_stage(kind)
        if stage_reason:
            raise Refusal(stage_reason)
        for field in payload:
            if field not in self.payload_fields[kind]:
                raise Refusal(f"malformed payload: unexpected field {shown(field)}")
        record = self._build(kind, payload)
        record_id = getattr(record, self.id_fields[kind])
        claimed = payload.get(self.id_fields[kind], record_id)
        if claimed != record_id:
            raise Refusal(f"{self.id_fields[kind]} {shown(claimed)} is not the digest of the {kind}'s content")
        if self._holds(kind, record_id):
            raise Refusal(f"{kind} {shown(record_id)} is already recorded")
        return record, record_id

    def _check_open(self) -> str:
        """A reason to refuse anything more once the run is closed, or "" while it is open."""
        if self.closed is None:
            return ""
        return f"run is closed ({self.closed['how']}): {self.closed['reason']}"

    def _check_stage(self, kind: str) -> str:
        """A reason to refuse ``kind`` in the current stage, or "" to go on.

        Lesson 2 has no stages, so everything passes; lesson 3's stage machine
        overrides this one method instead of rewriting the door.
        """
        return ""

    # --- each kind's own contract ------------------------------------------------

    def _build(self, kind: str, payload: dict) -> object:
        builders = {
            "observation": self._build_observation,
            "action": self._build_action,
            "capture": self._build_capture,
            "outcome": self._build_outcome,
            "finding": self._build_finding,
            "review": self._build_review,
        }
        return builders[kind](payload)

    def _build_observation(self, payload: dict) -> Observation:
        observation = Observation(self.run.run_id, payload["field"], payload["value"], payload.get("capture_id", ""))
        if observation.capture_id and not self._holds("capture", observation.capture_id):
            raise Refusal(f"observation cites capture {shown(observation.capture_id)} that this run does not hold")
        return observation

    def _build_action(self, payload: dict) -> Action:
        """The policy decides; the door only carries its reason into the ledger."""
        tool, destination = payload["tool"], payload["destination"]
        decision = self.policy.allows_action(
            tool, destination, observed=self.observed(), actions_taken=len(self._stores["action"])
        )
        if not decision.allowed:
            raise Refusal(decision.reason)
        return make_action(self.run.run_id, tool, destination, payload["arguments"])

    def _build_capture(self, payload: dict) -> Capture:
        """Content-addressed on arrival: the door computes the capture_id itself."""
        self._require_action("capture", payload["action_id"])
        return make_capture(self.run.run_id, payload["action_id"], payload["status"], payload["body"])

    def _build_outcome(self, payload: dict) -> Outcome:
        action_id = payload["action_id"]
        self._require_action("outcome", action_id)
        outcome = Outcome(
            self.run.run_id, action_id, payload["status"], payload.get("capture_id", ""), payload.get("detail", "")
        )
        if outcome.capture_id:
            if not self._holds("capture", outcome.capture_id):
                raise Refusal(f"outcome cites capture {shown(outcome.capture_id)} that this run does not hold")
            if self._stores["capture"][outcome.capture_id].action_id != action_id:
                raise Refusal(f"outcome cites capture {shown(outcome.capture_id)} of another action")
        if any(earlier.action_id == action_id and earlier.settled for earlier in self._stores["outcome"].values()):
            raise Refusal(f"outcome for {shown(action_id)} is already settled")
        return outcome

    def _build_finding(self, payload: dict) -> Finding:
        capture_id = payload["capture_id"]
        if not self._holds("capture", capture_id):
            raise Refusal(f"finding cites capture {shown(capture_id)} that this run does not hold")
        finding = make_finding(self.run.run_id, capture_id, payload["quote"], payload["claim"])
        if finding.quote not in self._stores["capture"][capture_id].body:
            raise Refusal(f"finding quote does not occur verbatim in capture {shown(capture_id)}")
        return finding

    def _build_review(self, payload: dict) -> ReviewDecision:
        subject_id = payload["subject_id"]
        if not (self._holds("finding", subject_id) or self._holds("action", subject_id)):
            raise Refusal(f"review names subject {shown(subject_id)} that this run does not hold")
        if any(review.subject_id == subject_id for review in self._stores["review"].values()):
            raise Refusal(f"subject {shown(subject_id)} already has a review decision")
        return make_review(self.run.run_id, subject_id, payload["decision"], payload["reviewer"], payload["reason"])

    def _require_action(self, kind: str, action_id: object) -> None:
        if not self._holds("action", action_id):
            raise Refusal(f"{kind} names action {shown(action_id)} that this run never authorized")

    def _holds(self, kind: str, record_id: object) -> bool:
        return isinstance(record_id, str) and record_id in self._stores[kind]

    # --- reading the state -------------------------------------------------------

    def observed(self) -> dict[str, object]:
        """Every observed field and its latest observed value (copies: only the door writes)."""
        return {o.field: copy.deepcopy(o.value) for o in self._stores["observation"].values()}

    def records(self, kind: str) -> list[dict]:
        """Every admitted record of ``kind`` as data, in admission order (copies: only the door writes)."""
        return [record.to_dict() for record in self._stores[kind].values()]

    @property
    def events(self) -> list[dict]:
        """What the door decided, oldest first: the seq, kind, status, id and reason of each event.

        The payloads are left out: no decision reads them, and they can be
        large (a capture carries a whole response). ``ledger`` has them.
        """
        return [{field: event[field] for field in DECISION_FIELDS} for event in self._events]

    @property
    def ledger(self) -> list[dict]:
        """Every event in full, with the payload it was asked with (copies: only the door writes)."""
        return copy.deepcopy(self._events)

    def snapshot(self) -> dict:
        """The whole run state as JSON-ready data, in admission order.

        ``outcomes`` lists every admitted outcome record, so a settlement that
        followed an unresolved outcome stays visible next to it.
        """
        refusals = sum(1 for event in self._events if event["status"] == "refused")
        report = {
            "run": self.run.to_dict(),
            "policy": self.policy.snapshot(),
            "stage": self.stage,
            "closed": copy.deepcopy(self.closed),
            "events": self.ledger,
            "counts": {"admitted": len(self._events) - refusals, "refusals": refusals},
        }
        for kind in self.record_kinds:
            report[self.store_names[kind]] = self.records(kind)
        return report

    def _append(self, kind: object, status: str, record_id: str, reason: str, payload: object = None) -> None:
        self._events.append(
            {
                "seq": len(self._events) + 1,
                "kind": _bounded(kind if isinstance(kind, str) else repr(kind)),
                "status": status,
                "id": record_id,
                "reason": reason,
                "payload": _kept(payload),
            }
        )


def _close_problem(how: object, reason: object) -> str:
    """Why a close request is malformed, or "" when it names a known ending and a reason."""
    if how not in CLOSE_HOWS:
        return f"a run closes as {' or '.join(CLOSE_HOWS)}, not {shown(how)}"
    if not isinstance(reason, str) or not reason.strip():
        return "closing a run needs a reason"
    return ""


def _kept(payload: object) -> object:
    """A JSON-ready copy of a payload, or a note of its type when it has no canonical JSON form.

    The copy goes through JSON text, so it holds plain dicts, lists, strings
    and numbers only, exactly what a report on disk gives back when read.
    """
    try:
        canonical_bytes(payload)
        return json.loads(json.dumps(payload))
    except Exception:  # whatever the payload is, keeping it must not crash the door
        return {UNREPRESENTABLE: _bounded(type(payload).__name__)}


def _bounded(text: str) -> str:
    """Text safe to keep in the ledger: valid UTF-8 and at most REASON_LIMIT characters."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 3] + "..."
