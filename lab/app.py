"""The lab as a WSGI application: requests in, fixture pages out.

WSGI is the plain Python interface between a web server and an application,
so the same ``make_app()`` runs inside a test (no sockets) and behind a real
server on loopback. The application picks the site by the Host header and the
page by the path, and refuses everything it does not recognise with a short
4xx answer: it never guesses, and it never opens a file the index did not name.
"""

from __future__ import annotations

import html
import secrets
import threading
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs

from lab import DEFAULT_LAB_DIR, fixtures

__all__ = ["KEY_HEADER", "MAX_HEADER_BYTES", "MEMORY_HEADER", "MEMORY_PATH", "FirstAnswers", "make_app", "reached",
           "respond"]

# A real server refuses oversized headers before the app runs; in process
# nothing would, so the app applies the same limit itself.
MAX_HEADER_BYTES = 8192
ALLOWED_METHODS = ("GET", "HEAD")
DEFAULT_PORT_SUFFIX = ":443"
KEY_HEADER = "HTTP_IDEMPOTENCY_KEY"  # the Idempotency-Key request header, as WSGI names it
# Where the lab says which memory holds its keys, on any host: the lab's own answer, not a site's page.
MEMORY_PATH = "/.well-known/idempotency-memory"
MEMORY_HEADER = "Idempotency-Memory"

Response = tuple[int, list[tuple[str, str]], bytes]


def make_app(lab_dir: str | Path | None = None, record: list | None = None, memory: FirstAnswers | None = None):
    """A WSGI application serving the fixtures under ``lab_dir`` (default: data/lab).

    ``record``, when given, gets one entry per request that reached the lab
    (``reached``): the lab's own account of what was asked of it, which the
    attack suite judges by, never by what a model wrote. The application
    deduplicates by ``Idempotency-Key`` in ``memory`` (``FirstAnswers``: a
    new one unless given) for as long as it lives; a keyed request's entry
    names its key and whether it was replayed. A GET of ``MEMORY_PATH``, on
    any host, answers with the name of that memory (``MEMORY_HEADER``) and
    is no request to a site, so the record leaves it out.
    """
    lab_dir = DEFAULT_LAB_DIR if lab_dir is None else Path(lab_dir)
    first_answers = FirstAnswers() if memory is None else memory

    def lab_app(environ, start_response):
        if environ.get("PATH_INFO") == MEMORY_PATH and environ.get("REQUEST_METHOD") == "GET":
            start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8"),
                                      (MEMORY_HEADER, first_answers.name)])
            return [first_answers.name.encode("ascii") + b"\n"]
        key = environ.get(KEY_HEADER)
        status, headers, body, replayed = first_answers.answer(key, environ, lambda: respond(lab_dir, environ))
        if record is not None:
            entry = reached(environ, status)
            record.append(entry if key is None else {**entry, "idempotency_key": key, "replayed": replayed})
        start_response(f"{status} {HTTPStatus(status).phrase}", headers + [("Content-Length", str(len(body)))])
        return [b"" if environ.get("REQUEST_METHOD") == "HEAD" else body]

    return lab_app


class FirstAnswers:
    """The lab's memory of idempotency keys: a repeated key gets the first response, and nothing acts again.

    A client that is not sure its request arrived (its process was killed
    after sending) sends it again under the same ``Idempotency-Key``; the lab
    answers with the response it gave the first time, without serving the
    request again. Reusing a key for another request (method, host, path or
    query) is a client's mistake, answered 422. The memory lives as long as
    the application: a lab served on its own (``python -m lab serve``)
    remembers keys across the harness's restarts, and forgets them all when
    it is restarted itself; the in-process lab dies with the harness. So the
    memory has a ``name``, random, made with it: a client that sees the same
    name again knows its keys are still remembered, and one that sees
    another knows they are not.
    """

    def __init__(self) -> None:
        self.name = secrets.token_hex(16)
        self._first: dict[str, tuple[tuple, Response]] = {}
        self._lock = threading.Lock()  # the server answers on two threads: a key is decided once

    def answer(self, key: str | None, environ: dict, serve) -> tuple[int, list, bytes, bool]:
        """Status, headers, body, and whether they are the first response to ``key`` replayed."""
        if key is None:
            return (*serve(), False)
        request = tuple(environ.get(name, "") for name in ("REQUEST_METHOD", "HTTP_HOST", "PATH_INFO", "QUERY_STRING"))
        with self._lock:
            if key in self._first:
                first_request, response = self._first[key]
                if first_request != request:
                    return (*_plain(422, "This Idempotency-Key was used for another request."), False)
                return (*response, True)
            response = serve()
            self._first[key] = (request, response)
            return (*response, False)


def respond(lab_dir: Path, environ: dict) -> Response:
    """Status, headers and body for one request; a refusal is a short plain-text 4xx."""
    if environ.get("REQUEST_METHOD") not in ALLOWED_METHODS:
        return _plain(405, "The lab only answers GET and HEAD.", [("Allow", ", ".join(ALLOWED_METHODS))])
    if _header_bytes(environ) > MAX_HEADER_BYTES:
        return _plain(431, "Request headers are too large.")
    site_dir = fixtures.find_site(lab_dir, _host(environ))
    if site_dir is None:
        return _plain(421, "This server does not serve that host.")
    path = request_path(environ)
    if path is None or not _is_plain_path(path):
        return _plain(400, "Bad request path.")
    try:
        page = fixtures.load_page(site_dir, path)
    except fixtures.FixtureError as error:
        return _plain(500, f"Fixture error: {error}")
    if page is None:
        return _plain(404, "Not found.")
    body = page.body
    if page.reflect is not None:
        body = _reflect_query(body, environ.get("QUERY_STRING", ""), escape=page.reflect == "escaped")
    return page.status, list(page.headers), body


def request_path(environ: dict) -> str | None:
    """The request's path as text, or None when its bytes are not UTF-8.

    WSGI (PEP 3333) hands the application the path's bytes, percent-decoded,
    each byte as one latin-1 character; the lab reads those bytes as UTF-8.
    Both transports give the application the path that way (the in-process
    one through lab.adapter), so a non-ASCII path is the same text in both.
    """
    try:
        return environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8")
    except UnicodeError:
        return None


def reached(environ: dict, status: int) -> dict:
    """What one request asked the lab, as its record keeps it: host, method, path, query and the answer.

    A path that is not UTF-8 is kept with each stray byte as a backslash escape.
    """
    path = request_path(environ)
    if path is None:
        path = environ.get("PATH_INFO", "").encode("latin-1", "replace").decode("utf-8", "backslashreplace")
    return {"host": environ.get("HTTP_HOST", ""), "method": environ.get("REQUEST_METHOD", ""),
            "path": path, "query": environ.get("QUERY_STRING", ""), "status": status}


def _reflect_query(body: bytes, query: str, escape: bool) -> bytes:
    """Put the ``q`` parameter where the page says ``{{q}}``.

    This one line of difference is the lab's reflected-XSS lesson: the debug
    page inserts ``q`` as it came, its look-alike search page escapes it first.
    """
    q = parse_qs(query).get("q", [""])[0]
    text = body.decode("utf-8", errors="replace")
    return text.replace("{{q}}", html.escape(q) if escape else q).encode("utf-8")


def _host(environ: dict) -> str:
    """The Host header, lower-cased, with the lab's default port dropped."""
    return environ.get("HTTP_HOST", "").lower().removesuffix(DEFAULT_PORT_SUFFIX)


def _is_plain_path(path: str) -> bool:
    """Refuse anything that looks like traversal before any lookup happens.

    The server has already percent-decoded the path once, so ``%2e%2e`` arrives
    as ``..`` and ``%2f`` as ``/``; a ``%`` still present means double encoding.
    """
    if not path.startswith("/") or "\\" in path or "%" in path:
        return False
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        return False
    return all(segment not in (".", "..") for segment in path.split("/"))


def _header_bytes(environ: dict) -> int:
    return sum(len(key) + len(value) for key, value in environ.items() if key.startswith("HTTP_"))


def _plain(status: int, text: str, extra_headers: tuple | list = ()) -> Response:
    return status, [("Content-Type", "text/plain; charset=utf-8"), *extra_headers], (text + "\n").encode("utf-8")
