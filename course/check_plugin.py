"""The pytest plugin behind `course check`: each test's outcome and its whole message, as JSON.

pytest's JUnit report cuts a failure's message at 500 characters, and a
completion test's message is the student's whole answer to "what is
missing", so `course check` reads this file instead. ``COURSE_RESULTS``
names where it is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

RESULTS_ENV = "COURSE_RESULTS"

_outcomes: dict[str, dict] = {}


def _message(report) -> str:
    """What the failing or skipping phase said, whole."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):  # a skip: (path, line, "Skipped: why")
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    return str(longrepr or "")


def pytest_runtest_logreport(report) -> None:
    seen = _outcomes.setdefault(report.nodeid, {"name": report.nodeid.split("::")[-1], "outcome": "passed",
                                                "message": ""})
    if seen["outcome"] != "passed":
        return  # the first phase that did not pass says why
    if report.failed:
        seen.update(outcome="failed", message=_message(report))
    elif report.skipped:
        seen.update(outcome="skipped", message=_message(report))


def pytest_sessionfinish(session) -> None:
    where = os.environ.get(RESULTS_ENV)
    if where:
        Path(where).write_text(json.dumps(list(_outcomes.values())), encoding="utf-8")
