"""A review decision as a signed note: what a reviewer signs, and what a run admits.

The note's text names everything the decision is about, one field a line:

    harness-course review decision v1
    run 072b2034...
    act probe_reflection -> https://lab.example:443/debug with arguments db7b69f2...
    role engagement-lead
    decision approved
    reason The debug page is in scope; one GET with this marker is a light probe.

The ``act`` line is the held act's review subject: its identity and the digest
of its exact arguments (core/run/gate.py:review_subject), so a decision on one
act says nothing of any other, however alike. ``check`` admits a decision only
when a key the operator's configuration lists for the act's approver role
signed it, over this run, an act that waits in it, and that act's role; each
other decision gets its own code (``CODES``), so the run can record why it
was turned away. Whether the act was already decided is the run's to say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tlog import note

HEADER = "harness-course review decision v1"
FIELDS = ("run", "act", "role", "decision", "reason")
DECISIONS = ("approved", "rejected")
MAX_REASON = 2000  # characters: a reason is a sentence or a paragraph, not a document

CODES = {
    "decision_malformed": "the file is not a review decision note",
    "decision_unsigned": "the decision carries no signature line",
    "decision_unknown_key": "no key the operator lists signed the decision",
    "decision_another_role": "the decision is signed by, or names, a role other than the act's approver role",
    "decision_another_act": "the decision names another act than the one held",
    "decision_another_run": "the decision names another run",
}


class DecisionError(ValueError):
    """A decision the run must not admit; ``code`` is one of CODES."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


@dataclass(frozen=True)
class Decision:
    """A decision whose signature held: what was decided, why, and whose key signed it."""

    run: str
    act: str
    role: str
    decision: str
    reason: str
    signed_by: str  # the verifier key's name


def text_of(run: str, act: str, role: str, decision: str, reason: str) -> str:
    """The note text a reviewer signs; ValueError for a field a line cannot hold."""
    if decision not in DECISIONS:
        raise ValueError(f"a decision is {' or '.join(DECISIONS)}, not {decision!r}")
    values = dict(zip(FIELDS, (run, act, role, decision, " ".join(str(reason).split()))))
    for name, value in values.items():
        if not isinstance(value, str) or not value.strip() or "\n" in value or value != value.strip():
            raise ValueError(f"the decision's {name} is one line of text")
    if len(values["reason"]) > MAX_REASON:
        raise ValueError(f"a reason is at most {MAX_REASON} characters")
    return note.check_text(HEADER + "\n" + "".join(f"{name} {value}\n" for name, value in values.items()))


def sign(signer: note.Signer, run: str, act: str, role: str, decision: str, reason: str) -> str:
    """The decision, signed by ``signer``: a signed note."""
    return note.sign(text_of(run, act, role, decision, reason), signer)


def _fields(text: str) -> dict[str, str]:
    lines = text.rstrip("\n").split("\n")
    if lines[0] != HEADER or len(lines) != 1 + len(FIELDS):
        raise DecisionError("decision_malformed", f"a decision's text is '{HEADER}' and the lines "
                                                  f"{', '.join(FIELDS)}")
    fields = {}
    for name, line in zip(FIELDS, lines[1:]):
        key, _, value = line.partition(" ")
        if key != name or not value:
            raise DecisionError("decision_malformed", f"a decision's line for {name} reads '{name} VALUE'")
        fields[name] = value
    if fields["decision"] not in DECISIONS:
        raise DecisionError("decision_malformed", f"a decision is {' or '.join(DECISIONS)}")
    return fields


def check(signed: str, run: str, held: Mapping[str, str], approvers: Mapping[str, Sequence[str]]) -> Decision:
    """The decision in ``signed``, if it may decide an act of ``run`` that waits; DecisionError otherwise.

    ``held`` maps the review subject of each act that waits to the approver
    role it waits for; ``approvers`` maps each role to the verifier keys
    (``NAME+KEYID+BASE64``) the operator lists for it. The signature is
    checked first, and the fields are read only from the text it covers.
    """
    try:
        _, signatures = note.parse(signed)
    except note.NoteError as exc:
        code = "decision_unsigned" if isinstance(signed, str) and "\n\n" not in signed else "decision_malformed"
        raise DecisionError(code, f"not a signed decision: {exc}") from None
    if not signatures:
        raise DecisionError("decision_unsigned", "the decision carries no signature line")
    text, signed_for = None, {}  # the roles whose listed keys verify the note -> the key's name
    for listed_role, keys in approvers.items():
        for key in keys:
            verifier = note.parse_verifier(key)
            try:
                text = note.open_note(signed, verifier)
            except note.NoteError:
                continue
            signed_for.setdefault(listed_role, verifier.name)
    if text is None:
        names = ", ".join(sorted({s.name for s in signatures}))
        raise DecisionError("decision_unknown_key", f"the decision is signed by {names}, and no key the "
                                                    "operator lists for any role verifies it")
    fields = _fields(text)
    if fields["run"] != run:
        raise DecisionError("decision_another_run", f"the decision names run {fields['run'][:12]}, not {run[:12]}")
    if fields["act"] not in held:
        raise DecisionError("decision_another_act", f"the decision names {fields['act']}, which is not an act "
                                                    "that waits for a review in this run")
    role = held[fields["act"]]
    if role not in signed_for or fields["role"] != role:
        raise DecisionError("decision_another_role", f"the act waits for {role}; the decision names "
                                                     f"{fields['role']} and is signed by a key listed for "
                                                     f"{', '.join(sorted(signed_for))}")
    return Decision(run, fields["act"], role, fields["decision"], fields["reason"], signed_for[role])
