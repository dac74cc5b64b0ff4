"""`course check N`: run a lesson's completion test against the student's starter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from course.manifest import ROOT_ENV, Lesson
from course.target import ENV


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    message: str  # why it failed, in the test's own words; "" when it passed


def run_check(lesson: Lesson, root: Path, target: str | None = None) -> list[CheckResult]:
    """Run ``starter_test`` in a fresh interpreter and read back each test's result.

    ``target`` overrides what the test loads (see ``course.target``); by default
    it is whatever ``COURSE_TARGET`` says, which is the student's starter.
    """
    env = dict(os.environ)
    if target is not None:
        env[ENV] = target
    env[ROOT_ENV] = str(root)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # a completion test needs no plugins; start fast
    env.pop("PYTEST_ADDOPTS", None)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-o", "addopts=", "-o", "junit_family=xunit1", f"--junitxml={report}", lesson.starter_test]
        finished = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
        if not report.exists():
            raise RuntimeError(f"pytest could not run {lesson.starter_test}: {finished.stdout[-500:]}{finished.stderr[-500:]}")
        return _read_junit(report)


def _read_junit(report: Path) -> list[CheckResult]:
    results = []
    for case in ET.parse(report).getroot().iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is None:
            results.append(CheckResult(case.get("name", "?"), True, ""))
        else:
            results.append(CheckResult(case.get("name", "?"), False, _message(problem)))
    return results


def _message(problem: ET.Element) -> str:
    """The failure's own message, without pytest's prefixes and assertion rewriting."""
    message = (problem.get("message") or problem.text or "").strip()
    wrapped = re.fullmatch(r'failed on (?:setup|teardown) with "(.*)"', message, flags=re.DOTALL)
    if wrapped:  # a fixture failed: pytest quotes its message
        message = wrapped.group(1).strip()
    for prefix in ("Failed: ", "AssertionError: "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    message = message.split("\nassert ")[0].strip()
    return message or "failed without a message"
