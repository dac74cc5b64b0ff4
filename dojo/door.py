"""The door as an AgentDojo pipeline element: where ``ToolsExecutor`` stood, every call is an act.

``CourseDoor`` takes the model's tool calls and passes each through the
reference run's door (doors.door_for, every lesson's part and guard), along
the reference stage machine, one call per round of the work loop:

    observe -> propose (a model call and the call as a proposal, which the policy judges)
            -> select (the door's choice) -> execute (the action, which the gate judges)

A consequential act is held by the gate; the user's stand-in
(provenance.review) decides on that exact act, its decision is recorded as a
review by the class's approver role, and the act passes the whole door
again. Only an admitted act reaches AgentDojo's function; its start, its
capture (what the call asked for and what it returned) and its outcome are
written around it. A refused call returns to the model as an error saying
why, and changes nothing.

The element reads what a pipeline hands it: the user's request (the
pipeline's query), the model's calls, the runtime and the environment. It
never reads a task, its ground truth, the injection, or which output
carries it; the scripted model alone does (scripted.py).
"""

from __future__ import annotations

from ast import literal_eval
from collections.abc import Sequence

from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionCall, FunctionsRuntime
from agentdojo.types import ChatMessage, ChatToolResultMessage, get_text_content_as_str, text_content_block_from_string

from core.run import seal
from core.run.canon import CanonError, digest
from core.run.doors import final_door
from core.run.drive import seal_report
from core.run.gate import gate_state, subject_of
from core.run.records import fitted_body, make_run
from core.run.stages import advance
from dojo import catalogue, provenance

FINISHED = "the pipeline's model gave its answer"


class CourseDoor(BasePipelineElement):
    """The course's door in front of one suite's tools, for one pair's run (a fresh element per run)."""

    name = "course_door"

    def __init__(self, suite: catalogue.Suite, world: dict, reviewer=provenance.review) -> None:
        self.suite = suite
        self.taxonomy = catalogue.table()
        self.policy, self.gating = catalogue.checked(suite, self.taxonomy)
        self.world = world
        self.run = make_run(self.policy.snapshot(), world)
        self.door = final_door(self.run, self.policy, self.gating)
        self.reviewer = reviewer
        self.request: str | None = None
        self.calls = 0
        self.seen: list[FunctionCall] = []  # every call handed to the door, as it was handed

    def query(self, query: str, runtime: FunctionsRuntime, env: Env = EmptyEnv(),
              messages: Sequence[ChatMessage] = (), extra_args: dict = {}):  # noqa: B006 (AgentDojo's signature)
        if not messages or messages[-1]["role"] != "assistant" or not messages[-1]["tool_calls"]:
            return query, runtime, env, messages, extra_args
        if self.request is None:
            self.request = query  # the user's own request: the one text the stand-in trusts besides the operator's
        shown = digest([[message["role"], get_text_content_as_str(message["content"] or [])]
                        for message in messages])
        results = [self.carry(call, runtime, env, shown) for call in messages[-1]["tool_calls"]]
        return query, runtime, env, [*messages, *results], extra_args

    # --- one call, one round of the work loop ---------------------------------------------

    def carry(self, call: FunctionCall, runtime: FunctionsRuntime, env: Env, shown: str) -> ChatToolResultMessage:
        door, run_id = self.door, self.run.run_id
        self.calls += 1
        self.seen.append(call.model_copy(deep=True))
        arguments = {name: _listed(value) for name, value in call.args.items()}
        entry = self.suite.tools.get(call.function)
        try:
            sent = catalogue.encoded(entry, arguments, self.taxonomy)
        except CanonError as exc:
            return _refused(call, f"the call's arguments have no canonical JSON form: {exc}")
        payload = {"run_id": run_id, "tool": call.function,
                   "destination": self.suite.destination(call.function, self.calls), "arguments": sent}
        for stage in {"authorize": ("observe", "propose"), "execute": ("observe", "propose"),
                      "observe": ("propose",)}.get(door.stage, ()):
            advance(door, stage)
        asked = door.record("model_call", {"run_id": run_id, "prompt_digest": shown,
                                           "capture_ids": self._last_capture()})
        if not asked["recorded"]:
            return _refused(call, asked["reason"])
        proposed = door.record("proposal", {**payload, "model_call_id": asked["id"],
                                            "why": f"the model's tool call {self.calls}"})
        if not proposed["recorded"]:
            return _refused(call, proposed["reason"])  # the run stays in propose, ready for the next call
        advance(door, "select")
        chosen = door.record("selection", {"run_id": run_id})
        if not chosen["recorded"]:
            return _refused(call, chosen["reason"])
        advance(door, "execute")
        action = door.record("action", payload)
        subject = subject_of(call.function, sent, payload["destination"])
        if not action["recorded"] and subject in gate_state(door).held and entry is not None:
            decided = self.reviewer(call.function, entry.traced, entry.carries, arguments, self.request or "",
                                    self.suite.trusted)
            door.record("review", {"run_id": run_id, "subject_id": subject, "decision": decided.decision,
                                   "reviewer": provenance.REVIEWER, "reason": decided.reason})
            action = door.record("action", payload)
        if not action["recorded"]:
            return _refused(call, action["reason"])
        return self._execute(action["id"], call, arguments, runtime, env)

    def _execute(self, action_id: str, call: FunctionCall, arguments: dict, runtime: FunctionsRuntime,
                 env: Env) -> ChatToolResultMessage:
        door, run_id = self.door, self.run.run_id
        start = door.record("outcome", {"run_id": run_id, "action_id": action_id, "status": "unresolved",
                                        "capture_id": "", "detail": "handed to AgentDojo's function"})
        if not start["recorded"]:
            return _refused(call, start["reason"])
        result, error = runtime.run_function(env, call.function, arguments)
        text = tool_result_to_str(result)
        asked = ", ".join(f"{name}={value!r}" for name, value in sorted(arguments.items()))
        body = fitted_body(f"{call.function}({asked})\n\n" + (f"error: {error}" if error else text))
        capture = door.record("capture", {"run_id": run_id, "action_id": action_id,
                                          "status": 400 if error else 200, "body": body})
        if capture["recorded"]:
            settled = door.record("outcome", {"run_id": run_id, "action_id": action_id, "status": "succeeded",
                                              "capture_id": capture["id"], "detail": ""})
            if settled["recorded"]:
                door.record("feedback", {"run_id": run_id, "outcome_id": settled["id"]})
        return ChatToolResultMessage(role="tool", content=[text_content_block_from_string(text)],
                                     tool_call_id=call.id, tool_call=call, error=error)

    def _last_capture(self) -> list[str]:
        captures = [event["id"] for event in self.door.events
                    if event["kind"] == "capture" and event["status"] == "admitted"]
        return captures[-1:]

    # --- the end of the pair ---------------------------------------------------------------

    def sealed(self) -> dict:
        """Finish the run and seal its report (every section, lesson 10's safety verdict included)."""
        if self.door.closed is None:
            seal.finish(self.door, FINISHED)
        return seal_report(self.door)

    def refusals(self) -> list[dict]:
        """Every act the door turned away: held, denied or refused by the policy, in ledger order."""
        return [event for event in self.door.events if event["status"] == "refused"
                and event["kind"] in ("action", "proposal")]


def _listed(value: object) -> object:
    """A list written as text becomes the list, as AgentDojo's own executor reads it."""
    if isinstance(value, str):
        try:
            parsed = literal_eval(value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return value
        return parsed if isinstance(parsed, list) else value
    return value


def _refused(call: FunctionCall, reason: str) -> ChatToolResultMessage:
    return ChatToolResultMessage(role="tool", content=[text_content_block_from_string("")], tool_call_id=call.id,
                                 tool_call=call, error=f"the course's door refused this call: {reason}")
