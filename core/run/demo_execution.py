"""Lesson 6's demo: admitted acts carried out through adapters, every step through the door.

    python3 -m core.run.demo_execution --out data/course/execution-demo.json

One short run, driven the way lesson 5 drives it (a scripted model proposes,
the door selects, the executor carries the chosen act out), is made twice
against the fixture lab: once through the lab's adapter in process, once
against the lab served by a real server on 127.0.0.1 (started here, on a
port the system picks, and stopped before the demo writes anything). The
artifact shows:

* one admitted act executed: the action, an unresolved outcome, the
  capture and the settled outcome, each an answer from the door;
* the same act over real loopback HTTP, and both captures, byte-identical
  (the two runs' whole ledgers are, too);
* an adapter error (a stand-in timeout on one page) recorded as an
  unresolved outcome, and the run going on to its next act;
* that unresolved outcome settled by the operator, and a second settlement
  refused.

The lab's adapter and server plug in by name (plugins.py): core never
imports the lab. No port, time or path reaches the artifact: the door only
ever sees lab URLs, and the adapter alone knows where the server listens.
"""

from __future__ import annotations

import hashlib
import sys
from contextlib import ExitStack, contextmanager

from core.run.canon import canonical_bytes
from core.run.commandline import demo_main
from core.run.demo_selection import proposal, scripted
from core.run.doors import door_for
from core.run.execute import Adapter, AdapterResult, execute
from core.run.observe import observe
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy
from core.run.propose import Model, propose
from core.run.recorder import Recorder
from core.run.records import make_run
from core.run.select import select_next
from core.run.stages import advance

# What plugs in, by name, as in the reference configuration (data/policy/).
PLUGINS = {"adapter": "lab.plugin:make_adapter", "server": "lab.plugin:serving", "world": "lab.plugin:describe_world"}

POLICY = {
    "reference": "training-authorization-0001",
    "allowed_origins": ["https://lab.example:443"],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "probe_reflection", "activity": "active", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
    ],
    "max_actions": 3,
    "max_model_calls": 4,
}

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
SETTLED_BY_OPERATOR = {"status": "failed", "detail": "settled by the operator: the stand-in adapter raised "
                                                     "before sending, so the request never left the process"}
SECOND_SETTLEMENT = {"status": "succeeded", "detail": "a second settlement, after the first"}


class Watched:
    """An adapter around another: it notes every URL it is asked for, and times out on ``TIMES_OUT``.

    The timeout is raised before the request is sent: it stands for an
    adapter error the demo can make happen the same way on every machine.
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
    return Policy.from_dict(POLICY)


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
    policy = Policy.from_dict({**POLICY, "max_actions": max_actions})
    full = door_for(6, make_run(policy.snapshot(), {"world": world}), policy)
    guards = [guard for guard in full.guards if guard.__name__ != "is_the_selection"]
    door = Recorder(full.run, policy, full.kinds.values(), guards)
    door.stage = full.stage
    for stage in ("observe", "propose", "select", "execute"):
        enter(door, stage)
    return door


@contextmanager
def lab_adapter(transport: str):
    """The lab's own adapter, in process or against the lab served on 127.0.0.1, closed (and served) for the block."""
    plugins = {name: load_plugin(text) for name, text in PLUGINS.items()}
    with ExitStack() as stack:
        if transport == "http":
            port = stack.enter_context(plugins["server"]())  # python -m lab serve --port 0, stopped on exit
            adapter = plugins["adapter"]("http", None, port)
        else:
            adapter = plugins["adapter"]("inprocess", None, None)
        stack.callback(adapter.close)
        yield adapter


def enter(door: Recorder, stage: str) -> None:
    """Move to ``stage``; the demo follows the stage table, so a refused move is a bug in the demo."""
    answer = advance(door, stage)
    if not answer["recorded"]:
        raise RuntimeError(f"the demo could not enter {stage}: {answer['reason']}")


def work(door: Recorder, model: Model, adapter: Adapter) -> list[dict]:
    """Lesson 5's loop with lesson 6's executor: select, execute, credit, observe, propose.

    Until the door refuses to select. Each step notes what the executor
    answered; an unresolved act gets no feedback (only a settled outcome
    earns credit) and nothing new to show the model, and the loop goes on.
    """
    run_id = door.run.run_id
    steps: list[dict] = []
    enter(door, "observe")
    enter(door, "propose")
    propose(door, model)
    while True:
        enter(door, "select")
        chosen = select_next(door)
        if not chosen["recorded"]:
            steps.append({"step": "select", "answer": chosen})
            return steps
        act = door.get("proposal", door.get("selection", chosen["id"])["action_id"])
        enter(door, "execute")
        result = execute(door, {key: act[key] for key in ("run_id", "tool", "destination", "arguments")}, adapter)
        steps.append({"step": "execute", "action_id": result.action_id, "status": result.status,
                      "capture_id": result.capture_id, "detail": result.detail, "answers": list(result.answers)})
        if result.status == "succeeded":
            door.record("feedback", {"run_id": run_id, "outcome_id": result.answers[-1]["id"]})
        enter(door, "observe")
        if result.capture_id:
            observe(door, result.capture_id)
        enter(door, "propose")
        if result.capture_id:
            propose(door, model)


def settle(door: Recorder, action_id: str, settlement: dict) -> dict:
    """Record a settled outcome for ``action_id``: what an operator does once they know how the act ended."""
    return door.record("outcome", {"run_id": door.run.run_id, "action_id": action_id, "capture_id": "",
                                   **settlement})


def one_run(transport: str, world: dict) -> tuple[Recorder, list[dict], list[str]]:
    """The demo's run through the lab's adapter over ``transport``: the door, its steps, the adapter's calls."""
    door = build_door(world)
    with lab_adapter(transport) as lab:
        adapter = Watched(lab)
        steps = work(door, scripted(REPLIES), adapter)
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
    enter(door, "verify")  # the loop is over; before verification the operator settles what is open
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
