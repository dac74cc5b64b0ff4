"""Policy: what the operator authorized, kept as data that answers with decisions.

A policy names the written authorization it rests on (``reference``), the
origins that authorization covers, the catalogue of tools and the budgets.
It is plain data an operator can read and review before a run starts, and its
snapshot is part of what names the run (records.make_run).

Nothing a model writes is a policy input. The operator builds the policy
(from data/policy/ in the reference run); a model's text can only propose
actions, which the policy then judges. Text that asks to widen the scope is
just another proposal to refuse.

Every question gets a Decision back, never a bare boolean: the reason is what
the ledger records when work is turned away, and what a reader audits later.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from urllib.parse import unquote_to_bytes

from core.run.canon import CanonError, canonical_bytes
from core.run.origins import DESTINATION_LIMIT, OriginError, canonical_destination, canonical_origin
from core.run.records import WORD_LIMIT, frozen_json, json_text, require_keys, shown, thawed_json

POLICY_FIELDS = ("reference", "allowed_origins", "tools", "max_actions", "max_model_calls")
TOOL_FIELDS = ("tool_id", "activity", "requires", "family", "weight", "cost")
OPTIONAL_TOOL_FIELDS = ("arguments",)  # a tool that declares none takes no arguments (fail-closed)
SCORE_LIMIT = 1_000_000  # the most a weight or a cost may be: selection's arithmetic must stay finite
ARGUMENT_TYPES = {"string": str, "integer": int, "boolean": bool}  # what an argument schema may declare
# What the path of a tool that takes no input may hold, once decoded: text (letters and digits of any script,
# and spaces) and the four marks -._~, in segments. Markup, quotes, parameters and queries are made of the rest.
PLAIN_PATH = re.compile(r"/(?:[^\W_]|[ ._~-])*(?:/(?:[^\W_]|[ ._~-])+)*/?")
# The operator's configuration of the reference run; its "policy" is every demo's and test's starting point.
REFERENCE_CONFIG = Path(__file__).resolve().parents[2] / "data" / "policy" / "training-authorization-0001.json"


class PolicyError(ValueError):
    """The operator's policy data breaks its contract; the message names the field."""


@dataclass(frozen=True)
class Decision:
    """The policy's answer to one question, with the reason for it.

    A refusal also carries a stable ``code`` (recorder.CODES), which the
    door writes into the ledger beside the reason; the answer a person reads
    is the allowed flag and the reason.
    """

    allowed: bool
    reason: str
    code: str = ""

    def to_dict(self) -> dict:
        return {"allowed": self.allowed, "reason": self.reason}


@dataclass(frozen=True)
class Tool:
    """One catalogue entry.

    ``requires`` lists observed fields and the values they must have before
    the tool may run; ``family``, ``weight`` and ``cost`` are what selection
    (lesson 5) uses to choose between eligible actions. ``arguments`` is the
    tool's argument schema: each field it takes and its type. A tool that
    declares none takes no input at all: no arguments, no query, and a path
    of plain text only (``PLAIN_PATH``), so a passive tool cannot be
    handed a probe's input anywhere in its URL. Every value is frozen when the tool is built:
    the run's identity was computed from it, so nothing may edit it later.
    """

    tool_id: str
    activity: str
    requires: Mapping
    family: str
    weight: float
    cost: float
    arguments: Mapping = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        for name in ("tool_id", "activity", "family"):
            _require_word(name, getattr(self, name))
        where = f"tool {self.tool_id!r}"
        if not isinstance(self.requires, Mapping) or not all(isinstance(key, str) for key in self.requires):
            raise PolicyError(f"{where} requires must be an object keyed by field names")
        try:
            canonical_bytes(thawed_json(self.requires))
        except CanonError as exc:
            raise PolicyError(f"{where} requires has no canonical JSON form: {exc}") from None
        object.__setattr__(self, "requires", frozen_json(thawed_json(self.requires)))
        if not isinstance(self.arguments, Mapping):
            raise PolicyError(f"{where} arguments must map argument names to types")
        for name, type_name in self.arguments.items():
            _require_word(f"{where} argument name", name)
            if argument_type(type_name) is None:
                raise PolicyError(f"{where} argument {name!r} must have a type among "
                                  f"{', '.join(ARGUMENT_TYPES)}, got {shown(type_name)}")
        object.__setattr__(self, "arguments", MappingProxyType(dict(sorted(self.arguments.items()))))
        for name in ("weight", "cost"):
            value = getattr(self, name)
            if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                    or not 0 <= value <= SCORE_LIMIT):
                raise PolicyError(f"{where} {name} must be a number from 0 to {SCORE_LIMIT}, got {shown(value)}")
            object.__setattr__(self, name, float(value))

    @classmethod
    def from_dict(cls, data: dict) -> Tool:
        require_keys("tool", data, TOOL_FIELDS, optional=OPTIONAL_TOOL_FIELDS, error=PolicyError,
                     named=data.get("tool_id") if isinstance(data, dict) else None)
        return cls(**{name: data[name] for name in TOOL_FIELDS + OPTIONAL_TOOL_FIELDS if name in data})

    def to_dict(self) -> dict:
        """The entry as JSON-ready data; a tool that takes no arguments leaves the schema out."""
        data = {
            "tool_id": self.tool_id,
            "activity": self.activity,
            "requires": thawed_json(self.requires),
            "family": self.family,
            "weight": self.weight,
            "cost": self.cost,
        }
        if self.arguments:
            data["arguments"] = dict(self.arguments)
        return data

    def check_arguments(self, arguments: object, destination: object) -> str:
        """Why ``arguments`` (and ``destination``'s query and path) do not fit this tool's schema, or "".

        Arguments are the input an act sends. A name the schema does not
        declare, or a value of another type, is refused. The schema's
        arguments are required together: an act gives every argument its
        tool declares, or none (then its destination carries its input, as a
        verification plan's confirming act does), so an act the policy admits
        is one the executor can send. A tool that declares no arguments sends
        no input in its URL either: its destination may carry no query, and
        its path only plain text (see PLAIN_PATH), since a query, a
        matrix parameter (``;q=...``), an escaped ``?`` or markup in a path
        segment is input too.
        """
        if not isinstance(arguments, dict):
            return f"arguments must be an object, got {type(arguments).__name__}"
        if arguments and set(arguments) < set(self.arguments):
            missing = ", ".join(sorted(set(self.arguments) - set(arguments)))
            return (f"tool {shown(self.tool_id)} takes every argument it declares or none: "
                    f"{missing} is missing")
        for name, value in sorted(arguments.items(), key=lambda item: str(item[0])):  # one reason, any order
            if name not in self.arguments:
                declared = ", ".join(self.arguments) or "none"
                return (f"tool {shown(self.tool_id)} does not declare the argument {shown(name)} "
                        f"(it declares {declared})")
            wanted = argument_type(self.arguments[name])
            if isinstance(value, bool) is not (wanted is bool) or not isinstance(value, wanted):
                return f"tool {shown(self.tool_id)} argument {shown(name)} must be a {self.arguments[name]}"
        if not self.arguments and _has_query(destination):
            return f"tool {shown(self.tool_id)} declares no arguments, so its destination may carry no query"
        if not self.arguments and not _plain_path(destination):
            return (f"tool {shown(self.tool_id)} declares no arguments, so its path may hold only plain text "
                    "(letters, digits, spaces and -._~): anything else in a URL is input")
        return ""


@dataclass(frozen=True)
class Policy:
    """The operator's authorization: reference, origins, tool catalogue and budgets.

    Origins are canonicalized and sorted, and tools sorted by id, when the
    policy is built: two spellings of one policy give one snapshot, and so
    one run identity.
    """

    reference: str
    allowed_origins: tuple[str, ...]
    tools: tuple[Tool, ...]
    max_actions: int
    max_model_calls: int

    def __post_init__(self) -> None:
        _require_word("reference", self.reference)
        object.__setattr__(self, "allowed_origins", _canonical_origins(self.allowed_origins))
        object.__setattr__(self, "tools", _catalogue(self.tools))
        # Every request names its tool, so the lookup is an index built once, not a scan of the catalogue.
        object.__setattr__(self, "_by_id", MappingProxyType({tool.tool_id: tool for tool in self.tools}))
        for name in ("max_actions", "max_model_calls"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PolicyError(f"{name} must be a non-negative integer, got {shown(value)}")

    @classmethod
    def from_dict(cls, data: dict) -> Policy:
        """A policy from the operator's JSON shape (the same shape snapshot() writes)."""
        require_keys("policy", data, POLICY_FIELDS, error=PolicyError)
        if not isinstance(data["tools"], list):
            raise PolicyError("tools must be a list of tool objects")
        tools = tuple(Tool.from_dict(entry) for entry in data["tools"])
        return cls(data["reference"], data["allowed_origins"], tools, data["max_actions"], data["max_model_calls"])

    def snapshot(self) -> dict:
        """The policy as JSON-ready data; from_dict(snapshot()) gives the same policy."""
        return {
            "reference": self.reference,
            "allowed_origins": list(self.allowed_origins),
            "tools": [tool.to_dict() for tool in self.tools],
            "max_actions": self.max_actions,
            "max_model_calls": self.max_model_calls,
        }

    def tool_named(self, tool_id: object) -> Tool | None:
        """The catalogue entry called ``tool_id``, or None."""
        return self._by_id.get(tool_id) if isinstance(tool_id, str) else None

    def allows_destination(self, destination: object) -> Decision:
        """Is the origin of ``destination`` one this authorization covers?"""
        try:
            origin = canonical_origin(destination)
        except OriginError as exc:
            return Decision(False, f"destination {shown(destination)} is not a valid origin: {exc.category}",
                            "invalid_destination")
        if origin not in self.allowed_origins:
            return Decision(False, f"destination {origin} is outside the explicit authorized origins", "out_of_scope")
        length = len(canonical_destination(destination))
        if length > DESTINATION_LIMIT:  # a destination names an act, and a name has a bound
            return Decision(False, f"destination {shown(destination)} has {length} characters in canonical form, "
                                   f"over the bound of {DESTINATION_LIMIT}", "invalid_destination")
        return Decision(True, f"destination {origin} is inside the origins authorized under {self.reference}")

    def knows_tool(self, tool: object) -> Decision:
        """Is ``tool`` declared in the catalogue?"""
        if self.tool_named(tool) is None:
            return Decision(False, f"tool {shown(tool)} is not declared in the catalogue", "unknown_tool")
        return Decision(True, f"tool {shown(tool)} is declared in the catalogue")

    def allows_action(
        self,
        tool: object,
        destination: object,
        observed: Mapping[str, object] | None = None,
        actions_taken: int = 0,
        arguments: object = None,
        checks: Iterable[Check] | None = None,
    ) -> Decision:
        """May ``tool`` run against ``destination`` with ``arguments`` now?

        The checks run in a fixed order (``ACTION_CHECKS``: tool, destination,
        arguments, required observations, budget) so the same request always
        gets the same reason, and an act the schema refuses never spends
        budget. ``arguments`` of None means none were given, as ``{}``.
        ``checks`` replaces the table (a door assembled with one of them
        replaced asks its own list; recorder.Kind.asks).
        """
        checks = ACTION_CHECKS if checks is None else tuple(checks)
        if not checks:  # fail closed: a list with nothing in it would authorize every act
            raise ValueError("the policy was asked with no checks to ask")
        asked = Asked(tool, destination, {} if arguments is None else arguments, observed or {}, actions_taken)
        for check in checks:
            refusal = check(self, asked)
            if refusal is not None:
                return refusal
        target = canonical_destination(destination)
        return Decision(True, f"tool {shown(tool)} at {target} is authorized under {self.reference}")


@dataclass(frozen=True)
class Asked:
    """One act the policy is asked about, as each of its ordered checks reads it."""

    tool: object
    destination: object
    arguments: object
    observed: Mapping[str, object]
    actions_taken: int


Check = Callable[[Policy, Asked], "Decision | None"]  # a refusal, or None to let the act on to the next check


def tool_is_declared(policy: Policy, asked: Asked) -> Decision | None:
    """The tool is one the catalogue declares."""
    decision = policy.knows_tool(asked.tool)
    return None if decision.allowed else decision


def destination_is_authorized(policy: Policy, asked: Asked) -> Decision | None:
    """The destination's origin is one the authorization covers, and its name is within its bound."""
    decision = policy.allows_destination(asked.destination)
    return None if decision.allowed else decision


def arguments_fit(policy: Policy, asked: Asked) -> Decision | None:
    """The arguments, and the destination's query and path, fit the tool's schema (Tool.check_arguments)."""
    problem = policy.tool_named(asked.tool).check_arguments(asked.arguments, asked.destination)
    return Decision(False, problem, "bad_arguments") if problem else None


def requirements_observed(policy: Policy, asked: Asked) -> Decision | None:
    """Every field the tool requires is observed, with the value it requires."""
    tool = asked.tool
    for field_name, required in policy.tool_named(tool).requires.items():
        if field_name not in asked.observed:
            return Decision(False, f"tool {shown(tool)} requires observed field {shown(field_name)}",
                            "unobserved_requirement")
        if not _same_value(asked.observed[field_name], required):
            return Decision(
                False,
                f"tool {shown(tool)} requires observed field {shown(field_name)} to be {json_text(required)}, "
                f"observed {json_text(asked.observed[field_name])}",
                "unobserved_requirement",
            )
    return None


def budget_left(policy: Policy, asked: Asked) -> Decision | None:
    """The action budget is not spent."""
    if asked.actions_taken >= policy.max_actions:
        return Decision(False, f"action budget of {policy.max_actions} actions is spent", "budget_spent")
    return None


# The policy's checks of an act, in the order it asks them: each later one may rely on the earlier.
ACTION_CHECKS: tuple[Check, ...] = (tool_is_declared, destination_is_authorized, arguments_fit,
                                    requirements_observed, budget_left)


def argument_type(type_name: object) -> type | None:
    """The Python type an argument schema's type name stands for, or None for anything else (a list, an object...)."""
    return ARGUMENT_TYPES.get(type_name) if isinstance(type_name, str) else None


def _require_word(field: str, value: object) -> None:
    """A non-empty name of at most WORD_LIMIT characters with no whitespace: ids appear inside identities and reasons."""
    if not isinstance(value, str) or not value or any(char.isspace() for char in value):
        raise PolicyError(f"{field} must be a non-empty word, got {shown(value)}")
    if len(value) > WORD_LIMIT:
        raise PolicyError(f"{field} must be a word of at most {WORD_LIMIT} characters, got {shown(value)}")
    try:
        canonical_bytes(value)
    except CanonError as exc:
        raise PolicyError(f"{field} has no canonical JSON form: {exc}") from None


def _canonical_origins(origins: object) -> tuple[str, ...]:
    """Bare origins only: an entry with a path, query or fragment would look narrower than it is."""
    if isinstance(origins, str) or not isinstance(origins, (list, tuple)) or not origins:
        raise PolicyError("allowed_origins must be a non-empty list of origins")
    canonical = set()
    for index, origin in enumerate(origins):
        try:
            canonical.add(canonical_origin(origin))
            bare = canonical_destination(origin) == canonical_origin(origin) + "/" and not any(
                mark in origin for mark in "?#")
        except OriginError as exc:
            reason = f"allowed_origins[{index}] {shown(origin)} is not a valid origin: {exc.category}"
            raise PolicyError(reason) from None
        if not bare:
            raise PolicyError(f"allowed_origins[{index}] {shown(origin)} is not a bare origin: an authorization "
                              "covers whole origins, so a path, query or fragment would only look narrower")
    return tuple(sorted(canonical))


def _catalogue(tools: object) -> tuple[Tool, ...]:
    if not isinstance(tools, (list, tuple)) or not all(isinstance(tool, Tool) for tool in tools):
        raise PolicyError("tools must be a list of Tool entries")
    seen: set[str] = set()
    duplicates = sorted({tool.tool_id for tool in tools if tool.tool_id in seen or seen.add(tool.tool_id)})
    if duplicates:
        raise PolicyError(f"tools declares {', '.join(duplicates)} more than once")
    return tuple(sorted(tools, key=lambda tool: tool.tool_id))


def _plain_path(destination: object) -> bool:
    """Whether the path of ``destination``, decoded as the lab's server decodes it, is plain text: ``PLAIN_PATH``.

    The rule for a tool that takes no input. The canonical path (origins.py)
    is decoded to the text the server hands the application (UTF-8), and
    that text may hold only letters and digits (of any script), spaces and
    ``-._~`` between its slashes: no markup (``<``, ``>``, quotes), none of
    the delimiters a server or an application reads as parameters (``;``,
    ``=``, ``&``, ``,``, ``:``, ``@``...), no ``?`` or ``#``, however it is
    escaped, and no byte that is not text.
    """
    try:
        target = canonical_destination(destination)
    except OriginError:
        return True  # not a destination at all: the origin check has already said so
    path = target[len(canonical_origin(destination)):].partition("?")[0]
    try:
        text = unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return PLAIN_PATH.fullmatch(text) is not None and "//" not in text


def _has_query(destination: object) -> bool:
    """Whether the canonical form of ``destination`` sends a query (an empty ``?`` sends none)."""
    try:
        return "?" in canonical_destination(destination)
    except OriginError:
        return False  # not a destination at all: the origin check has already said so


def _same_value(observed: object, required: object) -> bool:
    """Compare as canonical JSON, so that 1 does not pass for true."""
    return canonical_bytes(thawed_json(observed)) == canonical_bytes(thawed_json(required))


def reference_policy(tools: Iterable[str] | None = None, **changes: object) -> Policy:
    """The reference run's policy with named changes: ``tools`` keeps only those catalogue entries.

    Every demo and test starts from the one catalogue the operator wrote
    (data/policy/), so a tool's class, family, weight and cost are written
    once and cannot drift between files.
    """
    data = json.loads(REFERENCE_CONFIG.read_text(encoding="utf-8"))["policy"]
    if tools is not None:
        keep = list(tools)
        unknown = sorted(set(keep) - {tool["tool_id"] for tool in data["tools"]})
        if unknown:
            raise PolicyError(f"the reference catalogue has no tool {', '.join(unknown)}")
        data["tools"] = [tool for tool in data["tools"] if tool["tool_id"] in keep]
    unknown = sorted(set(changes) - set(POLICY_FIELDS))
    if unknown:
        raise PolicyError(f"a policy has no field {', '.join(unknown)}")
    return Policy.from_dict({**data, **changes})

