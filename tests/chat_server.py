"""A chat-completions endpoint on 127.0.0.1 for the tests: it answers each request with the next scripted answer.

``serving(answers)`` starts it in a thread of the test's process and yields
it; each ``Answer`` is a status, headers, a body and how long to stall first.
When the script runs out, every further request gets ``{"proposals": []}`` as
text. The server stops when the block ends, and by itself after ``LIFETIME``
seconds whatever happens, so a test that hangs cannot leave it behind. It
keeps every request it was sent (path, headers, JSON body) for the test to
read.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIFETIME = 120.0  # seconds a server lives at most


@dataclass(frozen=True)
class Answer:
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    stall: float = 0.0  # seconds to wait before answering at all


def completion(message: dict, model: str = "test-model") -> bytes:
    """A chat-completions body whose one choice is ``message``."""
    return json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model,
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", **message}}]}).encode()


def calls(*calls: tuple[object, object]) -> Answer:
    """An answer whose message calls each (name, arguments) in turn; ``arguments`` as given (a string is sent as is)."""
    tool_calls = [{"id": f"call_{number}", "type": "function", "function": {"name": name, "arguments": arguments}}
                  for number, (name, arguments) in enumerate(calls, 1)]
    return Answer(body=completion({"content": None, "tool_calls": tool_calls}))


def text(content: str) -> Answer:
    return Answer(body=completion({"content": content}))


NOTHING = text('{"proposals": []}')


@dataclass
class Server:
    answers: list[Answer]
    port: int = 0
    requests: list[dict] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


@contextmanager
def serving(answers: list[Answer]) -> Iterator[Server]:
    state = Server(list(answers))
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            with lock:
                state.requests.append({"path": self.path, "headers": dict(self.headers),
                                       "body": json.loads(raw or b"null")})
                answer = state.answers.pop(0) if state.answers else NOTHING
            time.sleep(answer.stall)
            try:
                self.send_response(answer.status)
                headers = dict(answer.headers)
                headers.setdefault("Content-Type", "application/json")
                headers.setdefault("Content-Length", str(len(answer.body)))
                for name, value in headers.items():
                    if value:  # an empty value leaves the header out: a body without a length, read to the close
                        self.send_header(name, value)
                self.end_headers()
                self.wfile.write(answer.body)
            except OSError:  # the client gave up (a stall's whole point)
                pass

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stop = threading.Timer(LIFETIME, server.shutdown)
    stop.daemon = True
    stop.start()
    try:
        yield state
    finally:
        stop.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
