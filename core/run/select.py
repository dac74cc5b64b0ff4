"""Select: choose the next action among eligible proposals, and learn from outcomes.

Proposals pile up faster than the budget allows acting on them, so one has to
be chosen. The rule is one line a reviewer can redo by hand (see ``score``):
the tool's weight, scaled up by what its family has earned, divided by what
it costs. The highest score wins; equal scores go to the smallest action
identity, compared as strings. Nothing depends on dict or set order, so the
same ledger always gives the same choice.

Two record kinds join the door here:

* ``selection``: the door ranks the eligible proposals itself and records its
  choice with the score, the reason, and the ledger sequence numbers the
  score came from (the proposal, and the feedback that gave its family
  credit). A caller cannot pick; it can only ask for the next choice.
* ``feedback``: after an outcome is settled, the door reads the action
  identity off the outcome and the family off that action's tool, so credit
  lands on exactly the act that produced it, never on whatever ran last.

An identity that has been executed is out of the running for good: the
ranking skips every proposal whose action the run already holds.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from core.run.canon import digest
from core.run.propose import PROPOSAL_KIND, ProposalRecorder
from core.run.recorder import Recorder, Refusal
from core.run.records import RecordError, require_text, shown

SELECTION_KIND = "selection"
FEEDBACK_KIND = "feedback"
# What a settled outcome is worth to its family; unresolved outcomes earn nothing yet.
CREDIT_FOR = {"succeeded": 1.0, "failed": 0.0}


# --- the two new records -------------------------------------------------------------


@dataclass(frozen=True)
class Feedback:
    """The credit one settled outcome gives to the action identity and family that produced it."""

    run_id: str
    outcome_id: str
    action_id: str
    family: str
    credit: float
    feedback_id: str = dataclasses.field(init=False)  # the digest of the other five

    def __post_init__(self) -> None:
        for name in ("run_id", "outcome_id", "action_id", "family"):
            require_text(name, getattr(self, name))
        _require_number("credit", self.credit)
        object.__setattr__(self, "feedback_id", digest(self.content()))

    def content(self) -> dict:
        return {
            "run_id": self.run_id,
            "outcome_id": self.outcome_id,
            "action_id": self.action_id,
            "family": self.family,
            "credit": self.credit,
        }

    def to_dict(self) -> dict:
        return {**self.content(), "feedback_id": self.feedback_id}


@dataclass(frozen=True)
class Selection:
    """One choice: the action chosen, its score, why, and the ledger events the score came from."""

    run_id: str
    action_id: str
    score: float
    reason: str
    cites: tuple[int, ...]
    selection_id: str = dataclasses.field(init=False)  # the digest of the other five

    def __post_init__(self) -> None:
        for name in ("run_id", "action_id", "reason"):
            require_text(name, getattr(self, name))
        _require_number("score", self.score)
        if not all(isinstance(seq, int) and not isinstance(seq, bool) and seq > 0 for seq in self.cites):
            raise RecordError(f"cites must be ledger sequence numbers, got {shown(self.cites)}")
        object.__setattr__(self, "cites", tuple(self.cites))
        object.__setattr__(self, "selection_id", digest(self.content()))

    def content(self) -> dict:
        return {
            "run_id": self.run_id,
            "action_id": self.action_id,
            "score": self.score,
            "reason": self.reason,
            "cites": list(self.cites),
        }

    def to_dict(self) -> dict:
        return {**self.content(), "selection_id": self.selection_id}


def _require_number(field: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RecordError(f"{field} must be a finite number, got {shown(value)}")


# --- the rule ------------------------------------------------------------------------


def score(weight: float, cost: float, credit: float) -> float:
    """score = weight * (1 + credit) / (1 + cost).

    ``weight`` and ``cost`` come from the tool's catalogue entry: how much the
    operator values the tool and what running it spends. ``credit`` is what
    the tool's family has earned in this run: the sum of its feedback, 1.0
    for each succeeded outcome and 0.0 for each failed one (CREDIT_FOR). So
    a family that keeps producing results is tried again first. The one
    added to the cost keeps a free tool's score finite. Equal scores are
    broken by action identity (see ``rank``).
    """
    return weight * (1 + credit) / (1 + cost)


@dataclass(frozen=True)
class Candidate:
    """One eligible proposal as the ranking sees it (not a record: the door records the winner)."""

    action_id: str
    score: float
    reason: str
    cites: tuple[int, ...]


def rank(recorder: SelectionRecorder) -> list[Candidate]:
    """Every proposal not yet executed, best first: highest score, then smallest action identity."""
    executed = {action["action_id"] for action in recorder.records("action")}
    seqs = admitted_seqs(recorder)
    feedback = recorder.records(FEEDBACK_KIND)
    candidates = []
    for proposal in recorder.records(PROPOSAL_KIND):
        if proposal["action_id"] in executed:
            continue
        tool = recorder.policy.tool_named(proposal["tool"])
        earned = [entry for entry in feedback if entry["family"] == tool.family]
        credit = sum((entry["credit"] for entry in earned), 0.0)
        value = score(tool.weight, tool.cost, credit)
        reason = (
            f"score {value!r} = weight {tool.weight!r} * (1 + {tool.family} credit {credit!r})"
            f" / (1 + cost {tool.cost!r})"
        )
        cites = [seqs[(PROPOSAL_KIND, proposal["action_id"])]]
        cites += [seqs[(FEEDBACK_KIND, entry["feedback_id"])] for entry in earned]
        candidates.append(Candidate(proposal["action_id"], value, reason, tuple(sorted(cites))))
    return sorted(candidates, key=lambda candidate: (-candidate.score, candidate.action_id))


def admitted_seqs(recorder: Recorder) -> dict[tuple[str, str], int]:
    """(kind, record id) -> the sequence number of the ledger event that admitted it."""
    return {(e["kind"], e["id"]): e["seq"] for e in recorder.events if e["status"] == "admitted"}


# --- the door, with the two new kinds ------------------------------------------------


class SelectionRecorder(ProposalRecorder):
    """The door of lesson 4, extended with selections and feedback."""

    record_kinds = ProposalRecorder.record_kinds + (SELECTION_KIND, FEEDBACK_KIND)
    payload_fields = {
        **ProposalRecorder.payload_fields,
        SELECTION_KIND: ("run_id",),
        FEEDBACK_KIND: ("run_id", "outcome_id"),
    }
    store_names = {**ProposalRecorder.store_names, SELECTION_KIND: "selections", FEEDBACK_KIND: "feedback"}
    id_fields = {**ProposalRecorder.id_fields, SELECTION_KIND: "selection_id", FEEDBACK_KIND: "feedback_id"}

    def _build(self, kind: str, payload: dict) -> object:
        if kind == SELECTION_KIND:
            return self._build_selection()
        if kind == FEEDBACK_KIND:
            return self._build_feedback(payload)
        return super()._build(kind, payload)

    def _build_selection(self) -> Selection:
        """The best eligible proposal within the action budget, with its reason and citations."""
        if len(self._stores["action"]) >= self.policy.max_actions:
            raise Refusal(f"action budget of {self.policy.max_actions} actions is spent")
        ranking = rank(self)
        if not ranking:
            raise Refusal("no eligible proposal is left to select")
        best = ranking[0]
        reason = f"{best.reason}, the best of {len(ranking)} eligible proposals"
        if len(ranking) > 1 and ranking[1].score == best.score:
            reason += " (a tie, broken by action identity)"
        return Selection(self.run.run_id, best.action_id, best.score, reason, best.cites)

    def _build_feedback(self, payload: dict) -> Feedback:
        """Credit read off the outcome itself, so it cannot be pinned on another act."""
        outcome_id = payload["outcome_id"]
        if not self._holds("outcome", outcome_id):
            raise Refusal(f"feedback names outcome {shown(outcome_id)} that this run does not hold")
        outcome = self._stores["outcome"][outcome_id]
        if not outcome.settled:
            raise Refusal(f"outcome {shown(outcome_id)} is not settled yet")
        action = self._stores["action"][outcome.action_id]
        family = self.policy.tool_named(action.tool).family
        return Feedback(self.run.run_id, outcome_id, outcome.action_id, family, CREDIT_FOR[outcome.status])


def select_next(recorder: SelectionRecorder) -> dict:
    """Ask the door for the next choice; the answer names the selection or the reason there is none."""
    return recorder.record(SELECTION_KIND, {"run_id": recorder.run.run_id})
