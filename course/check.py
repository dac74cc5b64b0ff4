"""`course check N`: run a lesson's completion test against the student's starter."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import json
from dataclasses import dataclass
from pathlib import Path

from course.check_plugin import RESULTS_ENV
from course.manifest import ROOT_ENV, Lesson
from course.target import EARLY_ENV, ENV, PROBLEM_ENV, target_path


class CheckError(Exception):
    """The completion test did not run to its end; the message is one line saying what happened."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    message: str  # why it failed, in the test's own words; "" when it passed


@dataclass(frozen=True)
class Checked:
    results: list[CheckResult]
    problem: str  # one line when the student's file as a whole cannot be used (course/student.py), else ""


def check(lesson: Lesson, root: Path, target: str | None = None) -> Checked:
    """Run ``starter_test`` in a fresh interpreter and read back each test's result.

    ``target`` overrides what the test loads (see ``course.target``); by default
    it is whatever ``COURSE_TARGET`` says, which is the student's starter. A
    skipped test is a failure: a check that did not run has not passed. A target
    that cannot be read (``pristine`` outside git) raises ``course.target.TargetError``.
    """
    return start(lesson, root, target).result()


def start(lesson: Lesson, root: Path, target: str | None = None) -> Running:
    """Start ``check``'s interpreter and return at once; ``Running.result`` waits for what it found.

    So the `course` command can load its table printer while the check runs:
    the student waits for the slower of the two, not for both.
    """
    target_path(lesson.number, root, target)  # pristine: read from git now, or say why not
    env = dict(os.environ)
    if target is not None:
        env[ENV] = target
    env[ROOT_ENV] = str(root)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # a completion test needs no plugins; start fast
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # keep pytest and the course compiled (see course/cli.py)
    env[EARLY_ENV] = "1"  # the student's file loads in its own process while pytest collects the checks
    folder = tempfile.TemporaryDirectory()
    report, problem = Path(folder.name) / "results.json", Path(folder.name) / "problem.txt"
    env[PROBLEM_ENV], env[RESULTS_ENV] = str(problem), str(report)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "course.check_plugin",
               "-o", "addopts=", lesson.starter_test]
    # A session of its own: stop() ends the check and the child it started as one group, and a Ctrl-C
    # in the terminal reaches this process alone, which then stops the group.
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    return Running(lesson.number, process, folder, report, problem)


@dataclass
class Running:
    """A check under way in its own interpreter (``start``)."""

    lesson: int
    process: subprocess.Popen
    folder: tempfile.TemporaryDirectory
    report: Path
    problem: Path

    def stop(self) -> None:
        """End the check if it is still running, with every process it started, and remove its folder.

        Nothing to do once ``result`` has read it. The student's file may ignore
        every signal it can, so the whole group is killed, not asked.
        """
        if self.process.poll() is None:
            _end_group(self.process.pid)
            self.process.communicate()
        self.folder.cleanup()

    def result(self) -> Checked:
        """Wait for the check, then read each test's result and the one line about the whole file, if any."""
        with self.folder:
            try:
                said = self.process.communicate()[0].strip().splitlines()
            except BaseException:  # Ctrl-C while waiting: nothing the check started may run on
                self.stop()
                raise
            _end_group(self.process.pid)  # a child the check left behind (one that outlived its stop) ends too
            if not self.report.exists():
                raise CheckError(f"the check of lesson {self.lesson} stopped before it finished "
                                 f"(exit code {self.process.returncode}){': ' + said[-1] if said else ''}")
            line = self.problem.read_text(encoding="utf-8").strip() if self.problem.exists() else ""
            return Checked(_read_results(self.report), line.splitlines()[0] if line else "")


def _end_group(group: int) -> None:
    """Kill every process left in the check's process group (start gives the check a session of its own)."""
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_check(lesson: Lesson, root: Path, target: str | None = None) -> list[CheckResult]:
    """Each check's result (see ``check``)."""
    return check(lesson, root, target).results


def _read_results(report: Path) -> list[CheckResult]:
    """Each test's row from ``course.check_plugin``'s file, a skipped one counted as failed."""
    results = []
    for case in json.loads(report.read_text(encoding="utf-8")):
        if case["outcome"] == "failed":
            results.append(CheckResult(case["name"], False, _message(case["message"])))
        elif case["outcome"] == "skipped":
            why = _message(case["message"]).removeprefix("Skipped: ")
            results.append(CheckResult(case["name"], False,
                                       f"this check was skipped ({why}), and a check that does not run does not pass"))
        else:
            results.append(CheckResult(case["name"], True, ""))
    return results


def _message(said: str) -> str:
    """The failure's own message, without pytest's prefixes and assertion rewriting."""
    message = said.strip()
    for prefix in ("Failed: ", "AssertionError: "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    message = message.split("\nassert ")[0].strip()
    return message or "failed without a message"
