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

An identity that has been executed, or tried and turned away, is out of the
running for good: the ranking skips it, and the loop moves on to the next
proposal. And the choice binds: in the execute stage the door admits only
the action the current selection chose (``is_the_selection``), so nothing
that drives the run can execute an act nobody proposed and chose.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field

from core.run.propose import PROPOSAL_KIND
from core.run.recorder import Kind, Recorder, Refusal, Request
from core.run.records import RecordError, action_identity, named_by_content, record_data, require_text, shown
from core.run.stages import stage_of

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
    feedback_id: str = ""  # the digest of the other five

    def __post_init__(self) -> None:
        for name in ("run_id", "outcome_id", "action_id", "family"):
            require_text(name, getattr(self, name))
        _require_number("credit", self.credit)
        named_by_content(self, "feedback_id")

    to_dict = record_data


@dataclass(frozen=True)
class Selection:
    """One choice: the action chosen, its score, why, and the ledger events the score came from."""

    run_id: str
    action_id: str
    score: float
    reason: str
    cites: tuple[int, ...]
    selection_id: str = ""  # the digest of the other five
    # The canonical JSON of ``cites``, when the door made both from its own seqs (``Earned.cites_with``):
    # the list grows with the run, so it is then neither checked nor encoded again. Not a field.
    canonical_cites: InitVar[bytes] = b""

    def __post_init__(self, canonical_cites: bytes) -> None:
        for name in ("run_id", "action_id", "reason"):
            require_text(name, getattr(self, name))
        _require_number("score", self.score)
        if canonical_cites and type(self.cites) is tuple:
            named_by_content(self, "selection_id", encoded={"cites": canonical_cites})
            return
        if not all(isinstance(seq, int) and not isinstance(seq, bool) and seq > 0 for seq in self.cites):
            raise RecordError(f"cites must be ledger sequence numbers, got {shown(self.cites)}")
        object.__setattr__(self, "cites", tuple(self.cites))
        named_by_content(self, "selection_id")

    to_dict = record_data


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


@dataclass
class Earned:
    """One family's credit in this run and the seqs of the feedback that gave it, kept ready to cite.

    Feedback is admitted in ledger order, so ``seqs`` only grows at its end,
    and so does ``text``, their canonical JSON without the brackets. A
    selection cites every feedback its family earned, a list as long as the
    run: kept this way, adding a feedback costs the same however many came
    before, and a selection copies the list and its bytes once instead of
    checking and encoding every item again.
    """

    credit: float = 0.0
    seqs: list[int] = field(default_factory=list)  # ascending
    text: bytearray = field(default_factory=bytearray)  # b"4,9,17" for seqs [4, 9, 17]
    starts: list[int] = field(default_factory=list)  # where each seq's digits begin in text
    _as_tuple: tuple[int, ...] = field(default=(), repr=False)  # seqs as a tuple, made again after new feedback

    def add(self, credit: float, seq: int) -> None:
        if self.seqs and seq <= self.seqs[-1]:
            raise ValueError(f"feedback seq {seq} comes after seq {self.seqs[-1]}, not before it")
        if self.seqs:
            self.text += b","
        self.starts.append(len(self.text))
        self.text += str(seq).encode("ascii")
        self.seqs.append(seq)
        self.credit += credit

    def cites_with(self, seq: int, count: int | None = None) -> tuple[tuple[int, ...], bytes]:
        """The first ``count`` seqs (all, by default) with ``seq`` in its place, and their canonical JSON.

        That is what a selection of a proposal of this family cites: the
        proposal's seq and every feedback the family had earned. Each is made
        by copying what is kept, once, never by walking the seqs in Python.
        """
        count = len(self.seqs) if count is None else count
        if len(self._as_tuple) != len(self.seqs):  # feedback came since the last selection
            self._as_tuple = tuple(self.seqs)
        at = bisect.bisect_left(self.seqs, seq, 0, count)
        digits = str(seq).encode("ascii")
        end = len(self.text) if count == len(self.seqs) else max(self.starts[count] - 1, 0)
        with memoryview(self.text) as text:
            if at == count:
                parts = (b"[", text[:end], b"," if count else b"", digits, b"]")
            else:
                parts = (b"[", text[:self.starts[at]], digits, b",", text[self.starts[at]:end], b"]")
            canonical = b"".join(parts)
        if at == count == len(self.seqs):
            cites = self._as_tuple + (seq,)
        else:
            cites = (*self._as_tuple[:at], seq, *self._as_tuple[at:count])
        return cites, canonical


@dataclass(frozen=True)
class Candidate:
    """One eligible proposal as the ranking sees it (not a record: the door records the winner)."""

    action_id: str
    score: float
    reason: str
    proposal_seq: int
    earned: Earned = field(repr=False, compare=False)  # its family's credit, of which it cites the first
    feedback_count: int = 0  # feedback the family had earned when it was ranked

    def citations(self) -> tuple[tuple[int, ...], bytes]:
        """The seqs its score came from, ascending (its proposal's and its family's feedback), and their bytes."""
        return self.earned.cites_with(self.proposal_seq, self.feedback_count)

    @property
    def cites(self) -> tuple[int, ...]:
        return self.citations()[0]


NOTHING_EARNED = Earned()  # what a family that has no feedback yet has earned (never added to)


@dataclass
class SelectionState:
    """What this module keeps in the door: the current choice, what was tried, and each family's credit."""

    current: str = ""  # the action identity the latest selection chose
    open: dict[str, None] = field(default_factory=dict)  # proposals not yet executed or tried, in arrival order
    tried: set[str] = field(default_factory=set)  # identities that reached the execute stage's door
    credit: dict[str, Earned] = field(default_factory=dict)  # family -> what it has earned


def selection_state(door: Recorder) -> SelectionState:
    return door.state.setdefault(SELECTION_KIND, SelectionState())


def rank(door: Recorder) -> list[Candidate]:
    """Every proposal still open, best first: highest score, then smallest action identity.

    A proposal is closed once its identity was executed, or was tried under a
    selection and turned away by the door (refused, or held with no approval):
    choosing it again would only be turned away again, and the run must move
    on to the next proposal instead.
    """
    state = selection_state(door)
    for closed in [action_id for action_id in state.open
                   if door.holds("action", action_id) or action_id in state.tried]:
        del state.open[closed]  # a closed proposal never opens again, so it leaves the index for good
    candidates = []
    for action_id in state.open:
        tool = door.policy.tool_named(door.stored(PROPOSAL_KIND, action_id).tool)
        earned = state.credit.get(tool.family, NOTHING_EARNED)
        value = score(tool.weight, tool.cost, earned.credit)
        reason = (
            f"score {value!r} = weight {tool.weight!r} * (1 + {tool.family} credit {earned.credit!r})"
            f" / (1 + cost {tool.cost!r})"
        )
        proposal_seq = door.seq_of[(PROPOSAL_KIND, action_id)]
        candidates.append(Candidate(action_id, value, reason, proposal_seq, earned, len(earned.seqs)))
    return sorted(candidates, key=lambda candidate: (-candidate.score, candidate.action_id))


# --- the two rows and the guard of the door ------------------------------------------


def build_selection(door: Recorder, payload: dict) -> Selection:
    """The best open proposal within the action budget, with its reason and citations."""
    if door.count("action") >= door.policy.max_actions:
        raise Refusal("budget_spent", f"action budget of {door.policy.max_actions} actions is spent")
    ranking = rank(door)
    if not ranking:
        raise Refusal("nothing_to_select", "no eligible proposal is left to select")
    best = ranking[0]
    reason = f"{best.reason}, the best of {len(ranking)} eligible proposals"
    if len(ranking) > 1 and ranking[1].score == best.score:
        reason += " (a tie, broken by action identity)"
    cites, canonical_cites = best.citations()
    return Selection(door.run.run_id, best.action_id, best.score, reason, cites, canonical_cites=canonical_cites)


def build_feedback(door: Recorder, payload: dict) -> Feedback:
    """Credit read off the outcome itself, so it cannot be pinned on another act."""
    outcome_id = payload["outcome_id"]
    if not door.holds("outcome", outcome_id):
        raise Refusal("unknown_outcome", f"feedback names outcome {shown(outcome_id)} that this run does not hold")
    outcome = door.stored("outcome", outcome_id)
    if not outcome.settled:
        raise Refusal("not_settled", f"outcome {shown(outcome_id)} is not settled yet")
    family = door.policy.tool_named(door.stored("action", outcome.action_id).tool).family
    return Feedback(door.run.run_id, outcome_id, outcome.action_id, family, CREDIT_FOR[outcome.status])


def note_open(door: Recorder, proposal) -> None:
    """Lesson 4's proposal row gains this hook: each new proposal is open for selection (an index, not a store)."""
    selection_state(door).open[proposal.action_id] = None


def note_selection(door: Recorder, selection: Selection) -> None:
    selection_state(door).current = selection.action_id


def note_feedback(door: Recorder, feedback: Feedback) -> None:
    earned = selection_state(door).credit.setdefault(feedback.family, Earned())
    earned.add(feedback.credit, door.seq_of[(FEEDBACK_KIND, feedback.feedback_id)])


def is_the_selection(door: Recorder, request: Request) -> None:
    """In the execute stage an action is admitted only if it is the act the current selection chose.

    Whatever drives the run cannot execute an act nobody proposed or chose,
    nor the chosen act with arguments the proposal did not carry. The
    attempt itself is remembered: an identity tried under a selection
    is never chosen again, whether the door admits it or turns it away.
    """
    if request.kind != "action" or stage_of(door) != "execute":
        return
    identity = action_identity(request.payload["tool"], request.payload["destination"])
    state = selection_state(door)
    if identity != state.current:
        chosen = shown(state.current) if state.current else "nothing"
        raise Refusal("not_selected", f"action {shown(identity)} is not the current selection "
                                      f"(the selection chose {chosen})")
    state.tried.add(identity)
    if request.payload["arguments"] != door.stored(PROPOSAL_KIND, identity).arguments:
        raise Refusal("not_the_proposed_arguments",
                      f"action {shown(identity)} carries other arguments than the proposal the selection chose")


KINDS = (
    Kind(SELECTION_KIND, ("run_id",), "selections", "selection_id", build_selection, (note_selection,)),
    Kind(FEEDBACK_KIND, ("run_id", "outcome_id"), "feedback", "feedback_id", build_feedback, (note_feedback,)),
)
HOOKS = {PROPOSAL_KIND: (note_open,)}  # added to lesson 4's row
ADMITTED_IN = {SELECTION_KIND: ("select",), FEEDBACK_KIND: ("execute",)}
CODES = {
    "nothing_to_select": "no eligible proposal is left to select",
    "unknown_outcome": "the feedback names an outcome this run does not hold",
    "not_settled": "the feedback names an outcome that is not settled yet",
    "not_selected": "in the execute stage, an act other than the current selection",
    "not_the_proposed_arguments": "the selected act with arguments its proposal did not carry",
}


def select_next(door: Recorder) -> dict:
    """Ask the door for the next choice; the answer names the selection or the reason there is none."""
    return door.record(SELECTION_KIND, {"run_id": door.run.run_id})


# --- the loop as this lesson shows it ---------------------------------------------------


def ranking(door: Recorder) -> list[dict]:
    """The ranking the door will select from (``rank``), each candidate with the parts of its score.

    Each row holds the tool's family, weight and cost, what its family has
    earned, the score and its arithmetic. RuntimeError if the parts, put
    together by ``score``, do not give ``rank``'s score: the two have drifted.
    """
    credit = selection_state(door).credit
    rows = []
    for candidate in rank(door):
        tool = door.policy.tool_named(door.get(PROPOSAL_KIND, candidate.action_id)["tool"])
        earned = credit[tool.family].credit if tool.family in credit else 0.0
        if score(tool.weight, tool.cost, earned) != candidate.score:
            raise RuntimeError(f"the score's parts disagree with rank() for {candidate.action_id}")
        rows.append({"action_id": candidate.action_id, "tool": tool.tool_id, "family": tool.family,
                     "weight": tool.weight, "credit": earned, "cost": tool.cost, "score": candidate.score,
                     "arithmetic": candidate.reason, "cites": list(candidate.cites)})
    return rows


def family_credit(door: Recorder) -> dict[str, float]:
    """What each family has earned so far (a plain dict; sorted keys when written)."""
    return {family: earned.credit for family, earned in selection_state(door).credit.items()}


def watched(door: Recorder) -> tuple[list[dict], Callable[[str, object], None]]:
    """The loop's steps as this lesson writes them down, and the driver's watch (drive.work) that records them.

    A ``propose`` or ``observe`` step holds the door's answers; a ``select``
    step the ranking written just before the selection (``ranking``), the
    door's answer and the selection; an ``execute`` step the act's identity,
    how it ended and the door's answers, then its feedback and every
    family's credit after it.
    """
    steps: list[dict] = []

    def watch(step: str, answer: object) -> None:
        if step == "proposed":
            steps.append({"step": "propose", "answers": answer})
        elif step == "selecting":
            steps.append({"step": "select", "ranking": ranking(door)})
        elif step == "selected":
            steps[-1]["answer"] = answer
            if answer["recorded"]:
                steps[-1]["selection"] = door.get(SELECTION_KIND, answer["id"])
        elif step == "executed":
            selected = door.get(SELECTION_KIND, steps[-1]["answer"]["id"])["action_id"]
            steps.append({"step": "execute", "action_id": selected, "status": answer.status,
                          "answers": list(answer.answers)})
        elif step == "credited":
            steps[-1].update(feedback=door.get(FEEDBACK_KIND, answer["id"]), family_credit=family_credit(door))
        elif step == "observed":
            steps.append({"step": "observe", "answers": answer})

    return steps, watch


def selections(steps: list[dict]) -> list[str]:
    """The action identities the door selected, in order, from ``watched``'s steps."""
    return [step["selection"]["action_id"] for step in steps if "selection" in step]


def what_selection_shows(door: Recorder, steps: list[dict], meddled: dict[str, dict]) -> dict:
    """The six things lesson 5 looks for in a loop's ``steps`` (``watched``'s), each pointed out.

    The loop must have made at least two selections, one of them a tie at the
    top; had one proposal refused as already recorded, of an identity it
    executed; had one act turned away at execution whose identity
    ``meddled`` names (the arguments slipped into it); and ended on a refused
    selection. ``scores`` is the second selection's ranking; ``tie`` the
    identities tied at the top of the first, in arrival and ranked order;
    ``executed_identity`` the one proposed again and how often it was
    selected; ``turned_away`` the refused act and the ranking after it;
    ``feedback`` every credit with the families' credit after it;
    ``budget`` the last refusal and what was still open.
    """
    picks = [step for step in steps if step["step"] == "select"]
    runs = [step for step in steps if step["step"] == "execute"]
    first = picks[0]
    tied = [row["action_id"] for row in first["ranking"] if row["score"] == first["ranking"][0]["score"]]
    arrived = [p["action_id"] for p in door.records(PROPOSAL_KIND) if p["action_id"] in tied]
    again = next(event for event in door.ledger if event["kind"] == PROPOSAL_KIND
                 and event["code"] == "already_recorded")
    proposed_again = action_identity(again["payload"]["tool"], again["payload"]["destination"])
    executed_again = next(step["action_id"] for step in runs if step["action_id"] == proposed_again)
    turned = next(i for i, step in enumerate(steps) if step["step"] == "execute" and step["status"] == "refused")
    refused, after = steps[turned], steps[turned + 1]  # the loop goes straight on to the next selection
    return {
        "scores": {"selection": 2, "ranking": picks[1]["ranking"]},
        "tie": {"arrival_order": arrived, "ranked": tied, "selected": first["selection"]["action_id"],
                "reason": first["selection"]["reason"]},
        "executed_identity": {"action_id": executed_again, "proposed_again": {"recorded": False,
                                                                              "reason": again["reason"]},
                              "times_selected": selections(steps).count(executed_again)},
        "turned_away": {"action_id": refused["action_id"], "arguments_sent": meddled[refused["action_id"]],
                        "door_answer": refused["answers"][0],
                        "next_ranking": [row["action_id"] for row in after["ranking"]],
                        "next_selected": after["ranking"][0]["action_id"]},
        "feedback": [{**step["feedback"], "family_credit_after": step["family_credit"]}
                     for step in runs if "feedback" in step],
        "budget": {"answer": picks[-1]["answer"], "still_open": [row["action_id"] for row in picks[-1]["ranking"]],
                   "actions": door.count("action"), "max_actions": door.policy.max_actions},
        "selected_in_order": selections(steps),
    }
