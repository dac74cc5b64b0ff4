"""Fixtures: the lab's pages, looked up in an index and read afresh every time.

A lab folder holds one folder per site, named after its host::

    sites/lab.example/site.json      the index: path -> status, headers, body file
    sites/lab.example/index.html     a body file, plain text a student can edit

Two rules keep the lab honest. Nothing is cached, so editing a body file or an
index changes what the very next request sees. And request text is never
joined onto the filesystem: a host is matched against the folder names that
exist, a path is looked up as a key of the index, and only a body file named
by the index is opened. A path like ``/../../etc/passwd`` is simply not a key.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from core.run.jsonfile import read_bytes, read_json

__all__ = ["TRANSPORT_HEADERS", "FixtureError", "Page", "check_lab_dir", "fixture_paths", "find_site", "load_page"]

# Headers that belong to the connection, not to the page. A server adds them on
# its own, so a fixture may not declare them and the adapter never reports them.
TRANSPORT_HEADERS = frozenset({"connection", "content-length", "date", "keep-alive", "transfer-encoding", "via"})

_PAGE_KEYS = {"status", "headers", "body", "reflect", "note", "control", "control_for"}
_REFLECT_MODES = (None, "raw", "escaped")
_STATUSES = frozenset(status.value for status in HTTPStatus)


class FixtureError(ValueError):
    """A fixture file is missing or does not follow the layout above."""


@dataclass(frozen=True)
class Page:
    """One response as the fixtures declare it; ``reflect`` is None, "raw" or "escaped"."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    reflect: str | None = None


def check_lab_dir(lab_dir: Path) -> None:
    """Refuse a folder that holds no site at all, before anything is served from it."""
    if not _site_dirs(lab_dir):
        raise FixtureError(f"no sites/<host>/site.json under {Path(lab_dir).name!r}")


def find_site(lab_dir: Path, host: str) -> Path | None:
    """The folder of the site named ``host``, matched against existing names only."""
    for site_dir in _site_dirs(lab_dir):
        if site_dir.name == host:
            return site_dir
    return None


def load_page(site_dir: Path, path: str) -> Page | None:
    """The page at ``path``, else the site's not-found page, else None."""
    index = _read_index(site_dir)
    if path in index["pages"]:
        return _page(site_dir, index["pages"][path], where=path)
    if "not_found" in index:
        return _page(site_dir, index["not_found"], where="not_found")
    return None


def fixture_paths(lab_dir: Path) -> list[tuple[str, str]]:
    """Every (host, path) the fixtures declare, sorted: what a full pass visits."""
    return [
        (site_dir.name, path)
        for site_dir in _site_dirs(lab_dir)
        for path in sorted(_read_index(site_dir)["pages"])
    ]


def _site_dirs(lab_dir: Path) -> list[Path]:
    sites = Path(lab_dir) / "sites"
    if not sites.is_dir():
        return []
    return sorted(entry for entry in sites.iterdir() if (entry / "site.json").is_file())


def _read_index(site_dir: Path) -> dict:
    index = read_json(site_dir / "site.json", error=FixtureError, what="site index")
    if not isinstance(index, dict) or not isinstance(index.get("pages"), dict):
        raise FixtureError(f"{site_dir.name}/site.json needs a 'pages' object")
    return index


def _page(site_dir: Path, entry: object, where: str) -> Page:
    """Check one index entry and read its body file."""
    name = f"{site_dir.name}/site.json {where!r}"
    if not isinstance(entry, dict) or not set(entry) <= _PAGE_KEYS or not {"status", "body"} <= set(entry):
        raise FixtureError(f"{name}: needs status and body, and only the keys {sorted(_PAGE_KEYS)}")
    if type(entry["status"]) is not int or entry["status"] not in _STATUSES:
        raise FixtureError(f"{name}: status {entry['status']!r} is not an HTTP status")
    if entry.get("reflect") not in _REFLECT_MODES:
        raise FixtureError(f"{name}: reflect must be 'raw' or 'escaped'")
    headers = _headers(name, entry.get("headers", {}))
    return Page(entry["status"], headers, _body(site_dir, name, entry["body"]), entry.get("reflect"))


def _headers(name: str, headers: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise FixtureError(f"{name}: headers must map names to strings")
    for header, value in headers.items():
        if not header.isascii() or not header.replace("-", "").isalnum():
            raise FixtureError(f"{name}: {header!r} is not a header name")
        if header.lower() in TRANSPORT_HEADERS:
            raise FixtureError(f"{name}: {header} belongs to the transport, not to a fixture")
        if not value.isascii() or not value.isprintable():
            raise FixtureError(f"{name}: the value of {header} must be printable ASCII")
    return tuple(headers.items())


def _body(site_dir: Path, name: str, body_file: object) -> bytes:
    """Read a body file that sits directly in the site folder, and nowhere else."""
    if not isinstance(body_file, str) or body_file.startswith(".") or "/" in body_file or "\\" in body_file:
        raise FixtureError(f"{name}: body must be a plain file name in {site_dir.name}/")
    path = (site_dir / body_file).resolve()
    if path.parent != site_dir.resolve() or not path.is_file():
        raise FixtureError(f"{name}: body file {body_file!r} is not in {site_dir.name}/")
    return read_bytes(path, error=FixtureError, what="body file")
