"""The student's progress: which lessons' checks have passed, and how many hints were shown.

Kept in ``.course/progress.json`` under the course root (git-ignored: it is the
student's, not the course's), next to ``.course/backups/`` where ``course reset``
keeps the files it replaces.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FOLDER = ".course"
FILE = f"{FOLDER}/progress.json"


class ProgressError(Exception):
    """The progress file exists but cannot be read; the message says how to recover."""


def load(root: Path) -> dict:
    path = Path(root) / FILE
    if not path.exists():
        return {"passed": [], "hints": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        passed = sorted({int(n) for n in data.get("passed", [])})
        hints = {str(k): int(v) for k, v in dict(data.get("hints", {})).items()}
    except (ValueError, TypeError, AttributeError, OSError, RecursionError):
        raise ProgressError(f"{FILE} is not a progress file the course can read; delete it to start afresh") from None
    return {"passed": passed, "hints": hints}


def save(root: Path, data: dict) -> None:
    path = Path(root) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(partial, path)


def passed(root: Path) -> set[int]:
    return set(load(root)["passed"])


def mark_passed(root: Path, number: int) -> None:
    data = load(root)
    data["passed"] = sorted(set(data["passed"]) | {number})
    save(root, data)


def hints_shown(root: Path, number: int) -> int:
    return load(root)["hints"].get(str(number), 0)


def set_hints_shown(root: Path, number: int, count: int) -> None:
    data = load(root)
    data["hints"][str(number)] = count
    save(root, data)


def backup(root: Path, path: Path) -> Path:
    """Copy ``path`` to ``.course/backups/NAME.K`` (K the first free number) and return the copy."""
    folder = Path(root) / FOLDER / "backups"
    folder.mkdir(parents=True, exist_ok=True)
    number = 1
    while (folder / f"{path.name}.{number}").exists():
        number += 1
    copy = folder / f"{path.name}.{number}"
    copy.write_bytes(path.read_bytes())
    return copy
