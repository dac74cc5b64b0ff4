"""Lesson 5's demo: the work loop choosing, acting and learning, through lesson 5's door.

    python3 -m core.run.demo_selection --out data/course/selection-demo.json

A scripted model proposes acts against fixed copies of lab pages; the loop
asks the door for a selection, carries the chosen act out by hand (lesson 6
brings the executor), credits its outcome, observes the capture and asks the
model again, until the door refuses to select. Before every selection the
demo writes down the ranking the door is about to use, with each score's
arithmetic, so the artifact shows:

* scores with their arithmetic (weight, family credit, cost);
* a tie broken by action identity, whatever order the proposals arrived in;
* an executed identity proposed again and never selected again;
* an identity the door turned away under its selection (the driver slipped
  in an argument the tool does not declare), skipped from then on, and the
  loop going on;
* feedback crediting the exact identity and family that produced each outcome;
* the action budget ending selection with proposals still open.

Everything is fixed data (no lab, no clock), so the artifact is
byte-identical on every machine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping

from core.run.canon import write_artifact
from core.run.commandline import OneLineParser
from core.run.doors import door_for
from core.run.observe import observe, render_response
from core.run.origins import canonical_destination
from core.run.policy import Policy
from core.run.propose import Model, propose
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.select import rank, score, select_next, selection_state
from core.run.stages import advance

LAB = "https://lab.example"

# The reference catalogue, as the lesson 5 door sees it: two passive tools in the
# recon family and one active probe in a family of its own.
POLICY = {
    "reference": "training-authorization-0001",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 3.0, "cost": 1.0},
        {"tool_id": "probe_reflection", "activity": "active", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
    ],
    "max_actions": 4,
    "max_model_calls": 6,
}
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
    """The operator's policy for the demo: the reference catalogue, four actions at most."""
    return Policy.from_dict(POLICY)


def scripted(replies: tuple[list[dict], ...] | list[list[dict]]) -> Model:
    """A model that answers its n-th call with the n-th reply (as JSON text), then with no proposals."""
    texts = iter([json.dumps({"proposals": reply}) for reply in replies])
    return lambda prompt: next(texts, '{"proposals": []}')


def page(destination: str) -> tuple[int, str]:
    """The status and capture text of a fixed lab page, the response as ``render_response`` writes it."""
    path = canonical_destination(destination).removeprefix(f"{LAB}:443")
    title, meta, body = PAGES.get(path, MISSING)
    status = 200 if path in PAGES else 404
    headers = {"Content-Type": "text/html; charset=utf-8", "Server": "lab-fixture/1.0"}
    return status, render_response(status, headers, HTML.format(title=title, meta=meta, body=body))


def ranking(door: Recorder) -> list[dict]:
    """The ranking the door will select from, each candidate with the parts of its score."""
    credit = selection_state(door).credit
    rows = []
    for candidate in rank(door):
        tool = door.policy.tool_named(door.get("proposal", candidate.action_id)["tool"])
        earned = credit.get(tool.family, (0.0, ()))[0]
        if score(tool.weight, tool.cost, earned) != candidate.score:
            raise RuntimeError(f"the demo's arithmetic disagrees with rank() for {candidate.action_id}")
        rows.append({"action_id": candidate.action_id, "tool": tool.tool_id, "family": tool.family,
                     "weight": tool.weight, "credit": earned, "cost": tool.cost, "score": candidate.score,
                     "arithmetic": candidate.reason, "cites": list(candidate.cites)})
    return rows


def family_credit(door: Recorder) -> dict[str, float]:
    """What each family has earned so far (a plain dict; sorted keys when written)."""
    return {family: earned for family, (earned, _) in selection_state(door).credit.items()}


def enter(door: Recorder, stage: str) -> None:
    """Move to ``stage``; the loop follows the stage table, so a refused move is a bug in the demo."""
    answer = advance(door, stage)
    if not answer["recorded"]:
        raise RuntimeError(f"the demo could not enter {stage}: {answer['reason']}")


def work(door: Recorder, model: Model, fetch: Callable[[str], tuple[int, str]] = page,
         meddled: Mapping[str, dict] | None = None) -> list[dict]:
    """The lesson 5 loop, until the door refuses to select; returns what happened, step by step.

    Propose, then: rank and select, execute the chosen act by hand (action,
    capture, settled outcome, feedback), observe its capture, propose again.
    ``meddled`` maps an action identity to arguments the driver wrongly adds
    when it executes that act. An act the door turns away leaves no capture,
    so the model is not asked again before the next selection.
    """
    run_id = door.run.run_id
    steps: list[dict] = []

    def ask_model() -> None:
        answers = propose(door, model)
        steps.append({"step": "propose", "answers": answers})

    enter(door, "observe")
    enter(door, "propose")
    ask_model()
    while True:
        enter(door, "select")
        ranked = ranking(door)
        answer = select_next(door)
        steps.append({"step": "select", "ranking": ranked, "answer": answer})
        if not answer["recorded"]:
            return steps
        steps[-1]["selection"] = door.get("selection", answer["id"])
        chosen = door.get("proposal", steps[-1]["selection"]["action_id"])
        enter(door, "execute")
        arguments = {**chosen["arguments"], **(meddled or {}).get(chosen["action_id"], {})}
        action = door.record("action", {"run_id": run_id, "tool": chosen["tool"],
                                        "destination": chosen["destination"], "arguments": arguments})
        executed = {"step": "execute", "action_id": chosen["action_id"], "arguments": arguments, "action": action}
        steps.append(executed)
        capture_id = ""
        if action["recorded"]:
            status, body = fetch(chosen["destination"])
            capture = door.record("capture", {"run_id": run_id, "action_id": action["id"], "status": status,
                                              "body": body})
            capture_id = capture["id"]
            outcome = door.record("outcome", {"run_id": run_id, "action_id": action["id"], "status": "succeeded",
                                              "capture_id": capture_id, "detail": ""})
            feedback = door.record("feedback", {"run_id": run_id, "outcome_id": outcome["id"]})
            executed.update(capture=capture, outcome=outcome, feedback=door.get("feedback", feedback["id"]),
                            family_credit=family_credit(door))
        enter(door, "observe")
        if capture_id:
            steps.append({"step": "observe", "answers": observe(door, capture_id)})
        enter(door, "propose")
        if capture_id:
            ask_model()


def selections(steps: list[dict]) -> list[str]:
    """The action identities the door selected, in order."""
    return [step["selection"]["action_id"] for step in steps if "selection" in step]


def run_demo() -> dict:
    """Drive the loop with the scripted model; return the artifact as data."""
    policy = build_policy()
    door = door_for(5, make_run(policy.snapshot(), WORLD), policy)
    steps = work(door, scripted(REPLIES), meddled=MEDDLED)
    return {"loop": steps, "shows": _what_it_shows(door, steps), "report": door.snapshot()}


def _what_it_shows(door: Recorder, steps: list[dict]) -> dict:
    """The six things the lesson looks for, each pointed out in the loop."""
    picks = [step for step in steps if step["step"] == "select"]
    runs = [step for step in steps if step["step"] == "execute"]
    first = picks[0]
    tied = [row["action_id"] for row in first["ranking"] if row["score"] == first["ranking"][0]["score"]]
    arrived = [p["action_id"] for p in door.records("proposal") if p["action_id"] in tied]
    again = next(a for step in steps if step["step"] == "propose" for a in step["answers"]
                 if not a["recorded"] and "already recorded" in a["reason"])
    executed_again = next(step["action_id"] for step in runs if f"'{step['action_id']}'" in again["reason"])
    turned = next(i for i, step in enumerate(steps) if step["step"] == "execute" and not step["action"]["recorded"])
    refused, after = steps[turned], steps[turned + 1]  # the loop goes straight on to the next selection
    return {
        "scores": {"selection": 2, "ranking": picks[1]["ranking"]},
        "tie": {"arrival_order": arrived, "ranked": tied, "selected": first["selection"]["action_id"],
                "reason": first["selection"]["reason"]},
        "executed_identity": {"action_id": executed_again, "proposed_again": again,
                              "times_selected": selections(steps).count(executed_again)},
        "turned_away": {"action_id": refused["action_id"], "arguments_sent": refused["arguments"],
                        "door_answer": refused["action"], "next_ranking": [r["action_id"] for r in after["ranking"]],
                        "next_selected": after["ranking"][0]["action_id"]},
        "feedback": [{**step["feedback"], "family_credit_after": step["family_credit"]}
                     for step in runs if "feedback" in step],
        "budget": {"answer": picks[-1]["answer"], "still_open": [r["action_id"] for r in picks[-1]["ranking"]],
                   "actions": door.count("action"), "max_actions": door.policy.max_actions},
        "selected_in_order": selections(steps),
    }


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        "demo_selection",
        prog="python3 -m core.run.demo_selection",
        description="Write lesson 5's demo artifact: rankings, selections and feedback through the door.",
    )
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the JSON artifact")
    args = parser.parse_args(argv)
    artifact = run_demo()
    try:
        write_artifact(args.out, artifact)
    except OSError as exc:
        print(f"demo_selection: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
