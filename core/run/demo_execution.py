"""Lesson 6's demo: admitted acts carried out through adapters, every step through the door.

    python3 -m core.run.demo_execution --out data/course/execution-demo.json

One short run, driven by the one driver (drive.work: a scripted model proposes, the door selects, the
executor carries the chosen act out), is made twice against the fixture lab: through the lab's adapter
in process, and against the lab served on 127.0.0.1 (started here on a port the system picks, stopped
before the demo writes). The artifact shows one admitted act executed (action, unresolved outcome,
capture, settled outcome: each an answer from the door); the same act over loopback HTTP, both captures
and the two runs' whole ledgers byte-identical; an adapter error (a stand-in timeout: the request may
have reached the lab) leaving the act in doubt while the run goes on; and that act settled by the
operator, a second settlement refused. The lab's adapter and server plug in by name (plugins.py): core
never imports the lab. No port, time or path reaches the artifact: the door only sees lab URLs, and the
adapter alone knows where the server listens.
"""

from __future__ import annotations

import json
import sys

from core.run.canon import canonical_bytes, digest
from core.run.commandline import demo_main
from core.run.demo_selection import scripted
from core.run.doors import door_for
from core.run.drive import REPO, enter, lab_adapter, work
from core.run.execute import Adapter, AdapterResult, events_spanned, outcomes_of, settle, watched
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy, reference_policy
from core.run.recorder import Recorder
from core.run.records import make_run

# What plugs in, by name, as in the reference configuration (data/policy/).
PLUGINS = {"adapter": "lab.plugin:make_adapter", "server": "lab.plugin:serving", "world": "lab.plugin:describe_world"}

# The scene: the model's only reply (two header looks and one probe), the page whose request times out (the
# demo's stand-in for a lab that stops answering), the operator's settlement of that act and a second one.
SCENE = json.loads((REPO / "data" / "scenes" / "execution.json").read_text(encoding="utf-8"))
TIMES_OUT, TIMEOUT = SCENE["times_out"], SCENE["timeout"]


class Watched:
    """An adapter around another: it notes every URL it is asked for, and times out on ``TIMES_OUT``.

    The timeout stands for an adapter error the demo can make happen the same way on every machine.
    The executor cannot tell whether a timed-out request reached the lab, so it leaves the act in doubt.
    """

    def __init__(self, inner: Adapter):
        self.inner, self.calls = inner, []

    def fetch(self, url: str) -> AdapterResult:
        self.calls.append(url)
        if url == TIMES_OUT:
            raise TimeoutError(TIMEOUT)
        return self.inner.fetch(url)


def build_policy() -> Policy:
    """The operator's policy for the demo: one header tool, one probe, three actions at most."""
    return reference_policy(tools=("inspect_headers", "probe_reflection"), max_actions=3, max_model_calls=4)


def one_run(transport: str, world: dict) -> tuple[Recorder, list[dict], list[str]]:
    """The demo's run through the lab's adapter over ``transport``: the door, its steps, the adapter's calls."""
    policy = build_policy()  # the same run, whatever the transport
    door = door_for(6, make_run(policy.snapshot(), {"world": "execution-demo", "lab": world}), policy)
    steps, watch = watched()
    with lab_adapter(PLUGINS, transport, None) as lab:
        adapter = Watched(lab)
        work(door, scripted(SCENE["replies"]), adapter, watch=watch)
    return door, steps, adapter.calls


def run_demo() -> dict:
    """Run the demo in process and over loopback HTTP, settle the open act; return the artifact as data."""
    world = load_plugin(PLUGINS["world"])()
    door, steps, calls = one_run("inprocess", world)
    over_http, _, http_calls = one_run("http", world)
    executed = [step for step in steps if step["step"] == "execute"]
    first = executed[0]
    error = next(index for index, step in enumerate(executed) if step["status"] == "unresolved")
    doubt, after = executed[error], executed[error + 1]  # the act left in doubt, and the run's next act
    open_act = doubt["action_id"]
    captures = {"inprocess": door.get("capture", first["capture_id"]),
                "http": over_http.get("capture", first["capture_id"])}
    shows = {
        "executed": {"action_id": first["action_id"], "status": first["status"], "answers": first["answers"],
                     "events": events_spanned(door, first["answers"]),
                     "outcomes": outcomes_of(door, first["action_id"])},
        "transports": {
            "action_id": first["action_id"], **captures,
            "sha256": {transport: digest(capture) for transport, capture in captures.items()},
            "captures_identical": canonical_bytes(captures["inprocess"]) == canonical_bytes(captures["http"]),
            "ledgers_identical": over_http.event_bytes() == door.event_bytes(),
            "same_adapter_calls": http_calls == calls},
        "adapter_error": {"action_id": open_act, "status": doubt["status"], "detail": doubt["detail"],
                          "answers": doubt["answers"], "outcomes": outcomes_of(door, open_act),
                          "captures": [c["capture_id"] for c in door.records("capture") if c["action_id"] == open_act],
                          "next_act": {key: after[key] for key in ("action_id", "status", "capture_id")}},
        "adapter_calls": calls,
        "selection_ended": steps[-1]["answer"],
    }
    enter(door, "execute")  # the loop is over; the operator settles what is open, where outcomes are written
    settled = settle(door, open_act, SCENE["settled_by_operator"])
    again = settle(door, open_act, SCENE["second_settlement"])
    shows["settlement"] = {"action_id": open_act, "first": settled, "second": again,
                           "outcomes": outcomes_of(door, open_act)}
    return {"steps": steps, "shows": shows, "report": door.snapshot()}


def main(argv: list[str] | None = None) -> int:
    # A plugin that cannot load, or a lab server that does not start, is one line, not a traceback.
    return demo_main("demo_execution", "Write lesson 6's demo artifact: acts executed through the lab's "
                     "adapter in process and over loopback HTTP, an adapter error left unresolved, and its "
                     "settlement.", run_demo, argv, expected=(PluginError, RuntimeError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
