"""Lesson 9's demo: a run finished and a run aborted, each sealed, and a lab of altered copies.

    python3 -m core.run.demo_seal --out data/course/seal-demo.json
    python3 -m core.run.demo_seal --tamper NAME --out data/course/tamper/NAME.json
    python3 -m core.run.demo_seal --tamper all --out DIR      (every file of the tamper lab)

Both runs are lesson 5's loop (drive.work: a scripted model, fixed copies of lab pages) through the
final door, so the gate, the close and the seal all take part. One runs until selection ends and is
finished; the other is aborted after its first act. The artifact shows each run closed and sealed,
and every record asked for after the close refused with the close's reason, the ledger not one event
longer (seal.asked_after_the_close); the tamper lab, altered copies of the finished report
(seal.TAMPERS, seal.tamper), with what verify says of each (rederive.verdicts); and the Markdown of
each report, rendered from its sealed JSON alone. Everything is fixed data (no lab server, no
clock), so every file is byte-identical on every machine.
"""

from __future__ import annotations

import sys

from core.run.commandline import demo_main
from core.run.demo_selection import REPLIES, fixed_pages, scripted
from core.run.doors import final_door
from core.run.drive import run_through, seal_report, seal_run, work
from core.run.gate import Gating
from core.run.policy import Policy, reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.rederive import render, verdicts
from core.run.seal import TAMPERS, SealError, abort, asked_after_the_close, tamper

# The reference catalogue without its probe (a probe would wait for a review, lesson 8's story);
# two actions at most.
TOOLS = ("inspect_headers", "inspect_metadata")
GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10}, "fail_open_classes": []}
PASSIVE_REPLIES = tuple([p for p in reply if p["tool"] in TOOLS] for reply in REPLIES)

FINISHED = "selection ended: the action budget is spent"
ABORTED = "the operator withdrew the authorization"


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


def sealed(door: Recorder) -> dict:
    """The run's sealed report: finished now if it is still open (an aborted run is sealed as it stands)."""
    if door.closed is None:
        return seal_run(door, reason=FINISHED)
    return seal_report(door)


def tamper_lab() -> dict[str, dict]:
    """Every file of the tamper lab, by name: the finished report altered, a twin run's the splice's source."""
    report, twin = sealed(finished_run()), sealed(finished_run("seal-demo-twin"))
    return {name: tamper(name, report, twin) for name in TAMPERS}


def run_demo() -> dict:
    finished, aborted = finished_run(), aborted_run()
    finished_report, aborted_report = sealed(finished), sealed(aborted)
    lab = tamper_lab()
    return {
        "finished": {"report": finished_report, "verify": verdicts(finished_report),
                     "after_the_close": asked_after_the_close(finished)},
        "aborted": {"report": aborted_report, "verify": verdicts(aborted_report),
                    "after_the_close": asked_after_the_close(aborted)},
        "tamper_lab": {name: {"file": f"data/course/tamper/{name}.json", "alteration": TAMPERS[name],
                              **verdicts(lab[name])} for name in TAMPERS},
        "markdown": {"finished": render(finished_report), "aborted": render(aborted_report)},
    }


def main(argv: list[str] | None = None) -> int:
    # --tamper NAME writes one file of the tamper lab instead, --tamper all the whole lab into a folder.
    return demo_main("demo_seal", "Write lesson 9's demo artifact, or a file of its tamper lab.", run_demo, argv,
                     expected=(DemoError, SealError), files=("tamper", tuple(TAMPERS), tamper_lab))


if __name__ == "__main__":
    sys.exit(main())
