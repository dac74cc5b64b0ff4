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
A recorded rejection stands on the journal's word (drive.resume); a recorded
approval counts on a resume only with its signed file given again, and
without it the act waits for a decision once more. With no signature check
configured, no signed decision is admitted (fail closed).

What this does not give: the ledger's review record is lesson 2's, so it
keeps the decision, the role and the reason (with the signer's key name),
not the signature; the signed files are the evidence, and whoever replays
the run needs them and the operator's keys to check them again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from core.run.gate import Gating, subject_of
from core.run.jsonfile import read_text
from core.run.plugins import load_plugin
from core.run.policy import Policy
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


def admitted(files: Mapping[str, str | None], run_id: str, held: Mapping[str, Held], recorded: Mapping[str, dict],
             approvers: Mapping[str, list], check: Callable | None) -> tuple[dict[str, dict], list[Refused]]:
    """The reviews the signed decisions in ``files`` give (subject -> reviewer, decision, reason), and each refusal.

    ``recorded`` holds the decisions already made (the ledger's and the
    operator's): a signed decision that says exactly what one of them says is
    the same decision, and one that says otherwise is a second one, refused.
    ``check`` is the configured signature check (None: every file refused).
    """
    roles = {subject: act.role for subject, act in held.items()}
    reviews: dict[str, dict] = {}
    refused: list[Refused] = []
    for name, text in files.items():
        if text is None:
            refused.append(Refused(name, "decision_malformed", f"{shown(name)} cannot be read as a decision"))
            continue
        if check is None:
            refused.append(Refused(name, "decision_unchecked", CODES["decision_unchecked"]))
            continue
        answer = check(text, run_id, {**roles, **{s: r["reviewer"] for s, r in recorded.items()}}, approvers)
        if not answer.get("admitted"):
            code = answer.get("code") if answer.get("code") in CODES else "decision_malformed"
            refused.append(Refused(name, code, f"{shown(name)}: {answer.get('reason', '')}"))
            continue
        subject = answer["subject_id"]
        review = {"reviewer": held[subject].role if subject in held else recorded[subject]["reviewer"],
                  "decision": answer["decision"], "reason": f"{answer['reason']}{SIGNED_BY}{answer['signed_by']})"}
        earlier = recorded.get(subject) or reviews.get(subject)
        if earlier is not None and earlier != review:
            refused.append(Refused(name, "decision_second", f"{shown(name)} decides {subject} "
                                                            f"{review['decision']}, which is already decided "
                                                            f"{earlier['decision']}: a recorded decision is final"))
            continue
        reviews[subject] = review
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
    """Whether a report holds a review admitted from a signed decision (its reason names the signer)."""
    reviews = report.get("reviews")
    return isinstance(reviews, list) and any(isinstance(review, dict) and SIGNED_BY in str(review.get("reason"))
                                             for review in reviews)
