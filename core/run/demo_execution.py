"""Lesson 6's demo: admitted acts carried out through adapters, every step through the door.

    python3 -m core.run.demo_execution --out data/course/execution-demo.json

One short run, driven by the one driver (drive.work: a scripted model
proposes, the door selects, the executor carries the chosen act out), is made twice
against the fixture lab: once through the lab's adapter in process, once
against the lab served by a real server on 127.0.0.1 (started here, on a
port the system picks, and stopped before the demo writes anything). The
artifact shows:

* one admitted act executed: the action, an unresolved outcome, the
  capture and the settled outcome, each an answer from the door;
* the same act over real loopback HTTP, and both captures, byte-identical
  (the two runs' whole ledgers are, too);
* an adapter error (a stand-in timeout on one page: the request may have
  reached the lab) leaving the act in doubt, unresolved, and the run going
  on to its next act;
* that act settled by the operator, and a second settlement refused.

The lab's adapter and server plug in by name (plugins.py): core never
imports the lab. No port, time or path reaches the artifact: the door only
ever sees lab URLs, and the adapter alone knows where the server listens.
"""

from __future__ import annotations

import hashlib
import sys

from core.run.canon import canonical_bytes
from core.run.commandline import demo_main
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.drive import enter, go_to, lab_adapter, work
from core.run.execute import Adapter, AdapterResult
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy, reference_policy
from core.run.propose import Model
from core.run.recorder import Recorder
from core.run.records import make_run

# What plugs in, by name, as in the reference configuration (data/policy/).
PLUGINS = {"adapter": "lab.plugin:make_adapter", "server": "lab.plugin:serving", "world": "lab.plugin:describe_world"}

# The model's only proposals: two header looks and one probe, all in the first reply.
REPLIES = (
    [
        proposal("inspect_headers", "/about", "The about page may say what the site runs on."),
        proposal("inspect_headers", "/contact", "The contact page is linked from the home page."),
        proposal("probe_reflection", "/debug", "The debug page echoes q.", parameter="q", marker="<i>lab-6</i>"),
    ],
)

# The page whose request times out: the demo's stand-in for a lab that stops answering.
TIMES_OUT = "https://lab.example:443/contact"
TIMEOUT = "the lab did not answer within 10 seconds"

# The operator's settlement of that act, and a second one that must be refused.
SETTLED_BY_OPERATOR = {"status": "failed", "detail": "settled by the operator: the lab's own log shows the "
                                                     "request never reached it"}
SECOND_SETTLEMENT = {"status": "succeeded", "detail": "a second settlement, after the first"}


class Watched:
    """An adapter around another: it notes every URL it is asked for, and times out on ``TIMES_OUT``.

    The timeout stands for an adapter error the demo can make happen the
    same way on every machine. The executor cannot tell whether a timed-out
    request reached the lab, so it leaves the act in doubt.
    """

    def __init__(self, inner: Adapter):
        self.inner = inner
        self.calls: list[str] = []

    def fetch(self, url: str) -> AdapterResult:
        self.calls.append(url)
        if url == TIMES_OUT:
            raise TimeoutError(TIMEOUT)
        return self.inner.fetch(url)


def build_policy() -> Policy:
    """The operator's policy for the demo: one header tool, one probe, three actions at most."""
    return reference_policy(tools=("inspect_headers", "probe_reflection"), max_actions=3, max_model_calls=4)


def build_door(world: dict) -> Recorder:
    """Lesson 6's door for a fresh run of the demo: the same run whatever the transport."""
    policy = build_policy()
    return door_for(6, make_run(policy.snapshot(), {"world": "execution-demo", "lab": world}), policy)


def door_without_selection(world: str, max_actions: int = 3) -> Recorder:
    """Lesson 6's door without lesson 5's selection guard, in the execute stage, for handing acts in directly.

    The pages and tests use it to attack execution alone: choosing the act
    is lesson 5's business, and with ``is_the_selection`` in place every act
    nobody selected would be refused before the executor's own steps show.
    Everything else the door checks, the policy first, stays.
    """
    policy = reference_policy(tools=("inspect_headers", "probe_reflection"), max_actions=max_actions,
                              max_model_calls=4)
    door = door_for(6, make_run(policy.snapshot(), {"world": world}), policy, without=("is_the_selection",))
    go_to(door, "execute")
    return door


def settle(door: Recorder, action_id: str, settlement: dict) -> dict:
    """Record a settled outcome for ``action_id``: what an operator does once they know how the act ended."""
    return door.record("outcome", {"run_id": door.run.run_id, "action_id": action_id, "capture_id": "",
                                   **settlement})


def steps_of(door: Recorder, model: Model, adapter: Adapter) -> list[dict]:
    """The one driver's work loop on ``door``: each execution, and the selection that ended the loop."""
    steps: list[dict] = []

    def watch(step: str, answer: object) -> None:
        if step == "executed":
            steps.append({"step": "execute", "action_id": answer.action_id, "status": answer.status,
                          "capture_id": answer.capture_id, "detail": answer.detail, "answers": list(answer.answers)})
        elif step == "selected" and not answer["recorded"]:
            steps.append({"step": "select", "answer": answer})

    work(door, model, adapter, watch=watch)
    return steps


def one_run(transport: str, world: dict) -> tuple[Recorder, list[dict], list[str]]:
    """The demo's run through the lab's adapter over ``transport``: the door, its steps, the adapter's calls."""
    door = build_door(world)
    with lab_adapter(PLUGINS, transport, None) as lab:
        adapter = Watched(lab)
        steps = steps_of(door, scripted(REPLIES), adapter)
    return door, steps, adapter.calls


def sha256(value: object) -> str:
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def run_demo() -> dict:
    """Run the demo in process and over loopback HTTP, settle the open act; return the artifact as data."""
    world = load_plugin(PLUGINS["world"])()
    door, steps, calls = one_run("inprocess", world)
    over_http, http_steps, http_calls = one_run("http", world)
    executed = [step for step in steps if step["step"] == "execute"]
    first = executed[0]
    error = next(index for index, step in enumerate(executed) if step["status"] == "unresolved")
    open_act = executed[error]["action_id"]
    in_process_capture = door.get("capture", first["capture_id"])
    http_capture = over_http.get("capture", first["capture_id"])
    shows = {
        "executed": {
            "action_id": first["action_id"], "status": first["status"], "answers": first["answers"],
            "events": door.events[seq_of(door, first["answers"][0]) - 1:seq_of(door, first["answers"][-1])],
            "outcomes": outcomes_of(door, first["action_id"]),
        },
        "transports": {
            "action_id": first["action_id"],
            "inprocess": in_process_capture, "http": http_capture,
            "sha256": {"inprocess": sha256(in_process_capture), "http": sha256(http_capture)},
            "captures_identical": canonical_bytes(in_process_capture) == canonical_bytes(http_capture),
            "ledgers_identical": over_http.event_bytes() == door.event_bytes(),
            "same_adapter_calls": http_calls == calls,
        },
        "adapter_error": {
            "action_id": open_act, "status": executed[error]["status"], "detail": executed[error]["detail"],
            "answers": executed[error]["answers"], "outcomes": outcomes_of(door, open_act),
            "captures": [c["capture_id"] for c in door.records("capture") if c["action_id"] == open_act],
            "next_act": {key: executed[error + 1][key] for key in ("action_id", "status", "capture_id")},
        },
        "adapter_calls": calls,
        "selection_ended": steps[-1]["answer"],
    }
    enter(door, "execute")  # the loop is over; the operator settles what is open, where outcomes are written
    settled = settle(door, open_act, SETTLED_BY_OPERATOR)
    again = settle(door, open_act, SECOND_SETTLEMENT)
    shows["settlement"] = {"action_id": open_act, "first": settled, "second": again,
                           "outcomes": outcomes_of(door, open_act)}
    return {"steps": steps, "shows": shows, "report": door.snapshot()}


def seq_of(door: Recorder, answer: dict) -> int:
    """The ledger sequence number of the event an admitted answer names."""
    return door.seq_of[(answer["kind"], answer["id"])]


def outcomes_of(door: Recorder, action_id: str) -> list[dict]:
    """Every outcome the run holds for ``action_id``, in the order they were admitted."""
    return [outcome for outcome in door.records("outcome") if outcome["action_id"] == action_id]


def main(argv: list[str] | None = None) -> int:
    # A plugin that cannot load, or a lab server that does not start, is one line, not a traceback.
    return demo_main("demo_execution", "Write lesson 6's demo artifact: acts executed through the lab's "
                     "adapter in process and over loopback HTTP, an adapter error left unresolved, and its "
                     "settlement.", run_demo, argv, expected=(PluginError, RuntimeError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
