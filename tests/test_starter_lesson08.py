"""Lesson 8's exercise cannot be passed by a near miss: each wrong row or cap fails the check that names it.

These run the starter test's own checks (starter/lesson08_test.py) on rows
nobody should hand in, so the checks cannot drift from the operator's rules
the starter's docstring states, and each check can fail.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from course.target import pristine_copy

ROOT = Path(__file__).resolve().parent.parent
SPEC = importlib.util.spec_from_file_location("lesson08_check", ROOT / "starter" / "lesson08_test.py")
CHECK = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(CHECK)
SOLUTION_SPEC = importlib.util.spec_from_file_location("lesson08_solution", ROOT / "solutions" / "lesson08.py")
SOLUTION = importlib.util.module_from_spec(SOLUTION_SPEC)
SOLUTION_SPEC.loader.exec_module(SOLUTION)

CHECKS = [name for name in dir(CHECK) if name.startswith("test_")]


def failures(metadata: dict | None = None, form: dict | None = None, caps: dict | None = None) -> dict[str, str]:
    """Each check's failure message for the worked answer with these changes; passed checks left out."""
    mine = SimpleNamespace(metadata={**SOLUTION.metadata_row(), **(metadata or {})},
                           form={**SOLUTION.form_probe_row(), **(form or {})},
                           caps=caps if caps is not None else SOLUTION.my_caps())
    failed = {}
    for name in CHECKS:
        try:
            getattr(CHECK, name)(mine)
        except pytest.fail.Exception as exc:
            failed[name] = str(exc)
    return failed


def test_the_worked_answer_passes_every_check():
    assert len(CHECKS) == 5 and failures() == {}


@pytest.mark.parametrize(("change", "check", "says"), [
    ({"metadata": {"approver_role": "engagement-lead"}}, "test_a_fourth_metadata_read_is_denied_not_held",
     "held for a review"),
    ({"caps": {"recon.passive": 10, "recon.metadata": 4}}, "test_a_fourth_metadata_read_is_denied_not_held",
     "must be 3, not 4"),
    ({"caps": {"recon.passive": 10, "recon.metadata": 2}}, "test_inspect_metadata_reads_three_times_without_review",
     "metadata read 3 (inspect_metadata /news) was refused"),
    ({"caps": {"recon.passive": 10, "metadata": 3}}, "test_inspect_metadata_reads_three_times_without_review",
     "a cap names 'metadata', which is no class of taxonomy version 3"),
    ({"metadata": {"consequential": True, "trigger_class": "active_testing"}},
     "test_a_fourth_metadata_read_is_denied_not_held", "which is consequential"),
    ({"form": {"approver_role": "client-liaison"}},
     "test_the_form_probe_is_held_until_the_engagement_lead_approves_that_exact_act", "not held for the engagement"),
    ({"form": {"approver_role": None}},
     "test_the_form_probe_is_held_until_the_engagement_lead_approves_that_exact_act", "denied, not held"),
    ({"form": {"trigger_class": "disclosure"}}, "test_your_rows_keep_the_operators_other_rules",
     "counts toward 'disclosure'"),
    ({"metadata": {"fail_open_allowed": True}}, "test_your_rows_keep_the_operators_other_rules",
     "recon.metadata has fail_open_allowed True"),
    ({"metadata": {"legacy_aliases": ["meta"]}}, "test_your_rows_keep_the_operators_other_rules",
     "lists the earlier names ['meta']"),
])
def test_each_wrong_choice_fails_the_check_that_names_it(change, check, says):
    failed = failures(**change)
    assert check in failed and says in failed[check], failed


def test_a_row_missing_a_key_is_rejected_naming_the_key():
    for key in ("trigger_class", "consequential", "fail_open_allowed", "approver_role", "legacy_aliases"):
        row = {k: v for k, v in SOLUTION.form_probe_row().items() if k != key}
        mine = SimpleNamespace(metadata=SOLUTION.metadata_row(), form=row, caps=SOLUTION.my_caps())
        with pytest.raises(pytest.fail.Exception, match=f"'probe.form_submit' does not declare {key}"):
            CHECK.test_your_rows_declare_every_key(mine)


def test_the_pristine_starter_does_not_print_the_prediction():
    """The page asks what the gate answers to the approved identity with other arguments; a fresh check must not say."""
    pristine = pristine_copy("starter/lesson08.py", ROOT)  # as committed, whatever a student has edited
    starter_spec = importlib.util.spec_from_file_location("lesson08_pristine", pristine)
    starter = importlib.util.module_from_spec(starter_spec)
    starter_spec.loader.exec_module(starter)
    mine = SimpleNamespace(metadata=starter.metadata_row(), form=starter.form_probe_row(), caps=starter.my_caps())
    messages = []
    for name in CHECKS:
        try:
            getattr(CHECK, name)(mine)
        except pytest.fail.Exception as exc:
            messages.append(str(exc))
    assert len(messages) == len(CHECKS)
    assert not any("CHANGE" in message or "amends" in message for message in messages)
