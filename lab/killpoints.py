"""What both kill matrices share: the points to kill at, the tally, the forked processes and the lab.

``lab/killmatrix.py`` (the reviews written down) and ``lab/killdecisions.py``
(a person's signed decisions) kill the harness at the same kinds of point,
count into the same ``Tally`` and serve the lab the same way: that lives here,
so neither matrix imports the other's module for it.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from core.run import drive, journal
from lab import DEFAULT_LAB_DIR, server

WRITE, SEND = "write", "send"


@dataclass(frozen=True)
class Point:
    """A moment to kill the harness: right after its n-th ledger write, or after the lab answered its n-th request."""

    what: str
    n: int

    def __str__(self) -> str:
        return f"{self.n}" if self.what == WRITE else f"s{self.n}"


@dataclass
class Tally:
    """What the kill points found, added up: this matrix and the one with a person in the loop
    (killdecisions.py) count into the same fields; a count one of them never makes stays 0 there.
    Each prints its own ``summary``."""

    points: int = 0
    duplicated: int = 0  # acts that reached the lab twice
    lost: int = 0  # approvals recorded before a kill and missing after it
    unapproved: int = 0  # requests no act of the run accounts for, and acts that ran without an approval
    rejected_ran: int = 0  # acts a person's signed decision rejected that reached the lab (killdecisions)
    resumed: int = 0  # points resumed to a report that verifies and replays
    passive_again: int = 0  # passive reads sent again after a restart (this module: delivery at least once)
    after_kill: int = 0  # decisions the person signed after a kill (killdecisions)
    killed_twice: int = 0  # points killed again right after a decision was recorded (killdecisions)
    consequential_again: int = 0
    replayed: int = 0
    not_in_doubt: int = 0  # acts sent again that the killed run's journal did not show in doubt
    identical: int = 0  # resumed reports byte for byte the uninterrupted run's
    writes: int = 0  # the uninterrupted run's ledger writes and requests (this module)
    sends: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        """Nothing acted twice, went missing, ran unapproved or rejected, or was re-sent needlessly; every point
        resumed."""
        return not (self.duplicated or self.lost or self.unapproved or self.rejected_ran or self.not_in_doubt
                    or self.failures) and self.resumed == self.points


# --- processes ----------------------------------------------------------------------------


def forked(child) -> int:
    """Run ``child()`` in a forked process; its pid. The child never returns into this process's code."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            status = child() or 0
        finally:
            os._exit(status)
    return pid


def finished(pid: int) -> int:
    """Wait for ``pid``; its exit status (a signal's number, negative)."""
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@contextmanager
def lab_served(record: Path) -> Iterator[int]:
    """The lab served on its own (lab.server.serve, as ``python -m lab serve --record``), forked; its port."""
    ready_r, ready_w = os.pipe()

    def serve() -> int:
        os.close(ready_r)
        os.dup2(ready_w, 1)
        server.serve(0, DEFAULT_LAB_DIR, record)
        return 0

    pid = forked(serve)
    os.close(ready_w)
    with os.fdopen(ready_r) as ready:
        line = ready.readline().strip()
    try:
        match = server.READY_LINE.fullmatch(line)
        if match is None:
            raise RuntimeError(f"the lab server did not start (it printed {line!r})")
        yield int(match.group(1))
    finally:
        os.kill(pid, signal.SIGTERM)
        finished(pid)


class Stopping:
    """The lab's adapter, stopping the harness right after the lab answered its n-th request (a SEND point)."""

    def __init__(self, inner, point: Point, stop):
        self.inner, self.point, self.stop, self.sent = inner, point, stop, 0

    def memory(self) -> str:
        return self.inner.memory()

    def fetch(self, url: str, idempotency_key: str | None = None):
        response = self.inner.fetch(url, idempotency_key=idempotency_key)
        self.sent += 1
        if self.point == Point(SEND, self.sent):
            self.stop()
        return response

    def close(self) -> None:
        self.inner.close()


def is_consequential(config: drive.Configuration, tool: str) -> bool:
    """Whether ``tool``'s class needs a review (an unknown tool's counts as consequential: fail-closed)."""
    known = config.policy.tool_named(tool)
    return known is None or config.gating.table.classify(known.activity).consequential


def in_doubt(killed: journal.Read) -> set[str]:
    """The acts a killed run's journal shows in doubt: admitted, handed to the adapter, nothing back, not settled."""
    started, settled = set(), set()
    for event in killed.events:
        if event["status"] != "admitted" or event["kind"] not in ("outcome", "capture"):
            continue
        payload = event["payload"]
        if event["kind"] == "capture" or payload["status"] != "unresolved":
            settled.add(payload["action_id"])
        else:
            started.add(payload["action_id"])
    return started - settled
