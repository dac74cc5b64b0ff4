"""Execute: carry out one action through an adapter, and write down every step.

Until now a run has only talked: observations, proposals, choices. Executing
is where it touches the world, so every step passes the door, in this order:

1. the **action** itself. The door applies the policy (and, from lesson 8,
   the gate). A refused action ends here: the adapter is never called, so
   nothing the door turned away ever leaves the process.
2. an **unresolved outcome**, written before the adapter is asked: the
   ledger says an act was started before anything acts on it. (With a
   journal, the door's ``sink`` (journal.py), that is on disk before the
   request leaves; without one the ledger lives in the process's memory
   and dies with it.)
3. the **capture** of the response, in the one text form ``render_response``
   writes, content-addressed by the door.
4. the **settled outcome**, ``succeeded``, citing the capture. Any response
   counts, a 404 included: the request was carried out, and what it found
   is in the capture. A settled outcome never changes; the door refuses
   any later outcome for that action.

An adapter error does not stop the run, and where it happened decides how
the act is settled:

* nothing was sent (the request could not be built, the connection was
  refused: the adapter raises ``NotSent``): the act is settled ``failed``
  at once, naming the error, and the run goes on;
* the request may have reached the target (a timeout, a connection reset
  mid-response: any other exception): the act is **in doubt**. It stays
  unresolved, with a second unresolved outcome naming the error, and the
  gate's view of the run stays stale until someone settles it.

The adapter is anything with a ``fetch(url)`` method returning an
``AdapterResult``. An adapter may also send an idempotency key: it then
takes ``fetch(url, idempotency_key=KEY)`` and says with ``memory()``
which memory holds its target's keys, as the target shows it (the run
driver sends each act under its own key, and sends an act in doubt again
only to the memory its key went to: drive.Target). The lab's HTTP
adapter plugs in from outside ``core`` (see plugins.py). The host process
and its adapters are trusted: the door sees what an adapter reports, not
what it really did, and the executor does not time an adapter itself; an
adapter reports its own timeout by raising.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlencode

from core.run.observe import render_response
from core.run.policy import Tool
from core.run.recorder import Recorder
from core.run.records import fitted_body, shown

PROBE_ARGUMENTS = ["marker", "parameter"]  # sorted: the only arguments a request can carry


class NotSent(Exception):
    """Raised by an adapter whose request never left (it could not be built, the connection was refused)."""


@dataclass(frozen=True)
class AdapterResult:
    """One response as an adapter reports it: status, (name, value) header pairs and body text."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: str


class Adapter(Protocol):
    """The whole adapter protocol: fetch one URL and report what came back."""

    def fetch(self, url: str) -> AdapterResult: ...


@dataclass(frozen=True)
class ExecutionResult:
    """How one execution ended, and every answer the door gave on the way, in ledger order.

    ``status`` is ``refused`` (the action never passed the door; ``detail``
    is the door's reason), ``failed`` (nothing was sent; ``detail`` says
    why), ``unresolved`` (the act is in doubt, or its settlement was
    refused; ``detail`` says why) or ``succeeded`` (``capture_id`` names
    what came back, and ``detail`` is empty). ``capture_id`` is the capture
    the settlement cites, so it is "" whenever the act is not settled
    ``succeeded``, even when the door admitted a capture before refusing it.
    """

    action_id: str  # "" when the door refused the action
    status: str
    capture_id: str
    detail: str
    answers: tuple[dict, ...]


def unsendable(tool: Tool) -> str:
    """Why the executor could not send an act its schema allows (one line), or "".

    ``request_url`` sends no arguments, or a probe's ``parameter`` and
    ``marker`` as strings; a schema that allows anything else would let the
    policy admit, and a reviewer approve, an act that fails when it is sent.
    """
    schema = dict(tool.arguments)
    if schema and schema != {name: "string" for name in PROBE_ARGUMENTS}:
        return (f"tool {shown(tool.tool_id)} declares the arguments {shown(schema)}, which the executor cannot send "
                f"(it sends none, or {' and '.join(PROBE_ARGUMENTS)} as strings)")
    return ""


def require_sendable(policy) -> None:
    """Refuse, when a run's configuration is loaded, a catalogue with a tool the executor could not send.

    ValueError says which. (A lesson's own door may hold a fictional tool it
    never sends, such as lesson 8's form probe: only a run's catalogue is held to this.)
    """
    problems = [problem for tool in policy.tools if (problem := unsendable(tool))]
    if problems:
        raise ValueError("; ".join(problems))


def request_url(action: dict, tool: Tool) -> str:
    """The URL an action fetches: its destination, plus one query pair for a probe.

    A probe names the query ``parameter`` to send and the ``marker`` to send
    in it; both are URL-encoded here. An action with no arguments fetches its
    destination as it is. Only what the tool's schema declares is ever sent:
    any other arguments are refused rather than guessed at, so a tool that
    declares no probe fields cannot send a probe, whatever it is handed.
    """
    arguments = action["arguments"]
    if not tool.arguments and "?" in action["destination"]:  # a query is input too; this tool takes none
        raise ValueError(f"tool {shown(tool.tool_id)} declares no arguments, so it sends no query")
    if not arguments:
        return action["destination"]
    undeclared = sorted(name for name in arguments if name not in tool.arguments)
    if undeclared:
        raise ValueError(f"tool {shown(tool.tool_id)} does not declare the argument(s) {', '.join(undeclared)}")
    if sorted(arguments) != PROBE_ARGUMENTS or not all(isinstance(value, str) for value in arguments.values()):
        raise ValueError(f"arguments {shown(arguments)} are not a probe's parameter and marker")
    separator = "&" if "?" in action["destination"] else "?"
    return action["destination"] + separator + urlencode({arguments["parameter"]: arguments["marker"]})


def execute(door: Recorder, action_payload: dict, adapter: Adapter) -> ExecutionResult:
    """Record the action, ask the adapter, record the capture and settle the outcome."""
    answer = door.record("action", action_payload)
    if not answer["recorded"]:
        return ExecutionResult("", "refused", "", answer["reason"], (answer,))
    return attempt(door, answer["id"], adapter, answers=[answer])


def attempt(door: Recorder, action_id: str, adapter: Adapter, started: str = "handed to the adapter",
            answers: list[dict] | None = None) -> ExecutionResult:
    """One attempt at an admitted act: its start written ahead (``started``), the request, the capture, the settlement.

    ``execute`` makes the first attempt; a run carried on after a kill makes
    another one of an act left in doubt (drive.carry_on), under a start of
    its own.
    """
    answers = [] if answers is None else answers
    action = door.get("action", action_id)

    def ended(status: str, capture_id: str, detail: str) -> ExecutionResult:
        return ExecutionResult(action_id, status, capture_id, detail, tuple(answers))

    def outcome(status: str, capture_id: str, detail: str) -> dict:
        payload = {"run_id": door.run.run_id, "action_id": action_id, "status": status,
                   "capture_id": capture_id, "detail": detail}
        answers.append(door.record("outcome", payload))
        return answers[-1]

    def settles(status: str, detail: str) -> ExecutionResult:
        """Nothing was sent (``failed``), or the act is in doubt (``unresolved``, settled by nobody yet)."""
        answer = outcome(status, "", detail)
        if status == "failed" and not answer["recorded"]:
            return ended("unresolved", "", f"outcome refused: {answer['reason']}")
        return ended(status, "", detail)

    start = outcome("unresolved", "", started)
    if not start["recorded"]:  # without a written start the act is never attempted
        return ended("unresolved", "", f"outcome refused: {start['reason']}")
    try:
        url = request_url(action, door.policy.tool_named(action["tool"]))
    except ValueError as error:
        return settles("failed", f"not sent: {error}")
    try:
        response = adapter.fetch(url)
        body = fitted_body(render_response(response.status, response.headers, response.body))  # what a capture keeps
    except NotSent as error:
        return settles("failed", f"not sent: {error}")
    except Exception as error:  # the adapter is outside the door: its failure is recorded, not raised
        return settles("unresolved", f"in doubt: the request may have reached the target: {error!r}")
    capture = {"run_id": door.run.run_id, "action_id": action_id, "status": response.status, "body": body}
    answers.append(door.record("capture", capture))
    if not answers[-1]["recorded"]:
        return settles("unresolved", f"capture refused: {answers[-1]['reason']}")
    capture_id = answers[-1]["id"]
    settled = outcome("succeeded", capture_id, "")
    if not settled["recorded"]:
        return ended("unresolved", "", f"outcome refused: {settled['reason']}")  # no settlement cites it
    return ended("succeeded", capture_id, "")


# --- an act read back from the ledger --------------------------------------------------


def outcomes_of(door: Recorder, action_id: str) -> list[dict]:
    """Every outcome the run holds for ``action_id``, in the order the door admitted them."""
    return [outcome for outcome in door.records("outcome") if outcome["action_id"] == action_id]


def events_spanned(door: Recorder, answers: list[dict] | tuple[dict, ...]) -> list[dict]:
    """The ledger events from the first of ``answers`` to the last, both included (each an admitted answer).

    An execution's answers are written in ledger order, so for one that was
    not refused these are its action, outcomes and capture, and whatever
    the door wrote between them.
    """
    first, last = (door.seq_of[(answer["kind"], answer["id"])] for answer in (answers[0], answers[-1]))
    return door.events[first - 1:last]


def settle(door: Recorder, action_id: str, settlement: dict) -> dict:
    """Record a settled outcome for ``action_id``: what an operator does once they know how the act ended.

    ``settlement`` holds the outcome's ``status`` and ``detail``; it cites no
    capture. The door admits it only while the act is still unresolved.
    """
    return door.record("outcome", {"run_id": door.run.run_id, "action_id": action_id, "capture_id": "",
                                   **settlement})


def watched() -> tuple[list[dict], Callable[[str, object], None]]:
    """The loop's executions as this lesson writes them down, and the driver's watch (drive.work) that records them.

    Each execution is an ``execute`` step with its act's identity, how it
    ended, its capture, the detail and the door's answers; a selection the
    door refused (which ends the loop) is a ``select`` step with its answer.
    """
    steps: list[dict] = []

    def watch(step: str, answer: object) -> None:
        if step == "executed":
            steps.append({"step": "execute", "action_id": answer.action_id, "status": answer.status,
                          "capture_id": answer.capture_id, "detail": answer.detail, "answers": list(answer.answers)})
        elif step == "selected" and not answer["recorded"]:
            steps.append({"step": "select", "answer": answer})

    return steps, watch
