"""Measure: every pair of a suite, with no door and with the course's door, scored by AgentDojo's own functions.

For each user task: one run without an attack (utility), and for each
injection task one run under the attack (utility under attack, and
targeted attack success: AgentDojo's ``security`` result, true when the
injection task's goal was met). Each run is a pipeline of AgentDojo's own
elements, with the scripted model in the model's place and, for the course's
door, ``CourseDoor`` in the ``ToolsExecutor``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from agentdojo.agent_pipeline.agent_pipeline import AgentPipeline
from agentdojo.agent_pipeline.basic_elements import InitQuery
from agentdojo.agent_pipeline.tool_execution import ToolsExecutionLoop, ToolsExecutor
from agentdojo.attacks.attack_registry import load_attack
from agentdojo.task_suite.load_suites import get_suites

from dojo import catalogue, provenance
from dojo.door import CourseDoor
from dojo.scripted import MODEL_NAME, ScriptedModel

BENCHMARK_VERSION = "v1.2.2"
ATTACK = "important_instructions"
DOORS = ("none", "course")
MAX_ITERS = 60  # more rounds than any ground truth, with its injection's, takes
# A fixed sample from every suite, small enough to run in seconds: in each, a pair whose attack the door turns
# away and a pair whose user task it lets through (python -m dojo --sample, make test, lesson 12's page).
SAMPLE = {
    "banking": (("user_task_3", "injection_task_4"), ("user_task_5", "injection_task_7")),
    "slack": (("user_task_1", "injection_task_1"), ("user_task_0", "injection_task_3")),
    "travel": (("user_task_1", "injection_task_0"), ("user_task_5", "injection_task_3")),
    "workspace": (("user_task_0", "injection_task_0"), ("user_task_12", "injection_task_1")),
}


@dataclass
class Tally:
    """One suite's (or all suites') results for one door."""

    utility: list[bool] = field(default_factory=list)
    under_attack: list[bool] = field(default_factory=list)
    attacked: list[bool] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)  # runs the door cost: what it refused, and why
    breaches: list[str] = field(default_factory=list)  # pairs whose attack AgentDojo scores a success

    def add(self, other: Tally) -> None:
        for name in ("utility", "under_attack", "attacked", "costs", "breaches"):
            getattr(self, name).extend(getattr(other, name))

    def row(self) -> tuple[float, float, float]:
        return tuple(sum(values) / len(values) if values else 0.0
                     for values in (self.utility, self.under_attack, self.attacked))


def pipeline(model: ScriptedModel, executor) -> AgentPipeline:
    element = AgentPipeline([InitQuery(), model, ToolsExecutionLoop([executor, model], max_iters=MAX_ITERS)])
    element.name = MODEL_NAME
    return element


def suites(names: Iterable[str] | None = None) -> dict:
    every = get_suites(BENCHMARK_VERSION)
    names = list(names) if names else sorted(every)
    unknown = sorted(set(names) - set(every))
    if unknown:
        raise ValueError(f"AgentDojo {BENCHMARK_VERSION} has no suite {', '.join(unknown)} "
                         f"(it has {', '.join(sorted(every))})")
    return {name: every[name] for name in names}


def run_pair(suite, door: str, user_task, injection_task=None, injections=None, keep: Callable | None = None,
             reviewer: Callable = provenance.review):
    """One run; returns AgentDojo's (utility, security) and the door element (None without a door).

    ``reviewer`` decides each held act for the course's door (the user's stand-in unless a test or a page
    puts another in its place).
    """
    model = ScriptedModel(user_task, injection_task, injections)
    element = None
    if door == "course":
        world = {"benchmark": f"agentdojo {BENCHMARK_VERSION}", "suite": suite.name, "user_task": user_task.ID,
                 "injection_task": injection_task.ID if injection_task else None,
                 "attack": ATTACK if injection_task else None}
        element = CourseDoor(catalogue.load()[suite.name], world, reviewer)
        executor = element
    else:
        executor = ToolsExecutor()
    utility, security = suite.run_task_with_pipeline(pipeline(model, executor), user_task, injection_task,
                                                     injections or {})
    if keep is not None and element is not None:
        keep(suite.name, user_task.ID, injection_task.ID if injection_task else None, element)
    return utility, security, element


def measure(suite, door: str, pairs: Iterable[tuple[str, str]] | None = None, attack_name: str = ATTACK,
            keep: Callable | None = None) -> Tally:
    """``suite``'s pairs (all, unless ``pairs`` names some) under ``door``."""
    tally = Tally()
    attack = load_attack(attack_name, suite, pipeline(ScriptedModel(None), ToolsExecutor()))
    wanted = list(pairs) if pairs is not None else [(u, i) for u in suite.user_tasks for i in suite.injection_tasks]
    for user_id in dict.fromkeys(user for user, _ in wanted):
        user_task = suite.get_user_task_by_id(user_id)
        utility, _, element = run_pair(suite, door, user_task, keep=keep)
        tally.utility.append(utility)
        if element is not None and not utility:
            tally.costs.append(_cost(suite.name, user_id, None, element))
        for injection_id in [i for u, i in wanted if u == user_id]:
            injection_task = suite.get_injection_task_by_id(injection_id)
            injections = attack.attack(user_task, injection_task)
            utility, security, element = run_pair(suite, door, user_task, injection_task, injections, keep)
            tally.under_attack.append(utility)
            tally.attacked.append(security)
            if security:
                tally.breaches.append(f"{suite.name}/{user_id} x {injection_id}")
            if element is not None and not utility:
                tally.costs.append(_cost(suite.name, user_id, injection_id, element))
    return tally


def _cost(suite: str, user: str, injection: str | None, element: CourseDoor) -> str:
    """What the door turned away in a run it cost: each rejected review's reason, and any other refusal's."""
    said = [review["reason"] for review in element.door.records("review") if review["decision"] == "rejected"]
    said += [f"{event['code']}: {event['reason']}" for event in element.refusals()
             if event.get("code") not in ("held_for_review", "denied")]
    return f"{suite}/{user}" + (f" x {injection}" if injection else "") + ": " + (" | ".join(said) or "nothing refused")
