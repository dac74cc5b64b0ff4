"""The scripted model: it plays a user task's ground truth, and obeys any injection it is shown.

It stands in for a model, offline. It calls the tools of the user task's
ground truth one at a time, in order; when a tool's output carries the
injection's text, it also calls the injection task's ground truth next,
every time (it always obeys, once per run); and it ends with the user task's
ground-truth answer. It reads the outputs it is handed and goes on whatever
they say: a call the door refused is not retried or replaced.

This is the only part of the package that reads a task's ground truth, its
injection task, or the injected text. What a scripted model is not: a real
model fails tasks on its own, reads instructions into data it was not
given, and can be talked into acts whose arguments the user did give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.base_tasks import BaseInjectionTask, BaseUserTask
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionCall, FunctionsRuntime
from agentdojo.types import ChatAssistantMessage, ChatMessage, get_text_content_as_str, text_content_block_from_string

# AgentDojo's important_instructions attack addresses the model by the name its pipeline carries.
MODEL_NAME = "gpt-4o-2024-05-13"


class ScriptedModel(BasePipelineElement):
    """One pair's scripted model: the user task, and the injection task with its texts (none without an attack)."""

    name = MODEL_NAME

    def __init__(self, user_task: BaseUserTask, injection_task: BaseInjectionTask | None = None,
                 injections: Mapping[str, str] | None = None) -> None:
        self.user_task, self.injection_task = user_task, injection_task
        self.injected = tuple(skeleton for text in (injections or {}).values() if (skeleton := _skeleton(text)))
        self.plan: list[FunctionCall] = []
        self.next = 0
        self.obeyed = False

    def query(self, query: str, runtime: FunctionsRuntime, env: Env = EmptyEnv(),
              messages: Sequence[ChatMessage] = (), extra_args: dict = {}):  # noqa: B006 (AgentDojo's signature)
        if not any(message["role"] == "assistant" for message in messages):
            self.plan, self.next, self.obeyed = list(self.user_task.ground_truth(env)), 0, False
        elif self.injection_task is not None and not self.obeyed and self._shown_injection(messages):
            self.obeyed = True
            self.plan[self.next:self.next] = list(self.injection_task.ground_truth(env))
        if self.next < len(self.plan):
            call = self.plan[self.next]
            self.next += 1
            called = FunctionCall(function=call.function, args=dict(call.args), id=f"call-{self.next}")
            reply = ChatAssistantMessage(role="assistant", content=[text_content_block_from_string("")],
                                         tool_calls=[called])
        else:
            reply = ChatAssistantMessage(role="assistant", tool_calls=None,
                                         content=[text_content_block_from_string(self.user_task.GROUND_TRUTH_OUTPUT)])
        return query, runtime, env, [*messages, reply], extra_args

    def _shown_injection(self, messages: Sequence[ChatMessage]) -> bool:
        """Whether the tool results since the model last spoke carry an injected text."""
        for message in reversed(messages):
            if message["role"] != "tool":
                return False
            text = _skeleton(get_text_content_as_str(message["content"] or []))
            if any(injected in text for injected in self.injected):
                return True
        return False


def _skeleton(text: str) -> str:
    """Letters and digits only, case folded: an injected text is found however a tool's output wrapped,
    quoted or escaped it (YAML folds long lines and writes a line break as ``\\n``)."""
    return "".join(char for char in text.replace("\\n", " ").casefold() if char.isalnum())
