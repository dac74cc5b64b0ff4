"""Executable pages: every `console` block on a lesson page is run and its output compared.

A block's `$ ` lines are commands, run with bash from the repository root with
this interpreter's folder first on PATH (so `python3` and `course` are the
project's own), and with the starters as committed (``COURSE_TARGET=pristine``),
so that a student's edits do not change what the pages promise. The lines under a command are what it must print (stdout and
stderr together), compared exactly, "..." standing for any text on one line.
A command with no lines under it must succeed. Variables a command exports carry to
the page's later commands, as in one terminal.

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
import tempfile
from pathlib import Path

import pytest
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


# `make test` runs the suite in two processes (pytest-xdist, `-n 2 --dist loadgroup`). Each group
# runs whole in one process, in file order: every test file is a group, and so are the ones below.
SITE_TESTS = ("tests/test_site.py", "tests/test_site_browser.py")  # they share one built site
# They share one run of the attack suite (tests/conftest.py:attack_suite).
ATTACK_TESTS = ("tests/test_attacks.py::test_the_suite_runs_every_attack_and_none_succeeds",
                "tests/test_course_repo.py::test_every_committed_artifact_reproduces_byte_for_byte[data/course/attacks.md]")
# Many slow tests that share nothing costly: each goes wherever there is room.
ONE_BY_ONE = ("tests/test_course_tools.py", "tests/test_course_repo.py", "tests/test_attacks.py",
              "tests/test_killmatrix.py", "tests/test_governance_mechanisms.py", "tests/test_course_attack.py")


def xdist_group(nodeid: str) -> str:
    """The group a test (by node id, its path relative to the repository) runs in."""
    path = nodeid.split("::", 1)[0]
    if path.startswith("lessons/"):
        return "pages"  # a page's blocks run in order, each with the variables the ones before exported
    if path in SITE_TESTS:
        return "site"
    if nodeid in ATTACK_TESTS:
        return "attacks"
    if path in ONE_BY_ONE:
        return nodeid
    return path  # a notebook's cells run in order in one kernel (nbval); a module's fixtures are built once


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup`, grouped by ``xdist_group``.

    xdist's own loadgroup reads ``xdist_group`` marks by renaming node ids,
    which pytest 9 no longer allows (each test of a group went anywhere), so
    the grouping is decided here, from the node id's file.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid)

    return ByGroup(config, log)


def page_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # Pages show what a fresh clone prints: starters as committed, an 80-column terminal.
    env.update({"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb", "COURSE_TARGET": "pristine"})
    # Nor may a developer's shell: a colour setting, pytest options, or the safety pack's override.
    for noisy in ("FORCE_COLOR", "HARNESS_ALLOW_UNRATIFIED_SAFETY", *(k for k in env if k.startswith("PYTEST_"))):
        env.pop(noisy, None)
    return env


# A page's exported variables carry from one command to the next, as in the student's shell: a page
# may make a fresh folder once (`export D=$(mktemp -d)`) and use it in every later command.
_PAGE_STATES = Path(tempfile.mkdtemp(prefix="page-shells-"))


def in_page_shell(command: str, state: Path) -> str:
    """``command`` as one bash script that starts from the page's exported variables and keeps them."""
    return (f'[ -f "{state}" ] && source "{state}"\n{command}\n'
            f'__status=$?; export -p > "{state}"; exit $__status')


def run_console_block(example) -> None:
    state = _PAGE_STATES / Path(str(example.path)).name
    for command in pages.console_commands(str(example.parsed)):
        done = subprocess.run(in_page_shell(command.command, state), shell=True, executable="/bin/bash",
                              cwd=ROOT, env=page_environment(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
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
