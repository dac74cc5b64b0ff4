"""Lesson 7's demo: two findings asserted from their captures, then tested, through lesson 7's door.

    python3 -m core.run.demo_verification --out data/course/verification-demo.json

The operator's configuration (data/policy/training-authorization-0001.json)
plans six checks under "verification"; this demo takes two of them, the
reflected markup and the staging claim (``reference_checks``). Each names the act whose capture the
finding quotes, the quote, a confirming action, a negative control and the
part of the quote the confirming capture should show and the control must
not. The plan is a part of the door: in the verify stage, only its acts run.

The run first gathers its evidence the ordinary way: a scripted model
proposes the two acts the findings quote (the probe of /debug and a look at
robots.txt), and the work loop of lessons 4 to 6 (drive.py:work) selects and
executes them through the lab's in-process adapter, on the whole lesson 7
door. Then the run enters the verify stage and runs each check
(verify.py:check_finding): the finding, the confirming action, the control and
the verdict the door judges from the two captures. The artifact shows:

* the reflected-markup finding confirmed against its negative control;
* the staging claim refuted by its 404;
* each verdict with its evidence: both acts, their captures, and whether
  each capture shows the expected text;
* the refuted finding kept in the ledger beside its verdict;
* an act the plan does not hold (the other path robots.txt names) turned
  away in the verify stage, before the policy is asked.

The lab runs in process over fixed fixture files, so the artifact is
byte-identical on every machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from core.run.canon import write_artifact
from core.run.commandline import OneLineParser
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.drive import DEFAULT_LAB, enter, lab_adapter, load_configuration, work
from core.run.execute import Adapter, ExecutionResult, execute
from core.run.plugins import load_plugin
from core.run.policy import reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.verify import Act, Check, Plan, check_finding

# What the scripted model writes: one reply with the two acts the findings will quote,
# then nothing (every later call gets no proposals).
REPLIES = (
    [
        proposal("probe_reflection", "/debug", "The debug page echoes q; a marker with markup shows "
                 "whether it is escaped.", parameter="q", marker="lab-probe-<i>7</i>"),
        proposal("inspect_headers", "/robots.txt", "robots.txt often names paths the site does not link."),
    ],
)


DEMO_QUOTES = ("You asked for: lab-probe-<i>7</i>", "Disallow: /staging/")  # the two findings this demo tells


def reference_checks() -> tuple[Check, ...]:
    """The reference configuration's checks of the two findings this demo tells: the reflection, then staging."""
    chosen = tuple(check for quote in DEMO_QUOTES for check in load_configuration().checks if check.quote == quote)
    if len(chosen) != len(DEMO_QUOTES):
        raise DemoError("the reference configuration no longer plans the reflection and the staging checks")
    return chosen


# An act no check plans: robots.txt names /backup/ too, but the operator planned no look at it.
UNPLANNED = {"tool": "inspect_headers", "destination": "https://lab.example/backup/", "arguments": {}}


@contextmanager
def verifying(world: str = "verification-demo", checks: Iterable[Check] | None = None,
              lab: Callable[[Adapter], Adapter] | None = None,
              **policy_changes: object) -> Iterator[tuple[Recorder, Act]]:
    """A lesson 7 run whose evidence is gathered, standing in the verify stage; yields the door and ``act``.

    The door holds ``checks`` as its verification plan (the reference
    configuration's unless given), so in the verify stage only their acts
    run. The policy is the reference configuration's, with
    ``policy_changes`` applied (``max_actions=3`` leaves one action for
    verification). ``act`` executes one action payload through the same
    door, with the lab's in-process adapter, or with what ``lab`` makes of
    it for the verify stage (a lab whose pages answer otherwise, for a page
    that shows what a verdict rests on).
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


def evidence(door: Recorder, result: ExecutionResult, expect: str) -> dict:
    """One verification act as the verdict sees it: its identity, how it ended, and what its capture shows.

    ``line`` is the first line of the capture that shows ``expect``, or its
    status line when none does ("" when no capture was made).
    """
    found = {"action_id": result.action_id, "execution": result.status, "detail": result.detail,
             "capture_id": result.capture_id}
    if not result.capture_id:
        return {**found, "http_status": None, "shows_expect": False, "line": ""}
    capture = door.get("capture", result.capture_id)
    lines = capture["body"].splitlines()
    showing = [line.strip() for line in lines if expect in line]
    return {**found, "http_status": capture["status"], "shows_expect": bool(showing),
            "line": showing[0] if showing else lines[0]}


def verify_check(door: Recorder, check: Check, act: Act) -> dict:
    """Run one check through the door; the finding, both acts with their evidence, and the verdict."""
    results: list[ExecutionResult] = []

    def acting(payload: dict) -> ExecutionResult:
        results.append(act(payload))
        return results[-1]

    answers = check_finding(door, check, acting)
    step = {"claim": check.claim, "plan": {"evidence": {"action": check.evidence_action, "quote": check.quote},
                                           "confirm": check.confirm, "control": check.control,
                                           "expect": check.expect},
            "finding": answers[0]}
    if len(answers) == 2:
        step["confirming"], step["control"] = (evidence(door, result, check.expect) for result in results)
        step["verdict"] = door.get("verdict", answers[1]["id"]) if answers[1]["recorded"] else answers[1]
    return step


def run_demo(checks: Iterable[Check] | None = None) -> dict:
    """Gather the evidence, verify both reference checks (or ``checks``), try one unplanned act; the artifact."""
    with verifying() as (door, act):
        checks = [verify_check(door, check, act) for check in (reference_checks() if checks is None else checks)]
        unplanned = act({"run_id": door.run.run_id, **UNPLANNED})
    shows = _what_it_shows(door, checks)
    shows["unplanned"] = {"action": UNPLANNED, "execution": unplanned.status, "reason": unplanned.detail,
                          "event": door.events[-1]}
    if shows["unplanned"]["event"]["code"] != "not_planned":
        raise DemoError(f"the unplanned act was not turned away by the plan: {unplanned.status} {unplanned.detail}")
    return {"checks": checks, "shows": shows, "report": door.snapshot()}


class DemoError(RuntimeError):
    """The run did not tell the story the lesson shows (an edited lab fixture, say); the message says where."""


def _what_it_shows(door: Recorder, checks: list[dict]) -> dict:
    """The four things the lesson looks for in the verdicts, each pointed out."""
    for step in checks:
        if not step["finding"]["recorded"]:
            raise DemoError(f"the finding {step['claim'][:40]!r}... was refused: {step['finding']['reason']}")
    by_verdict = {step["verdict"].get("verdict"): step for step in checks}
    if set(by_verdict) != {"confirmed", "refuted"}:
        gave = [step["verdict"].get("verdict") or f"a refused verdict ({step['verdict']['reason']})"
                for step in checks]
        raise DemoError(f"the lesson shows one confirmed and one refuted verdict; this run gave {', '.join(gave)}")
    confirmed, refuted = by_verdict["confirmed"], by_verdict["refuted"]

    def verdict_with_evidence(step: dict) -> dict:
        return {"claim": step["claim"], "verdict": step["verdict"]["verdict"], "reason": step["verdict"]["reason"],
                "confirming": step["confirming"], "control": step["control"]}

    finding_id, verdict_id = refuted["finding"]["id"], refuted["verdict"]["verdict_id"]
    return {
        "confirmed": verdict_with_evidence(confirmed),
        "refuted": verdict_with_evidence(refuted),
        "verdicts": [{"finding_id": step["verdict"]["finding_id"], "verdict": step["verdict"]["verdict"],
                      "confirming_capture_id": step["verdict"]["confirming_capture_id"],
                      "control_capture_id": step["verdict"]["control_capture_id"]} for step in checks],
        "refuted_kept": {"finding_id": finding_id, "finding_seq": door.seq_of[("finding", finding_id)],
                         "verdict_seq": door.seq_of[("verdict", verdict_id)],
                         "still_held": door.holds("finding", finding_id),
                         "claim": door.get("finding", finding_id)["claim"]},
    }


def main(argv: list[str] | None = None, checks: Iterable[Check] | None = None) -> int:
    parser = OneLineParser(
        "demo_verification",
        prog="python3 -m core.run.demo_verification",
        description="Write lesson 7's demo artifact: two findings, their checks and the verdicts the door judged.",
    )
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the JSON artifact")
    args = parser.parse_args(argv)
    try:
        artifact = run_demo(checks)
    except Exception as exc:  # a config, plugin or fixture problem: one line, not a traceback
        print("demo_verification: " + " ".join(f"{exc.__class__.__name__}: {exc}".split()), file=sys.stderr)
        return 1
    try:
        write_artifact(args.out, artifact)
    except OSError as exc:
        print(f"demo_verification: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
