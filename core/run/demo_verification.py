"""Lesson 7's demo: two findings asserted from their captures, then tested, through lesson 7's door.

    python3 -m core.run.demo_verification --out data/course/verification-demo.json

The operator's configuration (data/policy/training-authorization-0001.json) plans six checks; this
demo takes two (``reference_checks``): the reflected markup and the staging claim. The plan is a part
of the door: in the verify stage, only its acts run. A scripted model proposes the two acts the
findings quote (the probe of /debug, a look at robots.txt), and the driver's work loop
(drive.py:work) selects and executes them through the lab's in-process adapter; then the run enters
the verify stage and runs each check (verify.py:verify_check). The artifact shows the reflected
markup confirmed against its negative control and the staging claim refuted by its 404, each verdict
with its evidence; the refuted finding kept in the ledger beside its verdict; and an act the plan
does not hold (the other path robots.txt names) turned away in the verify stage, before the policy
is asked. The lab runs in process over fixed fixture files, so the artifact is byte-identical.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from core.run.commandline import demo_main
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.drive import DEFAULT_LAB, enter, lab_adapter, load_configuration, work
from core.run.execute import Adapter, execute
from core.run.plugins import load_plugin
from core.run.policy import reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.verify import Act, Check, Plan, kept_beside_its_verdict, verdict_with_evidence, verify_check

# The scripted model's one reply, the two acts the findings will quote; every later call gets no proposals.
REPLIES = ([
    proposal("probe_reflection", "/debug", "The debug page echoes q; a marker with markup shows whether it is "
             "escaped.", parameter="q", marker="lab-probe-<i>7</i>"),
    proposal("inspect_headers", "/robots.txt", "robots.txt often names paths the site does not link."),
],)

DEMO_QUOTES = ("You asked for: lab-probe-<i>7</i>", "Disallow: /staging/")  # the two findings this demo tells


def reference_checks() -> tuple[Check, ...]:
    """The reference configuration's checks of the two findings this demo tells: the reflection, then staging."""
    chosen = tuple(check for quote in DEMO_QUOTES for check in load_configuration().checks if check.quote == quote)
    if len(chosen) != len(DEMO_QUOTES):
        raise DemoError("the reference configuration no longer plans the reflection and the staging checks")
    return chosen


# An act no check plans: robots.txt names /backup/ too, but the operator planned no look at it.
UNPLANNED = {"tool": "inspect_headers", "destination": "https://lab.example/backup/", "arguments": {}}
VERDICT_SHOWN = ("finding_id", "verdict", "confirming_capture_id", "control_capture_id")  # of each verdict


@contextmanager
def verifying(world: str = "verification-demo", checks: Iterable[Check] | None = None,
              lab: Callable[[Adapter], Adapter] | None = None,
              **policy_changes: object) -> Iterator[tuple[Recorder, Act]]:
    """A lesson 7 run whose evidence is gathered, standing in the verify stage; yields the door and ``act``.

    The door holds ``checks`` as its verification plan (the reference configuration's unless given), so
    in the verify stage only their acts run. The policy is the reference configuration's, with
    ``policy_changes`` applied (``max_actions=3`` leaves one action for verification). ``act`` executes
    one action payload through the same door, with the lab's in-process adapter, or with what ``lab``
    makes of it for the verify stage (a lab whose pages answer otherwise, to show what a verdict rests on).
    """
    config = load_configuration()
    policy = reference_policy(**policy_changes)
    run = make_run(policy.snapshot(), {"demo": world, "lab": load_plugin(config.plugins["world"])(DEFAULT_LAB)})
    plan = Plan(tuple(reference_checks() if checks is None else checks))
    door = door_for(7, run, policy, plan=plan)
    with lab_adapter(config.plugins, "inprocess", DEFAULT_LAB) as adapter:
        work(door, scripted(REPLIES), adapter, reviews={})  # ends in select: nothing left to choose
        enter(door, "verify")
        answering = adapter if lab is None else lab(adapter)
        yield door, lambda payload: execute(door, payload, answering)


def run_demo(checks: Iterable[Check] | None = None) -> dict:
    """Gather the evidence, verify both reference checks (or ``checks``), try one unplanned act; the artifact."""
    with verifying() as (door, act):
        steps = [verify_check(door, check, act) for check in (reference_checks() if checks is None else checks)]
        unplanned = act({"run_id": door.run.run_id, **UNPLANNED})
    for step in steps:
        if not step["finding"]["recorded"]:
            raise DemoError(f"the finding {step['claim'][:40]!r}... was refused: {step['finding']['reason']}")
    by_verdict = {step["verdict"].get("verdict"): step for step in steps}
    if set(by_verdict) != {"confirmed", "refuted"}:
        gave = [step["verdict"].get("verdict") or f"a refused verdict ({step['verdict']['reason']})" for step in steps]
        raise DemoError(f"the lesson shows one confirmed and one refuted verdict; this run gave {', '.join(gave)}")
    if door.events[-1]["code"] != "not_planned":
        raise DemoError(f"the unplanned act was not turned away by the plan: {unplanned.status} {unplanned.detail}")
    shows = {
        "confirmed": verdict_with_evidence(by_verdict["confirmed"]),
        "refuted": verdict_with_evidence(by_verdict["refuted"]),
        "verdicts": [{key: step["verdict"][key] for key in VERDICT_SHOWN} for step in steps],
        "refuted_kept": kept_beside_its_verdict(door, by_verdict["refuted"]["verdict"]),
        "unplanned": {"action": UNPLANNED, "execution": unplanned.status, "reason": unplanned.detail,
                      "event": door.events[-1]},
    }
    return {"checks": steps, "shows": shows, "report": door.snapshot()}


class DemoError(RuntimeError):
    """The run did not tell the story the lesson shows (an edited lab fixture, say); the message says where."""


def main(argv: list[str] | None = None, checks: Iterable[Check] | None = None) -> int:
    # A config, plugin or fixture problem, or a run that tells another story: one line, not a traceback.
    return demo_main("demo_verification", "Write lesson 7's demo artifact: two findings, their checks and the "
                     "verdicts the door judged.", lambda: run_demo(checks), argv, expected=(Exception,), named=True)


if __name__ == "__main__":
    sys.exit(main())
