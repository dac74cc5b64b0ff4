"""A student's own `python3 -m pytest starter/lessonNN_test.py` loads no plugin it does not need.

starter/pytest.ini turns plugin autoloading off for runs inside starter/, and
stops the search for conftest.py there, so the repository's own conftest
(Sybil, for the lesson pages) is not imported either. The main suite still has
Hypothesis's plugin. How long each takes is measured by `make bench`, never here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
NOT_NEEDED = ("_hypothesis_pytestplugin", "pytest_playwright", "nbval", "xdist", "anyio", "sybil", "conftest")


def registered_plugins(*args: str) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", *args, "--collect-only", "--trace-config"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    return "\n".join(line for line in done.stdout.splitlines() if line.startswith("PLUGIN registered"))


@pytest.mark.parametrize("args", [["starter/lesson02_test.py", "-q"], ["starter/"]])
def test_the_students_pytest_run_loads_no_plugin_it_does_not_need(args):
    registered = registered_plugins(*args)
    assert "_pytest.python" in registered, "pytest did not run at all"
    loaded = [name for name in NOT_NEEDED if name in registered]
    assert not loaded, f"a starter run loaded {loaded}; starter/pytest.ini should keep them out"


def test_the_main_suite_keeps_hypothesis_and_the_page_tests(request):
    assert request.config.pluginmanager.has_plugin("hypothesispytest")
    registered = registered_plugins("tests/test_canon.py", "-q")
    assert "_hypothesis_pytestplugin" in registered and "conftest.py" in registered
