"""Shared helpers for the tlog tests: the demo's log folder in a temporary place, and the command line."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tlog import cli, demo

REPO = Path(__file__).resolve().parent.parent
VECTORS = REPO / "tests" / "vectors"
REFERENCE = REPO / "data" / "course" / "report.json"


@dataclass(frozen=True)
class Said:
    code: int
    out: str
    err: str


def run_tlog(capsys, *args: object) -> Said:
    """``python -m tlog ARGS`` in this process (fast); what it printed and its exit status."""
    capsys.readouterr()
    code = cli.main([str(a) for a in args])
    captured = capsys.readouterr()
    return Said(code, captured.out, captured.err)


def run_module(*args: object, module: str = "tlog") -> Said:
    """``python -m MODULE ARGS`` in a fresh interpreter, from the repository root."""
    done = subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    return Said(done.returncode, done.stdout, done.stderr)


def write_demo_folder(folder: Path) -> Path:
    """Every file of the demo's log folder under ``folder``; returns ``folder``."""
    _, files = demo.build()
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def one_line(said: Said) -> str:
    """The one line a failing command printed on stderr (and nothing else there)."""
    lines = said.err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got: {said.err!r}"
    assert "Traceback" not in said.err
    return lines[0]
