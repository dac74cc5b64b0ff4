"""The lesson manifest: the one list of lessons that every tool reads."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ROOT_ENV = "COURSE_ROOT"  # points the tools at another course tree (the tool's own tests use it)


def course_root() -> Path:
    """The course tree the tools act on: ``$COURSE_ROOT`` or this repository."""
    return Path(os.environ.get(ROOT_ENV) or REPO_ROOT)
MANIFEST_NAME = "course/manifest.toml"


class ManifestError(Exception):
    """The manifest is missing or does not describe lessons the way the tools expect."""


@dataclass(frozen=True)
class Artifact:
    path: str
    command: str  # writes the artifact to "{out}"


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str
    title: str
    ready: bool
    page: str
    notebook: str
    starter: str
    starter_test: str
    solution: str
    tests: tuple[str, ...]
    artifacts: tuple[Artifact, ...]
    contract: int = 1  # 2: held to rules 15 to 19 (wrong solutions, predictions); lint checks them
    modules: tuple[str, ...] = ()  # the reference modules the lesson builds, in reading order

    @property
    def label(self) -> str:
        return f"{self.number:02d}"


def load(root: Path | None = None) -> list[Lesson]:
    """Read ``course/manifest.toml`` under ``root``, in lesson order."""
    path = Path(root or course_root()) / MANIFEST_NAME
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"no manifest at {MANIFEST_NAME}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{MANIFEST_NAME} is not valid TOML: {exc}") from None
    try:
        lessons = [_lesson(entry) for entry in data["lesson"]]
    except (KeyError, TypeError) as exc:
        raise ManifestError(f"{MANIFEST_NAME}: a lesson entry lacks or mistypes {exc}") from None
    numbers = [lesson.number for lesson in lessons]
    if numbers != sorted(set(numbers)):
        raise ManifestError(f"{MANIFEST_NAME}: lesson numbers must be unique and in order, got {numbers}")
    return lessons


def find(number: int, root: Path | None = None) -> Lesson:
    """The lesson numbered ``number``, or a ManifestError naming the lessons there are."""
    lessons = load(root)
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    known = ", ".join(str(lesson.number) for lesson in lessons)
    raise ManifestError(f"there is no lesson {number}; the lessons are {known}")


def _lesson(entry: dict) -> Lesson:
    artifacts = tuple(Artifact(path=a["path"], command=a["command"]) for a in entry.get("artifacts", []))
    return Lesson(
        number=int(entry["number"]),
        slug=str(entry["slug"]),
        title=str(entry["title"]),
        ready=bool(entry["ready"]),
        page=str(entry["page"]),
        notebook=str(entry["notebook"]),
        starter=str(entry["starter"]),
        starter_test=str(entry["starter_test"]),
        solution=str(entry["solution"]),
        tests=tuple(str(t) for t in entry["tests"]),
        artifacts=artifacts,
        contract=int(entry.get("contract", 1)),
        modules=tuple(str(m) for m in entry.get("modules", [])),
    )
