"""Serve the lab over real HTTP on loopback, and start it as a child process.

A real server proves what the in-process transport cannot: that the lab
survives real sockets, real parsing and real bad input. waitress is a small
pure-Python WSGI server; it refuses malformed request lines and oversized
headers on its own before the application sees them.

The server binds 127.0.0.1 only: the lab is fictional and must never be
reachable from another machine.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import waitress

from lab import DEFAULT_LAB_DIR
from lab.app import MAX_HEADER_BYTES, make_app

__all__ = ["HOST", "create_server", "running", "serve"]

HOST = "127.0.0.1"
READY_LINE = re.compile(r"lab listening on http://127\.0\.0\.1:(\d+)")
# The child runs from the repository root, so `-m lab` imports even without an install.
REPOSITORY = DEFAULT_LAB_DIR.parent.parent


def create_server(port: int = 0, lab_dir: str | Path | None = None):
    """A waitress server for the lab; port 0 asks the system for a free port."""
    return waitress.create_server(
        make_app(lab_dir),
        host=HOST,
        port=port,
        threads=2,
        ident="",  # no Server header of waitress's own: only fixtures name servers
        max_request_header_size=MAX_HEADER_BYTES,
        # Read a whole oversized request at once, so that the 431 answer is
        # not lost to a connection reset over bytes still waiting unread.
        recv_bytes=65536,
    )


def serve(port: int = 0, lab_dir: str | Path | None = None) -> None:
    """Serve until SIGINT or SIGTERM, after printing the one line that names the port."""
    server = create_server(port, lab_dir)
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


@contextmanager
def running(lab_dir: str | Path | None = None, timeout: float = 10.0):
    """Run ``python -m lab serve --port 0`` as a child process and yield its port.

    The child is stopped with SIGTERM when the block ends, and waited for, so
    no server outlives the code that started it.
    """
    command = [sys.executable, "-m", "lab", "serve", "--port", "0"]
    if lab_dir is not None:
        command += ["--lab", str(Path(lab_dir).resolve())]
    process = subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        ready = READY_LINE.fullmatch(line)
        if ready is None:
            raise RuntimeError(f"the lab server did not start (it printed {line!r})")
        yield int(ready.group(1))
    finally:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
