"""Records: the vocabulary a run is written in.

Every fact the harness keeps is one of these frozen records: the run itself,
an action, a capture of what came back, an observation, an outcome, a finding
and a review decision. Each one checks its own fields when it is built and
raises RecordError naming the field, so a half-valid record never exists.

Identities are computed, not chosen. Every record but the run and the action
is named by the digest of its own content (see canon.py and
``named_by_content``), so the same content always gets the same identifier,
changed content gets a new one, and an identifier that is not the digest of
its record's content is refused. An action
is named by one readable string, ``<tool> -> <canonical destination>``, that
every later lesson uses to talk about the same act.

A digest detects a change; it does not say who wrote the content, and whoever
can replace the content can replace its digest too.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from core.run.canon import CanonError, canonical_bytes, canonical_object, digest
from core.run.origins import DESTINATION_LIMIT, OriginError, canonical_destination

OUTCOME_STATUSES = ("unresolved", "succeeded", "failed")
SETTLED_STATUSES = ("succeeded", "failed")
REVIEW_DECISIONS = ("approved", "rejected")
SHOWN_LIMIT = 80  # how much of a stranger's value a message repeats
WORD_LIMIT = 100  # characters of a policy's words (a tool id, a class, a family, the reference)
# The longest identity a record can have: an action's "<tool> -> <canonical destination>"; every other id is a digest.
IDENTITY_LIMIT = WORD_LIMIT + len(" -> ") + DESTINATION_LIMIT


class RecordError(ValueError):
    """A record was built from values that break its contract; the message names the field."""


def printable(text: str) -> str:
    """``text`` as a screen may show it: every character a terminal or a renderer would obey, as an escape.

    Text from outside the harness (a page, a model's reply, a report someone
    handed over) can hold terminal escape sequences (ANSI colours, OSC 8
    links), other control characters, bidirectional overrides and zero-width
    marks, or a lone surrogate. Printed as they are, a terminal obeys them:
    it recolours, links or reorders what a person reads. So each control
    (Cc), format (Cf), surrogate (Cs) and line or paragraph separator (Zl, Zp)
    character is written as a Python-style escape (``\\x1b``, ``\\u202e``),
    which shows it and obeys nothing. Other text is kept as it is; a
    backslash is kept too, so a literal ``\\x1b`` typed by a stranger reads
    the same as an escaped one.
    """
    return "".join(_escape(char) if unicodedata.category(char) in _OBEYED else char for char in text)


_OBEYED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut short so a reason stays readable."""
    if isinstance(value, str) and len(value) > SHOWN_LIMIT:
        return repr(value[:SHOWN_LIMIT]) + "..."
    text = repr(value)
    return text if len(text) <= SHOWN_LIMIT else text[:SHOWN_LIMIT] + "..."


# --- field checks shared by every record -------------------------------------------
# Later lessons' records (model calls, selections, verdicts) check their fields with these too.


def require_text(field: str, value: object, *, may_be_empty: bool = False) -> None:
    """A string, and unless ``may_be_empty``, one with more than whitespace in it."""
    if not isinstance(value, str):
        raise RecordError(f"{field} must be a string, got {type(value).__name__}")
    if not may_be_empty and not value.strip():
        raise RecordError(f"{field} must not be empty")


def require_digest(field: str, value: object) -> None:
    """A SHA-256 hex digest: 64 lower-case hexadecimal characters."""
    require_text(field, value)
    if len(value) != 64 or not set(value) <= set("0123456789abcdef"):
        raise RecordError(f"{field} must be a sha256 hex digest, got {shown(value)}")


def _require_json(field: str, value: object) -> None:
    """Only values with a canonical JSON form can be hashed, stored and reported."""
    try:
        canonical_bytes(value)
    except CanonError as exc:
        raise RecordError(f"{field} has no canonical JSON form: {exc}") from None


def _digest_of(field: str, content: dict) -> str:
    try:
        return digest(content)
    except CanonError as exc:
        raise RecordError(f"{field} cannot be computed: {exc}") from None


def _digest_of_members(field: str, record: object, encoded: Mapping[str, bytes]) -> str:
    """The digest ``_digest_of`` gives the record's content, with the ``encoded`` fields taken as they are."""
    names = [name for name in _field_names(type(record)) if name != field]
    if not set(encoded) <= set(names):
        raise RecordError(f"{field} cannot be computed: {sorted(set(encoded) - set(names))} are not its fields")
    try:
        members = {name: encoded[name] if name in encoded else canonical_bytes(thawed_json(getattr(record, name)))
                   for name in names}
        return hashlib.sha256(canonical_object(members)).hexdigest()
    except CanonError as exc:
        raise RecordError(f"{field} cannot be computed: {exc}") from None


def record_data(record: object) -> dict:
    """Every field of a record, in declaration order, as fresh JSON data (a copy: records cannot be edited).

    Each record class takes it as its ``to_dict``, so no record spells its
    fields out a second time.
    """
    return {name: thawed_json(getattr(record, name)) for name in _field_names(type(record))}


@functools.cache
def _field_names(record_class: type) -> tuple[str, ...]:
    """A record class's field names, in declaration order, read once per class (the door asks for every record)."""
    return tuple(field.name for field in dataclasses.fields(record_class))


def content_of(record: object, id_field: str) -> dict:
    """What a content-addressed record's id is the digest of: every field but the id itself."""
    data = record_data(record)
    del data[id_field]
    return data


def payload_fields(record_class: type, without: str = "") -> tuple[str, ...]:
    """The payload fields a door row declares for a record: the record's own fields, less ``without``.

    A row leaves out the id when a payload may not claim one (the door names
    the record itself), and keeps it when a claimed id is checked.
    """
    return tuple(field.name for field in dataclasses.fields(record_class) if field.name != without)


def named_by_content(record: object, id_field: str, encoded: Mapping[str, bytes] | None = None) -> None:
    """Give a record the digest of its content (``content_of``) as its id, or check the id it was given.

    Every content-addressed record, in this module and in later lessons',
    calls this last in ``__post_init__``: built without an id it computes
    one; built with one, it refuses an id that is not its own digest.
    ``encoded`` maps a field to the canonical bytes of its value, when the
    record already holds them (a list that grows with the run, encoded one
    item at a time as it grew): the digest is the same, and that field is not
    walked and encoded again.
    """
    if encoded:
        computed = _digest_of_members(id_field, record, encoded)
    else:
        computed = _digest_of(id_field, content_of(record, id_field))
    claimed = getattr(record, id_field)
    if claimed == "":
        object.__setattr__(record, id_field, computed)
    elif claimed != computed:
        raise RecordError(f"{id_field} {shown(claimed)} is not the digest of the record's content")


def json_text(value: object) -> str:
    """A value as one line of canonical JSON, the way a reason or a prompt quotes it."""
    return canonical_bytes(thawed_json(value)).decode("utf-8")


def require_keys(what: str, data: object, keys: tuple[str, ...], *, error: type[Exception],
                 optional: tuple[str, ...] = (), named: object = None) -> None:
    """Exactly the documented keys (``optional`` ones may be left out): a typo must not pass silently.

    Every reader of operator data checks its objects with this one function,
    raising its own ``error``. ``named`` is the object's own name, when it has
    one, so the message says which entry is wrong.
    """
    label = f"{what} {named!r}" if isinstance(named, str) else what
    if not isinstance(data, dict):
        raise error(f"{label} must be an object, got {type(data).__name__}")
    missing = [key for key in keys if key not in data]
    extra = sorted(str(key) for key in data if key not in keys and key not in optional)
    if missing and extra:
        raise error(f"{label} has unknown field(s) {', '.join(extra)} and lacks the field(s) "
                    f"{', '.join(missing)}: check the spelling")
    if missing:
        raise error(f"{label} lacks the field(s) {', '.join(missing)}")
    if extra:
        raise error(f"{label} has unknown field(s) {', '.join(extra)}")


def frozen_json(value: object) -> object:
    """A JSON value that cannot be edited: objects become read-only mappings, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen_json(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen_json(item) for item in value)
    return value


def thawed_json(value: object) -> object:
    """A fresh, editable JSON copy of a (possibly frozen) value: dicts and lists again."""
    if type(value) in _SCALARS:  # most of what a record holds, answered before the slower Mapping test
        return value
    if isinstance(value, Mapping):
        return {key: thawed_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thawed_json(item) for item in value]
    return value


_SCALARS = frozenset({str, int, bool, float, type(None)})


# --- the run -------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run: named by a digest over the policy it obeys and the world it met."""

    run_id: str
    policy_digest: str
    world_digest: str

    def __post_init__(self) -> None:
        require_digest("run_id", self.run_id)
        require_digest("policy_digest", self.policy_digest)
        require_digest("world_digest", self.world_digest)

    to_dict = record_data


def make_run(policy_snapshot: dict, world: dict) -> Run:
    """The run for this policy and these world inputs; change either and the run id changes."""
    run_id = _digest_of("run_id", {"policy": policy_snapshot, "world": world})
    return Run(run_id, _digest_of("policy_digest", policy_snapshot), _digest_of("world_digest", world))


# --- actions -------------------------------------------------------------------------


def action_identity(tool: str, destination: str) -> str:
    """The one string that names an act: ``<tool> -> <canonical destination>``.

    Proposal, selection, execution, recording and feedback all key on it, so
    an empty or unreadable part is a loud error here rather than an empty key
    quietly earning credit later.
    """
    require_text("tool", tool)
    if any(char.isspace() for char in tool):
        raise RecordError(f"tool must be one word, got {shown(tool)}")
    require_text("destination", destination)
    try:
        target = canonical_destination(destination)
    except OriginError as exc:
        raise RecordError(f"destination {shown(destination)} is not a valid origin: {exc.category}") from None
    if len(target) > DESTINATION_LIMIT:
        raise RecordError(f"destination {shown(destination)} has {len(target)} characters in canonical form, "
                          f"over the bound of {DESTINATION_LIMIT}")
    return f"{tool} -> {target}"


@dataclass(frozen=True)
class Action:
    """An authorized act: a tool aimed at a canonical destination with its arguments."""

    run_id: str
    tool: str
    destination: str
    arguments: dict
    action_id: str

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        identity = action_identity(self.tool, self.destination)
        if canonical_destination(self.destination) != self.destination:
            raise RecordError(f"destination {shown(self.destination)} is not in canonical form")
        if self.action_id != identity:
            raise RecordError(f"action_id {shown(self.action_id)} must be {shown(identity)}")
        if not isinstance(self.arguments, dict):
            raise RecordError(f"arguments must be an object, got {type(self.arguments).__name__}")
        _require_json("arguments", self.arguments)
        # Keep a private copy: the caller's dict must not be able to edit a stored record.
        object.__setattr__(self, "arguments", copy.deepcopy(self.arguments))
        _require_json("action", self.to_dict())

    to_dict = record_data


def make_action(run_id: str, tool: str, destination: str, arguments: dict) -> Action:
    """An action with its destination canonicalized and its identity computed."""
    action_id = action_identity(tool, destination)
    return Action(run_id, tool, canonical_destination(destination), arguments, action_id)


# --- captures and observations -------------------------------------------------------


# Bytes of canonical JSON a capture's body may have: with its run, its action's identity (bounded by
# DESTINATION_LIMIT) and its status, a capture always fits the door's PAYLOAD_LIMIT (64 KB), so it is kept whole.
CAPTURE_BODY_LIMIT = 60 * 1024
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def fitted_body(body: str, limit: int = CAPTURE_BODY_LIMIT) -> str:
    """A response's text as a capture keeps it: the first bytes that fit ``limit``, and a line saying what was not kept.

    A target can serve a page of any size, and the door refuses a payload it
    could not keep whole, so the executor keeps what fits and says how many
    more bytes there were: the capture is an honest excerpt, never a payload
    the ledger has to drop. (A lone surrogate, which has no UTF-8 form, is
    kept as U+FFFD.) A quote must come from what was kept.
    """
    body = _LONE_SURROGATE.sub("\ufffd", body)
    if len(canonical_bytes(body)) <= limit:
        return body
    room, cost = limit - 128, 2  # 128 bytes for the closing line; 2 for the string's quotes
    end = 0
    for end, char in enumerate(body):
        cost += json_cost(char)
        if cost > room:
            break
    rest = len(body[end:].encode("utf-8"))
    return body[:end] + f"\n[... {rest} more bytes of the response were not kept]"


def json_size(text: str) -> int:
    """Bytes ``text`` takes as a canonical JSON string (RFC 8785), its quotes included: what a cap on text counts."""
    return len(canonical_bytes(text))


def json_cost(char: str) -> int:
    """Bytes ``char`` takes in canonical JSON (RFC 8785): an escape for a quote, a backslash or a control."""
    if char in '"\\' or char in "\b\t\n\f\r":
        return 2
    if ord(char) < 0x20:
        return 6
    return len(char.encode("utf-8"))


@dataclass(frozen=True)
class Capture:
    """What an action brought back, named by the digest of its content and its run."""

    run_id: str
    action_id: str
    status: int
    body: str
    capture_id: str = ""  # computed when left out; refused when it is not the digest of the content

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_text("action_id", self.action_id)
        if isinstance(self.status, bool) or not isinstance(self.status, int) or not 100 <= self.status <= 599:
            raise RecordError(f"status must be an HTTP status code 100..599, got {shown(self.status)}")
        require_text("body", self.body, may_be_empty=True)
        named_by_content(self, "capture_id")

    to_dict = record_data


def make_capture(run_id: str, action_id: str, status: int, body: str) -> Capture:
    """A capture whose identifier is the digest of run, action, status and body together."""
    return Capture(run_id, action_id, status, body)


@dataclass(frozen=True)
class Observation:
    """A typed fact about the world: a field and its value.

    capture_id names the capture it was read from; it is empty for a fact the
    operator supplied directly. Tools whose ``requires`` name a field become
    eligible once that field has been observed.
    """

    run_id: str
    field: str
    value: object
    capture_id: str
    observation_id: str = ""  # the digest of the other four

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_text("field", self.field)
        require_text("capture_id", self.capture_id, may_be_empty=True)
        _require_json("value", self.value)
        object.__setattr__(self, "value", copy.deepcopy(self.value))
        named_by_content(self, "observation_id")

    to_dict = record_data


# --- outcomes ------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How an action ended: unresolved until settled as succeeded or failed."""

    run_id: str
    action_id: str
    status: str
    capture_id: str
    detail: str
    outcome_id: str = ""  # the digest of the other five

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_text("action_id", self.action_id)
        if self.status not in OUTCOME_STATUSES:
            raise RecordError(f"status must be one of {', '.join(OUTCOME_STATUSES)}, got {shown(self.status)}")
        require_text("capture_id", self.capture_id, may_be_empty=True)
        require_text("detail", self.detail, may_be_empty=True)
        named_by_content(self, "outcome_id")

    @property
    def settled(self) -> bool:
        """A settled outcome is final: nothing may change it afterwards."""
        return self.status in SETTLED_STATUSES

    to_dict = record_data


# --- findings and reviews ------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """A claim backed by a verbatim quote from one capture.

    The quote ties the claim to evidence; it does not prove the claim. Proving
    it is verification's job (lesson 7).
    """

    run_id: str
    capture_id: str
    quote: str
    claim: str
    finding_id: str = ""  # the digest of the other four

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_text("capture_id", self.capture_id)
        require_text("quote", self.quote)
        require_text("claim", self.claim)
        named_by_content(self, "finding_id")

    to_dict = record_data


def make_finding(run_id: str, capture_id: str, quote: str, claim: str) -> Finding:
    return Finding(run_id, capture_id, quote, claim)


@dataclass(frozen=True)
class ReviewDecision:
    """A person's decision about a finding or an action, with the reason they gave."""

    run_id: str
    subject_id: str
    decision: str
    reviewer: str
    reason: str
    review_id: str = ""  # the digest of the other five

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_text("subject_id", self.subject_id)
        if self.decision not in REVIEW_DECISIONS:
            raise RecordError(f"decision must be one of {', '.join(REVIEW_DECISIONS)}, got {shown(self.decision)}")
        require_text("reviewer", self.reviewer)
        require_text("reason", self.reason)
        named_by_content(self, "review_id")

    to_dict = record_data


def make_review(run_id: str, subject_id: str, decision: str, reviewer: str, reason: str) -> ReviewDecision:
    return ReviewDecision(run_id, subject_id, decision, reviewer, reason)
