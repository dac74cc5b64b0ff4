"""Each lesson's edge classes are data beside its check, and every class reaches the student's file in every run.

A completion test that lists ``EDGE_CLASSES`` (course/differ.py) asks each
class's questions through ``course.student.asked``, which notes each answered
question in the trace ``$COURSE_TRACE`` names. These tests run the real
command on the worked answer under twenty seeds and read that trace.
"""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from course.differ import Edge
from course.wrong import names_the_idea, wrong_solutions

from .conftest import REPO, run_course
from .test_wrong_solutions import failed_rows

LESSONS_WITH_CLASSES = tuple(range(1, 13))  # every lesson's check lists its edge classes
SEEDS = tuple(range(1, 21))  # the twenty seeds; COURSE_SEED=N replays one


def edge_classes(lesson: int) -> tuple[Edge, ...]:
    """The classes the lesson's completion test lists, read from the test itself."""
    path = REPO / "starter" / f"lesson{lesson:02d}_test.py"
    spec = importlib.util.spec_from_file_location(f"lesson{lesson:02d}_edges", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module.EDGE_CLASSES


def traced(lesson: int, seed: int, folder) -> tuple[object, list[dict]]:
    trace = folder / f"trace-{lesson}-{seed}.jsonl"
    done = run_course(REPO, "check", str(lesson), COURSE_TARGET="solution", COURSE_SEED=str(seed),
                      COURSE_TRACE=str(trace))
    lines = trace.read_text(encoding="utf-8").splitlines() if trace.exists() else []
    return done, [json.loads(line) for line in lines]


@pytest.mark.parametrize("lesson", LESSONS_WITH_CLASSES)
def test_a_lesson_lists_its_edge_classes_as_data_with_inputs_for_each(lesson):
    classes = edge_classes(lesson)
    assert classes and all(isinstance(edge, Edge) for edge in classes)
    assert len({edge.name for edge in classes}) == len(classes), "two classes share a name"
    for edge in classes:
        assert edge.fixed() and all(edge.fixed()), f"{edge.name!r} asks nothing in every run"
        assert edge.drawn is not None, f"{edge.name!r} draws nothing from the seed"


@pytest.mark.whole
@pytest.mark.parametrize("lesson", LESSONS_WITH_CLASSES)
def test_every_listed_class_reaches_the_students_file_on_twenty_seeds(lesson, tmp_path):
    names = {edge.name for edge in edge_classes(lesson)}
    for seed in SEEDS:
        done, trace = traced(lesson, seed, tmp_path)
        assert done.returncode == 0, f"the worked answer failed course check {lesson} on seed {seed}:\n{done.stdout}"
        reached = {line["edge"] for line in trace if line["lesson"] == lesson}
        assert names <= reached, f"seed {seed}: never asked {sorted(names - reached)}"
        assert reached <= names, f"seed {seed}: the trace names classes the check does not list: {reached - names}"


def test_the_trace_notes_only_questions_the_file_answered(tmp_path):
    """A file that is not written yet answers nothing, so no class is noted as reaching it."""
    trace_file = tmp_path / "trace.jsonl"
    done = run_course(REPO, "check", "7", COURSE_TARGET="pristine", COURSE_SEED="1", COURSE_TRACE=str(trace_file))
    assert done.returncode == 1
    assert not trace_file.exists() or not trace_file.read_text(encoding="utf-8").strip()


# Mistakes that passed the checks before they asked every edge class: each must now fail on every seed.
AFTER_EDGE_CLASSES = ("lesson05_finds_the_tool_by_its_prefix", "lesson06_details_an_error_by_its_message",
                      "lesson10_compares_digests_in_any_case", "lesson10_compares_twelve_characters",
                      "lesson10_lets_canon_error_out", "lesson10_pops_the_seal_out_of_the_report",
                      "lesson02_numbers_the_reference_from_the_clock",
                      "lesson08_lets_a_cap_release_a_consequential_act", "lesson08_reads_the_role_in_any_case",
                      "lesson04_takes_any_attribute_that_says_generator", "lesson04_reads_the_first_kilobyte",
                      "lesson01_compares_findings_as_a_set", "lesson01_takes_a_404_control_for_no_control",
                      "lesson01_finds_the_text_in_any_case",
                      "lesson07_knows_four_server_errors", "lesson07_shows_in_any_case",
                      "lesson07_remembers_each_finding", "lesson09_takes_a_shortened_head",
                      "lesson09_hashes_under_a_fixed_algorithm", "lesson09_pops_the_chain_out_of_each_event",
                      "lesson09_takes_the_algorithm_the_seal_names",
                      "lesson03_lets_a_listed_move_reach_an_undeclared_stage",
                      "lesson11_takes_a_negative_index", "lesson11_compares_twelve_digits",
                      "lesson11_raises_on_a_proof_that_does_not_fit",
                      "lesson11_takes_the_body_from_the_seal", "lesson11_ignores_the_proofs_own_fields",
                      "lesson11_raises_on_a_proof_missing_a_field", "lesson11_takes_the_algorithm_the_seal_names",
                      "lesson01_knows_four_server_errors", "lesson01_cuts_the_reports_findings_in_place",
                      "lesson01_strips_the_expected_text",
                      "lesson02_keeps_the_courses_reference_with_other_hyphens",
                      "lesson02_keeps_the_placeholder_with_a_typographic_hyphen",
                      "lesson04_remembers_a_tag_from_an_earlier_page", "lesson04_takes_the_body_out_of_the_capture",
                      "lesson04_wants_a_content_attribute", "lesson04_strips_the_name_before_comparing",
                      "lesson05_rounds_each_score_to_six_places", "lesson05_sorts_the_proposals_it_was_handed",
                      "lesson05_divides_before_it_multiplies",
                      "lesson05_takes_a_budget_of_zero_for_no_budget",
                      "lesson06_caches_responses_by_url", "lesson06_swallows_a_keyboard_interrupt",
                      "lesson06_cites_the_capture_of_a_refused_settlement",
                      "lesson06_takes_a_refused_connection_for_not_sent", "lesson06_catches_only_os_errors",
                      "lesson06_pops_the_act_apart", "lesson06_leaves_a_1xx_answer_in_doubt",
                      "lesson11_ignores_the_seq", "lesson11_trusts_the_seals_count",
                      "lesson11_compares_seqs_by_identity", "lesson11_pops_the_chain_out_of_each_event",
                      "lesson08_reads_the_first_review", "lesson08_takes_a_cap_of_0_for_no_limit",
                      "lesson08_reverses_the_reviews", "lesson08_finds_an_old_name_in_any_case")


@pytest.mark.whole
@pytest.mark.parametrize("name", AFTER_EDGE_CLASSES)
def test_each_mistake_an_edge_class_names_fails_on_twenty_seeds_with_its_words(name):
    wrong = next(found for found in wrong_solutions(REPO, int(name[6:8])) if found.path.stem == name)
    for seed in SEEDS:
        done = run_course(REPO, "check", str(wrong.lesson), COURSE_TARGET=str(wrong.path), COURSE_SEED=str(seed),
                          COLUMNS="1000")
        assert done.returncode == 1, f"seed {seed}: course check {wrong.lesson} passed {name}"
        assert any(names_the_idea(row, wrong.words) for row in failed_rows(done.stdout)), \
            f"seed {seed}: no failing row of {name} says {wrong.words!r}:\n{done.stdout}"
