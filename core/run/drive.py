"""Drive: take one run through every stage, top to bottom, with every lesson's part.

The door decides; this module only asks it things, in the order the stage
table allows (lesson 3):

1. ``work``: the loop of lessons 4 to 6. Ask the model, select the best open
   proposal, execute it (with its scripted review when the gate holds it,
   lesson 8), credit a settled outcome, observe the capture, and ask the
   model again when there is something new to show it. A proposal the door
   turns away is never chosen again, so the loop moves on to the next one;
   it ends when no proposal is left or a budget is spent.
2. ``verify_findings``: lesson 7, each planned finding asserted and tested
   through the same gated door.
3. the review and report stages. Closing and sealing (lesson 9) and the
   safety verdict (lesson 10) follow in demo_report.py.

The reviews are written down in advance by the operator (``load_reviews``),
because this run is scripted: each names one exact act (its identity and
its arguments) and stands in for a person deciding when the gate holds it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from core.run.execute import Adapter, ExecutionResult, execute
from core.run.gate import act_subject, gate_state
from core.run.observe import observe
from core.run.propose import Model, propose
from core.run.recorder import Recorder
from core.run.records import REVIEW_DECISIONS, RecordError, action_identity, require_keys, shown
from core.run.select import select_next
from core.run.stages import advance
from core.run.verify import Check, run_check

REVIEWER_FIELDS = ("subject", "arguments", "reviewer", "decision", "reason")


class DriveError(ValueError):
    """The run's scripted reviews break their shape; the message says which entry."""


class HarnessError(RuntimeError):
    """The driver tried a stage move the table refuses: the driver itself is wrong, so the run stops."""


def load_reviews(entries: object) -> dict[str, dict]:
    """Scripted review decisions from the configuration: the exact act's subject -> the review's fields."""
    if not isinstance(entries, list):
        raise DriveError("reviewers must be a list of review decisions")
    reviews: dict[str, dict] = {}
    for index, entry in enumerate(entries):
        where = f"reviewers[{index}]"
        require_keys(where, entry, REVIEWER_FIELDS, error=DriveError)
        if not isinstance(entry["arguments"], dict):
            raise DriveError(f"{where} arguments must be the exact act's arguments, an object")
        if not all(isinstance(entry[key], str) and entry[key].strip() for key in REVIEWER_FIELDS if key != "arguments"):
            raise DriveError(f"{where} values must be non-empty text")
        if entry["decision"] not in REVIEW_DECISIONS:
            raise DriveError(f"{where} decision must be one of {', '.join(REVIEW_DECISIONS)}")
        subject = subject_of(entry["subject"], entry["arguments"])
        if not subject:
            raise DriveError(f"{where} subject {shown(entry['subject'])} is not an action identity")
        if subject in reviews:
            raise DriveError(f"{where} decides {shown(entry['subject'])} with these arguments a second time")
        reviews[subject] = {key: entry[key] for key in ("reviewer", "decision", "reason")}
    return reviews


def subject_of(identity_or_tool: str, arguments: object, destination: str | None = None) -> str:
    """The review subject of an exact act, or "" when the act cannot have one.

    Given an action identity (``"tool -> destination"``) and arguments, or a
    tool, arguments and a destination as a payload carries them.
    """
    try:
        if destination is None:
            tool, _, destination = identity_or_tool.partition(" -> ")
        else:
            tool = identity_or_tool
        return act_subject(action_identity(tool, destination), arguments)
    except (RecordError, AttributeError, TypeError, ValueError):
        return ""


def enter(recorder: Recorder, stage: str) -> None:
    """Move to ``stage``; the driver follows the stage table, so a refused move is a bug that stops the run."""
    answer = advance(recorder, stage)
    if not answer["recorded"]:
        raise HarnessError(f"the run could not enter {stage}: {answer['reason']}")


def execute_reviewed(recorder: Recorder, payload: dict, adapter: Adapter,
                     reviews: Mapping[str, dict]) -> ExecutionResult:
    """Execute; if the gate held this exact act and a reviewer decided on it, record the decision and try again.

    The second attempt passes the whole door again: the review only counts
    because the gate finds it among the run's records.
    """
    result = execute(recorder, payload, adapter)
    subject = subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))
    if result.status != "refused" or subject not in gate_state(recorder).held or subject not in reviews:
        return result
    review = recorder.record("review", {"run_id": recorder.run.run_id, "subject_id": subject, **reviews[subject]})
    if not review["recorded"]:
        return result
    return execute(recorder, payload, adapter)


def work(recorder: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict]) -> None:
    """The work loop, from authorize until selection finds nothing left or a budget is spent."""
    enter(recorder, "observe")
    enter(recorder, "propose")
    propose(recorder, model)
    while True:
        enter(recorder, "select")
        chosen = select_next(recorder)
        if not chosen["recorded"]:
            return  # in the select stage, ready for verify
        proposal = recorder.get("proposal", recorder.get("selection", chosen["id"])["action_id"])
        enter(recorder, "execute")
        payload = {key: proposal[key] for key in ("run_id", "tool", "destination", "arguments")}
        result = execute_reviewed(recorder, payload, adapter, reviews)
        if result.status == "succeeded":
            recorder.record("feedback", {"run_id": recorder.run.run_id, "outcome_id": result.answers[-1]["id"]})
        enter(recorder, "observe")
        if result.capture_id:
            observe(recorder, result.capture_id)
        enter(recorder, "propose")
        if result.capture_id:  # nothing new to show the model after a refusal: do not spend a call
            propose(recorder, model)


def verify_findings(recorder: Recorder, checks: Iterable[Check], adapter: Adapter,
                    reviews: Mapping[str, dict]) -> None:
    """Lesson 7 in the run: assert each planned finding and verify it through the same gated door."""
    enter(recorder, "verify")
    for check in checks:
        run_check(recorder, check, lambda payload: execute_reviewed(recorder, payload, adapter, reviews))


def run_through(recorder: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict],
                checks: Iterable[Check]) -> None:
    """Every stage of a run in order: the work loop, verification, review and the report stage."""
    work(recorder, model, adapter, reviews)
    verify_findings(recorder, checks, adapter, reviews)
    enter(recorder, "review")
    enter(recorder, "report")
