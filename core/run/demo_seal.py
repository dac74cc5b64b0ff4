"""Lesson 9's demo: a run finished and a run aborted, each sealed, and a lab of altered copies.

    python3 -m core.run.demo_seal --out data/course/seal-demo.json
    python3 -m core.run.demo_seal --tamper NAME --out data/course/tamper/NAME.json
    python3 -m core.run.demo_seal --tamper all --out DIR      (every file of the tamper lab)

Both runs are lesson 5's loop (demo_selection.work: a scripted model,
fixed copies of lab pages) through the final door, so the gate, the close
and the seal all take part. One runs until selection ends and is finished;
the other is aborted after its first act. The artifact shows:

* each run closed and sealed, and every record asked for after the close
  refused with the close's reason, the ledger not one event longer;
* the tamper lab: altered copies of the finished report (a flipped byte, a
  deleted event, two events swapped, a splice from a twin run, a cut-short
  ledger, and a derived section edited and then resealed), with what
  verify says of each;
* the Markdown of each report, rendered from its sealed JSON alone.

Everything is fixed data (no lab server, no clock), so every file is
byte-identical on every machine.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from core.run.canon import artifact_text, write_artifact
from core.run.commandline import OneLineParser
from core.run.demo_selection import REPLIES, fixed_pages, scripted
from core.run.doors import final_door
from core.run.rederive import verify
from core.run.drive import run_through, seal_report, seal_run, work
from core.run.gate import Gating
from core.run.policy import Policy, reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.report import render_markdown
from core.run.seal import abort, finish, reseal, verify_chain
from core.run.stages import advance

# The reference catalogue without its probe (a probe would wait for a review, lesson 8's
# story), two actions at most.
TOOLS = ("inspect_headers", "inspect_metadata")
GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10}, "fail_open_classes": []}
PASSIVE_REPLIES = tuple([p for p in reply if p["tool"] in TOOLS] for reply in REPLIES)

FINISHED = "selection ended: the action budget is spent"
ABORTED = "the operator withdrew the authorization"

# The tamper lab: each file's name, and what was done to the finished report to make it.
TAMPERS = {
    "intact": "nothing: the finished report as it was sealed",
    "flipped-byte": "one bit of one byte flipped: the about page's capture says ExampleCMS 3.3.1, not 3.2.1",
    "deleted-event": "the first feedback event deleted",
    "swapped-events": "two observations read from one capture swapped",
    "spliced-run": "every event after the first selection taken from a twin run made in another world",
    "truncated": "the last three events cut off",
    "resealed-section": "the counts section edited (no refusals), then the report resealed",
}
LAB_NAMES = tuple(TAMPERS)


class DemoError(RuntimeError):
    """The demo's own script did not go as written (a bug in the demo, not in the door)."""


def build_policy() -> Policy:
    return reference_policy(tools=TOOLS, max_actions=2, max_model_calls=6)


def start(world: str, without: tuple[str, ...] = ()) -> Recorder:
    """A fresh run of the final door under the demo's policy and gating (``without`` the guards it names)."""
    policy = build_policy()
    return final_door(make_run(policy.snapshot(), {"world": world}), policy, Gating.from_dict(GATING),
                      without=without)


def finished_run(world: str = "seal-demo") -> Recorder:
    """The work loop (the one driver's) until selection is refused, then the remaining stages; still open."""
    door = start(world)
    run_through(door, scripted(PASSIVE_REPLIES), fixed_pages(), {}, ())  # no plan: verify, review, report
    return door


def aborted_run() -> Recorder:
    """The work loop, until the operator withdraws the authorization after the first act."""
    door = start("seal-demo-aborted")

    def withdraw_after_the_first_act(step: str, answer: object) -> None:
        if step == "executed" and door.closed is None:
            if not abort(door, ABORTED)["recorded"]:
                raise DemoError("the run could not be aborted")

    work(door, scripted(PASSIVE_REPLIES), fixed_pages(), watch=withdraw_after_the_first_act)
    return door


def after_the_close(door: Recorder) -> dict:
    """Ask a closed door for more: a record, a stage move, another close. Each is refused; nothing is appended."""
    run_id = door.run.run_id
    before = artifact_text(door.snapshot())
    asked = {
        "observation": door.record("observation", {"run_id": run_id, "field": "late", "value": True}),
        "stage move": advance(door, "observe"),
        "abort": abort(door, "one more try"),
        "finish": finish(door, "finished twice"),
    }
    return {"asked": asked, "events": len(door.events), "ledger_unchanged": artifact_text(door.snapshot()) == before}


def sealed(door: Recorder) -> dict:
    """The run's sealed report: finished now if it is still open (an aborted run is sealed as it stands)."""
    if door.closed is None:
        return seal_run(door, reason=FINISHED)
    return seal_report(door)


# --- the tamper lab ---------------------------------------------------------------------


def first(events: list[dict], kind: str, where=lambda event: True) -> int:
    """The index of the first admitted event of ``kind`` that ``where`` accepts."""
    for index, event in enumerate(events):
        if event["kind"] == kind and event["status"] == "admitted" and where(event):
            return index
    raise DemoError(f"the finished run has no {kind} event to tamper with")


def tamper(name: str, report: dict, twin: dict) -> dict:
    """The tamper lab's file ``name``: ``report`` altered as TAMPERS says (``twin`` is the other run)."""
    altered = copy.deepcopy(report)
    events = altered["events"]
    if name == "intact":
        pass
    elif name == "flipped-byte":
        capture = events[first(events, "capture", lambda e: "ExampleCMS 3.2.1" in e["payload"]["body"])]["payload"]
        capture["body"] = capture["body"].replace("3.2.1", "3.3.1")  # '2' is 0x32, '3' is 0x33: one bit
    elif name == "deleted-event":
        del events[first(events, "feedback")]
    elif name == "swapped-events":
        at = first(events, "observation", lambda e: e["payload"].get("capture_id"))
        events[at], events[at + 1] = events[at + 1], events[at]
    elif name == "spliced-run":
        at = first(events, "selection") + 1
        altered["events"] = events[:at] + copy.deepcopy(twin["events"][at:])
    elif name == "truncated":
        altered["events"] = events[:-3]
    elif name == "resealed-section":
        altered["counts"] = {**altered["counts"], "refusals": 0}
        altered = reseal(altered)
    else:
        raise DemoError(f"no tamper named {name!r}")
    return altered


def tamper_lab() -> dict[str, dict]:
    """Every file of the tamper lab, by name."""
    report, twin = sealed(finished_run()), sealed(finished_run("seal-demo-twin"))
    return {name: tamper(name, report, twin) for name in LAB_NAMES}


def verdict(report: dict) -> dict:
    """What the chain says, and what the whole verify (chain, then every derived section) says."""
    chain, whole = verify_chain(report), verify(report)
    return {"chain": {"ok": chain.ok, "seq": chain.seq, "message": chain.message},
            "verify": {"ok": whole.ok, "seq": whole.seq, "section": whole.section, "message": whole.message}}


# --- the artifact -----------------------------------------------------------------------


def run_demo() -> dict:
    finished, aborted = finished_run(), aborted_run()
    finished_report, aborted_report = sealed(finished), sealed(aborted)
    twin = sealed(finished_run("seal-demo-twin"))
    lab = {name: tamper(name, finished_report, twin) for name in LAB_NAMES}
    return {
        "finished": {"report": finished_report, "verify": verdict(finished_report),
                     "after_the_close": after_the_close(finished)},
        "aborted": {"report": aborted_report, "verify": verdict(aborted_report),
                    "after_the_close": after_the_close(aborted)},
        "tamper_lab": {name: {"file": f"data/course/tamper/{name}.json", "alteration": TAMPERS[name],
                              **verdict(lab[name])} for name in LAB_NAMES},
        "markdown": {"finished": render_markdown(finished_report, verify(finished_report)),
                     "aborted": render_markdown(aborted_report, verify(aborted_report))},
    }


def main(argv: list[str] | None = None) -> int:
    """The demo's command line: commandline.demo_main's rules, plus --tamper for the tamper lab's files."""
    parser = OneLineParser("demo_seal", prog="python3 -m core.run.demo_seal",
                           description="Write lesson 9's demo artifact, or a file of its tamper lab.")
    parser.add_argument("--out", required=True, metavar="PATH",
                        help="where to write the JSON artifact (a folder with --tamper all)")
    parser.add_argument("--tamper", choices=[*LAB_NAMES, "all"], metavar="NAME",
                        help=f"write the tamper lab's file NAME instead ({', '.join(LAB_NAMES)}, or all)")
    args = parser.parse_args(argv)
    try:
        if args.tamper is None:
            write_artifact(args.out, run_demo())
        elif args.tamper == "all":
            for name, report in tamper_lab().items():
                write_artifact(Path(args.out) / f"{name}.json", report)
        else:
            write_artifact(args.out, tamper_lab()[args.tamper])
    except DemoError as exc:
        print(f"demo_seal: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"demo_seal: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
