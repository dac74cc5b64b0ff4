"""The safety pack: the boundaries this harness keeps in every run, or it does not start.

A policy (lesson 2) changes with every engagement. A safety pack does not:
it lists what the harness never does, whatever a policy or a model says, so
there is exactly one, it is always loaded, and no run can swap it out.

That is why the loader fails closed. A missing, malformed or empty pack, or
one nobody ratified, raises SafetyPackError and start-up stops. A harness
that ran without its boundaries would still produce a tidy report, and the
report would be the lie.

Ratification binds three things together (ratify.py writes them), and a
sealed report adds a fourth; ``first_broken_link`` is the one judge of all
four, for the loader at start-up and for verify and replay afterwards:

- ``seal``: the report is the one ratify writes, and its ``seal`` is the
  digest of the rest of it;
- ``pack``: the report's ``pack_id`` and ``pack_digest`` are this pack's
  (the digest of the pack without its ``ratification_digest``), so editing
  a boundary afterwards shows;
- ``report``: the pack's ``ratification_digest`` is the digest of the whole
  report, so swapping in another report, even a well-sealed one, shows;
- ``run``: a sealed report's ``safety_pack`` section names this pack, its
  digest, and ``ratified``.

A digest detects a change; it does not say who made it. Whoever can write
both files can ratify again; what ratification rests on is the review of
that commit.

While editing the pack, ``HARNESS_ALLOW_UNRATIFIED_SAFETY=1`` lets an
unratified pack load (marked ``ratified=False`` with the reason). It skips
only the ratification check: a missing, malformed or empty pack still stops
start-up.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from core.run.canon import CanonError, digest
from core.run.jsonfile import read_json, shown_path
from core.run.records import require_keys

REPO = Path(__file__).resolve().parents[2]
PACK_DIR = REPO / "data" / "packs" / "safety"
DEFAULT_SAFETY_PACK = "harness_safety_v1"
OVERRIDE_ENV = "HARNESS_ALLOW_UNRATIFIED_SAFETY"
SCHEMA_VERSION = 1

PACK_FIELDS = ("pack_id", "schema_version", "description", "boundaries", "ratification_digest")
REPORT_FIELDS = ("pack_id", "pack_digest", "boundary_ids", "statement", "seal")
SEALED_FIELDS = ("pack_id", "digest", "ratification")  # a sealed report's safety_pack section (summary)
LINKS = ("seal", "pack", "report", "run")  # first_broken_link's answers, in the order they are judged
PACK_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")  # a plain file name: no '/', no '..'
BOUNDARY_ID = re.compile(r"[a-z][a-z0-9_]*")
DIGEST = re.compile(r"[0-9a-f]{64}")
RATIFIED, UNRATIFIED = "ratified", "unratified (override)"  # the only two things a report may say of its pack


class SafetyPackError(RuntimeError):
    """The safety pack cannot be trusted, so the harness must not start.

    Deliberately not a ValueError. Code that catches ValueError turns bad
    input into a recorded refusal and carries on (the door, a command line);
    it must never swallow this by accident. A run without its safety
    boundaries is not a refusal to write down, it is a run that must not
    happen.
    """


@dataclass(frozen=True)
class SafetyPack:
    """A loaded pack: its boundaries (id -> what it forbids, sorted by id) and its ratification."""

    pack_id: str
    description: str
    boundaries: Mapping[str, str]
    ratification_digest: str
    ratified: bool
    unratified_reason: str  # "" when ratified
    digest: str = ""  # pack_digest of the document: what ratification covers

    @property
    def boundary_ids(self) -> tuple[str, ...]:
        return tuple(self.boundaries)

    @property
    def ratification(self) -> str:
        """What a report says of it: ``ratified``, or ``unratified (override)`` under the development override.

        Derived, never written: ``ratified`` only when the pack's ratification
        report checks out (``ratification_problem``), and a verifier checks it
        the same way (``pack_as_sealed``).
        """
        return RATIFIED if self.ratified else UNRATIFIED

    def summary(self) -> dict:
        """What a sealed report records of the pack it ran under."""
        return {"pack_id": self.pack_id, "digest": self.digest, "ratification": self.ratification}


def pack_path(pack_dir: Path, pack_id: str) -> Path:
    return pack_dir / f"{pack_id}.json"


def report_path(pack_dir: Path, pack_id: str) -> Path:
    return pack_dir / f"{pack_id}.ratification.json"


def pack_digest(document: dict) -> str:
    """What ratification covers: the whole pack except the link to its own report."""
    return digest({key: value for key, value in document.items() if key != "ratification_digest"})


def seal_of(report: dict) -> str:
    """The seal a report must carry: the digest of everything else in it."""
    return digest({key: value for key, value in report.items() if key != "seal"})


def load_safety_pack(pack_dir: str | Path | None = None, pack_id: str = DEFAULT_SAFETY_PACK) -> SafetyPack:
    """The ratified safety pack, or SafetyPackError: start-up stops."""
    folder = Path(pack_dir) if pack_dir is not None else PACK_DIR
    document = read_pack(folder, pack_id)
    problem = ratification_problem(folder, pack_id, document)
    if problem and os.environ.get(OVERRIDE_ENV) != "1":
        raise SafetyPackError(f"safety pack {pack_id} is not ratified: {problem}")
    return _pack(document, problem)


def _pack(document: dict, problem: str) -> SafetyPack:
    boundaries = MappingProxyType(dict(sorted(document["boundaries"].items())))
    return SafetyPack(document["pack_id"], document["description"], boundaries, document["ratification_digest"],
                      ratified=not problem, unratified_reason=problem, digest=pack_digest(document))


def pack_as_sealed(summary: object, pack_dir: str | Path | None = None) -> SafetyPack:
    """The pack a sealed report names (its ``safety_pack`` section), checked against the digest it recorded.

    Re-deriving a report's safety verdict needs the boundaries it was judged
    by; if the pack file has changed since, say so instead of judging the
    run by other boundaries. The report's ``ratification`` is checked, never
    taken at its word: ``ratified`` holds only if the pack's ratification
    report checks out here too; ``unratified (override)`` is the run's own
    admission that it ran under the development override; any other text is
    not something a run writes.
    """
    if not isinstance(summary, dict) or not isinstance(summary.get("pack_id"), str):
        raise SafetyPackError("the report names no safety pack (safety_pack.pack_id)")
    folder = Path(pack_dir) if pack_dir is not None else PACK_DIR
    document = read_pack(folder, summary["pack_id"])
    label = summary.get("ratification")
    if label == RATIFIED:
        problem = ratification_problem(folder, summary["pack_id"], document, sealed=summary)
        if problem:
            raise SafetyPackError(f"the report says safety pack {summary['pack_id']} was ratified, but it is not: "
                                  f"{problem}")
    elif label == UNRATIFIED:
        problem = "sealed under the override"
    else:
        raise SafetyPackError(f"the report's safety pack ratification {label!r:.80} is not one a run writes: "
                              f"it is derived from the pack's ratification report, {RATIFIED!r} or {UNRATIFIED!r}")
    pack = _pack(document, problem)
    if pack.digest != summary.get("digest"):
        raise SafetyPackError(f"safety pack {pack.pack_id} has changed since the report was sealed "
                              f"(digest {pack.digest[:12]}, the report says {str(summary.get('digest'))[:12]})")
    return pack


def read_pack(pack_dir: Path, pack_id: str) -> dict:
    """The pack file's content, checked for shape: missing, malformed or empty raises."""
    if not isinstance(pack_id, str) or not PACK_ID.fullmatch(pack_id):
        raise SafetyPackError(f"safety pack id {pack_id!r} is not a plain name (a-z, 0-9, '_' and '-')")
    path = pack_path(pack_dir, pack_id)
    document = read_json(path, error=SafetyPackError, what="safety pack")
    where = f"safety pack {shown_path(path)}"
    require_keys(where, document, PACK_FIELDS, error=SafetyPackError)
    if document["pack_id"] != pack_id:
        raise SafetyPackError(f"{where} names itself {document['pack_id']!r}, not {pack_id!r}")
    version = document["schema_version"]
    if isinstance(version, bool) or version != SCHEMA_VERSION:
        raise SafetyPackError(f"{where} has schema_version {version!r}; this loader reads {SCHEMA_VERSION}")
    if not isinstance(document["description"], str) or not document["description"].strip():
        raise SafetyPackError(f"{where} needs a non-empty description")
    _require_boundaries(where, document["boundaries"])
    link = document["ratification_digest"]
    if not isinstance(link, str) or not (link == "" or DIGEST.fullmatch(link)):
        raise SafetyPackError(f"{where} ratification_digest must be a sha256 hex digest or \"\", got {link!r}")
    _require_canonical(where, document)
    return document


def _require_boundaries(where: str, boundaries: object) -> None:
    if not isinstance(boundaries, dict):
        raise SafetyPackError(f"{where} boundaries must be an object of boundary id -> description")
    if not boundaries:
        raise SafetyPackError(f"{where} declares no boundaries; an empty safety pack keeps nothing")
    for boundary_id, description in boundaries.items():
        if not BOUNDARY_ID.fullmatch(boundary_id):
            raise SafetyPackError(f"{where} boundary id {boundary_id!r} is not a snake_case name")
        if not isinstance(description, str) or not description.strip():
            raise SafetyPackError(f"{where} boundary {boundary_id} needs a non-empty description")


def first_broken_link(pack: dict, ratification: object, sealed: object = None) -> str:
    """The first link that does not hold between a pack, its ratification report and a run; "" when they belong together.

    ``pack`` is a pack document (``read_pack`` checked its shape; its
    ``ratification_digest`` may be any string); ``ratification`` is whatever
    the pack's ratification report file holds, of any shape; ``sealed`` is
    whatever a sealed report holds as its ``safety_pack`` section, of any
    shape, or None when no run is in question (start-up). The answer is one
    of ``LINKS``, judged in that order because each rests on the ones before
    it, or "":

    - ``seal``: the report is an object with exactly ``REPORT_FIELDS`` and
      its seal is ``seal_of`` it; a report with no canonical JSON form
      (``CanonError``) has no seal that can hold;
    - ``pack``: its ``pack_id`` is the pack's and its ``pack_digest`` is
      ``pack_digest(pack)``: the report ratifies this very pack;
    - ``report``: the pack's ``ratification_digest`` is the digest of the
      whole report, seal included: the pack names this very report;
    - ``run`` (only when ``sealed`` is given): the section is an object with
      exactly ``SEALED_FIELDS``: the pack's id, ``pack_digest(pack)`` and
      ``RATIFIED``.

    Why a match and not a presence: a report that is there and sealed, or a
    pack that names some digest, proves nothing about this pack; only the
    digests, compared character for character (another letter case is
    another digest), tie the three together. Nothing it is handed changes,
    and it never raises.
    """
    try:
        sealed_well = (isinstance(ratification, dict) and sorted(ratification) == sorted(REPORT_FIELDS)
                       and ratification["seal"] == seal_of(ratification))
        whole = digest(ratification) if sealed_well else ""
    except CanonError:
        sealed_well = False
    if not sealed_well:
        return "seal"
    if ratification["pack_id"] != pack["pack_id"] or ratification["pack_digest"] != pack_digest(pack):
        return "pack"
    if pack["ratification_digest"] != whole:
        return "report"
    if sealed is not None and sealed != {"pack_id": pack["pack_id"], "digest": pack_digest(pack),
                                         "ratification": RATIFIED}:
        return "run"
    return ""


def ratification_problem(pack_dir: Path, pack_id: str, document: dict, sealed: object = None) -> str:
    """Why the pack is not ratified (or, given a sealed report's ``safety_pack``, not the pack that run ran under,
    ratified), or "" when ``first_broken_link`` finds every link holding."""
    if not document["ratification_digest"]:
        return "it has never been ratified (its ratification_digest is empty)"
    path = report_path(pack_dir, pack_id)
    try:
        report = read_json(path, error=SafetyPackError, what="ratification report")
    except SafetyPackError as exc:
        return str(exc)
    link = first_broken_link(document, report, sealed)
    if link == "seal":
        where = f"ratification report {shown_path(path)}"
        try:
            require_keys(where, report, REPORT_FIELDS, error=SafetyPackError)
            _require_canonical(where, report)
        except SafetyPackError as exc:
            return str(exc)
        return f"the seal of {path.name} does not match its content"
    if link == "pack":
        if report["pack_id"] != pack_id:
            return f"{path.name} ratifies another pack, {report['pack_id']!r}"
        return "the pack has changed since it was ratified"
    if link == "report":
        return f"the pack names another ratification report than {path.name}"
    if link == "run":
        return (f"the run was sealed under {_sealed_in_words(sealed)}, not under this pack "
                f"(digest {pack_digest(document)[:12]}) ratified")
    return ""


def _sealed_in_words(sealed: object) -> str:
    """A sealed report's safety_pack section in a few words, for a message."""
    if not isinstance(sealed, dict):
        return f"a safety_pack section that is no object ({type(sealed).__name__})"
    return (f"pack {str(sealed.get('pack_id'))[:40]!r} with digest {str(sealed.get('digest'))[:12]} "
            f"and ratification {str(sealed.get('ratification'))[:40]!r}")


def _require_canonical(where: str, data: object) -> None:
    """Digests are taken over canonical JSON; NaN or a lone surrogate has none."""
    try:
        digest(data)
    except CanonError as exc:
        raise SafetyPackError(f"{where} has no canonical JSON form: {exc}") from None


# --- trying an edit: start-up's answer, the override and a copy of the pack ----------------------
# A developer edits the pack, sees start-up stop, and ratifies; the lesson's demo and notebook do the
# same on a temporary copy, so the committed files are only ever read.


def start_up(pack_dir: str | Path | None = None) -> dict:
    """What start-up does with the pack in ``pack_dir``, as data: it starts, with what it loaded, or stops, with why.

    ``{"starts": True, "ratified", "ratification", "unratified_reason",
    "boundary_ids"}`` or ``{"starts": False, "error"}``. The error shows no
    absolute path (jsonfile.shown_path): a pack in a temporary folder is
    named by its file name, so the answer reads the same on every machine.
    """
    try:
        pack = load_safety_pack(pack_dir)
    except SafetyPackError as exc:
        return {"starts": False, "error": str(exc)}
    return {"starts": True, "ratified": pack.ratified, "ratification": pack.ratification,
            "unratified_reason": pack.unratified_reason, "boundary_ids": list(pack.boundary_ids)}


@contextmanager
def overridden(value: str | None) -> Iterator[None]:
    """Run a block with the development override (``OVERRIDE_ENV``) set to ``value``, or unset for None.

    Whatever the shell had is put back afterwards: a demo shows what a real
    start-up does whatever the terminal it runs in has set.
    """
    before = os.environ.get(OVERRIDE_ENV)
    _set_override(value)
    try:
        yield
    finally:
        _set_override(before)


def _set_override(value: str | None) -> None:
    if value is None:
        os.environ.pop(OVERRIDE_ENV, None)
    else:
        os.environ[OVERRIDE_ENV] = value


@contextmanager
def pack_copy() -> Iterator[Path]:
    """A temporary copy of the committed pack folder, to edit and ratify; the committed files are never written."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "safety"
        shutil.copytree(PACK_DIR, folder)
        yield folder


def on_a_copy(edit: Callable[[Path], object], override: str | None = None,
              then: Callable[[Path], object] = start_up) -> object:
    """What ``then`` makes of a fresh copy of the committed pack after ``edit(folder)`` changed it: by default,
    what start-up does with it. The override is set to ``override`` meanwhile (None: unset)."""
    with pack_copy() as folder, overridden(override):
        edit(folder)
        return then(folder)
