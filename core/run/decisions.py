"""A person's decisions: the acts a run waits on, and the signed decisions it admits for them.

A consequential act runs only after an approved review of that exact act by
its class's approver role (gate.py). In a scripted run the operator writes
each review into the configuration in advance. With a person in the loop, a
journaled run stops at an act the gate holds with no decision (``Waiting``:
everything is on disk and nothing is in doubt), the person reads what waits
(``waiting``) and signs a decision on that exact act, and the resumed run
admits it (``admitted``) only when the signature check the operator's
configuration names (``plugins.review_signature``) says a key the operator
lists for that act's approver role (``approvers``) signed it, for this run
and an act that waits in it. Every other decision is refused with a code
(``CODES``), and a second decision on an act already decided is refused too.
With no signature check configured, no signed decision is admitted (fail
closed).

The ledger keeps each admitted decision whole: the run records the signed
note itself (``SIGNED``, a row this lesson adds to the door) just before
lesson 2's review record that it gives. A resumed run, ``seal verify
--config`` and replay check each recorded note's signature again under the
operator's keys (``recorded_notes``), so none needs the signed files, and a
decision the ledger records is never asked for again. The door itself only
keeps the note (core is the standard library: it cannot check a signature);
a report read without the operator's configuration says its signed reviews
were not checked (main.checked_against).

Decisions may also be given in advance: the configuration's
``signed_reviews`` folder (the reference run's, signed under demo keys). A
decision given in advance is checked against every act the run may hold
(``MayHold``: one of a class that waits for an approver role), and counts
when the gate holds that exact act, as a scripted review does.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from core.run.canon import digest
from core.run.gate import Gating, gate_state, subject_of
from core.run.jsonfile import read_text
from core.run.plugins import load_plugin
from core.run.policy import Policy
from core.run.recorder import Kind, Recorder, Refusal
from core.run.records import shown

MAX_DECISION_BYTES = 1 << 16  # a decision is a few hundred bytes; a bigger file is no decision
CODES = {
    "decision_malformed": "a file in the reviews folder is not a signed decision that can be read",
    "decision_unsigned": "a decision carries no signature",
    "decision_unknown_key": "no key the operator lists signed the decision",
    "decision_another_role": "the decision is signed by, or names, another role than the act's approver role",
    "decision_another_act": "the decision names an act that does not wait for a review in this run",
    "decision_another_run": "the decision names another run",
    "decision_second": "a decision on an act already decided (a recorded decision is final)",
    "decision_unchecked": "no signature check is configured (plugins.review_signature), so no signed decision counts",
}


@dataclass(frozen=True)
class Held:
    """An act the gate holds with no decision: what a reviewer must see before signing."""

    subject: str  # the review subject: the act's identity and the digest of its arguments
    tool: str
    destination: str
    arguments: dict
    action_class: str
    role: str  # the approver role whose decision it waits for


class Waiting(Exception):
    """A journaled run stopped at an act the gate holds with no decision; resume it with a signed decision."""

    def __init__(self, held: Held) -> None:
        super().__init__(f"waiting for {held.role} to decide {held.subject}")
        self.held = held
        self.decided_late = False  # a decision given was refused as naming an act that did not wait (drive.resume)


def held_act(policy: Policy, gating: Gating, payload: Mapping) -> Held | None:
    """The act an action ``payload`` asks for, as it waits for its class's approver role (None if it cannot)."""
    subject = subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))
    tool = policy.tool_named(payload.get("tool")) if isinstance(payload.get("tool"), str) else None
    if not subject or tool is None:
        return None
    row = gating.table.classify(tool.activity)
    return Held(subject, payload["tool"], payload["destination"], dict(payload["arguments"]), row.name,
                row.approver_role or "")


REVIEW_FIELDS = ("reviewer", "decision", "reason")  # what a review admitted from a signed decision says
SIGNED = "signed_decision"  # the record kind that keeps a signed decision whole in the ledger


@dataclass(frozen=True)
class SignedDecision:
    """A person's signed decision on a held act, kept whole: the note, signature lines and all."""

    subject_id: str  # the held act it decides
    note: str  # the signed note as the reviewer wrote it

    @property
    def signed_id(self) -> str:
        return digest({"subject_id": self.subject_id, "note": self.note})


def build_signed(door: Recorder, payload: dict) -> SignedDecision:
    """A signed decision on an act the gate holds and no decision has decided yet, its note kept as given.

    The door cannot check a signature (core is the standard library): the
    driver admits a note only through the configured check, and verify and
    replay check it again under the operator's keys.
    """
    subject, note = payload["subject_id"], payload["note"]
    state = gate_state(door)
    if not isinstance(subject, str) or subject not in state.held:
        raise Refusal("unknown_subject", f"signed decision names {shown(subject)}, which the gate does not hold")
    if subject in state.decided or subject in signed_on(door):
        raise Refusal("already_decided", f"held act {shown(subject)} already has a decision")
    if not isinstance(note, str) or not note.strip() or len(note.encode("utf-8", "replace")) > MAX_DECISION_BYTES:
        raise Refusal("malformed_payload", f"a signed decision's note is text of at most {MAX_DECISION_BYTES} bytes")
    return SignedDecision(subject, note)


def note_signed(door: Recorder, signed: SignedDecision) -> None:
    door.state.setdefault(SIGNED, set()).add(signed.subject_id)


def signed_on(door: Recorder) -> set[str]:
    """The held acts ``door`` has admitted a signed decision on."""
    return door.state.get(SIGNED, set())


SIGNED_ROW = Kind(SIGNED, ("run_id", "subject_id", "note"), "", "signed_id", build_signed, (note_signed,))
ADMITTED_IN = {SIGNED: ("execute", "verify")}  # where the review it gives is admitted (gate.ADMITTED_IN)


def recorded_notes(events: Iterable[dict]) -> dict[str, str]:
    """Every signed decision the ledger keeps, by its place among the events (``recorded decision N``, from 1):
    its note, as a file of signed decisions is read (``read_folder``)."""
    return {f"recorded decision {index}": event["payload"]["note"] for index, event in enumerate(events, start=1)
            if event.get("kind") == SIGNED and event.get("status") == "admitted"
            and isinstance(event.get("payload"), dict) and isinstance(event["payload"].get("note"), str)}


def said_by(review: Mapping) -> dict:
    """What a review says (its reviewer, decision and reason), without the note it may carry."""
    return {key: review.get(key) for key in REVIEW_FIELDS}


class MayHold(Mapping):
    """Every act a run under ``policy`` and ``gating`` may hold for review: its subject -> its approver role.

    A decision given in advance (the configuration's ``signed_reviews``) is
    checked against these: an act of a tool the policy names, of a class
    that waits for an approver role. It lists nothing (the acts are endless);
    it answers for each subject it is asked about.
    """

    def __init__(self, policy: Policy, gating: Gating) -> None:
        self.policy, self.gating = policy, gating

    def __getitem__(self, subject: object) -> str:
        identity, _, arguments = str(subject).partition(" with arguments ")
        tool = self.policy.tool_named(identity.partition(" -> ")[0])
        well_formed = subject_of(identity, {}).partition(" with arguments ")[0] == identity
        if tool is None or not well_formed or not re.fullmatch("[0-9a-f]{64}", arguments):
            raise KeyError(subject)
        row = self.gating.table.classify(tool.activity)
        if not row.consequential or not row.approver_role:
            raise KeyError(subject)
        return row.approver_role

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def decided(events: Iterable[dict]) -> dict[str, dict]:
    """Every decision the ledger records: the review subject -> the review's decision, reviewer and reason."""
    return {event["payload"]["subject_id"]: {key: event["payload"][key] for key in ("reviewer", "decision", "reason")}
            for event in events if event.get("kind") == "review" and event.get("status") == "admitted"}


def rejected(events: Iterable[dict]) -> dict[str, dict]:
    """The rejections the ledger records, by review subject: each stands as it is, signed file given again or not.

    A rejection only ever refuses an act, so keeping one on the ledger's word
    lets nothing run; an approval counts only with its evidence (the
    operator's configuration, or a signed decision admitted again).
    """
    return {subject: review for subject, review in decided(events).items() if review["decision"] == "rejected"}


def held_in(events: Iterable[dict], policy: Policy, gating: Gating) -> dict[str, Held]:
    """Every act the ledger shows the gate held for review, decided since or not, by review subject."""
    found: dict[str, Held] = {}
    for event in events:
        if event.get("code") == "held_for_review" and isinstance(event.get("payload"), dict):
            held = held_act(policy, gating, event["payload"])
            if held is not None:
                found[held.subject] = held
    return found


def waiting(events: Iterable[dict], policy: Policy, gating: Gating) -> dict[str, Held]:
    """The acts the ledger shows held for review with no decision recorded, by review subject."""
    events = list(events)
    done = decided(events)
    return {subject: held for subject, held in held_in(events, policy, gating).items() if subject not in done}


def read_folder(folder: str | Path) -> dict[str, str | None]:
    """Every file in ``folder`` by name, in name order: its text, or None when it cannot be read as a decision."""
    found: dict[str, str | None] = {}
    for path in sorted(Path(folder).iterdir()):
        try:
            found[path.name] = read_text(path, error=ValueError, what="decision", limit=MAX_DECISION_BYTES)
        except ValueError:
            found[path.name] = None
    return found


@dataclass(frozen=True)
class Refused:
    """A decision the run does not admit: the file, the code and why."""

    name: str
    code: str
    reason: str


def roles_of(held: Mapping[str, Held]) -> dict[str, str]:
    """The approver role each held act waits for, by review subject."""
    return {subject: act.role for subject, act in held.items()}


def admitted(files: Mapping[str, str | None], run_id: str, roles: Mapping[str, str], recorded: Mapping[str, dict],
             approvers: Mapping[str, list], check: Callable | None) -> tuple[dict[str, dict], list[Refused]]:
    """The reviews the signed decisions in ``files`` give, and each refusal.

    Each review is a subject -> its reviewer, decision and reason, and the
    ``note`` that says so (the file's text, for the ledger to keep).
    ``roles`` maps each act a decision may decide to its approver role
    (``roles_of`` the acts that wait, or ``MayHold``). ``recorded`` holds
    the decisions already made (the ledger's and the operator's): a signed
    decision that says exactly what one of them says is the same decision,
    and one that says otherwise is a second one, refused. ``check`` is the
    configured signature check (None: every file refused).
    """
    reviews: dict[str, dict] = {}
    refused: list[Refused] = []
    for name, text in files.items():
        if text is None:
            refused.append(Refused(name, "decision_malformed", f"{shown(name)} cannot be read as a decision"))
            continue
        if check is None:
            refused.append(Refused(name, "decision_unchecked", CODES["decision_unchecked"]))
            continue
        answer = check(text, run_id, ChainMap({s: r["reviewer"] for s, r in recorded.items()}, roles), approvers)
        if not answer.get("admitted"):
            code = answer.get("code") if answer.get("code") in CODES else "decision_malformed"
            refused.append(Refused(name, code, f"{shown(name)}: {answer.get('reason', '')}"))
            continue
        subject = answer["subject_id"]
        review = {"reviewer": recorded[subject]["reviewer"] if subject in recorded else roles[subject],
                  "decision": answer["decision"], "reason": f"{answer['reason']}{SIGNED_BY}{answer['signed_by']})"}
        earlier = recorded.get(subject) or reviews.get(subject)
        if earlier is not None and said_by(earlier) != review:
            refused.append(Refused(name, "decision_second", f"{shown(name)} decides {subject} "
                                                            f"{review['decision']}, which is already decided "
                                                            f"{earlier['decision']}: a recorded decision is final"))
            continue
        reviews[subject] = {**review, "note": text}
    return reviews, refused


def signature_check(plugins: Mapping[str, object]) -> Callable | None:
    """The signature check the configuration names, or None when it names none."""
    name = plugins.get("review_signature")
    return None if name is None else load_plugin(name)


SIGNED_BY = " (signed by "  # how a review admitted from a signed decision ends its reason


def said(held: Held, journal: str | Path, config: str | Path) -> str:
    """The one line a run that stops to wait prints."""
    return (f"waiting: {held.subject} (class {held.action_class}) waits for a decision by {held.role}; "
            f"see it with: python -m signoff waiting {journal} --config {config}")


def holds_signed(report: Mapping) -> bool:
    """Whether a report holds a signed decision, or a review admitted from one (its reason names the signer)."""
    reviews, events = report.get("reviews"), report.get("events")
    return (isinstance(reviews, list) and any(isinstance(review, dict) and SIGNED_BY in str(review.get("reason"))
                                              for review in reviews)
            or isinstance(events, list) and any(isinstance(event, dict) and event.get("kind") == SIGNED
                                                for event in events))
