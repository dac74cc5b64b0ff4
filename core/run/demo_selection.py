"""Lesson 5's demo: the work loop choosing, acting and learning, through lesson 5's door.

    python3 -m core.run.demo_selection --out data/course/selection-demo.json

A scripted model proposes acts against fixed copies of lab pages, and the
one driver (drive.work) runs the loop: the door selects, the chosen act is
carried out (by lesson 6's executor, over an adapter that serves the fixed
pages), its outcome is credited, its capture observed, and the model asked
again, until the door refuses to select. The demo only watches: before
every selection it writes down the ranking the door is about to use, with
each score's arithmetic, so the artifact shows:

* scores with their arithmetic (weight, family credit, cost);
* a tie broken by action identity, whatever order the proposals arrived in;
* an executed identity proposed again and never selected again;
* an identity the door turned away under its selection (the demo's driver
  slips in an argument the tool does not declare), skipped from then on,
  and the loop going on;
* feedback crediting the exact identity and family that produced each outcome;
* the action budget ending selection with proposals still open.

Everything is fixed data (no lab, no clock), so the artifact is
byte-identical on every machine.
"""

from __future__ import annotations

import json
import sys

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import execute_reviewed, work
from core.run.origins import canonical_destination
from core.run.plugins import load_plugin
from core.run.policy import Policy, reference_policy
from core.run.propose import Model
from core.run.recorder import Recorder
from core.run.records import action_identity, make_run
from core.run.select import rank, score, selection_state

LAB = "https://lab.example"
FIXED_PAGES = "lab.plugin:FixedPages"  # the lab's adapter over a table of pages (core never imports the lab)

WORLD = {"world": "selection-demo"}

# Fixed copies of the lab's pages, keyed by canonical destination.
HTML = "<!doctype html>\n<html><head><title>{title}</title>{meta}</head><body>{body}</body></html>\n"
PAGES = {
    "/about": ("About us", '<meta name="generator" content="ExampleCMS 3.2.1">', "<h1>About us</h1>"),
    "/contact": ("Contact", '<meta name="description" content="Write to us">', "<h1>Contact</h1>"),
    "/debug": ("Debug console", "", "<h1>Debug console</h1><p>You asked for: </p>"),
    "/news": ("News", "", "<h1>News</h1>"),
    "/search": ("Search", "", "<h1>Search</h1><p>You searched for: </p>"),
}
MISSING = ("Not found", "", "<h1>Not found</h1>")


def proposal(tool: str, path: str, why: str, **arguments: str) -> dict:
    return {"tool": tool, "destination": f"{LAB}{path}", "arguments": arguments, "why": why}


# What the scripted model writes, one reply per model call, in order.
REPLIES = (
    [
        proposal("inspect_headers", "/news", "The home page links to the news."),
        proposal("inspect_headers", "/about", "The about page may say what the site runs on."),
        proposal("probe_reflection", "/search", "The search page echoes q.", parameter="q", marker="lab-probe-1"),
        proposal("inspect_metadata", "/about", "The about page may carry a generator tag."),
    ],
    [
        proposal("inspect_metadata", "/about", "The about page carries a generator tag."),
        proposal("inspect_headers", "/about", "Look at the about page again."),
        proposal("inspect_headers", "/contact", "The contact page is linked from the about page."),
    ],
    [],
    [proposal("probe_reflection", "/debug", "The debug page echoes q.", parameter="q", marker="lab-probe-2")],
)

# The driver's slip: it sends this act with an argument the proposal did not carry.
MEDDLED = {f"inspect_headers -> {LAB}:443/contact": {"marker": "lab-probe-<i>3</i>"}}


def build_policy() -> Policy:
    """The operator's policy for the demo: the reference catalogue, four actions and six model calls at most."""
    return reference_policy(max_actions=4, max_model_calls=6)


def scripted(replies: tuple[list[dict], ...] | list[list[dict]]) -> Model:
    """A model that answers its n-th call with the n-th reply (as JSON text), then with no proposals."""
    texts = iter([json.dumps({"proposals": reply}) for reply in replies])
    return lambda prompt: next(texts, '{"proposals": []}')


def fixed_pages():
    """The one driver's adapter over fixed copies of the lab's pages: the same answer on every machine."""
    headers = (("Content-Type", "text/html; charset=utf-8"), ("Server", "lab-fixture/1.0"))
    page = lambda status, title, meta, body: (status, headers, HTML.format(title=title, meta=meta, body=body))  # noqa: E731
    return load_plugin(FIXED_PAGES)(f"{LAB}:443", {path: page(200, *parts) for path, parts in PAGES.items()}, page(404, *MISSING))


def slipping(door: Recorder, payload: dict, adapter, reviews) -> object:
    """The demo's driver, which slips an argument into one act: the door must turn it away."""
    identity = f"{payload['tool']} -> {canonical_destination(payload['destination'])}"
    meddled = {**payload, "arguments": {**payload["arguments"], **MEDDLED.get(identity, {})}}
    return execute_reviewed(door, meddled, adapter, reviews)


def ranking(door: Recorder) -> list[dict]:
    """The ranking the door will select from, each candidate with the parts of its score."""
    credit = selection_state(door).credit
    rows = []
    for candidate in rank(door):
        tool = door.policy.tool_named(door.get("proposal", candidate.action_id)["tool"])
        earned = credit[tool.family].credit if tool.family in credit else 0.0
        if score(tool.weight, tool.cost, earned) != candidate.score:
            raise RuntimeError(f"the demo's arithmetic disagrees with rank() for {candidate.action_id}")
        rows.append({"action_id": candidate.action_id, "tool": tool.tool_id, "family": tool.family,
                     "weight": tool.weight, "credit": earned, "cost": tool.cost, "score": candidate.score,
                     "arithmetic": candidate.reason, "cites": list(candidate.cites)})
    return rows


def family_credit(door: Recorder) -> dict[str, float]:
    """What each family has earned so far (a plain dict; sorted keys when written)."""
    return {family: earned.credit for family, earned in selection_state(door).credit.items()}


def watched(door: Recorder) -> tuple[list[dict], callable]:
    """The loop's steps as the artifact writes them, and the watch that records them."""
    steps: list[dict] = []

    def watch(step: str, answer: object) -> None:
        if step == "proposed":
            steps.append({"step": "propose", "answers": answer})
        elif step == "selecting":
            steps.append({"step": "select", "ranking": ranking(door)})
        elif step == "selected":
            steps[-1]["answer"] = answer
            if answer["recorded"]:
                steps[-1]["selection"] = door.get("selection", answer["id"])
        elif step == "executed":
            steps.append({"step": "execute", "action_id": door.get("selection", steps[-1]["answer"]["id"])["action_id"],
                          "status": answer.status, "answers": list(answer.answers)})
        elif step == "credited":
            steps[-1].update(feedback=door.get("feedback", answer["id"]), family_credit=family_credit(door))
        elif step == "observed":
            steps.append({"step": "observe", "answers": answer})

    return steps, watch


def selections(steps: list[dict]) -> list[str]:
    """The action identities the door selected, in order."""
    return [step["selection"]["action_id"] for step in steps if "selection" in step]


def steps_of(door: Recorder, model: Model, adapter=None, act=execute_reviewed) -> list[dict]:
    """The one driver's work loop on ``door`` (over the fixed pages unless ``adapter`` is given), step by step."""
    steps, watch = watched(door)
    work(door, model, adapter or fixed_pages(), watch=watch, act=act)
    return steps


def run_demo() -> dict:
    """Drive the loop with the scripted model through the one driver; return the artifact as data."""
    policy = build_policy()
    door = door_for(5, make_run(policy.snapshot(), WORLD), policy)
    steps = steps_of(door, scripted(REPLIES), act=slipping)
    return {"loop": steps, "shows": _what_it_shows(door, steps), "report": door.snapshot()}


def _what_it_shows(door: Recorder, steps: list[dict]) -> dict:
    """The six things the lesson looks for, each pointed out in the loop."""
    picks = [step for step in steps if step["step"] == "select"]
    runs = [step for step in steps if step["step"] == "execute"]
    first = picks[0]
    tied = [row["action_id"] for row in first["ranking"] if row["score"] == first["ranking"][0]["score"]]
    arrived = [p["action_id"] for p in door.records("proposal") if p["action_id"] in tied]
    again = next(event for event in door.ledger if event["kind"] == "proposal" and event["code"] == "already_recorded")
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
        "turned_away": {"action_id": refused["action_id"], "arguments_sent": MEDDLED[refused["action_id"]],
                        "door_answer": refused["answers"][0], "next_ranking": [r["action_id"] for r in after["ranking"]],
                        "next_selected": after["ranking"][0]["action_id"]},
        "feedback": [{**step["feedback"], "family_credit_after": step["family_credit"]}
                     for step in runs if "feedback" in step],
        "budget": {"answer": picks[-1]["answer"], "still_open": [r["action_id"] for r in picks[-1]["ranking"]],
                   "actions": door.count("action"), "max_actions": door.policy.max_actions},
        "selected_in_order": selections(steps),
    }


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_selection", "Write lesson 5's demo artifact: rankings, selections and feedback "
                     "through the door.", run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
