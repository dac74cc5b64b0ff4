"""Lesson 5's demo: the work loop choosing, acting and learning, through lesson 5's door.

    python3 -m core.run.demo_selection --out data/course/selection-demo.json

A scripted model proposes acts against fixed copies of lab pages (``PAGES``), and the one driver
(drive.work) runs the loop: the door selects, the chosen act is carried out (by lesson 6's executor,
over an adapter that serves the fixed pages), its outcome is credited, its capture observed, and the
model asked again, until the door refuses to select. The demo only watches (select.py:watched):
before every selection it writes down the ranking the door is about to use, with each score's
arithmetic, so the artifact shows (select.py:what_selection_shows):

* scores with their arithmetic (weight, family credit, cost);
* a tie broken by action identity, whatever order the proposals arrived in;
* an executed identity proposed again and never selected again;
* an identity the door turned away under its selection (the demo's driver slips in an argument the
  tool does not declare), skipped from then on, and the loop going on;
* feedback crediting the exact identity and family that produced each outcome;
* the action budget ending selection with proposals still open.

Everything is fixed data (no lab, no clock), so the artifact is byte-identical on every machine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.run.commandline import demo_main
from core.run.doors import door_for
from core.run.drive import execute_reviewed, work
from core.run.origins import canonical_destination
from core.run.plugins import load_plugin
from core.run.policy import Policy, reference_policy
from core.run.propose import Model
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.select import watched, what_selection_shows

LAB = "https://lab.example"
FIXED_PAGES = "lab.plugin:FixedPages"  # the lab's adapter over a table of pages (core never imports the lab)
PAGES = Path(__file__).resolve().parents[2] / "data" / "scenes" / "selection-pages.json"  # fixed copies of them
WORLD = {"world": "selection-demo"}


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
    """The one driver's adapter over ``PAGES``, the lab's pages by path: the same answer on every machine."""
    table = json.loads(PAGES.read_text(encoding="utf-8"))
    headers = tuple(tuple(pair) for pair in table["headers"])
    pages = {path: (200, headers, body) for path, body in table["pages"].items()}
    return load_plugin(FIXED_PAGES)(table["origin"], pages, (404, headers, table["missing"]))


def slipping(door: Recorder, payload: dict, adapter, reviews) -> object:
    """The demo's driver, which slips an argument into one act: the door must turn it away."""
    identity = f"{payload['tool']} -> {canonical_destination(payload['destination'])}"
    meddled = {**payload, "arguments": {**payload["arguments"], **MEDDLED.get(identity, {})}}
    return execute_reviewed(door, meddled, adapter, reviews)


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
    return {"loop": steps, "shows": what_selection_shows(door, steps, MEDDLED), "report": door.snapshot()}


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_selection", "Write lesson 5's demo artifact: rankings, selections and feedback "
                     "through the door.", run_demo, argv)


if __name__ == "__main__":
    sys.exit(main())
