"""Lesson 10's exercise cannot be passed by a predicate that does not look, or one that lies when it cannot.

Each case edits the worked solution into an answer nobody should hand in
and runs the lesson's completion test (starter/lesson10_test.py) on it
through `course check`'s own runner: the named checks must fail, and with a
message, not a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from course import manifest
from course.check import run_check

ROOT = Path(__file__).resolve().parent.parent
LESSON = manifest.find(10, ROOT)
SOLUTION = (ROOT / "solutions" / "lesson10.py").read_text(encoding="utf-8")
PREDICATE_START = '    gap = context.gaps("selections", "proposals")\n'

CASES = {
    "always upheld": (
        PREDICATE_START,
        '    return upheld("fine", tuple(s for s, _ in context.selections or ()))\n' + PREDICATE_START,
        {"test_your_predicate_finds_a_selection_no_proposal_names",
         "test_your_predicate_finds_a_selection_whose_proposal_is_gone",
         "test_your_predicate_does_not_judge_without_its_evidence"},
    ),
    "always violated": (
        PREDICATE_START,
        '    return violated("no", tuple(s for s, _ in context.selections or ()))\n' + PREDICATE_START,
        {"test_a_copy_of_the_pack_loads_ratified_with_your_boundary",
         "test_your_predicate_upholds_the_reference_run",
         "test_your_predicate_does_not_judge_without_its_evidence"},
    ),
    "upheld without evidence": (
        '        return not_judged(f"cannot judge: {gap}")\n',
        '        return upheld("nothing to see")\n',
        {"test_your_predicate_does_not_judge_without_its_evidence"},
    ),
    "proposals ignored": (
        "if action_id not in held", "if not action_id",
        {"test_your_predicate_finds_a_selection_no_proposal_names",
         "test_your_predicate_finds_a_selection_whose_proposal_is_gone"},
    ),
    "pack not ratified": (
        "    return ratify(Path(pack_dir), DEFAULT_SAFETY_PACK)\n", '    return ""\n',
        {"test_a_copy_of_the_pack_loads_ratified_with_your_boundary"},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_answer_fails_the_checks_it_should(case, tmp_path):
    old, new, failing = CASES[case]
    assert SOLUTION.count(old) == 1, f"the worked solution no longer holds {old!r}"
    answer = tmp_path / "lesson10.py"
    answer.write_text(SOLUTION.replace(old, new), encoding="utf-8")
    results = {result.name: result for result in run_check(LESSON, ROOT, target=str(answer))}
    assert {name for name, result in results.items() if not result.passed} == failing
    assert all(results[name].message and "Traceback" not in results[name].message for name in failing)
