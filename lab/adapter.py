"""The HTTP adapter: one httpx client that reaches the lab two ways.

In process, an httpx WSGI transport hands each request straight to the lab
application: no sockets, fast, good for tests. Over HTTP, the same client
talks to the lab served by a real server on 127.0.0.1, and the Host header
says which fictional site is meant (``https://lab.example/x`` becomes
``GET http://127.0.0.1:PORT/x`` with ``Host: lab.example``).

Only the transport differs, so the two modes must give byte-identical
results. That holds because a result keeps only what the fixture declared:
status, the page's own headers and the body. Headers a server adds on its own
(Date, Via, Content-Length, ...) are transport details and are dropped.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

import httpx

from lab.app import MEMORY_HEADER, MEMORY_PATH, FirstAnswers, make_app
from lab.fixtures import TRANSPORT_HEADERS
from lab.origins import DEFAULT_PORTS, canonical_origin

__all__ = ["HttpAdapter", "LabResponse"]

TRANSPORTS = ("inprocess", "http")
# Never resolved: the WSGI transport passes requests to the app without a network.
IN_PROCESS_BASE = "http://in-process.invalid"


@dataclass(frozen=True)
class LabResponse:
    """What one fetch saw: headers are (lower-case name, value) pairs sorted by name."""

    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: str


class HttpAdapter:
    """Fetch lab URLs in process (``transport="inprocess"``) or over loopback (``"http"``)."""

    def __init__(self, transport: str = "inprocess", lab_dir: str | Path | None = None, port: int | None = None,
                 record: list | None = None, memory: FirstAnswers | None = None):
        if transport == "inprocess" and port is None:
            self._base = IN_PROCESS_BASE
            wire = ServedTransport(app=make_app(lab_dir, record, memory))
        elif transport == "http" and lab_dir is None and isinstance(port, int) and 0 < port < 65536:
            self._base = f"http://127.0.0.1:{port}"
            wire = httpx.HTTPTransport(verify=_no_trusted_certificates())
        else:
            raise ValueError("use transport='inprocess' with an optional lab_dir, or transport='http' with a port")
        self.transport = transport
        # trust_env=False: proxy settings from the environment must never reroute loopback.
        self._client = httpx.Client(transport=wire, trust_env=False, follow_redirects=False, timeout=10.0)

    def fetch(self, url: str, method: str = "GET", idempotency_key: str | None = None) -> LabResponse:
        """Fetch ``url`` once; raises ``OriginError`` if it names no valid origin.

        With ``idempotency_key`` the request carries it as its
        ``Idempotency-Key`` header (the lab answers a repeated key with its
        first response, lab.app.FirstAnswers).
        """
        scheme, host, port = _origin_parts(canonical_origin(url))
        host_header = host if port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {"Host": host_header}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        response = self._client.request(method, self._base + target, headers=headers)
        return LabResponse(
            url=url,
            status=response.status_code,
            headers=_page_headers(response.headers),
            body=response.content.decode("utf-8", errors="replace"),
        )

    def memory(self) -> str:
        """The name of the memory that holds the lab's idempotency keys, as the lab says it now (lab.app.MEMORY_PATH).

        Nothing is asked of a site, so nothing acts. Raises what the client
        raises when the lab cannot be reached.
        """
        response = self._client.get(self._base + MEMORY_PATH)
        return response.headers.get(MEMORY_HEADER, "") if response.status_code == 200 else ""

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> HttpAdapter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class ServedTransport(httpx.WSGITransport):
    """httpx's WSGI transport, handing the application its path as a real server does.

    A WSGI server (waitress, PEP 3333) gives PATH_INFO as the path's bytes,
    percent-decoded, one latin-1 character per byte; httpx's transport gives
    them UTF-8-decoded. The lab reads the bytes the PEP 3333 way, so in process
    they are handed over that way too, and a non-ASCII path is the same path
    over both transports.
    """

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        served = unquote_to_bytes(request.url.raw_path.partition(b"?")[0]).decode("latin-1")
        app = self.app

        def as_served(environ, start_response):
            return app({**environ, "PATH_INFO": served}, start_response)

        self.app = as_served
        try:
            return super().handle_request(request)
        finally:
            self.app = app


def _no_trusted_certificates() -> ssl.SSLContext:
    """A TLS context that trusts no certificate: the lab is plain HTTP on 127.0.0.1.

    httpx's default context loads the whole CA bundle, which costs more than
    a dozen loopback requests and is never used here. This one still checks
    certificates and host names, and trusts none, so a TLS connection, if
    one were ever made, would fail closed.
    """
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED and check_hostname, no CA loaded


def _origin_parts(origin: str) -> tuple[str, str, int]:
    """Split a canonical ``scheme://host:port`` (the port is always present)."""
    scheme, rest = origin.split("://", 1)
    host, port = rest.rsplit(":", 1)
    return scheme, host, int(port)


def _page_headers(headers: httpx.Headers) -> tuple[tuple[str, str], ...]:
    """The page's own headers: transport headers dropped, names lower-cased, sorted by name."""
    kept = [(name.lower(), value) for name, value in headers.multi_items() if name.lower() not in TRANSPORT_HEADERS]
    return tuple(sorted(kept, key=lambda pair: pair[0]))
