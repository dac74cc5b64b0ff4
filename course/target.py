"""The starter switch: which file a lesson's completion test checks.

``starter/lessonNN_test.py`` holds the student's file through
``course.student.Student(NN)``, which loads the file selected here (in a child
process, or in process with ``load_lesson``) instead of importing a module by
name, so the same test checks whichever file ``COURSE_TARGET`` selects:

* ``starter`` (the default): the student's ``starter/lessonNN.py``; ``course check N`` runs this;
* ``solution``: the worked ``solutions/lessonNN.py``; the test suite runs this;
* ``pristine``: the starter as committed at HEAD, before any edit of the student's;
  the test suite checks that it fails, and the lesson pages show its failures. If git
  cannot show it, that is an error (``TargetError``), never the working copy instead;
* a path ending ``.diff``: a wrong solution stored as its mistake, rebuilt onto the
  worked answer as it is now (``course/wrong.py``) and loaded from a temporary copy;
* any other value: the path of a file to load.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import subprocess
import tempfile
from pathlib import Path
from types import ModuleType

from course.manifest import course_root

ENV = "COURSE_TARGET"
PROBLEM_ENV = "COURSE_PROBLEM_FILE"  # where a check writes the one line about a whole file (course/student.py)
EARLY_ENV = "COURSE_EARLY_CHILD"  # set by `course check`: each Student starts its child as it is made (course/student.py)


class TargetError(Exception):
    """``COURSE_TARGET`` selects a file that cannot be read; the message is one line saying why."""


def target_path(number: int, root: Path | None = None, choice: str | None = None) -> Path:
    """The file ``choice`` (by default ``COURSE_TARGET``) selects for lesson ``number``."""
    root = root or course_root()
    choice = choice or os.environ.get(ENV, "starter")
    if choice == "starter":
        return root / "starter" / f"lesson{number:02d}.py"
    if choice == "solution":
        return root / "solutions" / f"lesson{number:02d}.py"
    if choice == "pristine":
        return pristine_copy(f"starter/lesson{number:02d}.py", root)
    if choice.endswith(".diff"):
        from course.wrong import WrongSolutionError, rebuilt_copy

        try:
            return rebuilt_copy(Path(choice))
        except (OSError, UnicodeDecodeError, WrongSolutionError) as exc:
            raise TargetError(f"{ENV} selects {choice}, which cannot be rebuilt: {exc}") from None
    return Path(choice)


def pristine_copy(relative: str, root: Path) -> Path:
    """The file as committed at HEAD, copied to a temporary folder; a TargetError if git cannot show it."""
    try:
        shown = subprocess.run(["git", "show", f"HEAD:{relative}"], cwd=root, capture_output=True)
    except OSError as exc:
        raise TargetError(f"{ENV}=pristine needs git to read the committed {relative}: {exc.strerror}") from None
    if shown.returncode != 0:
        said = " ".join(shown.stderr.decode(errors="replace").split()) or f"git exited {shown.returncode}"
        raise TargetError(f"{ENV}=pristine cannot read the committed {relative} from git: {said}")
    text = shown.stdout
    folder = Path(tempfile.gettempdir()) / f"course-pristine-{hashlib.sha256(text).hexdigest()[:16]}"
    folder.mkdir(exist_ok=True)
    copy = folder / Path(relative).name
    copy.write_bytes(text)
    return copy


class FromSource(importlib.machinery.SourceFileLoader):
    """A loader that compiles the file's source every time and keeps no bytecode.

    A cached .pyc is trusted when its source's size and modification second
    match, so two saves of the same size within one second would run the
    first one's code; the student's file is always read as it is now.
    """

    def get_code(self, fullname: str):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


def load_lesson(number: int) -> ModuleType:
    """Import the selected file for lesson ``number`` under a private module name, from its source as it is now."""
    path = target_path(number)
    name = f"course_target_lesson{number:02d}"
    spec = importlib.util.spec_from_file_location(name, path, loader=FromSource(name, str(path)))
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(f"{ENV} selects {path}, which is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
