"""The `course` command's first step: `course check N` starts its check before the rest of the tool loads.

The check's own interpreter is most of the wait (pytest, then the student's
file in a process of its own), so `course check N` starts it first, with only
what finds the lesson loaded, and hands it to course/cli.py, which loads click
and the table printer while the check runs. Any other command, and anything
unusual about the lesson (no such lesson, a target that cannot be read), goes
to course/cli.py untouched, which says what is wrong in its own words.
"""

from __future__ import annotations

import sys

# Python keeps each module it compiles in __pycache__/ (git-ignored). An environment that turns
# that off (PYTHONDONTWRITEBYTECODE=1, as some containers do) would make every `course check`
# compile the course and pytest again; like the Makefile, the course command keeps the cache,
# for itself here and for its check's interpreter (check.start).
sys.dont_write_bytecode = False


def main() -> None:
    started = early_check(sys.argv[1:])
    try:
        from course import cli

        cli.main(started=started)
    finally:
        if started is not None:
            started.stop()  # a check the command did not read (it found a problem first) is not left running


def early_check(args: list[str]):
    """The lesson's check, already running, for exactly `check N`; None for anything else."""
    if len(args) != 2 or args[0] != "check" or not (args[1].isascii() and args[1].isdigit()):
        return None
    try:
        from course import check, manifest

        root = manifest.course_root()
        lesson = manifest.find(int(args[1]), root)
        if not lesson.ready or not (root / lesson.starter_test).is_file():
            return None
        return check.start(lesson, root)
    except Exception:  # noqa: BLE001  course/cli.py meets the same problem and says it in one line
        return None
