"""Journal: a run's ledger written ahead to disk, so that a killed run can be carried on.

The door keeps its ledger in the process's memory. Kill the process and the
ledger dies with it: the act that was under way, the held act waiting for
its review, everything the run learned. A journal is the door's ``sink``
(recorder.py): the door hands it each event's canonical bytes as it writes
the event, and the journal appends them to a file as one line, flushed and
fsynced, before the door answers. So what the ledger says happened is on
disk before anything acts on it: the unresolved outcome that says an act
was started is on disk before its request leaves the process.

The file is one JSON line per entry, the events chained as a sealed
report's ledger is (seal.py: ``chain_start`` and ``chain_link``, the same
formula):

    line 1      {"execution": E, "journal": "harness-journal/2", "run": {<the run's identity>}}
    an event    {"chain": h_i, "event": <event i, exactly the bytes the door wrote>}
    a memory    {"memory": M}

``execution`` is a random value made when the journal starts: this
execution's, so that its idempotency keys are its own (drive.idempotency_key).
A resume reuses it; a fresh run, journal or not, makes another. It never
enters the ledger, so it is in no report, capture or artifact. A
``memory`` line names the memory a target showed holding this execution's
keys (drive.Target), written before the request it went with; it is not an
event and not chained, so the journal's chain stays the sealed report's.

``read`` checks every line and names the first that does not hold (not a
line, not canonical, or a chain hash that does not follow from the lines
before it). A file whose first line is not a journal's header, an empty
file too, is not a journal (``NotAJournal``), and nothing writes to it. A
last line with no end of line is a write that a kill cut short, unless it
is a whole line that holds (only its end of line is missing): a cut one
was never answered by the door, so nothing acted on it, and it is dropped
with a note (``torn``) that the resumed run records.

What the chain gives, and what it does not: like lesson 9's keyless chain, it
shows an edit that did not recompute the hashes, and it cannot stop one that
did. So resuming (``drive.resume``) trusts a journal's lines only as far as
a fresh door decides each one the same way again, an approval only if the
operator's configuration holds it, and a note only if it is word for word
one a resumption writes (``is_note``). The journal promises consistency
after a crash, not evidence of tampering: whoever can write it can delete
its tail, and a resume then sends those acts again; what stops them acting
twice is the target's memory of their keys, and what shows the cut is a
head published elsewhere. This module only reads and writes the file, and
says where a resumed run can restart (``restart_point``).

Without a journal nothing here runs, and a run is exactly what it was.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.run.canon import CanonError, canonical_bytes, canonical_object
from core.run.jsonfile import parse_json, read_bytes, shown_path
from core.run.records import shown
from core.run.seal import chain_link, chain_start

FORMAT = "harness-journal/2"
HEADER_FIELDS = ("execution", "journal", "run")
LINE_START, LINE_MIDDLE = b'{"chain":"', b'","event":'  # a line is canonical JSON: "chain" sorts first
MEMORY_START = b'{"memory":'
HEX = frozenset(b"0123456789abcdef")
EXECUTION = re.compile(r"[0-9a-f]{32}")
MEMORY = re.compile(r"[0-9A-Za-z._:-]{1,128}")  # what a target may call the memory that holds its keys

# The refusals a resumed run writes as notes (the caller's own: doors.CODES lists them with the rest).
CODES = {
    "journal_torn_line": "the journal's last line was cut short by a kill; it was dropped (a note on resume)",
    "journal_not_trusted": "a journal line a fresh door decides otherwise, a review the operator's "
                           "configuration does not hold, or a note no resumption wrote; the run resumed "
                           "before it (a note on resume)",
    "in_doubt_for_a_person": "an act in doubt after a restart that is consequential, against a target that "
                             "does not show the memory its key was sent to: not sent again; a person must "
                             "settle it",
}
# Each note's words, the kind it is written as and who writes it: a resumption's own, nothing from the file.
NOTES = {
    "journal_torn_line": ("journal", "drive.resume", "journal line {line} was cut short by a kill ({size} bytes, "
                          "no end of line); the door never answered it, so nothing acted on it: dropped"),
    "journal_not_trusted": ("journal", "drive.resume",
                            "journal line {line}: {why}: not trusted, and the run resumed before it"),
    "in_doubt_for_a_person": ("outcome", "drive.carry_on", "{act} is in doubt after a restart, and the target "
                              "does not show the memory its key was sent to, so it is not sent again: a person "
                              "must settle it"),
}
DISTRUST = ("a fresh door decides this event otherwise", "a review the operator's configuration does not hold",
            "a note no resumption wrote")  # every reason a line is not trusted, as its note says it
ACT_KINDS = ("action", "outcome", "capture")  # what an act leaves in the ledger once the door admits it


class JournalError(ValueError):
    """A journal that cannot be written or carried on; the message names the file and the line."""


class NotAJournal(JournalError):
    """A file named as a journal whose first line is not a journal's header (an empty file too): never written."""


def note(code: str, **fields: object) -> str:
    """The words of the note ``code`` with its ``fields`` (NOTES): what a resumption writes, and all it writes."""
    return NOTES[code][2].format(**fields)


def is_note(event: dict, known_act: Callable[[str], bool]) -> bool:
    """Whether ``event`` is word for word a note a resumption writes: its code's kind, writer and words.

    A line number, a byte count and one of ``DISTRUST``'s reasons are the
    only things a note's words leave open, and an act it names must be one
    ``known_act`` admits: a note carries nothing else from the file.
    """
    code = event.get("code")
    kind, by, words = NOTES.get(code, (None, None, "")) if isinstance(code, str) else (None, None, "")
    if kind is None or event.get("kind") != kind or event.get("by") != f"caller: {by}" or \
            event.get("status") != "refused" or not isinstance(event.get("reason"), str):
        return False
    pattern = re.escape(words).replace(r"\{line\}", r"([1-9][0-9]{0,11})").replace(r"\{size\}", r"([1-9][0-9]{0,11})")
    pattern = pattern.replace(r"\{why\}", "(" + "|".join(re.escape(why) for why in DISTRUST) + ")")
    pattern = pattern.replace(r"\{act\}", r"(.{1,2000}?)")
    found = re.fullmatch(pattern, event["reason"])
    return found is not None and (kind != "outcome" or known_act(found.group(1)))


def new_execution() -> str:
    """A fresh execution's value: random, so that no other execution's keys are ever its keys."""
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Read:
    """A journal as read back: its run and execution, each event (parsed, and as its exact bytes), the memories
    named, and where each event's lines end.

    ``heads[i]`` is the chain hash after event i + 1; ``ends[i]`` is the
    file offset just after event i + 1's line and the memory lines after it
    (``ends[0]`` is the header's and its memories'), so the file can be cut
    back to any whole event. ``memories`` holds (how many events came
    before it, the memory) for each memory line. ``torn`` says what was
    dropped from the end, or is ""; ``open_end`` says that the last line
    kept is whole but has no end of line yet.
    """

    path: Path
    run: dict
    execution: str
    events: tuple[dict, ...]
    event_bytes: tuple[bytes, ...]
    heads: tuple[str, ...]
    ends: tuple[int, ...]
    memories: tuple[tuple[int, str], ...]
    torn: str
    open_end: bool = False


class Journal:
    """The sink that writes a run's journal: one chained line per event, on disk before the door answers.

    It holds the execution's value too (``execution``) and the memories
    targets showed (``memories``, written by ``remember``): what
    drive.Target needs of an execution. The file is locked while a journal
    writes it (``flock``), so two processes never append to one journal; a
    killed process's lock goes with it.
    """

    def __init__(self, path: Path, descriptor: int, head: str, execution: str,
                 memories: Sequence[tuple[int, str]] = (), events: int = 0) -> None:
        self.path, self._descriptor, self.head = path, descriptor, head
        self.execution, self.memories, self.events = execution, list(memories), events

    @classmethod
    def start(cls, path: str | Path, run: dict) -> Journal:
        """A new journal at ``path`` for ``run`` (its identity, ``Run.to_dict()``), with a fresh execution;
        never over an existing file."""
        path = Path(path)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except FileExistsError:
            raise JournalError(f"{shown_path(path)} already exists: carry that run on with --resume, "
                               "or name another journal") from None
        except OSError as exc:
            raise JournalError(f"{shown_path(path)}: cannot be created ({exc.strerror or exc})") from None
        execution = new_execution()
        journal = cls(path, _locked(descriptor, path), chain_start(run["run_id"]), execution)
        journal._write(header_bytes(run, execution))
        _sync_folder(path)  # the file's name is on disk too, not only its bytes
        return journal

    @classmethod
    def reopen(cls, path: str | Path) -> tuple[Journal, Read]:
        """The journal at ``path``, locked for this process, and what it holds (``read``); ``cut_back`` before writing.

        A file that is not a journal (``NotAJournal``) is only read: nothing is written to it.
        """
        path = Path(path)
        try:  # without waiting: a FIFO with no reader fails at once, and the reader refuses one with a reader
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            read(path)  # missing, a folder, a link that loops, a FIFO: the reader's own line says which
            raise JournalError(f"{shown_path(path)}: cannot be opened ({exc.strerror or exc})") from None
        try:
            locked = _locked(descriptor, path)
            found = read(path)
        except BaseException:
            os.close(descriptor)
            raise
        return cls(path, locked, "", found.execution), found

    def cut_back(self, read: Read, keep: int) -> None:
        """Cut the file back to its header and first ``keep`` events (with the memories after each), and write on
        from there."""
        whole = keep == len(read.events) and read.open_end
        try:
            os.truncate(self.path, read.ends[keep] - 1 if whole else read.ends[keep])
            os.fsync(self._descriptor)
        except OSError as exc:
            raise JournalError(f"{shown_path(self.path)}: cannot be carried on ({exc.strerror or exc})") from None
        if whole:  # a whole last line that had lost only its end of line gets it back
            self._write(b"")
        self.head = read.heads[keep - 1] if keep else chain_start(read.run["run_id"])
        self.memories, self.events = [(at, memory) for at, memory in read.memories if at <= keep], keep

    def __call__(self, event: bytes) -> None:
        """Append ``event`` as the next chained line and make it durable; a failure raises, so the run stops."""
        head = chain_link(self.head, event)
        self._write(canonical_object({"chain": canonical_bytes(head), "event": event}))
        self.head, self.events = head, self.events + 1

    def remember(self, memory: str) -> None:
        """Write ahead that a target showed ``memory`` holding this execution's keys, after the events so far."""
        if not isinstance(memory, str) or not MEMORY.fullmatch(memory):
            raise JournalError(f"{shown(memory)} is not a memory a journal records")
        self._write(canonical_bytes({"memory": memory}))
        self.memories.append((self.events, memory))

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


def header_bytes(run: dict, execution: str) -> bytes:
    """The journal's first line: its format, the identity of the run it belongs to, and its execution."""
    return canonical_bytes({"execution": execution, "journal": FORMAT, "run": dict(run)})


def read(path: str | Path) -> Read:
    """The journal at ``path``, every line checked; JournalError names the first line that does not hold.

    NotAJournal when its first line is not a journal's header (an empty
    file too). A last line without its end of line is kept if it is a whole
    line that holds, and otherwise dropped as a write a kill cut short
    (``torn`` says so).
    """
    path = Path(path)
    name = shown_path(path)
    data = read_bytes(path, error=JournalError, what="journal")
    lines = data.split(b"\n")
    run, execution = _header(name, lines[0])
    last = len(lines) - 1 if lines[-1] else None  # the file does not end with an end of line
    events, event_bytes, heads, ends, memories = [], [], [], [len(lines[0]) + 1], []
    head, torn, open_end = chain_start(run["run_id"]), "", last == 0
    for number, line in enumerate(lines[1:], start=2):
        if number - 1 == len(lines) - 1 and not line:
            break  # the end of the file, after its last end of line
        try:
            if line.startswith(MEMORY_START):
                memories.append((len(events), _memory(name, number, line)))
            else:
                event, head = _line(name, number, line, head, len(events) + 1)
                events.append(event)
                event_bytes.append(line[len(LINE_START) + 64 + len(LINE_MIDDLE):-1])
                heads.append(head)
                ends.append(ends[-1])
        except JournalError:
            if number - 1 != last:
                raise
            torn = note("journal_torn_line", line=number, size=len(line))  # its last write never finished
            break
        ends[-1] += len(line) + 1
        open_end = number - 1 == last
    return Read(path, run, execution, tuple(events), tuple(event_bytes), tuple(heads), tuple(ends),
                tuple(memories), torn, open_end)


def _header(name: str, line: bytes) -> tuple[dict, str]:
    """The run and execution line 1 names; NotAJournal when it is not a whole header of this format."""
    def refuse(why: str) -> NotAJournal:
        return NotAJournal(f"{name} is not a journal: {why}; nothing was written to it")

    if not line:
        raise refuse("its first line is empty, not a journal's header")
    try:
        header = _parsed(name, 1, line)
    except JournalError:
        raise refuse("its first line is not a journal's header") from None
    if not isinstance(header, dict) or sorted(header) != list(HEADER_FIELDS) or header["journal"] != FORMAT:
        raise refuse(f"its first line is not the header of a {FORMAT} journal")
    run, execution = header["run"], header["execution"]
    if not isinstance(run, dict) or not isinstance(run.get("run_id"), str) or \
            not isinstance(execution, str) or not EXECUTION.fullmatch(execution):
        raise refuse("its header names no run or no execution")
    if _canonical(header) != line:
        raise refuse("its header is not in canonical form, so it was edited")
    return run, execution


def _line(name: str, number: int, line: bytes, prev: str, seq: int) -> tuple[dict, str]:
    """Event ``seq`` and its chain hash, or JournalError saying what is wrong with line ``number``."""
    where = f"{name} line {number}"
    start, middle = len(LINE_START), len(LINE_START) + 64
    if not (line.startswith(LINE_START) and line[middle:].startswith(LINE_MIDDLE) and line.endswith(b"}")
            and set(line[start:middle]) <= HEX):
        raise JournalError(f"{where}: not a journal line (a chain hash, then an event; or a memory)")
    event_bytes = line[middle + len(LINE_MIDDLE):-1]
    event = _parsed(name, number, event_bytes)
    if not isinstance(event, dict) or _canonical(event) != event_bytes:
        raise JournalError(f"{where}: its event is not an object in canonical form, so it was edited")
    if event.get("seq") != seq:
        raise JournalError(f"{where}: event {shown(event.get('seq'))} where event {seq} belongs "
                           "(lines removed, moved or added)")
    head = chain_link(prev, event_bytes)
    if line[start:middle].decode("ascii") != head:
        raise JournalError(f"{where}: its chain hash does not follow from the lines before it "
                           "(the line was edited, or it belongs to another journal)")
    return event, head


def _memory(name: str, number: int, line: bytes) -> str:
    """The memory a memory line names, or JournalError saying what is wrong with it."""
    entry = _parsed(name, number, line)
    if not isinstance(entry, dict) or list(entry) != ["memory"] or not isinstance(entry["memory"], str) \
            or not MEMORY.fullmatch(entry["memory"]) or _canonical(entry) != line:
        raise JournalError(f"{name} line {number}: not a memory line in canonical form, so it was edited")
    return entry["memory"]


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


def memory_at(memories: Sequence[tuple[int, str]], events: int) -> str:
    """The memory last named after at most ``events`` events ("" if none): the one a request sent then went to."""
    named = [memory for at, memory in memories if at <= events]
    return named[-1] if named else ""


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
    resumed run wrote is kept (``events`` are trusted ones: drive.trusted
    keeps a note only when it is one, ``is_note``), so a second kill does
    not lose it.
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
