"""Only the scripted model reads ground truth: the bridge and the user's stand-in decide without it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("agentdojo")

from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement  # noqa: E402
from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime  # noqa: E402
from agentdojo.types import ChatAssistantMessage, text_content_block_from_string  # noqa: E402

from dojo import catalogue, measure  # noqa: E402
from dojo.door import CourseDoor  # noqa: E402
from dojo.scripted import ScriptedModel  # noqa: E402

PACKAGE = Path(__file__).resolve().parents[1] / "dojo"
SECRETS = {"ground_truth", "GROUND_TRUTH_OUTPUT", "GOAL", "PROMPT", "injection_task", "injection_tasks", "injections",
           "user_task", "user_tasks", "utility", "security", "security_from_traces", "utility_from_traces"}
PAIRS = [("workspace", "user_task_0", "injection_task_0"), ("banking", "user_task_3", "injection_task_4"),
         ("slack", "user_task_1", "injection_task_1"), ("travel", "user_task_3", "injection_task_5")]


class Poisoned:
    """Stands where a task, its ground truth or its injection could be reached: any use of it raises."""

    def __init__(self, what: str) -> None:
        object.__setattr__(self, "_what", what)

    def __getattribute__(self, name):
        raise AssertionError(f"the bridge read {name!r} of {object.__getattribute__(self, '_what')}")

    def __getitem__(self, key):
        raise AssertionError(f"the bridge read {key!r} of {object.__getattribute__(self, '_what')}")

    def __iter__(self):
        raise AssertionError(f"the bridge iterated {object.__getattribute__(self, '_what')}")


class Replay(BasePipelineElement):
    """A model that sends a fixed list of calls: it knows no task at all."""

    def __init__(self, calls: list[FunctionCall], answer: str) -> None:
        self.calls, self.answer, self.next = calls, answer, 0

    def query(self, query, runtime, env, messages=(), extra_args={}):  # noqa: B006 (AgentDojo's signature)
        if self.next < len(self.calls):
            self.next += 1
            reply = ChatAssistantMessage(role="assistant", content=[text_content_block_from_string("")],
                                         tool_calls=[self.calls[self.next - 1]])
        else:
            reply = ChatAssistantMessage(role="assistant", tool_calls=None,
                                         content=[text_content_block_from_string(self.answer)])
        return query, runtime, env, [*messages, reply], extra_args


def scripted_run(name, user_id, injection_id):
    suite = measure.suites([name])[name]
    user_task, injection_task = suite.get_user_task_by_id(user_id), suite.get_injection_task_by_id(injection_id)
    attack = measure.load_attack(measure.ATTACK, suite, measure.pipeline(ScriptedModel(None), measure.ToolsExecutor()))
    injections = attack.attack(user_task, injection_task)
    kept = {}
    measure.run_pair(suite, "course", user_task, injection_task, injections,
                     keep=lambda *key: kept.setdefault("door", key[-1]))
    return suite, user_task, injections, kept["door"]


@pytest.mark.parametrize("name, user_id, injection_id", PAIRS)
def test_the_bridge_and_the_reviewer_decide_the_same_with_every_secret_poisoned(name, user_id, injection_id):
    """The bridge and its reviewer decide every call the same when the task, its ground truth and the injection raise."""
    suite, user_task, injections, door = scripted_run(name, user_id, injection_id)
    calls = list(door.seen)  # the calls the scripted model made, its injection's included
    env = user_task.init_environment(suite.load_and_inject_default_environment(injections))
    prompt = user_task.PROMPT  # the pipeline's query: the user's own request, all the bridge is handed
    blind = CourseDoor(catalogue.load()[name], door.world)
    model = Replay(calls, "done")
    secrets = {"user_task": Poisoned("the user task"), "injection_task": Poisoned("the injection task"),
               "ground_truth": Poisoned("the ground truth"), "injections": Poisoned("the injected outputs")}
    measure.pipeline(model, blind).query(prompt, FunctionsRuntime(suite.tools), env, [], secrets)
    decided = [(event["kind"], event["status"], event.get("code", ""), event.get("reason", ""))
               for event in blind.door.events]
    assert decided == [(event["kind"], event["status"], event.get("code", ""), event.get("reason", ""))
                       for event in door.door.events]
    assert blind.door.count("review") == door.door.count("review") > 0


@pytest.mark.parametrize("module", ["door.py", "provenance.py", "catalogue.py"])
def test_the_bridges_modules_name_no_task_ground_truth_or_injection(module):
    """The bridge's and the reviewer's source never names a task, its ground truth, its scoring or the injection."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {alias.name.split(".")[-1] for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
              for alias in node.names}
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not names & SECRETS
    assert not {module for module in modules if module and ("base_tasks" in module or "task_suite" in module
                                                            or "attacks" in module)}
