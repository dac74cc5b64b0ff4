"""`course verify`: every committed artifact still reproduces byte for byte."""

from __future__ import annotations

import difflib
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from course.manifest import Artifact, Lesson

DIFF_LINES = 40


@dataclass(frozen=True)
class ArtifactCheck:
    artifact: Artifact
    status: str  # "identical", "differs", "missing" (not committed yet) or "failed" (command failed)
    detail: str  # a short unified diff, or the command's error


def verify(lessons: list[Lesson], root: Path) -> list[ArtifactCheck]:
    with tempfile.TemporaryDirectory() as tmp:
        return [verify_one(a, root, Path(tmp)) for lesson in lessons for a in lesson.artifacts
                if lesson.ready or (root / a.path).exists()]


def command_argv(artifact: Artifact, out: str) -> list[str]:
    """The artifact's command with ``{out}`` filled in and ``python3`` meaning this interpreter."""
    argv = shlex.split(artifact.command.format(out=out))
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def verify_one(artifact: Artifact, root: Path, tmp: Path) -> ArtifactCheck:
    committed = root / artifact.path
    if not committed.exists():
        return ArtifactCheck(artifact, "missing", f"{artifact.path} is not committed")
    fresh = tmp / Path(artifact.path).name
    finished = subprocess.run(command_argv(artifact, str(fresh)), cwd=root, capture_output=True, text=True)
    if finished.returncode != 0 or not fresh.exists():
        error = (finished.stderr or finished.stdout).strip().splitlines()[-1:] or ["no output"]
        return ArtifactCheck(artifact, "failed", f"exit {finished.returncode}: {error[0]}")
    if fresh.read_bytes() == committed.read_bytes():
        return ArtifactCheck(artifact, "identical", "")
    return ArtifactCheck(artifact, "differs", _short_diff(committed, fresh, artifact.path))


def _short_diff(committed: Path, fresh: Path, name: str) -> str:
    old = committed.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    new = fresh.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    lines = list(difflib.unified_diff(old, new, f"committed {name}", "fresh run"))
    if len(lines) > DIFF_LINES:
        lines = lines[:DIFF_LINES] + [f"... ({len(lines) - DIFF_LINES} more diff lines)\n"]
    return "".join(lines)
