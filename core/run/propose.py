"""Propose: ask the model what to do next, and judge every word of its answer.

The model reads the run's state as a prompt and answers with raw text. That
text is untrusted twice over: a model can write anything, and the prompt
carried page text that anyone on the web could have written (the lab's news
page hides an instruction to test another site). So the answer is never an
instruction. It is parsed into proposals, and each proposal goes through the
door, where the operator's policy judges it like any other request. A
proposal that parses and passes the policy is stored as an eligible proposal
for selection (lesson 5); everything else is a refusal with its reason.

Three record kinds join the door here. A ``model_call`` is recorded
*before* the model is asked: it spends one unit of ``max_model_calls``, so
once the budget is spent the door refuses the call and the model is never
asked. It cites the captures its prompt showed. A ``reply`` is the model's
answer to one call, its raw text kept whole with the model it names: the
door parses the text itself and refuses a malformed reply whole, so a fresh
door (verify, replay) decides every reply again from the text the ledger
kept, never by asking the model again. A ``proposal`` cites the model call
it came from, must be one its reply holds, and is named by its action
identity, so each act is proposed once.

The model is any callable from prompt text to reply text; one that can say
which model it is answers with a ``Said`` instead. The lab's scripted model
and its endpoint plug in from outside ``core``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from core.run.canon import CanonError, canonical_bytes, digest
from core.run.policy import ACTION_CHECKS
from core.run.recorder import Kind, Recorder, Refusal
from core.run.records import (
    Action,
    RecordError,
    json_size,
    json_text,
    make_action,
    named_by_content,
    payload_fields,
    printable,
    record_data,
    require_digest,
    require_text,
    shown,
)

MODEL_CALL_KIND = "model_call"
REPLY_KIND = "reply"
PROPOSAL_KIND = "proposal"
PROPOSAL_KEYS = ("arguments", "destination", "tool", "why")  # exactly these, sorted
EXCERPT_LIMIT = 2000  # characters of each capture the prompt shows
# Bytes of reply text the harness will read at all, counted as the ledger writes the text (canonical
# JSON: UTF-8, with each quote, backslash and control character as its escape), so that every reply
# the door reads fits in one payload (recorder.PAYLOAD_LIMIT) beside the reply's other fields.
REPLY_LIMIT = 60 * 1024
NAME_LIMIT = 200  # characters of each name a reply carries (the endpoint, the model asked, the model that answered)
PROPOSALS_LIMIT = 16  # proposals one reply may carry
WHY_LIMIT = 500  # bytes (UTF-8) of a proposal's "why"

Model = Callable[[str], "str | Said"]


@dataclass(frozen=True)
class Said:
    """A reply from a model that can say which model it is: its text, and the names that go with it.

    The scripted model answers with plain text and names nothing. A model
    reached over the network answers with a Said: ``endpoint`` where it was
    asked (a URL without credentials), ``model`` the name it was asked for,
    ``answered_by`` the name its answer gives itself (an endpoint's ``model``
    field). Each is recorded beside the text; none is read by any decision.
    """

    text: str
    endpoint: str = ""
    model: str = ""
    answered_by: str = ""


class ReplyError(ValueError):
    """The model's reply is not the JSON shape a reply must have; the message says where, ``code`` which kind.

    The codes are the refusal codes of a reply refused whole (``CODES`` below).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- the three new records -----------------------------------------------------------


@dataclass(frozen=True)
class ModelCall:
    """One question to the model: its number in the run, its prompt's digest and the captures it showed."""

    run_id: str
    number: int
    prompt_digest: str
    capture_ids: tuple[str, ...]
    model_call_id: str = ""  # the digest of the other four

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        if isinstance(self.number, bool) or not isinstance(self.number, int) or self.number < 1:
            raise RecordError(f"number must be a positive integer, got {shown(self.number)}")
        require_digest("prompt_digest", self.prompt_digest)
        if not isinstance(self.capture_ids, (list, tuple)):
            raise RecordError(f"capture_ids must be a list, got {type(self.capture_ids).__name__}")
        for capture_id in self.capture_ids:
            require_digest("capture_ids entry", capture_id)
        object.__setattr__(self, "capture_ids", tuple(self.capture_ids))
        named_by_content(self, "model_call_id")

    to_dict = record_data


@dataclass(frozen=True)
class Reply:
    """The model's answer to one call: its raw text as the model wrote it, and the names it came with.

    Named by its content, so a reply whose text is changed after the run is
    another reply. The text is never an instruction: the door parses it
    (``parse_reply``) and each proposal in it is judged on its own.
    """

    run_id: str
    model_call_id: str
    text: str
    endpoint: str = ""  # where the model was asked, without credentials ("" for a model in this process)
    model: str = ""  # the name it was asked for
    answered_by: str = ""  # the name its answer gave itself
    reply_id: str = ""  # the digest of the others

    def __post_init__(self) -> None:
        require_text("run_id", self.run_id)
        require_digest("model_call_id", self.model_call_id)
        require_text("text", self.text, may_be_empty=True)
        for field in ("endpoint", "model", "answered_by"):
            value = getattr(self, field)
            require_text(field, value, may_be_empty=True)
            if len(value) > NAME_LIMIT or printable(value) != value:
                raise RecordError(f"{field} must be text of at most {NAME_LIMIT} characters that a screen shows as "
                                  "it is (records.printable)")
        named_by_content(self, "reply_id")

    to_dict = record_data


@dataclass(frozen=True)
class Proposal:
    """An act a model suggested, named by the identity it would have as an action.

    ``why`` is the model's own text: kept so a reader can see what the model
    was thinking, and never read by the policy.
    """

    run_id: str
    model_call_id: str
    tool: str
    destination: str
    arguments: dict
    why: str
    action_id: str

    def __post_init__(self) -> None:
        # A proposal is an action nobody has chosen yet, so an action's checks apply to it.
        action = Action(self.run_id, self.tool, self.destination, self.arguments, self.action_id)
        require_digest("model_call_id", self.model_call_id)
        require_text("why", self.why, may_be_empty=True)
        try:
            canonical_bytes(self.why)
        except CanonError as error:
            raise RecordError(f"why has no canonical JSON form: {error}") from None
        object.__setattr__(self, "arguments", action.arguments)  # the action's private copy

    to_dict = record_data


def make_proposal(run_id: str, model_call_id: str, tool: str, destination: str, arguments: dict, why: str) -> Proposal:
    """A proposal with its destination canonicalized and its action identity computed."""
    action = make_action(run_id, tool, destination, arguments)
    return Proposal(run_id, model_call_id, action.tool, action.destination, action.arguments, why, action.action_id)


# --- the three rows of the door ------------------------------------------------------


def build_model_call(door: Recorder, payload: dict) -> ModelCall:
    """Spend one model call, or refuse: this runs before the model is asked."""
    calls_made = door.count(MODEL_CALL_KIND)
    if calls_made >= door.policy.max_model_calls:
        raise Refusal("budget_spent", f"model call budget of {door.policy.max_model_calls} calls is spent")
    call = ModelCall(door.run.run_id, calls_made + 1, payload["prompt_digest"], payload["capture_ids"])
    for capture_id in call.capture_ids:
        if not door.holds("capture", capture_id):
            raise Refusal("unknown_capture", f"model call cites capture {shown(capture_id)} that this run does not hold")
    return call


def build_reply(door: Recorder, payload: dict) -> Reply:
    """A reply to a call this run made and has no reply to yet, whose text parses: else the reply is refused whole.

    The refusal carries ``parse_reply``'s code and reason, and the event keeps
    the text, so a fresh door asked again refuses it again for the same reason.
    """
    model_call_id = payload["model_call_id"]
    if not door.holds(MODEL_CALL_KIND, model_call_id):
        raise Refusal("unknown_model_call", f"reply cites model call {shown(model_call_id)} that this run does not hold")
    if model_call_id in replied_calls(door):
        raise Refusal("already_answered", f"model call {shown(model_call_id)} already has a reply")
    reply = Reply(door.run.run_id, model_call_id, payload["text"], payload.get("endpoint", ""),
                  payload.get("model", ""), payload.get("answered_by", ""))
    try:
        parse_reply(reply.text)
    except ReplyError as error:
        number = door.stored(MODEL_CALL_KIND, model_call_id).number
        raise Refusal(error.code, f"malformed reply to model call {number}: {error}") from None
    return reply


def build_proposal(door: Recorder, payload: dict) -> Proposal:
    """The policy judges a proposal exactly as it would judge the action, once it is one its call's reply holds.

    A caller that turns a model's answer into proposals itself, recording no
    reply (another framework's tool calls), is held to its model call alone.
    """
    model_call_id = payload["model_call_id"]
    if not door.holds(MODEL_CALL_KIND, model_call_id):
        raise Refusal("unknown_model_call",
                      f"proposal cites model call {shown(model_call_id)} that this run does not hold")
    replied = replied_calls(door).get(model_call_id)
    if replied is not None and _as_written(payload) not in replied:
        raise Refusal("not_in_the_reply", f"the proposal is not one the reply to model call "
                                          f"{shown(model_call_id)} holds")
    tool, destination, arguments = payload["tool"], payload["destination"], payload["arguments"]
    decision = door.policy.allows_action(tool, destination, observed=door.observed_now,
                                         actions_taken=door.count("action"), arguments=arguments,
                                         checks=door.kinds[PROPOSAL_KIND].asks)
    if not decision.allowed:
        raise Refusal(decision.code, decision.reason)
    return make_proposal(door.run.run_id, model_call_id, tool, destination, arguments, payload["why"])


def note_shown(door: Recorder, call: ModelCall) -> None:
    shown_captures(door).update(call.capture_ids)


def note_reply(door: Recorder, reply: Reply) -> None:
    replied_calls(door)[reply.model_call_id] = frozenset(_as_written(item) for item in parse_reply(reply.text))


def replied_calls(door: Recorder) -> dict[str, frozenset[bytes]]:
    """The door's index of replies (this module's own state): each model call with a reply -> the proposals it holds."""
    return door.state.setdefault(REPLY_KIND, {})


def _as_written(fields: dict) -> bytes:
    """A proposal's four fields as the reply wrote them, as canonical JSON: how a proposal is matched to its reply."""
    return canonical_bytes({key: fields[key] for key in PROPOSAL_KEYS})


def shown_captures(door: Recorder) -> set[str]:
    """The door's index of captures some prompt has already shown (this module's own state)."""
    return door.state.setdefault(MODEL_CALL_KIND, set())


KINDS = (
    Kind(MODEL_CALL_KIND, ("run_id", "prompt_digest", "capture_ids"), "model_calls", "model_call_id",
         build_model_call, (note_shown,)),
    Kind(REPLY_KIND, payload_fields(Reply, without="reply_id"), "replies", "reply_id", build_reply, (note_reply,)),
    Kind(PROPOSAL_KIND, ("run_id", "model_call_id", "tool", "destination", "arguments", "why"), "proposals",
         "action_id", build_proposal, asks=ACTION_CHECKS),
)
ADMITTED_IN = {MODEL_CALL_KIND: ("propose",), REPLY_KIND: ("propose",), PROPOSAL_KIND: ("propose",)}
CODES = {
    "unknown_model_call": "the reply or proposal cites a model call this run does not hold",
    "already_answered": "the model call already has a reply",
    "not_in_the_reply": "the proposal is not one the reply to its model call holds",
    "reply_not_json": "the model's reply is not JSON that can be read",
    "reply_wrong_shape": "the reply is JSON, but not a reply's shape: one key 'proposals', a list of proposals "
                         "with exactly their keys",
    "reply_too_large": "the reply, its list of proposals or a proposal's 'why' is over its limit (a reply over "
                       "REPLY_LIMIT is the caller's refusal: the ledger does not keep it)",
    "model_failed": "the model raised, or answered with something other than text (the caller's refusal)",
}


# --- the prompt ----------------------------------------------------------------------

PROMPT_INTRO = (
    "You propose the next steps of an authorized security test.\n"
    'Reply with JSON only: {"proposals": [{"tool": "...", "destination": "...", "arguments": {}, "why": "..."}]}'
)


def unseen_captures(door: Recorder) -> list[dict]:
    """The captures no earlier prompt has shown, in the order they were recorded.

    Every prompt shows every capture not shown before, so the shown ones are
    the oldest: reading back from the newest capture to the first one shown
    costs what is new, not the whole run.
    """
    shown_before, unseen = shown_captures(door), []
    for capture_id in door.newest_first("capture"):
        if capture_id in shown_before:
            break
        unseen.append(door.get("capture", capture_id))
    return unseen[::-1]


def build_prompt(door: Recorder) -> str:
    """The prompt for the next model call: fixed text, then the run's state.

    Deterministic: the authorization, the tool names, every observed field
    (sorted by name, values as JSON) and an excerpt of each capture the model
    has not been shown yet. The capture markers frame the page text for
    reading only; a page can print them too, so nothing here keeps page text
    in its place. That is why every reply goes back through the policy.
    """
    policy = door.policy
    lines = [
        PROMPT_INTRO,
        f"Authorization: {policy.reference}",
        f"Origins: {', '.join(policy.allowed_origins)}",
        f"Tools: {', '.join(tool.tool_id for tool in policy.tools)}",
        "",
        "Observed:",
    ]
    observed = sorted(door.observed().items(), key=lambda item: item[0])
    lines += [f"- {field}: {json_text(value)}" for field, value in observed] or ["- nothing observed yet"]
    lines += ["", "New captures:", *_capture_lines(door)]
    return "\n".join(lines) + "\n"


def _capture_lines(door: Recorder) -> list[str]:
    if not door.count("capture"):
        return ["(no captures yet)"]
    unseen = unseen_captures(door)
    if not unseen:
        return ["(none since the last model call)"]
    lines = []
    for capture in unseen:
        lines += [f"--- capture {capture['capture_id']} of {capture['action_id']}", _excerpt(capture["body"]), "---"]
    return lines


def _excerpt(text: str) -> str:
    if len(text) <= EXCERPT_LIMIT:
        return text
    return text[:EXCERPT_LIMIT] + f"\n[... {len(text) - EXCERPT_LIMIT} more characters]"



# --- the reply -----------------------------------------------------------------------


def parse_reply(text: str) -> list[dict]:
    """The proposals in a reply, or ReplyError saying what is wrong with it.

    Any text at all comes out as one or the other. A reply is refused whole
    if any part of it breaks the shape, or any limit: guessing which half of
    a broken answer the model meant is not the harness's job, and a reply
    the size of a book must not become a book in the ledger.
    """
    size = reply_size(text)
    if size > REPLY_LIMIT:
        raise ReplyError("reply_too_large", f"the reply has {size} bytes, over the limit of {REPLY_LIMIT}")
    try:
        reply = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float,
                           object_pairs_hook=_unique_keys)
    except ReplyError:
        raise
    except json.JSONDecodeError as error:
        raise ReplyError("reply_not_json", f"not JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
    except RecursionError:
        raise ReplyError("reply_not_json", "not JSON that can be read (nested too deeply)") from None
    except ValueError as error:  # an integer too long to read, a non-finite number
        raise ReplyError("reply_not_json", f"not JSON that can be read ({error})") from None
    if not isinstance(reply, dict) or list(reply) != ["proposals"]:
        raise ReplyError("reply_wrong_shape", "expected an object with the one key 'proposals'")
    if not isinstance(reply["proposals"], list):
        raise ReplyError("reply_wrong_shape", "'proposals' must be a list")
    if len(reply["proposals"]) > PROPOSALS_LIMIT:
        raise ReplyError("reply_too_large", f"{len(reply['proposals'])} proposals, over the limit of {PROPOSALS_LIMIT} per reply")
    return [_proposal_fields(number, item) for number, item in enumerate(reply["proposals"], start=1)]


def reply_size(text: str) -> int:
    """Bytes ``text`` takes in the ledger (its canonical JSON, quotes left out): what REPLY_LIMIT counts.

    A cap counts bytes: 15 K four-byte characters are 60 KB, and a control
    character is six. Text with no canonical form (a lone surrogate) counts
    its UTF-8 bytes: it cannot be kept, and the door refuses it as malformed.
    """
    try:
        return json_size(text) - 2
    except CanonError:
        return len(text.encode("utf-8", "surrogatepass"))


def _proposal_fields(number: int, item: object) -> dict:
    if not isinstance(item, dict) or sorted(item) != list(PROPOSAL_KEYS):
        raise ReplyError("reply_wrong_shape", f"proposal {number} must be an object with exactly the keys {', '.join(PROPOSAL_KEYS)}")
    for key in ("tool", "destination", "why"):
        if not isinstance(item[key], str):
            raise ReplyError("reply_wrong_shape", f"proposal {number}: {key!r} must be a string")
    if not isinstance(item["arguments"], dict):
        raise ReplyError("reply_wrong_shape", f"proposal {number}: 'arguments' must be an object")
    why = len(item["why"].encode("utf-8", "surrogatepass"))
    if why > WHY_LIMIT:
        raise ReplyError("reply_too_large", f"proposal {number}: 'why' has {why} bytes, over the limit of {WHY_LIMIT}")
    try:
        canonical_bytes(item)
    except (CanonError, RecursionError) as error:
        raise ReplyError("reply_wrong_shape", f"proposal {number} has no canonical JSON form ({error})") from None
    return item


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """An object whose keys are all different: with a key twice, which value the model meant is a guess."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ReplyError("reply_wrong_shape", f"the key {key[:40]!r} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large to be finite")
    return value


# --- one round -----------------------------------------------------------------------


def propose(door: Recorder, model: Model) -> list[dict]:
    """Ask ``model`` once, record its reply, and put everything the reply proposes through the door.

    Returns the door's answers: the model call first, then one answer per
    proposal, or one refusal for the whole reply. (An admitted reply's own
    event stands in the ledger between them.) If the model call is refused
    (the budget is spent, or the stage is wrong) the model is not asked at
    all. Two refusals are propose's own, since there is no text to keep: a
    model that fails, and a reply over REPLY_LIMIT bytes.
    """
    prompt = build_prompt(door)
    run_id = door.run.run_id
    shown_ids = [capture["capture_id"] for capture in unseen_captures(door)]
    call = door.record(MODEL_CALL_KIND, {"run_id": run_id, "prompt_digest": digest(prompt), "capture_ids": shown_ids})
    if not call["recorded"]:
        return [call]
    number = door.count(MODEL_CALL_KIND)
    try:
        said = _ask(model, prompt)
    except ModelFailed as failed:
        return [call, door.refuse(REPLY_KIND, f"malformed reply to model call {number}: {failed}",
                                  code="model_failed", by="propose.propose")]
    size = reply_size(said.text)
    if size > REPLY_LIMIT:
        return [call, door.refuse(REPLY_KIND, f"malformed reply to model call {number}: the reply has {size} bytes, "
                                  f"over the limit of {REPLY_LIMIT}", code="reply_too_large", by="propose.propose")]
    reply = door.record(REPLY_KIND, {"run_id": run_id, "model_call_id": call["id"], "text": said.text,
                                     "endpoint": said.endpoint, "model": said.model, "answered_by": said.answered_by})
    if not reply["recorded"]:
        return [call, reply]
    return [call] + [
        door.record(PROPOSAL_KIND, {"run_id": run_id, "model_call_id": call["id"], **fields})
        for fields in parse_reply(said.text)
    ]


class ModelFailed(Exception):
    """The model raised, or answered with neither text nor a Said of text; the message says which."""


def _ask(model: Model, prompt: str) -> Said:
    """The model's reply as a Said (plain text names nothing); ModelFailed when there is no text to keep."""
    try:
        reply = model(prompt)
    except Exception as error:  # the model is outside the harness: its failure is recorded, not raised
        raise ModelFailed(f"the model failed: {_described(error)}") from None
    said = reply if type(reply) is Said else Said(reply)
    names = (said.endpoint, said.model, said.answered_by)
    if not isinstance(said.text, str) or not all(isinstance(name, str) for name in names):
        raise ModelFailed(f"the model returned {type(reply).__name__}, not text")
    # A str subclass carries the model's own methods (encode, count, ...); only its characters are text.
    # A name too long or not printable is cut to what a record keeps, shown with its escapes.
    return Said(str.__str__(said.text), *(_name(str.__str__(name)) for name in names))


def _name(text: str) -> str:
    """A name as a reply record keeps it: printable (records.printable's escapes), at most NAME_LIMIT characters."""
    return printable(text)[:NAME_LIMIT]


def _described(error: Exception) -> str:
    """``repr(error)``, or its type's name when the model's exception cannot even describe itself."""
    try:
        return repr(error)
    except Exception:
        return type(error).__name__


# --- reading the refusals back ---------------------------------------------------------

# Every kind of refusal a model's answer meets at lesson 4's door: a name for it and the code its event carries.
REFUSAL_KINDS = (
    ("malformed text", "reply_not_json"),
    ("wrong shape", "reply_wrong_shape"),
    ("undeclared tool", "unknown_tool"),
    ("unobserved requirement", "unobserved_requirement"),
    ("destination outside the authorization", "out_of_scope"),
    ("undeclared argument", "bad_arguments"),
    ("model call budget spent", "budget_spent"),
)


def refusals_by_round(ledger: list[dict], kinds: tuple[tuple[str, str], ...] = REFUSAL_KINDS) -> list[dict]:
    """Every refused model call, reply or proposal in ``ledger``, in order: its kind's name, its round and its reason.

    A round begins with its model call, admitted or refused, so the events
    after the Nth model call and before the next are round N's. A code two
    kinds share takes the first one's name; a code no kind names is "other".
    """
    found, number, named = [], 0, {code: name for name, code in reversed(kinds)}
    for event in ledger:
        number += event["kind"] == MODEL_CALL_KIND
        if event["kind"] in (MODEL_CALL_KIND, REPLY_KIND, PROPOSAL_KIND) and event["status"] == "refused":
            found.append({"refusal": named.get(event["code"], "other"), "round": number, "reason": event["reason"]})
    return found


def traces_to_the_page(door: Recorder, code: str) -> list[dict]:
    """Each refused proposal whose refusal carries ``code``, in ledger order, traced back to the page that asked.

    A trace holds the proposal, the model call it came from, and ``page``:
    each capture that call's prompt showed whose body names the proposal's
    destination, with the act it is a capture of and those lines (empty when
    no capture shown names it); and the refusal's seq and reason.
    """
    traces = []
    for refused in door.ledger:
        if refused["kind"] != PROPOSAL_KIND or refused["status"] != "refused" or refused["code"] != code:
            continue
        proposal, page = refused["payload"], []
        call = door.get(MODEL_CALL_KIND, proposal["model_call_id"])
        for capture in (door.get("capture", capture_id) for capture_id in call["capture_ids"]):
            lines = [line.strip() for line in capture["body"].split("\n") if proposal["destination"] in line]
            if lines:
                page.append({"capture_id": capture["capture_id"], "capture_of": capture["action_id"], "lines": lines})
        traces.append({"page": page, "model_call": call, "proposal": proposal,
                       "refused": {"seq": refused["seq"], "reason": refused["reason"]}})
    return traces
