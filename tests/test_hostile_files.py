"""Every command the README names answers every hostile file with one line on stderr and its own exit status.

A table of commands (each one place a command reads a file: an argument or
an option, every other file a good one) crossed with a table of hostile
files: a device that never ends (/dev/zero), a FIFO no one writes to, a
symbolic link that loops, a folder, a missing path, 200,000 ``[``, a file
over every size cap, and bytes that are not UTF-8. Each command runs as a
subprocess in a temporary folder, its memory capped, within a timeout: a
hang or a kernel kill is a failure like a traceback is.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.run.jsonfile import MAX_FILE_BYTES

from .tlog_helpers import write_demo_folder

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "data" / "course" / "report.json"
CONFIG = REPO / "data" / "policy" / "training-authorization-0001.json"
MEMORY = 1 << 30  # each command runs under 1 GiB of address space
TIMEOUT = 60  # far beyond any one-line answer; a FIFO waited on never answers


def _make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _make_loop(path: Path) -> Path:
    path.symlink_to(path.name + ".other")
    path.with_name(path.name + ".other").symlink_to(path.name)
    return path


def _make_huge(path: Path) -> Path:
    with open(path, "wb") as file:  # sparse: no disk and no time, but every cap is below its size
        file.truncate(MAX_FILE_BYTES + 1)
    return path


def _unreadable(path: Path) -> Path:
    path.write_text("{}\n")
    path.chmod(0)
    return path


def _write(data: bytes):
    def make(path: Path) -> Path:
        path.write_bytes(data)
        return path
    return make


HOSTILE = {
    "/dev/zero": lambda path: Path("/dev/zero"),
    "a FIFO": _make_fifo,
    "a symlink loop": _make_loop,
    "a folder": lambda path: (path.mkdir(), path)[1],
    "a missing path": lambda path: path,
    "200,000 [": _write(b"[" * 200_000 + b"\n"),  # a whole line: a journal reads it too
    "a file over the cap": _make_huge,
    "non-UTF-8 bytes": _write(b'{"\xff\xfe": "\xc3\x28"}\n'),
}
if os.geteuid() != 0:  # root reads any file, so only another user meets this one
    HOSTILE["a file it may not read"] = _unreadable


@dataclass(frozen=True)
class Command:
    """One place a command reads a file: its argv with ``{H}`` where the hostile file goes."""

    argv: tuple[str, ...]
    status: int  # the command's exit status for bad input
    kinds: tuple[str, ...] = tuple(HOSTILE)  # the hostile files that apply here
    refused: tuple[str, ...] = ()  # read, and answered "no": one line on stdout, exit 1 (not bad input)
    not_its_kind: tuple[str, ...] = ()  # read whole, and not the kind of file asked for: exit 3, on stderr


def _in(folder: Path, argv: tuple[str, ...], hostile: Path) -> list[str]:
    mapping = {"H": str(hostile), "R": str(folder / "report.json"), "C": str(folder / "config.json"),
               "L": str(folder / "tlog" / "heads.log"), "OUT": str(folder / "out.json"),
               "V": str(folder / "vectors")}
    return [arg.format(**mapping) for arg in argv]


NOT_MISSING = tuple(kind for kind in HOSTILE if kind != "a missing path")
MAIN = ("-m", "core.run.main")
SEAL = ("-m", "core.run.seal", "verify")
REPLAY = ("-m", "core.audit.replay")
TLOG = ("-m", "tlog")
COMMANDS = {
    "main --config": Command((*MAIN, "--out", "{OUT}", "--config", "{H}"), 1),
    "main --lab": Command((*MAIN, "--out", "{OUT}", "--lab", "{H}"), 1),
    # A line that reads but is no journal's header is refused as not a journal (exit 3).
    "main --resume": Command((*MAIN, "--out", "{OUT}", "--resume", "{H}"), 1,
                             not_its_kind=("200,000 [", "non-UTF-8 bytes")),
    "main --journal": Command((*MAIN, "--out", "{OUT}", "--journal", "{H}"), 1,
                              NOT_MISSING),  # a new journal is made there
    "main --out": Command((*MAIN, "--out", "{H}"), 1, ("a FIFO", "a symlink loop", "a folder")),
    "seal verify": Command((*SEAL, "{H}"), 2),
    "seal verify --head": Command((*SEAL, "{H}", "--head", "0" * 64), 2),
    "seal verify --config": Command((*SEAL, "{R}", "--config", "{H}"), 2),
    "replay": Command((*REPLAY, "{H}"), 2),
    "replay --config": Command((*REPLAY, "{R}", "--config", "{H}"), 2),
    "report render": Command(("-m", "core.run.report", "render", "{H}"), 2),
    "printout": Command(("-m", "printout", "{H}"), 2),
    "tlog verify LOG": Command((*TLOG, "verify", "{H}", "{R}", "--witness"), 2),
    "tlog verify REPORT": Command((*TLOG, "verify", "{L}", "{H}", "--witness"), 2),
    "tlog verify --checkpoint": Command((*TLOG, "verify", "{L}", "{R}", "--checkpoint", "{H}"), 2,
                                        refused=("200,000 [",)),  # text, not a checkpoint: refused
    "tlog verify --proof": Command((*TLOG, "verify", "{L}", "{R}", "--proof", "{H}"), 2),
    "tlog verify --consistency-proof": Command((*TLOG, "verify", "{L}", "{R}", "--checkpoint",
                                                "{L}.checkpoint", "--consistency-proof", "{H}"), 2),
    "tlog verify --log-key": Command((*TLOG, "verify", "{L}", "{R}", "--log-key", "{H}"), 2),
    "tlog verify --witness-key": Command((*TLOG, "verify", "{L}", "{R}", "--witness", "--witness-key", "{H}"), 2),
    "tlog prove LOG": Command((*TLOG, "prove", "{H}", "{R}"), 2),
    "tlog prove REPORT": Command((*TLOG, "prove", "{L}", "{H}"), 2),
    "tlog vectors": Command((*TLOG, "vectors", "{H}"), 2),
    "tlog append LOG": Command((*TLOG, "append", "{H}", "{R}"), 2, NOT_MISSING),  # a new log is made there
    "tlog cosign --state": Command((*TLOG, "cosign", "{L}", "--state", "{H}", "--time", "1"), 2,
                                   NOT_MISSING),  # a new witness starts there
    "lab.attacks --markdown": Command(("-m", "lab.attacks", "--markdown", "{H}"), 2,  # a file is written: it runs
                                      ("/dev/zero", "a FIFO", "a symlink loop", "a folder")),
    "lab serve --lab": Command(("-m", "lab", "serve", "--lab", "{H}"), 2),
    "lab serve --record": Command(("-m", "lab", "serve", "--record", "{H}"), 2,  # a file is appended to: it serves
                                  ("/dev/zero", "a FIFO", "a symlink loop", "a folder")),
}
# Where a command reads a file that is not its argument: the hostile file is put in that place.
PLACED = {
    "tlog verify published checkpoint": (Command((*TLOG, "verify", "{L}", "{R}"), 2, NOT_MISSING, ("200,000 [",)),
                                         "tlog/heads.log.checkpoint"),  # none published: refused, tested apart
    "tlog vectors file": (Command((*TLOG, "vectors", "{V}"), 2), "vectors/cctv-merkle/merkle/testdata/merkle_tree.json"),
}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """The good files every command reads besides the hostile one: a report, a configuration, a log."""
    folder = tmp_path_factory.mktemp("good")
    shutil.copy(REPORT, folder / "report.json")
    shutil.copy(CONFIG, folder / "config.json")
    write_demo_folder(folder / "tlog")
    return folder


def _vectors(folder: Path) -> None:
    (folder / "vectors" / "transparency-dev-merkle" / "testdata").mkdir(parents=True)
    (folder / "vectors" / "cctv-merkle" / "merkle" / "testdata").mkdir(parents=True)


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess | str:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    try:
        return subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True, text=True, env=env,
                              timeout=TIMEOUT, preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"no answer within {TIMEOUT} s (a hang)"


def _judge(name: str, kind: str, command: Command, done: subprocess.CompletedProcess | str) -> str | None:
    """What is wrong with the command's answer to the hostile file, or None when it is one line and its status."""
    where = f"{name} x {kind}"
    if isinstance(done, str):
        return f"{where}: {done}"
    refused = kind in command.refused
    said, other, stream = (done.stdout, done.stderr, "stdout") if refused else (done.stderr, done.stdout, "stderr")
    status = 1 if refused else 3 if kind in command.not_its_kind else command.status
    lines = said.splitlines()
    if "Traceback" in done.stderr + done.stdout or len(lines) != 1 or (refused and other):
        return f"{where}: not one line on {stream} (exit {done.returncode}): {said[-600:]!r} {other[-300:]!r}"
    if done.returncode != status:
        return f"{where}: exit {done.returncode}, not {status}: {lines[0]}"
    return None


@dataclass(frozen=True)
class Job:
    name: str
    kind: str
    command: Command
    argv: list[str]
    folder: Path


def _job(name: str, command: Command, kind: str, folder: Path, good: Path, place: str | None) -> Job:
    """The command's argv in a fresh copy of the good files, with ``kind`` of hostile file in its place."""
    shutil.copytree(good, folder)
    _vectors(folder)
    if place is None:
        hostile = HOSTILE[kind](folder / "hostile")
    else:
        target = folder / place
        target.unlink(missing_ok=True)
        hostile = HOSTILE[kind](target)
        if hostile != target:  # /dev/zero: put in place by a link
            target.symlink_to(hostile)
    return Job(name, kind, command, _in(folder, command.argv, hostile), folder)


def _assert_all_answer(jobs: list[Job]) -> None:
    """Run every job, four at a time; each must answer in one line with its status."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda job: _run(job.argv, job.folder), jobs))
    wrong = [problem for job, done in zip(jobs, answers)
             if (problem := _judge(job.name, job.kind, job.command, done)) is not None]
    assert not wrong, "\n".join(wrong)


EVERY = {**{name: (command, None) for name, command in COMMANDS.items()}, **PLACED}


@pytest.mark.whole
@pytest.mark.parametrize("name", sorted(EVERY))
def test_every_command_answers_every_hostile_file_with_one_line(name, tmp_path, good):
    """Each hostile file gets one line and its exit code from every command (a hang is a failure)."""
    command, place = EVERY[name]
    _assert_all_answer([_job(name, command, kind, tmp_path / f"case{number}", good, place)
                        for number, kind in enumerate(command.kinds)])


def test_every_command_answers_one_hostile_file_each_in_the_edit_loop(tmp_path, good):
    """The edit loop's sample of the table: each command meets one hostile file, the files taken in turn."""
    jobs = []
    for number, name in enumerate(sorted(EVERY)):
        command, place = EVERY[name]
        jobs.append(_job(name, command, command.kinds[number % len(command.kinds)], tmp_path / f"case{number}",
                         good, place))
    assert {job.kind for job in jobs} == set(HOSTILE)  # every hostile file meets some command
    _assert_all_answer(jobs)
