"""The lab's side of the plug-in seam: what a reference run configuration names.

``core`` never imports the lab. The run configuration
(``data/policy/training-authorization-0001.json``) names these functions by
text, and ``core.run.plugins.load_plugin`` imports them when the run starts:

- ``make_adapter``: the HTTP adapter, shaped to core's adapter protocol;
- ``make_model``: the scripted model as a plain function from prompt to reply;
- ``describe_world``: digests of every fixture file and of the model script,
  so that editing any of them changes the run identifier;
- ``serving``: the lab on a real loopback server, for the ``http`` transport;
- ``FixedPages``: an adapter that answers from a table of pages instead of
  the lab's files, the same on every machine (lesson 5's demo).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from core.run.execute import AdapterResult, NotSent
from core.run.jsonfile import read_bytes
from core.run.origins import canonical_destination
from lab import DEFAULT_LAB_DIR
from lab.origins import OriginError
from lab.model import SCRIPT_FILE, ScriptedModel

# httpx, the HTTP adapter and the server are imported where they are used: FixedPages and
# describe_world need none of them, and httpx alone costs a completion check a twentieth of a second.
if TYPE_CHECKING:
    from lab.adapter import HttpAdapter

__all__ = ["FixedPages", "LabAdapter", "describe_world", "make_adapter", "make_model", "serving"]

WORLD_FOLDERS = ("sites", "model")  # what the lab serves and what its model says; README.md is not the world


class LabAdapter:
    """The lab's HttpAdapter behind core's protocol: ``fetch(url, idempotency_key=None) -> AdapterResult``.

    ``memory()`` names the memory that holds the keys of the lab it reaches,
    as that lab shows it now (lab.app.FirstAnswers): the harness sends an
    act in doubt again under its key only to the memory its key went to.
    Nothing here assumes the lab outlives anything: a lab served on its own
    shows the same memory until it is restarted, and the in-process lab a
    new one each time the harness makes it.
    """

    def __init__(self, http: HttpAdapter):
        self._http = http

    def memory(self) -> str:
        """The lab's memory of keys, by name; "" when the lab cannot say (it is not reached, or does not answer)."""
        import httpx

        try:
            return self._http.memory()
        except httpx.HTTPError:
            return ""

    def fetch(self, url: str, idempotency_key: str | None = None) -> AdapterResult:
        """One response; ``NotSent`` when the request never left (a bad URL, a refused connection).

        Any other error (a timeout, a reset mid-response) is raised as it is:
        the request may have reached the lab, so the executor leaves the act
        in doubt instead of calling it failed. The key, if given, is sent as
        the request's ``Idempotency-Key`` header.
        """
        import httpx

        try:
            response = self._http.fetch(url, idempotency_key=idempotency_key)
        except (OriginError, httpx.InvalidURL, httpx.UnsupportedProtocol, httpx.ConnectError,
                httpx.LocalProtocolError) as error:
            raise NotSent(f"{type(error).__name__}: {error}") from None
        return AdapterResult(response.status, response.headers, response.body)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> LabAdapter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def make_adapter(transport: str, lab_dir: str | Path | None = None, port: int | None = None) -> LabAdapter:
    """An adapter for ``transport``: in process over ``lab_dir``, or over HTTP to a lab served on ``port``.

    Over HTTP the server has already been told which folder to serve, so the
    adapter needs only the port.
    """
    from lab.adapter import HttpAdapter

    if transport == "inprocess":
        return LabAdapter(HttpAdapter("inprocess", lab_dir))
    return LabAdapter(HttpAdapter(transport, None, port))


def make_model(lab_dir: str | Path | None = None) -> Callable[[str], str]:
    """The scripted model of ``lab_dir`` as a function from prompt text to reply text."""
    return ScriptedModel(lab_dir).reply


def describe_world(lab_dir: str | Path | None = None) -> dict:
    """The SHA-256 of every fixture file and of the model script, keyed by path relative to ``lab_dir``."""
    root = Path(DEFAULT_LAB_DIR if lab_dir is None else lab_dir)
    files = sorted(path for folder in WORLD_FOLDERS for path in (root / folder).rglob("*") if path.is_file())
    if not (root / SCRIPT_FILE).is_file() or not any(path.name == "site.json" for path in files):
        raise ValueError(f"lab folder {root.name!r} has no model script or no site")
    return {
        "lab_files": {path.relative_to(root).as_posix(): hashlib.sha256(read_bytes(path, error=ValueError)).hexdigest()
                      for path in files},
    }


@contextmanager
def serving(lab_dir: str | Path | None = None) -> Iterator[int]:
    """The lab served over real loopback HTTP for the block's duration; yields the port.

    The server runs in a thread of this process (``server.serving_here``);
    ``python -m lab serve`` (``server.running``) is the same server in a
    process of its own.
    """
    from lab import server

    with server.serving_here(lab_dir) as port:
        yield port


class FixedPages:
    """An adapter that answers from a table of pages instead of a lab: the same on every machine.

    ``pages`` maps a path of ``origin`` to its response (status, header
    pairs, body); any other path gets ``missing``. A demo or a test whose run
    must not depend on the lab's files loads it (lesson 5's demo's pages are
    fixed copies).
    """

    def __init__(self, origin: str, pages: Mapping[str, tuple[int, tuple, str]], missing: tuple[int, tuple, str]):
        self.origin, self.pages, self.missing = origin, dict(pages), missing

    def fetch(self, url: str) -> AdapterResult:
        path = canonical_destination(url).removeprefix(self.origin).partition("?")[0]
        return AdapterResult(*self.pages.get(path, self.missing))
