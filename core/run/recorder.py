"""The recorder: the single door every change to a run's state passes through.

A Recorder owns all mutable state of one run: a store of records per kind and
one ordered ledger of events. ``record(kind, payload)`` is the only way in,
and the door is built from two pieces of data a reader can print:

* a table of record **kinds** (``Kind``): each row names the payload fields
  the kind may carry, the store its records are kept in, the field that
  names a record, its **builder** (the kind's own contract, which turns a
  payload into a record or refuses it) and its **hooks**, what the door
  learns from each admitted record (an index it keeps up to date);
* an ordered list of **guards**: small functions, each asking one question
  of a request. A guard lets the request on by returning; it turns it away
  by raising ``Refusal(code, reason)``.

A request is admitted when every guard lets it through: the record is
stored, an admitted event appended, and the row's hooks run in order. The
first guard that refuses ends it: a refused event is appended with the
reason, a stable ``code`` (``CODES`` lists lesson 2's) and the guard or
builder that refused it (``by``), and no store changes. A payload that
breaks a guard's or a builder's code is a refusal too, so a stranger's
payload never raises out of the door. A hook is the harness's own code,
run on a record the door has just admitted; a hook that fails is a bug in
the harness, and it raises.

Lesson 2's door is ``Recorder(run, policy)``: its six kinds (``KINDS``) and
five guards (``GUARDS``). Later lessons add rows, hooks and guards of their
own, in their own modules; ``doors.door_for(lesson, ...)`` assembles each
lesson's door, and ``print(door)`` shows every row with its builder and
hooks and every guard, each with its module.

Each event also keeps the payload it was asked with, so a decision can be
checked later by asking a fresh door the same questions (lesson 10's
replay) instead of trusting the ledger's word for it. So the first guard
refuses a payload the ledger could not keep whole: one with no canonical
JSON form, or one over PAYLOAD_LIMIT bytes of it. What the door admits is
always kept whole; only a refused payload is ever kept as a note (its
digest, size and a prefix). The event is encoded
into canonical JSON once, when it is written; the ledger, the seal and the
report all read those bytes, and a ``sink`` given to the door (a journal on
disk, say) gets each event's bytes before the door answers.

This is an application boundary. The host process and the adapters are
trusted here; containing a hostile adapter needs process and transport
isolation that no in-process door can give.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from types import MappingProxyType

from core.run.canon import MAX_SAFE_INTEGER, CanonError, canonical_bytes, canonical_object
from core.run.policy import ACTION_CHECKS, Check, Policy
from core.run.records import (
    Action,
    Capture,
    Finding,
    Observation,
    Outcome,
    ReviewDecision,
    Run,
    json_cost,
    json_size,
    make_action,
    make_capture,
    make_finding,
    make_review,
    payload_fields,
    shown,
)

REASON_LIMIT = 200  # bytes of canonical JSON: a hostile payload must not be able to flood the ledger with its reason
PAYLOAD_LIMIT = 64 * 1024  # bytes of canonical JSON a payload may have; the door refuses a larger one
PREFIX_LIMIT = 1024  # characters of an over-long payload an event keeps, besides its digest and size

# The fields of an event that say what the door decided; each event also keeps its "payload".
DECISION_FIELDS = ("seq", "kind", "status", "id", "reason", "code", "by")

# What an event keeps instead of a payload that has no JSON form (a set, an object, NaN...),
# and instead of one over PAYLOAD_LIMIT.
UNREPRESENTABLE = "unrepresentable"
BOUNDED = "bounded"

# Who wrote a refusal: the door (one of its guards or builders), or a caller that turned
# something away before there was a question for the door (a model that failed to answer).
BY_DOOR = "door: "
BY_CALLER = "caller: "

# Lesson 2's refusal codes; each later lesson's module lists its own, and doors.CODES is the
# one table of them all. A code is stable: tests, demos and replay compare codes, not text.
CODES = {
    "malformed_payload": "the payload is not an object, lacks a field, or a value breaks its record",
    "payload_too_large": "the payload's canonical JSON is over the door's bound (PAYLOAD_LIMIT bytes)",
    "unexpected_field": "the payload carries a field its kind does not declare",
    "wrong_run": "the payload names another run",
    "unknown_kind": "no row of the door's table has this kind",
    "not_its_id": "the payload claims an id that is not the digest of its content",
    "already_recorded": "a record with this id is already held",
    "unknown_tool": "the tool is not declared in the catalogue",
    "out_of_scope": "the destination is outside the authorized origins",
    "invalid_destination": "the destination is not a valid origin",
    "bad_arguments": "the arguments do not fit the tool's schema",
    "unobserved_requirement": "a field the tool requires is not observed, or has another value",
    "budget_spent": "a budget of the policy is spent",
    "unknown_capture": "the record cites a capture this run does not hold",
    "unknown_action": "the record names an action this run never authorized",
    "capture_of_another_action": "the outcome cites a capture of another action",
    "already_settled": "the action's outcome is already settled",
    "quote_not_verbatim": "the finding's quote does not occur in its capture",
    "unknown_subject": "the review names nothing this run holds",
    "already_decided": "the subject already has a review decision",
}


class Refusal(Exception):
    """Raised by a guard or a builder to turn a request away, with a stable code and a reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.by = ""  # which guard or builder raised it; the door fills it in


Build = Callable[["Recorder", dict], object]
Hook = Callable[["Recorder", object], None]
Knows = Callable[["Recorder", str], bool]  # whether a later part holds this subject (a review may name it)
Keeps = Callable[["Recorder"], bool]  # whether the ledger still takes events (a later part may make it final)

# The report's fields that later lessons fill in, each with what it shows until then, so lesson 2's
# snapshot already has the report's shape. The door keeps no such state of its own: the lesson that
# owns a field writes its value to ``door.state`` under the field's name.
SHOWN_LATER = {"stage": "", "closed": None}


@dataclass(frozen=True)
class Kind:
    """One row of the door's table: a record kind and everything the door does with it."""

    name: str
    fields: tuple[str, ...]  # the payload fields it may carry; any other is refused
    store: str  # the snapshot key its records are kept under; "" for an event that is not stored
    id_field: str  # the record attribute that names it
    build: Build  # the kind's own contract: a record, or Refusal
    hooks: tuple[Hook, ...] = ()  # what the door learns from an admitted record; later lessons add theirs
    asks: tuple[Check, ...] = ()  # the policy's checks its builder asks, in order (policy.ACTION_CHECKS)
    knows: tuple[Knows, ...] = ()  # what else a record of it may name, as later parts add it (lesson 8's held acts)

    def with_hooks(self, *hooks: Hook) -> Kind:
        """The same row with ``hooks`` run after its own: hooks add up, none is replaced."""
        return replace(self, hooks=(*self.hooks, *hooks))

    def knowing(self, *knows: Knows) -> Kind:
        """The same row, whose records may also name what ``knows`` answers for: these add up too."""
        return replace(self, knows=(*self.knows, *knows))


@dataclass
class Request:
    """One call to ``record`` on its way through the guards; a guard may fill in what it found."""

    kind: object
    payload: object
    row: Kind | None = None  # set by kind_is_known
    record: object = None  # set by kinds_contract
    encoded: bytes | None = None  # the payload's canonical JSON, set by payload_is_object: encoded once


Guard = Callable[["Recorder", Request], None]  # returns to let the request on; raises Refusal to turn it away
Start = Callable[["Recorder"], None]  # run once, when a door is built


def named(function: Callable) -> str:
    """A guard, builder or hook as a reader finds it: its module's short name and its own."""
    return f"{function.__module__.rpartition('.')[2]}.{function.__name__}"


class Recorder:
    """The single door of one run under one policy, assembled from kinds and guards."""

    def __init__(self, run: Run, policy: Policy, kinds: Iterable[Kind] | None = None,
                 guards: Iterable[Guard] | None = None, sink: Callable[[bytes], None] | None = None,
                 starts: Iterable[Start] = (), keeps: Iterable[Keeps] = (), **parts: object) -> None:
        self.run = run
        self.policy = policy
        self.kinds = MappingProxyType({row.name: row for row in (KINDS if kinds is None else kinds)})
        self.guards = tuple(GUARDS if guards is None else guards)
        self.sink = sink  # gets each event's canonical bytes as it is written (a journal on disk)
        self.parts = MappingProxyType(parts)  # what later lessons' guards need: the gate's configuration...
        self._stores: dict[str, dict[str, object]] = {name: {} for name, row in self.kinds.items() if row.store}
        self._events: list[bytes] = []  # each event's canonical JSON, written once
        self._decisions: list[tuple] = []  # (seq, kind, status, id, reason, code, by) of each event
        # Lesson 2's indexes, kept up to date by its hooks, so no question costs more as the run grows.
        self.observed_now: dict[str, object] = {}  # field -> its latest observed value
        self.settled: set[str] = set()  # action ids whose outcome is settled
        self.reviewed: set[str] = set()  # subject ids that have a review decision
        self.seq_of: dict[tuple[str, str], int] = {}  # (kind, record id) -> the seq of the event that admitted it
        self.state: dict[str, object] = {}  # later lessons' own state, each under its own name
        self.keeps = tuple(keeps)  # a refusal is appended only while each says the ledger takes events
        self.starts = tuple(starts)  # what later lessons do once, when the door is built (lesson 3 enters its stage)
        for start in self.starts:
            start(self)

    def __repr__(self) -> str:
        kinds = ", ".join(self.kinds)
        guards = ", ".join(guard.__name__ for guard in self.guards)
        return f"<door of run {self.run.run_id[:12]}: kinds {kinds}; guards {guards}>"

    def __len__(self) -> int:
        """How many events the ledger holds."""
        return len(self._decisions)

    def __str__(self) -> str:
        """The door as a reader checks it: each row with its builder and hooks, then each guard in order."""
        lines = [f"door of run {self.run.run_id[:12]}", "kinds (store; builder; then its hooks, in order):"]
        for row in self.kinds.values():
            lines.append(f"  {row.name} -> {row.store or '(an event only)'}; {named(row.build)}")
            lines += [f"      asks {named(check)}" for check in row.asks]
            lines += [f"      may name what {named(knows)} holds" for knows in row.knows]
            lines += [f"      then {named(hook)}" for hook in row.hooks]
            # A part that rules over rows says how (lesson 3's stage table: where each kind is admitted).
            lines += [f"      {part.about(row.name)}" for part in self.parts.values() if hasattr(part, "about")]
        if self.starts:
            lines.append("at its start, in order:")
            lines += [f"  {named(start)}" for start in self.starts]
        if self.keeps:
            lines.append("the ledger takes refusals while:")
            lines += [f"  {named(keeps)}" for keeps in self.keeps]
        lines.append("guards, in order:")
        lines += [f"  {number}. {named(guard)}" for number, guard in enumerate(self.guards, start=1)]
        return "\n".join(lines)

    # --- the door ----------------------------------------------------------------

    def record(self, kind: str, payload: dict) -> dict:
        """Admit ``payload`` as a record of ``kind``, or refuse it with the first guard's reason."""
        request = Request(kind, payload)
        for guard in self.guards:
            try:
                guard(self, request)
            except Refusal as refusal:
                return self._refused(request, refusal.code, refusal.reason, refusal.by or named(guard))
            except Exception as exc:  # a payload must never crash the door
                return self._refused(request, "malformed_payload", f"malformed payload: {exc!r}", named(guard))
        return self._admit(request)

    def refuse(self, kind: object, reason: str, *, code: str, by: str) -> dict:
        """The one way a caller writes a refusal of its own into the ledger; the answer the caller passes on.

        A caller refuses for reasons of its own before there is a question
        for the door (a model that failed to answer): the event keeps no
        payload, names the caller (``by``) and says so, so replay copies it
        as it stands and never takes it for the door's decision.
        """
        return self._write_refusal(kind, reason, code, BY_CALLER + by, None)

    def _refused(self, request: Request, code: str, reason: str, by: str) -> dict:
        return self._write_refusal(request.kind, reason, code, BY_DOOR + by, request.payload, request.encoded)

    def _write_refusal(self, kind: object, reason: str, code: str, by: str, payload: object,
                       encoded: bytes | None = None) -> dict:
        """Write a refusal and return the answer the caller sees; once the ledger is final (``keeps``), only answer."""
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError("a refusal must carry a reason")
        if not isinstance(code, str) or not code:
            raise ValueError("a refusal must carry a code")
        reason = bounded_text(reason)
        if all(keeps(self) for keeps in self.keeps):
            self._append(kind, "refused", "", reason, payload, code, by, encoded)
        return {"recorded": False, "reason": reason}

    def _admit(self, request: Request) -> dict:
        row, record = request.row, request.record
        record_id = getattr(record, row.id_field)
        if row.store:
            self._stores[row.name][record_id] = record
        self._append(row.name, "admitted", record_id, "", request.payload, "", "", request.encoded)
        self.seq_of[(row.name, record_id)] = len(self._events)
        for hook in row.hooks:
            hook(self, record)
        return {"recorded": True, "kind": row.name, "id": record_id}

    # --- reading the state -------------------------------------------------------

    def holds(self, kind: str, record_id: object) -> bool:
        """Whether the run holds a record of ``kind`` named ``record_id``."""
        return isinstance(record_id, str) and record_id in self._stores.get(kind, {})

    def get(self, kind: str, record_id: str) -> dict:
        """The admitted record of ``kind`` named ``record_id``, as data (a copy: only the door writes)."""
        return self._stores[kind][record_id].to_dict()

    def stored(self, kind: str, record_id: str) -> object:
        """The frozen record itself, for a row's builder that must read it (records cannot be changed)."""
        return self._stores[kind][record_id]

    def newest_first(self, kind: str):
        """The ids of the records of ``kind``, newest first (an iterator: reading stops when the caller does)."""
        return reversed(self._stores[kind])

    def count(self, kind: str) -> int:
        """How many records of ``kind`` the run holds."""
        return len(self._stores[kind])

    def observed(self) -> MappingProxyType:
        """Every observed field and its latest value, as a read-only view of the door's index."""
        return MappingProxyType(self.observed_now)

    def records(self, kind: str) -> list[dict]:
        """Every admitted record of ``kind`` as data, in admission order (copies: only the door writes)."""
        return [record.to_dict() for record in self._stores[kind].values()]

    @property
    def events(self) -> list[dict]:
        """What the door decided, oldest first: the seq, kind, status, id, reason, code and by of each event.

        The payloads are left out: no decision reads them, and they can be
        large (a capture carries a whole response). ``ledger`` has them.
        """
        return [dict(zip(DECISION_FIELDS, decision)) for decision in self._decisions]

    @property
    def ledger(self) -> list[dict]:
        """Every event in full, with the payload it was asked with, read back from its canonical bytes."""
        return [json.loads(event, parse_int=_json_number) for event in self._events]

    def event_bytes(self) -> tuple[bytes, ...]:
        """The canonical JSON of every event, exactly as written: the seal chains these bytes."""
        return tuple(self._events)

    def snapshot(self, with_events: bool = True) -> dict:
        """The whole run state as JSON-ready data, in admission order.

        ``outcomes`` lists every admitted outcome record, so a settlement that
        followed an unresolved outcome stays visible next to it. The report's
        sections are the snapshot without ``events`` (``with_events=False``
        spares reading every event back).
        """
        refusals = sum(1 for decision in self._decisions if decision[2] == "refused")
        report = {
            "run": self.run.to_dict(),
            "policy": self.policy.snapshot(),
            **{field: _copied(self.state.get(field, empty)) for field, empty in SHOWN_LATER.items()},
            **({"events": self.ledger} if with_events else {}),
            "counts": {"admitted": len(self._decisions) - refusals, "refusals": refusals},
        }
        for name, row in self.kinds.items():
            if row.store:
                report[row.store] = self.records(name)
        return report

    def _append(self, kind: object, status: str, record_id: str, reason: str, payload: object,
                code: str, by: str, encoded: bytes | None = None) -> None:
        """Write one event, encoding it into canonical JSON once, around its payload's own bytes.

        canon.canonical_object takes members that are already canonical
        bytes, so the payload is encoded a single time and the event's bytes
        are exactly canonical_bytes(event).
        """
        seq = len(self._events) + 1
        kind = bounded_text(kind if isinstance(kind, str) else repr(kind))
        fields = {"by": by, "code": code, "id": record_id, "kind": kind, "reason": reason, "seq": seq,
                  "status": status}
        members = {name: canonical_bytes(value) for name, value in fields.items()}
        event = canonical_object({**members, "payload": _kept(payload, encoded)})
        self._events.append(event)
        self._decisions.append((seq, kind, status, record_id, reason, code, by))
        if self.sink is not None:
            self.sink(event)


def _kept(payload: object, encoded: bytes | None = None) -> bytes:
    """The canonical JSON an event keeps of a payload (``encoded``, when the door has encoded it already).

    Only a refused payload can need a note instead: one with no JSON form is
    kept as a note of its type, one over PAYLOAD_LIMIT bytes as its digest,
    its size and a prefix, and the note says so: a refused 20 MB reply must
    not cost 20 MB of ledger, and a reader can still tell exactly which
    payload it was. (payload_is_object refuses both, so an admitted payload
    is always kept whole.)
    """
    try:
        data = canonical_bytes(payload) if encoded is None else encoded
    except (CanonError, RecursionError, ValueError, TypeError):  # keeping a payload must not crash the door
        return canonical_bytes({UNREPRESENTABLE: bounded_text(type(payload).__name__)})
    if len(data) <= PAYLOAD_LIMIT:
        return data
    prefix = data[:PREFIX_LIMIT].decode("utf-8", "ignore")
    return canonical_bytes({BOUNDED: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
                                      "prefix": prefix}})


def _json_number(text: str) -> int | float:
    """An integer read back from canonical JSON, as the double it stands for when it is too large for an int.

    Canonical JSON writes the float 2.0**53 as ``9007199254740992``; read
    back as an int it would fall outside the exact range canon.py accepts.
    """
    value = int(text)
    return value if abs(value) <= MAX_SAFE_INTEGER else float(value)


def bounded_text(text: str) -> str:
    """Text safe to keep in the ledger: valid UTF-8, and at most REASON_LIMIT bytes of canonical JSON.

    A cap counts bytes, as the ledger does (the quotes aside): a reason of
    four-byte characters is cut at a quarter of the characters an ASCII one keeps.
    """
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if json_size(text) - 2 <= REASON_LIMIT:
        return text
    kept, size = [], 3  # the "..." that says it was cut
    for char in text:
        size += json_cost(char)
        if size > REASON_LIMIT:
            break
        kept.append(char)
    return "".join(kept) + "..."


# --- lesson 2's guards, in the order the door asks them -------------------------------


def payload_is_object(door: Recorder, request: Request) -> None:
    """A payload is a JSON object the ledger can keep whole; anything else is refused before any field is read.

    The ledger keeps each payload so that a fresh door can be asked it again
    (replay, and verify's re-derivation): one with no canonical JSON form, or
    over PAYLOAD_LIMIT bytes of it, could not be kept whole, so it is never
    admitted.
    """
    if not isinstance(request.payload, dict):
        raise Refusal("malformed_payload",
                      f"malformed payload: payload must be an object, got {type(request.payload).__name__}")
    try:
        request.encoded = canonical_bytes(request.payload)
    except (CanonError, RecursionError, ValueError, TypeError) as exc:
        raise Refusal("malformed_payload", f"malformed payload: it has no canonical JSON form: {exc}") from None
    if len(request.encoded) > PAYLOAD_LIMIT:
        raise Refusal("payload_too_large", f"the payload has {len(request.encoded)} bytes of canonical JSON, "
                                           f"over the door's bound of {PAYLOAD_LIMIT}")


def run_binding(door: Recorder, request: Request) -> None:
    """The payload names this run: another run's payload is turned away before anything else is read."""
    if request.payload.get("run_id") != door.run.run_id:
        raise Refusal("wrong_run", "payload run_id does not belong to this run")


def kind_is_known(door: Recorder, request: Request) -> None:
    """The kind has a row in this door's table."""
    request.row = door.kinds.get(request.kind) if isinstance(request.kind, str) else None
    if request.row is None:
        raise Refusal("unknown_kind", f"unknown record kind {shown(request.kind)}")


def fields_are_declared(door: Recorder, request: Request) -> None:
    """Every payload field is one the kind declares: a typo must not ride along unread."""
    for field in sorted(request.payload, key=str):  # the same reason whatever order the fields came in
        if field not in request.row.fields:
            raise Refusal("unexpected_field", f"malformed payload: unexpected field {shown(field)}")


def kinds_contract(door: Recorder, request: Request) -> None:
    """The kind's own builder makes the record; its id must be its own and new to this run."""
    row = request.row
    try:
        record = row.build(door, request.payload)
    except Refusal as refusal:
        refusal.by = named(row.build)
        raise
    except Exception as exc:  # the builder met a payload it cannot read
        refusal = Refusal("malformed_payload", f"malformed payload: {exc!r}")
        refusal.by = named(row.build)
        raise refusal from None
    record_id = getattr(record, row.id_field)
    claimed = request.payload.get(row.id_field, record_id)
    if claimed != record_id:
        raise Refusal("not_its_id", f"{row.id_field} {shown(claimed)} is not the digest of the {row.name}'s content")
    if door.holds(row.name, record_id):
        raise Refusal("already_recorded", f"{row.name} {shown(record_id)} is already recorded")
    request.record = record


# --- lesson 2's kinds: each builder is the kind's own contract ------------------------


def build_observation(door: Recorder, payload: dict) -> Observation:
    observation = Observation(door.run.run_id, payload["field"], payload["value"], payload.get("capture_id", ""))
    if observation.capture_id and not door.holds("capture", observation.capture_id):
        raise Refusal("unknown_capture",
                      f"observation cites capture {shown(observation.capture_id)} that this run does not hold")
    return observation


def build_action(door: Recorder, payload: dict) -> Action:
    """The policy decides; the door only carries its reason and code into the ledger."""
    tool, destination, arguments = payload["tool"], payload["destination"], payload["arguments"]
    decision = door.policy.allows_action(tool, destination, observed=door.observed_now,
                                         actions_taken=door.count("action"), arguments=arguments,
                                         checks=door.kinds["action"].asks)
    if not decision.allowed:
        raise Refusal(decision.code, decision.reason)
    return make_action(door.run.run_id, tool, destination, arguments)


def build_capture(door: Recorder, payload: dict) -> Capture:
    """Content-addressed on arrival: the door computes the capture_id itself."""
    require_action(door, "capture", payload["action_id"])
    return make_capture(door.run.run_id, payload["action_id"], payload["status"], payload["body"])


def build_outcome(door: Recorder, payload: dict) -> Outcome:
    action_id = payload["action_id"]
    require_action(door, "outcome", action_id)
    outcome = Outcome(door.run.run_id, action_id, payload["status"], payload.get("capture_id", ""),
                      payload.get("detail", ""))
    if outcome.capture_id:
        if not door.holds("capture", outcome.capture_id):
            raise Refusal("unknown_capture",
                          f"outcome cites capture {shown(outcome.capture_id)} that this run does not hold")
        if door.stored("capture", outcome.capture_id).action_id != action_id:
            raise Refusal("capture_of_another_action",
                          f"outcome cites capture {shown(outcome.capture_id)} of another action")
    if action_id in door.settled:
        raise Refusal("already_settled", f"outcome for {shown(action_id)} is already settled")
    return outcome


def build_finding(door: Recorder, payload: dict) -> Finding:
    capture_id = payload["capture_id"]
    if not door.holds("capture", capture_id):
        raise Refusal("unknown_capture", f"finding cites capture {shown(capture_id)} that this run does not hold")
    finding = make_finding(door.run.run_id, capture_id, payload["quote"], payload["claim"])
    if finding.quote not in door.stored("capture", capture_id).body:
        raise Refusal("quote_not_verbatim", f"finding quote does not occur verbatim in capture {shown(capture_id)}")
    return finding


def _copied(value: object) -> object:
    """A snapshot's copy of a field's value: a dict is copied, so the snapshot never shares the door's own."""
    return dict(value) if isinstance(value, dict) else value


def build_review(door: Recorder, payload: dict) -> ReviewDecision:
    subject_id = payload["subject_id"]
    known = (door.holds("finding", subject_id) or door.holds("action", subject_id)
             or any(knows(door, subject_id) for knows in door.kinds["review"].knows))
    if not known:
        raise Refusal("unknown_subject", f"review names subject {shown(subject_id)} that this run does not hold")
    if subject_id in door.reviewed:
        raise Refusal("already_decided", f"subject {shown(subject_id)} already has a review decision")
    return make_review(door.run.run_id, subject_id, payload["decision"], payload["reviewer"], payload["reason"])


def require_action(door: Recorder, kind: str, action_id: object) -> None:
    if not door.holds("action", action_id):
        raise Refusal("unknown_action", f"{kind} names action {shown(action_id)} that this run never authorized")


def note_observation(door: Recorder, observation: Observation) -> None:
    door.observed_now[observation.field] = observation.value


def note_outcome(door: Recorder, outcome: Outcome) -> None:
    if outcome.settled:
        door.settled.add(outcome.action_id)


def note_review(door: Recorder, review: ReviewDecision) -> None:
    door.reviewed.add(review.subject_id)


KINDS = (
    Kind("observation", payload_fields(Observation, without="observation_id"), "observations", "observation_id", build_observation,
         (note_observation,)),
    Kind("action", payload_fields(Action, without="action_id"), "actions", "action_id", build_action,
         asks=ACTION_CHECKS),
    Kind("capture", payload_fields(Capture), "captures", "capture_id", build_capture),
    Kind("outcome", payload_fields(Outcome, without="outcome_id"), "outcomes", "outcome_id", build_outcome, (note_outcome,)),
    Kind("finding", payload_fields(Finding), "findings", "finding_id", build_finding),
    Kind("review", payload_fields(ReviewDecision), "reviews", "review_id", build_review,
         (note_review,)),
)

GUARDS = (payload_is_object, run_binding, kind_is_known, fields_are_declared, kinds_contract)
