"""Journal: a run's ledger written ahead to disk, so that a killed run can be carried on.

The door keeps its ledger in the process's memory. Kill the process and the
ledger dies with it: the act that was under way, the held act waiting for
its review, everything the run learned. A journal is the door's ``sink``
(recorder.py): the door hands it each event's canonical bytes as it writes
the event, and the journal appends them to a file as one line, flushed and
fsynced, before the door answers. So what the ledger says happened is on
disk before anything acts on it: the unresolved outcome that says an act
was started is on disk before its request leaves the process.

The file is one JSON line per entry, chained as a sealed report's ledger is
(seal.py: ``chain_start`` and ``chain_link``, the same formula):

    line 1      {"journal": "harness-journal/1", "run": {<the run's identity>}}
    line i + 1  {"chain": h_i, "event": <event i, exactly the bytes the door wrote>}

``read`` checks every line and names the first that does not hold (not a
line, not canonical, or a chain hash that does not follow from the lines
before it). A last line with no end of line is a write that a kill cut
short: the door never answered it, so nothing acted on it, and it is
dropped with a note (``torn``) that the resumed run records.

What the chain gives, and what it does not: like lesson 9's keyless chain, it
shows an edit that did not recompute the hashes, and it cannot stop one that
did. So resuming (``drive.resume``) trusts a journal's lines only as far as
a fresh door decides each one the same way again, and an approval only if
the operator's configuration holds it; this module only reads and writes
the file, and says where a resumed run can restart (``restart_point``).

Without a journal nothing here runs, and a run is exactly what it was.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.run.canon import CanonError, canonical_bytes, canonical_object
from core.run.jsonfile import parse_json, read_bytes, shown_path
from core.run.records import shown
from core.run.seal import chain_link, chain_start

FORMAT = "harness-journal/1"
HEADER_FIELDS = ("journal", "run")
LINE_START, LINE_MIDDLE = b'{"chain":"', b'","event":'  # a line is canonical JSON: "chain" sorts first
HEX = frozenset(b"0123456789abcdef")

# The refusals a resumed run writes as notes (the caller's own: doors.CODES lists them with the rest).
CODES = {
    "journal_torn_line": "the journal's last line was cut short by a kill; it was dropped (a note on resume)",
    "journal_not_trusted": "a journal line a fresh door decides otherwise, or a review the operator's "
                           "configuration does not hold; the run resumed before it (a note on resume)",
    "in_doubt_for_a_person": "an act in doubt after a restart that is consequential, against a target that "
                             "does not deduplicate: not sent again; a person must settle it",
}
ACT_KINDS = ("action", "outcome", "capture")  # what an act leaves in the ledger once the door admits it


class JournalError(ValueError):
    """A journal that cannot be written or carried on; the message names the file and the line."""


@dataclass(frozen=True)
class Read:
    """A journal as read back: its run, each event (parsed, and as its exact bytes), and where each line ends.

    ``heads[i]`` is the chain hash after event i + 1; ``ends[i]`` is the
    file offset just after line i + 1 (``ends[0]`` is the header's end), so
    the file can be cut back to any whole line. ``torn`` says what was
    dropped from the end, or is "".
    """

    path: Path
    run: dict | None  # None when even the header was cut short: the run had not begun
    events: tuple[dict, ...]
    event_bytes: tuple[bytes, ...]
    heads: tuple[str, ...]
    ends: tuple[int, ...]
    torn: str


class Journal:
    """The sink that writes a run's journal: one chained line per event, on disk before the door answers.

    The file is locked while a journal writes it (``flock``), so two
    processes never append to one journal; a killed process's lock goes with it.
    """

    def __init__(self, path: Path, descriptor: int, head: str) -> None:
        self.path, self._descriptor, self.head = path, descriptor, head

    @classmethod
    def start(cls, path: str | Path, run: dict) -> Journal:
        """A new journal at ``path`` for ``run`` (its identity, ``Run.to_dict()``); never over an existing file."""
        path = Path(path)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except FileExistsError:
            raise JournalError(f"{shown_path(path)} already exists: carry that run on with --resume, "
                               "or name another journal") from None
        except OSError as exc:
            raise JournalError(f"{shown_path(path)}: cannot be created ({exc.strerror or exc})") from None
        journal = cls(path, _locked(descriptor, path), chain_start(run["run_id"]))
        journal._write(header_bytes(run))
        _sync_folder(path)  # the file's name is on disk too, not only its bytes
        return journal

    @classmethod
    def reopen(cls, path: str | Path) -> tuple[Journal, Read]:
        """The journal at ``path``, locked for this process, and what it holds (``read``); ``cut_back`` before writing."""
        path = Path(path)
        try:  # without waiting: a FIFO with no reader fails at once, and the reader refuses one with a reader
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            read(path)  # missing, a folder, a link that loops, a FIFO: the reader's own line says which
            raise JournalError(f"{shown_path(path)}: cannot be opened ({exc.strerror or exc})") from None
        try:
            return cls(path, _locked(descriptor, path), ""), read(path)
        except BaseException:
            os.close(descriptor)
            raise

    def cut_back(self, read: Read, keep: int, run: dict) -> None:
        """Cut the file back to its header and first ``keep`` events, and write on from there.

        A journal whose header was cut short starts again with a new header.
        """
        try:
            os.truncate(self.path, 0 if read.run is None else read.ends[keep])
            os.fsync(self._descriptor)
        except OSError as exc:
            raise JournalError(f"{shown_path(self.path)}: cannot be carried on ({exc.strerror or exc})") from None
        self.head = read.heads[keep - 1] if keep else chain_start(run["run_id"])
        if read.run is None:
            self._write(header_bytes(run))

    def __call__(self, event: bytes) -> None:
        """Append ``event`` as the next chained line and make it durable; a failure raises, so the run stops."""
        head = chain_link(self.head, event)
        self._write(canonical_object({"chain": canonical_bytes(head), "event": event}))
        self.head = head

    def close(self) -> None:
        os.close(self._descriptor)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _write(self, line: bytes) -> None:
        data = memoryview(line + b"\n")
        while data:  # one write almost always; a short one is finished before the door answers
            data = data[os.write(self._descriptor, data):]
        os.fsync(self._descriptor)


def header_bytes(run: dict) -> bytes:
    """The journal's first line: its format and the identity of the run it belongs to."""
    return canonical_bytes({"journal": FORMAT, "run": dict(run)})


def read(path: str | Path) -> Read:
    """The journal at ``path``, every line checked; JournalError names the first line that does not hold.

    A last line without its end of line (a write a kill cut short) is
    dropped, and ``torn`` says so.
    """
    path = Path(path)
    name = shown_path(path)
    data = read_bytes(path, error=JournalError, what="journal")
    lines = data.split(b"\n")
    torn = ""
    if lines[-1]:  # the file does not end with an end of line: its last write never finished
        torn = (f"{name} line {len(lines)} was cut short by a kill ({len(lines[-1])} bytes, no end of line); "
                "the door never answered it, so nothing acted on it: dropped")
    whole = lines[:-1]
    if not whole:
        return Read(path, None, (), (), (), (0,), torn)
    run = _header(name, whole[0])
    events, event_bytes, heads, ends = [], [], [], [len(whole[0]) + 1]
    head = chain_start(run["run_id"])
    for number, line in enumerate(whole[1:], start=2):
        event, head = _line(name, number, line, head)
        events.append(event)
        event_bytes.append(line[len(LINE_START) + 64 + len(LINE_MIDDLE):-1])
        heads.append(head)
        ends.append(ends[-1] + len(line) + 1)
    return Read(path, run, tuple(events), tuple(event_bytes), tuple(heads), tuple(ends), torn)


def _header(name: str, line: bytes) -> dict:
    header = _parsed(name, 1, line)
    if not isinstance(header, dict) or sorted(header) != list(HEADER_FIELDS) or header["journal"] != FORMAT:
        raise JournalError(f"{name} line 1: not the header of a {FORMAT} journal")
    run = header["run"]
    if not isinstance(run, dict) or not isinstance(run.get("run_id"), str):
        raise JournalError(f"{name} line 1: the header names no run")
    if _canonical(header) != line:
        raise JournalError(f"{name} line 1: not in canonical form, so it was edited")
    return run


def _line(name: str, number: int, line: bytes, prev: str) -> tuple[dict, str]:
    """Event ``number - 1`` and its chain hash, or JournalError saying what is wrong with the line."""
    where = f"{name} line {number}"
    start, middle = len(LINE_START), len(LINE_START) + 64
    if not (line.startswith(LINE_START) and line[middle:].startswith(LINE_MIDDLE) and line.endswith(b"}")
            and set(line[start:middle]) <= HEX):
        raise JournalError(f"{where}: not a journal line (a chain hash, then an event)")
    event_bytes = line[middle + len(LINE_MIDDLE):-1]
    event = _parsed(name, number, event_bytes)
    if not isinstance(event, dict) or _canonical(event) != event_bytes:
        raise JournalError(f"{where}: its event is not an object in canonical form, so it was edited")
    if event.get("seq") != number - 1:
        raise JournalError(f"{where}: event {shown(event.get('seq'))} where event {number - 1} belongs "
                           "(lines removed, moved or added)")
    head = chain_link(prev, event_bytes)
    if line[start:middle].decode("ascii") != head:
        raise JournalError(f"{where}: its chain hash does not follow from the lines before it "
                           "(the line was edited, or it belongs to another journal)")
    return event, head


def _parsed(name: str, number: int, data: bytes) -> object:
    try:
        return parse_json(data.decode("utf-8"), error=JournalError)
    except UnicodeDecodeError:
        raise JournalError(f"{name} line {number}: not UTF-8 text") from None
    except JournalError as exc:
        raise JournalError(f"{name} line {number}: {exc}") from None


def _canonical(value: object) -> bytes | None:
    try:
        return canonical_bytes(value)
    except (CanonError, RecursionError, ValueError):
        return None


def restart_point(events: Sequence[dict]) -> int:
    """How many of ``events`` a resumed run keeps: up to the last act's event, the last stage move or the last note.

    An act leaves events the door admitted (its action, outcomes and
    capture) and may have reached the target after each: those are kept, and
    the driver carries that act on instead of starting it again. A close
    (finished or aborted) is kept: the run is over. Everything after the
    later of those and the last stage move is the driver's own
    bookkeeping (observations, a model call and its proposals, a selection,
    a held act's review read from the configuration, a finding, a verdict,
    a credit), which a fresh door decides again the same way: it is dropped,
    and the driver does that step again from the stage's start. A note a
    resumed run wrote is kept, so a second kill does not lose it.
    """
    for position in range(len(events), 0, -1):
        event = events[position - 1]
        admitted = event.get("status") == "admitted"
        if admitted and event.get("kind") in (*ACT_KINDS, "transition", "close") or event.get("code") in CODES:
            return position
    return 0


def _locked(descriptor: int, path: Path) -> int:
    """``descriptor``, once this process holds the file's lock; JournalError if another process holds it."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise JournalError(f"{shown_path(path)} is being written by another run (its lock is held)") from None
    return descriptor


def _sync_folder(path: Path) -> None:
    """fsync the folder that holds ``path``, so that a new file survives a crash (where the system allows it)."""
    try:
        descriptor = os.open(path.resolve().parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
