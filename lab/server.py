"""Serve the lab over real HTTP on loopback, and start it as a child process.

A real server proves what the in-process transport cannot: that the lab
survives real sockets, real parsing and real bad input. waitress is a small
pure-Python WSGI server; it refuses malformed request lines and oversized
headers on its own before the application sees them.

Four refusals waitress has no setting for are added by ``LabRequestParser``,
before any request reaches the application (which could not tell them apart:
waitress reports every unknown version as HTTP/1.0, and passes only the Host
header on):

- header bytes that cannot become a request (a bare LF or CR, another control
  character, a first byte that cannot start a method) get 400 at once,
  where waitress would wait for a CRLF CRLF that never comes until its idle
  timeout, two minutes or more;
- an HTTP version other than 1.0 and 1.1 gets 505, a missing one 400;
- an absolute-form target (``GET http://host/ HTTP/1.1``) whose origin is not
  the Host header's gets 400, so that no request is served by one name while
  it asks for another;
- a request that carries both ``Content-Length`` and ``Transfer-Encoding``
  gets 400 and its connection is closed (RFC 9112 section 6.1): two parsers
  that frame its body differently would read the bytes after it as different
  requests, which is how a request is smuggled past a proxy.

The server binds 127.0.0.1 only: the lab is fictional and must never be
reachable from another machine.
"""

from __future__ import annotations

import json
import logging
import re
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import waitress
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import BadRequest, Error

# waitress warns on stderr when a request waits for one of its threads ("Task queue depth is 1").
# On a busy machine that happens; it says nothing about the lab, and it would land in the output
# of every command a page runs. Errors are still shown.
logging.getLogger("waitress.queue").setLevel(logging.ERROR)

from lab import DEFAULT_LAB_DIR
from lab.app import MAX_HEADER_BYTES, make_app
from lab.origins import OriginError, canonical_origin

__all__ = ["HOST", "LabRequestParser", "create_server", "running", "serve", "serving_here"]

HOST = "127.0.0.1"
READY_LINE = re.compile(r"lab listening on http://127\.0\.0\.1:(\d+)")
# The child runs from the repository root, so `-m lab` imports even without an install.
REPOSITORY = DEFAULT_LAB_DIR.parent.parent
SUPPORTED_VERSIONS = ("1.0", "1.1")
# RFC 9110 token characters: the only bytes a method, so a request, can start with.
TOKEN_BYTES = frozenset(b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# In a request head only CR LF pairs and tabs may appear among the control bytes.
CR, LF = 13, 10
CONTROL_BYTES = frozenset(range(32)) - {9, CR, LF} | {127}


class HTTPVersionNotSupported(Error):
    code = 505
    reason = "HTTP Version Not Supported"


class LabRequestParser(HTTPRequestParser):
    """waitress's request parser, plus the lab's four refusals (see the module docstring)."""

    checked = False

    def received(self, data: bytes) -> int:
        if not self.headers_finished and not self.completed:
            # Bytes before the last one already passed; a slow sender costs no rescans.
            problem = head_problem(self.header_plus + data, since=max(len(self.header_plus) - 1, 0))
            if problem is not None:
                self._refuse(BadRequest(problem))
                return len(data)
        consumed = super().received(data)
        if self.headers_finished and self.error is None and not self.empty and not self.checked:
            self.checked = True
            error = self._request_line_error()
            if error is not None:
                self._refuse(error)
        return consumed

    def _request_line_error(self) -> Error | None:
        if self.version == "":
            return BadRequest("the request line names no HTTP version")
        if self.version not in SUPPORTED_VERSIONS:
            return HTTPVersionNotSupported(f"HTTP/{self.version} is not HTTP/1.0 or HTTP/1.1")
        if self.proxy_netloc and not _same_origin(self.proxy_scheme, self.proxy_netloc, self.headers.get("HOST")):
            return BadRequest("an absolute-form target names another host than the Host header")
        # waitress has already taken Transfer-Encoding out of an HTTP/1.1 head (and set ``chunked``).
        if "CONTENT_LENGTH" in self.headers and (self.chunked or "TRANSFER_ENCODING" in self.headers):
            return BadRequest("a request carries both Content-Length and Transfer-Encoding")
        return None

    def _refuse(self, error: Error) -> None:
        """Complete the request as an error; waitress answers it and closes the connection."""
        if not self.headers_finished:
            super().parse_header(b"GET / HTTP/1.0\r\n")  # what waitress itself does before a 431
        self.error = error
        self.completed = True


class LabChannel(HTTPChannel):
    parser_class = LabRequestParser


def head_problem(received: bytes, since: int = 0) -> str | None:
    """Why the bytes of a request head so far can never become a request, or None.

    Only the head is judged: the bytes after the first CRLF CRLF are a body.
    The earliest offending byte is the one named, so the answer does not
    depend on how the bytes were cut into packets. A CR as the last byte may
    still be followed by its LF, so it waits for the next byte. Bytes before
    ``since`` are known to be clean and are not looked at again.
    """
    end = received.find(b"\r\n\r\n")
    head = received if end == -1 else received[: end + 4]
    first = 0
    while head.startswith(b"\r\n", first):  # blank lines before a request are allowed (RFC 9112 2.2)
        first += 2
    for index in range(since, len(head)):
        byte = head[index]
        if byte == LF and (index == 0 or head[index - 1] != CR):
            return "a bare LF in the request head"
        if byte == CR and index + 1 < len(head) and head[index + 1] != LF:
            return "a bare CR in the request head"
        if byte in CONTROL_BYTES:
            return "a control character in the request head"
        if index == first and byte not in TOKEN_BYTES and byte != CR:
            return "the request does not start with a method"
    return None


def _same_origin(scheme: str, netloc: str, host_header: str | None) -> bool:
    """Do an absolute-form target's authority and the Host header name one origin?"""
    if host_header is None:
        return False
    try:
        return canonical_origin(f"{scheme}://{netloc}") == canonical_origin(f"{scheme}://{host_header}")
    except OriginError:
        return False


class RecordFile:
    """The server's record of what reached it: one JSON line per request, appended to a file as it happens."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def append(self, entry: dict) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, sort_keys=True) + "\n")


def read_record(path: str | Path) -> list[dict]:
    """The entries a server wrote with ``--record``, oldest first ([] if it never wrote one)."""
    path = Path(path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def create_server(port: int = 0, lab_dir: str | Path | None = None, record: str | Path | None = None,
                  sockets: dict | None = None):
    """A waitress server for the lab; port 0 asks the system for a free port; ``record`` names its record file.

    ``sockets`` is the map of open sockets its loop serves (waitress makes one when none is given).
    """
    server = waitress.create_server(
        make_app(lab_dir, RecordFile(record) if record is not None else None),
        map=sockets,
        host=HOST,
        port=port,
        threads=2,
        ident="",  # no Server header of waitress's own: only fixtures name servers
        max_request_header_size=MAX_HEADER_BYTES,
        # Read a whole oversized request at once, so that the 431 answer is
        # not lost to a connection reset over bytes still waiting unread.
        recv_bytes=65536,
    )
    server.channel_class = LabChannel  # every connection parses with the lab's refusals
    return server


def serve(port: int = 0, lab_dir: str | Path | None = None, record: str | Path | None = None) -> None:
    """Serve until SIGINT or SIGTERM, after printing the one line that names the port."""
    server = create_server(port, lab_dir, record)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _exit_cleanly)
    print(f"lab listening on http://{HOST}:{server.effective_port}", flush=True)
    try:
        server.run()  # returns after closing its sockets when _exit_cleanly fires
    finally:
        server.close()


def _exit_cleanly(signum, frame) -> None:
    """waitress's run loop takes SystemExit as "stop": it closes its sockets and returns."""
    raise SystemExit(0)


def stop(server, sockets: dict) -> None:
    """Ask the server's own loop to close every socket it holds, after which the loop ends.

    If the trigger cannot be pulled (its descriptor gone: seen once in a whole
    attack suite, not reproduced since), the sockets are closed from here, and
    the loop, finding its map empty, ends within its poll timeout.
    """
    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
    except OSError:
        wasyncore.close_all(sockets)


@contextmanager
def serving_here(lab_dir: str | Path | None = None, timeout: float = 10.0):
    """Serve the lab on 127.0.0.1 from a thread of this process for the block's duration; yield its port.

    The same server ``python -m lab serve`` runs (``create_server``: waitress,
    the lab's request parser and its refusals), reached over real loopback
    sockets, without starting another interpreter first (the reference run's
    ``--transport http`` spent more on that than on all its requests). When
    the block ends, the server's own loop closes every socket it holds and
    ends, and its threads are joined: nothing is left listening.
    """
    sockets: dict = {}
    server = create_server(0, lab_dir, sockets=sockets)
    loop = threading.Thread(target=server.run, name="lab server", daemon=True)
    loop.start()
    try:
        yield int(server.effective_port)
    finally:
        stop(server, sockets)
        loop.join(timeout)
        server.task_dispatcher.shutdown(timeout=timeout)
        if loop.is_alive():
            raise RuntimeError(f"the lab server did not stop within {timeout} s")


@contextmanager
def running(lab_dir: str | Path | None = None, timeout: float = 10.0, record: str | Path | None = None):
    """Run ``python -m lab serve --port 0`` as a child process and yield its port.

    The child is stopped with SIGTERM when the block ends, and waited for, so
    no server outlives the code that started it. With ``record``, the server
    appends what reached it to that file (read it with ``read_record``).
    """
    command = [sys.executable, "-m", "lab", "serve", "--port", "0"]
    if lab_dir is not None:
        command += ["--lab", str(Path(lab_dir).resolve())]
    if record is not None:
        command += ["--record", str(Path(record).resolve())]
    process = subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        ready = READY_LINE.fullmatch(line)
        if ready is None:
            raise RuntimeError(f"the lab server did not start (it printed {line!r})")
        yield int(ready.group(1))
    finally:
        process.terminate()
        # A blocking wait returns the moment the child exits (wait(timeout) polls, sleeping
        # longer each time); a child still there after ``timeout`` seconds is killed.
        killer = threading.Timer(timeout, process.kill)
        killer.start()
        try:
            process.wait()
        finally:
            killer.cancel()
        process.stdout.close()
