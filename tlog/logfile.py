"""The log file: every sealed run's head, one line each, in plain text a person can read.

    tlog/v1 lab.example/harness-course/log
    leaf 0 run 6f1d...e2 head 336e...4c root 9a0b...17
    leaf 1 run b84e...7e head 393d...5d root 4c2e...a8

The first line names the format and the log's origin. Each leaf line holds
its index, the run's identifier, the sealed report's head, and the tree's
root after that leaf, all in hex. The leaf is the run identifier's 32 bytes
followed by the head's 32 bytes, so the tree commits to which run each head
belongs to, not only to the heads: a forger who relabels a leaf changes the
root. A leaf's hash is RFC 6962's, SHA-256(0x00 || run id || head).

Reading refuses, in one line naming the line, a file that is torn (its last
line has no end: a write that did not finish) or edited (a line that is not
a leaf line, a leaf out of place, a run with two leaves, or a root that does
not follow from the leaves above it). The roots catch an edit by hand; they
do not stop someone who recomputes them: that is what signed checkpoints,
a witness and a kept checkpoint are for.

One leaf per run: appending the head a run already has changes nothing, and
a different head for a run already in the log is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.run import jsonfile
from tlog import files, merkle

FORMAT = "tlog/v1"
MAX_LOG_BYTES = 64 << 20  # about 300,000 leaves; a bigger file is refused unread
_HEADER = re.compile(rf"{re.escape(FORMAT)} ([^\s+]+)")
_HEX = "[0-9a-f]{64}"
_LEAF = re.compile(rf"leaf (0|[1-9][0-9]*) run ({_HEX}) head ({_HEX}) root ({_HEX})")


class LogError(ValueError):
    """The log file is torn or edited, or an append is refused; the message says where and why."""


@dataclass(frozen=True)
class Entry:
    """One sealed run in the log: its identifier and its report's head, each 64 hex digits."""

    run_id: str
    head: str

    def __post_init__(self) -> None:
        for name in ("run_id", "head"):
            value = getattr(self, name)
            if not isinstance(value, str) or not re.fullmatch(_HEX, value):
                raise LogError(f"a {name.replace('_', ' ')} in the log is 64 lowercase hex digits, not {value!r:.80}")

    def leaf_data(self) -> bytes:
        return bytes.fromhex(self.run_id) + bytes.fromhex(self.head)

    def leaf_hash(self) -> bytes:
        return merkle.leaf_hash(self.leaf_data())


@dataclass
class Log:
    """A log in memory: its origin and its entries, with their leaf hashes and running roots."""

    origin: str
    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.leaves = [entry.leaf_hash() for entry in self.entries]
        self.roots = list(merkle.running_roots(self.leaves))

    @property
    def size(self) -> int:
        return len(self.entries)

    def root(self, size: int | None = None) -> bytes:
        """The root of the tree of the first ``size`` leaves (all of them by default)."""
        size = self.size if size is None else self._size(size)
        return self.roots[size - 1] if size else merkle.EMPTY_ROOT

    def index_of(self, run_id: str) -> int | None:
        for index, entry in enumerate(self.entries):
            if entry.run_id == run_id:
                return index
        return None

    def append(self, entry: Entry) -> tuple[int, bool]:
        """Add ``entry``: its leaf index, and whether the log changed (False: it held this head already)."""
        index = self.index_of(entry.run_id)
        if index is not None:
            held = self.entries[index].head
            if held == entry.head:
                return index, False
            raise LogError(f"refused: run {entry.run_id[:12]} is leaf {index} with head {held[:12]}; "
                           f"a second head ({entry.head[:12]}) for one run is not appended")
        self.entries.append(entry)
        self.leaves.append(entry.leaf_hash())
        self.roots.append(merkle.tree_root(self.leaves))
        return self.size - 1, True

    def inclusion_path(self, index: int, size: int | None = None) -> list[bytes]:
        return merkle.inclusion_path(index, self.leaves[:self._size(size)])

    def consistency_path(self, old_size: int, size: int | None = None) -> list[bytes]:
        return merkle.consistency_path(old_size, self.leaves[:self._size(size)])

    def _size(self, size: int | None) -> int:
        if size is None:
            return self.size
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= self.size:
            raise LogError(f"the log has {self.size} leaves; it has no tree of size {size}")
        return size

    def text(self) -> str:
        lines = [f"{FORMAT} {self.origin}"]
        lines += [f"leaf {i} run {e.run_id} head {e.head} root {root.hex()}"
                  for i, (e, root) in enumerate(zip(self.entries, self.roots))]
        return "\n".join(lines) + "\n"


def parse_log(text: str, where: str = "the log") -> Log:
    """The log written in ``text``; LogError naming the first line that is torn or edited."""
    if not text:
        raise LogError(f"{where} is empty: torn (not even its first line was written)")
    lines = text.split("\n")
    if lines[-1] != "":
        raise LogError(f"{where}: line {len(lines)} is torn: it has no end (a write that did not finish)")
    lines.pop()
    header = _HEADER.fullmatch(lines[0])
    if not header:
        raise LogError(f"{where}: line 1 is not '{FORMAT} ORIGIN': not a log file, or its first line was edited")
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    leaves: list[bytes] = []
    roots = merkle.running_roots(leaves)  # a generator over the list: it reaches each leaf once it is appended
    for number, line in enumerate(lines[1:], start=2):
        leaf = _LEAF.fullmatch(line)
        if not leaf:
            raise LogError(f"{where}: line {number} is not a leaf line ('leaf N run HEX head HEX root HEX'): "
                           "edited, or torn")
        index, run_id, head, root = int(leaf.group(1)), leaf.group(2), leaf.group(3), leaf.group(4)
        if index != len(entries):
            raise LogError(f"{where}: line {number} holds leaf {index} where leaf {len(entries)} belongs "
                           "(a leaf was removed, moved or added)")
        if run_id in seen:
            raise LogError(f"{where}: line {number}: run {run_id[:12]} is already leaf {seen[run_id]} "
                           "(one leaf per run)")
        entry = Entry(run_id, head)
        leaves.append(entry.leaf_hash())
        if next(roots).hex() != root:
            raise LogError(f"{where}: line {number}: its root does not follow from the leaves up to it "
                           "(a head, a run or a root was edited)")
        seen[run_id] = index
        entries.append(entry)
    return Log(header.group(1), entries)


def read_log(path: str | Path) -> Log:
    """The log in the file at ``path``; LogError with one line for a file that is missing, torn or edited."""
    path = Path(path)
    data = jsonfile.read_bytes(path, error=LogError, what="log file", limit=MAX_LOG_BYTES)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise LogError(f"{jsonfile.shown_path(path)}: byte {exc.start} is not ASCII: not a log file, "
                       "or edited") from None
    return parse_log(text, jsonfile.shown_path(path))


def write_log(path: str | Path, log: Log) -> None:
    """Write ``log`` in one step: the new file replaces the old whole, so no reader sees half of it."""
    files.replace(path, log.text(), encoding="ascii")
