"""Lesson 4's demo: facts read from lab captures, and a model's raw replies judged at the door.

    python3 -m core.run.demo_proposals --out data/course/proposals-demo.json

Lesson 4's door against the fixture lab, in process, with the lab's scripted model, driven by the
driver's work loop (drive.work). The first round asks the model before anything is captured. Every
later round carries out one act an earlier round stored as a proposal, in the order of ``PLAN``
(choosing is lesson 5's selection and the executor lesson 6's, so each act is recorded at once:
drive.recorded_at_once), observes the capture, and asks the model again. With the model call budget
spent, one more call is refused and the model not asked. The door refuses every kind of bad proposal
this lesson knows (``REFUSAL_KINDS``), and the demo checks each happened. The adapter and model are
the lab's, loaded by name (plugins.py): ``core`` never imports the lab. All the run meets is fixed,
so the artifact is byte-identical on every run.
"""

from __future__ import annotations

import sys

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import Enough, recorded_at_once, work
from core.run.observe import with_their_acts
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy, reference_policy
from core.run.propose import PROPOSAL_KIND, REFUSAL_KINDS, propose, refusals_by_round, traces_to_the_page
from core.run.recorder import Recorder
from core.run.records import make_run

LESSON = 4
# The lab code this demo plugs in, named as the reference run's configuration names it.
ADAPTER = "lab.plugin:make_adapter"
MODEL = "lab.plugin:make_model"
WORLD = "lab.plugin:describe_world"

# The stored proposals the demo carries out, one before each round after the first, in this order.
PLAN = (
    "inspect_headers -> https://lab.example:443/",
    "inspect_headers -> https://lab.example:443/robots.txt",
    "inspect_headers -> https://lab.example:443/news",
    "inspect_headers -> https://lab.example:443/about",
    "inspect_metadata -> https://lab.example:443/about",
    "inspect_headers -> https://lab.example:443/debug",
    "probe_reflection -> https://lab.example:443/debug",
)


class DemoError(RuntimeError):
    """The run did not tell the story the demo promises; the message says which part is missing."""


def build_policy() -> Policy:
    """The reference run's catalogue (data/policy/), with budgets this demo spends to the end (each tool's
    ``activity``, its class in lesson 8's taxonomy, is read by nothing until the gate joins the door)."""
    return reference_policy(max_actions=8, max_model_calls=8)


def run_demo(plan: tuple[str, ...] = PLAN, refusal_kinds: tuple[tuple[str, str], ...] = REFUSAL_KINDS,
             model: str = MODEL) -> dict:
    """Drive lesson 4's door through the driver's work loop against the in-process lab; return the artifact.

    ``plan``, ``refusal_kinds`` and ``model`` replace the demo's own (a test's
    plan that carries out an unstored proposal, a refusal that never happens).
    """
    policy = build_policy()
    door = door_for(LESSON, make_run(policy.snapshot(), {"lab": load_plugin(WORLD)(), "demo": "proposals-demo"}),
                    policy)
    model, said, rounds, done = load_plugin(model)(), [], [], []
    picks = iter(plan)

    def listened(prompt: str) -> str:  # the model, with what it was shown and what it said written down
        said.append((prompt, model(prompt)))
        return said[-1][1]

    def choose(door: Recorder) -> dict:  # the next act of the plan: choosing is lesson 5's selection
        action_id = next(picks, None)
        if action_id is not None and not door.holds(PROPOSAL_KIND, action_id):
            raise DemoError(f"the plan carries out {action_id}, but no round stored that proposal")
        return {"recorded": action_id is not None, "kind": PROPOSAL_KIND, "id": action_id, "reason": "plan done"}

    def watch(step: str, answer) -> None:
        if step == "executed":
            if answer.status != "succeeded":
                raise DemoError(f"the demo's act was not carried out: {answer.detail}")
            done.append({"action_id": answer.action_id, "capture_id": answer.capture_id})
        if step == "proposed":
            prompt, reply = said.pop() if said else (None, None)
            rounds.append({"round": len(rounds) + 1, "executed": done.pop() if done else None, "prompt": prompt,
                           "reply": reply, "answers": answer})
            if len(rounds) == len(plan) + 1:
                raise Enough  # every planned act carried out, and the model asked after the last

    adapter = load_plugin(ADAPTER)("inprocess")
    try:  # each act recorded at once (action, capture, outcome): the executor is lesson 6's
        work(door, listened, adapter, watch=watch, act=recorded_at_once, choose=choose)
    finally:
        adapter.close()
    watch("proposed", propose(door, listened))  # one call past the model call budget: refused, never asked
    found = refusals_by_round(door.ledger, refusal_kinds)
    missing = [name for name, _ in refusal_kinds if name not in {refusal["refusal"] for refusal in found}]
    if missing:
        raise DemoError(f"the run showed no refusal of the kind(s) {', '.join(missing)}")
    injection = traces_to_the_page(door, "out_of_scope")  # the page text that asked to test another site
    if len(injection) != 1 or not injection[0]["page"]:
        raise DemoError("the run should refuse one proposal outside the authorization, traced to a page the model "
                        f"was shown; it traced {len(injection)}")
    return {"observations": with_their_acts(door), "rounds": rounds, "refusals": found, "injection": injection[0],
            "report": door.snapshot()}


def main(argv: list[str] | None = None, model: str = MODEL) -> int:
    return demo_main("demo_proposals", "Write lesson 4's demo artifact: observations, prompts, raw replies and every "
                     "refusal.", lambda: run_demo(model=model), argv, expected=(DemoError, PluginError))


if __name__ == "__main__":
    sys.exit(main())
