"""Executable pages: every `console` block on a lesson page is run and its output compared.

A block's `$ ` lines are commands, run with bash from the repository root with
this interpreter's folder first on PATH (so `python3` and `course` are the
project's own), and with the starters as committed (``COURSE_TARGET=pristine``),
so that a student's edits do not change what the pages promise. The lines under a command are what it must print (stdout and
stderr together), compared exactly, "..." standing for any text on one line.
A command with no lines under it must succeed.

It also registers the Hypothesis profiles that size every property test (see
``tests/conftest.py:examples``): ``fast``, loaded by default, for the edit loop,
and ``ci``, which ``make test`` (and so CI) selects with
``--hypothesis-profile=ci``: ten times the examples, the same examples on every
run (``derandomize``), and a failure prints the blob that reproduces it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser

from course import pages

ROOT = Path(__file__).resolve().parent

# No deadline and no too-slow check: this machine's speed is never what a test checks.
_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, derandomize=True, print_blob=True, database=None, **_UNTIMED)
settings.register_profile("fast", max_examples=10, **_UNTIMED)
settings.load_profile("fast")  # `--hypothesis-profile=ci` on the command line loads ci over it


def page_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # Pages show what a fresh clone prints: starters as committed, an 80-column terminal.
    env.update({"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb", "COURSE_TARGET": "pristine"})
    # Nor may a developer's shell: a colour setting, pytest options, or the safety pack's override.
    for noisy in ("PYTEST_ADDOPTS", "FORCE_COLOR", "HARNESS_ALLOW_UNRATIFIED_SAFETY"):
        env.pop(noisy, None)
    return env


def run_console_block(example) -> None:
    for command in pages.console_commands(str(example.parsed)):
        done = subprocess.run(command.command, shell=True, executable="/bin/bash", cwd=ROOT,
                              env=page_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=600)
        if not command.expected:
            assert done.returncode == 0, f"`{command.command}` exited {done.returncode}:\n{done.stdout}"
        else:
            assert pages.output_matches(command.expected, done.stdout), (
                f"`{command.command}` printed:\n{done.stdout}\nbut the page says:\n{command.expected}")


pytest_collect_file = Sybil(
    parsers=[CodeBlockParser(language="console", evaluator=run_console_block)],
    patterns=["*.md"],
    path="lessons",
).pytest()
