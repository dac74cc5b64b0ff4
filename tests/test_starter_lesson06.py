"""Lesson 6's exercise turns away adapters that get the protocol wrong, each with what is missing.

These run the starter test's own checks (starter/lesson06_test.py) against
adapters nobody should hand in: one that makes a response up, one that
returns headers as a dict, one whose error does not name the URL, one that
stops the process. The starter's docstring cannot drift from the run the
check holds.
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import pytest

from core.run.execute import AdapterResult

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("lesson06_check", ROOT / "starter" / "lesson06_test.py")
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)
SOLUTION_SPEC = importlib.util.spec_from_file_location("lesson06_solution", ROOT / "solutions" / "lesson06.py")
SOLUTION = importlib.util.module_from_spec(SOLUTION_SPEC)
SOLUTION_SPEC.loader.exec_module(SOLUTION)


def student(fetch) -> types.ModuleType:
    """A student's file whose ReplayAdapter.fetch is ``fetch``, over the worked answer's table."""

    class ReplayAdapter:
        def __init__(self):
            self.recorded = SOLUTION.RECORDED

        def fetch(self, url):
            return fetch(self, url)

    return types.SimpleNamespace(RECORDED=SOLUTION.RECORDED, ReplayAdapter=ReplayAdapter)


def made_up(self, url):
    status, headers, body = self.recorded.get(url, (404, {}, "not found"))
    return AdapterResult(status, tuple(headers.items()), body)


def headers_as_dict(self, url):
    status, headers, body = self.recorded[url]
    return AdapterResult(status, headers, body)


def nameless_error(self, url):
    if url not in self.recorded:
        raise LookupError("no such page")
    return SOLUTION.ReplayAdapter().fetch(url)


def exits(self, url):
    if url not in self.recorded:
        raise SystemExit(1)
    return SOLUTION.ReplayAdapter().fetch(url)


def outcome(check, *arguments) -> str:
    """The failure message of one check, or "" when it passes."""
    try:
        check(*arguments)
    except pytest.fail.Exception as failure:
        return str(failure)
    return ""


def test_the_worked_answer_passes_every_check():
    run = CHECK.fixed_run(SOLUTION.ReplayAdapter())
    assert CHECK.recorded_problem(SOLUTION, SOLUTION.ReplayAdapter()) == ""
    assert outcome(CHECK.test_a_url_with_no_recorded_response_is_an_adapter_error, SOLUTION) == ""
    assert outcome(CHECK.test_its_responses_pass_the_door_as_action_capture_and_settled_outcome, SOLUTION, run) == ""
    assert outcome(CHECK.test_its_errors_become_unresolved_outcomes_and_the_run_goes_on, SOLUTION, run) == ""


def test_an_adapter_that_makes_a_response_up_fails_the_pair():
    module = student(made_up)
    run = CHECK.fixed_run(module.ReplayAdapter())
    assert "not make a response up" in outcome(CHECK.test_a_url_with_no_recorded_response_is_an_adapter_error, module)
    assert outcome(CHECK.test_its_errors_become_unresolved_outcomes_and_the_run_goes_on, module, run).startswith(
        "inspect_headers /admin ended succeeded")
    assert outcome(CHECK.test_its_responses_pass_the_door_as_action_capture_and_settled_outcome, module, run) == ""


def test_headers_as_a_dict_are_named():
    module = student(headers_as_dict)
    assert "tuple of (name, value) pairs" in CHECK.recorded_problem(module, module.ReplayAdapter())


def test_an_error_that_does_not_name_the_url_is_named():
    module = student(nameless_error)
    message = outcome(CHECK.test_a_url_with_no_recorded_response_is_an_adapter_error, module)
    assert message.endswith("its message must name the URL, so the ledger says which request had no answer")
    run = CHECK.fixed_run(module.ReplayAdapter())
    assert "whose message names https://lab.example:443/admin" in outcome(
        CHECK.test_its_errors_become_unresolved_outcomes_and_the_run_goes_on, module, run)


def test_an_adapter_that_stops_the_process_is_not_an_adapter_error():
    module = student(exits)
    message = outcome(CHECK.test_a_url_with_no_recorded_response_is_an_adapter_error, module)
    assert "raised SystemExit, which is not an Exception" in message
    with pytest.raises(SystemExit):  # the executor records an Exception; SystemExit stops the run
        CHECK.fixed_run(module.ReplayAdapter())


def test_the_starter_docstring_states_the_run_the_check_holds():
    doc = (ROOT / "starter" / "lesson06.py").read_text(encoding="utf-8")
    assert "/about, /admin\n  and /contact" in doc
    for identity in CHECK.PLAN:
        tool, _, destination = identity.partition(" -> ")
        assert f"``{tool}`` at {destination.removeprefix(CHECK.LAB)}" in doc or tool == "inspect_headers", identity
    assert CHECK.MISSING.removeprefix(CHECK.LAB) in doc and CHECK.MISSING not in SOLUTION.RECORDED
    for tool in CHECK.TOOLS:
        assert f"weight {tool['weight']}, cost {tool['cost']}" in doc, tool["tool_id"]
