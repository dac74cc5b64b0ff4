"""make mutate: the worked answers' marked lines, the operators cosmic-ray lacks, the equivalent list, a sample killed.

The whole table takes minutes a lesson (``python -m mutation``); here the
operators are tried on their own examples, every mark and every listed
equivalent mutant is checked against the files, and a fixed sample of each
lesson's mutants is judged by the real command and must be killed.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import tempfile
from pathlib import Path

import pytest
from cosmic_ray.mutating import mutate_code

from mutation.operators import OPERATORS, Provider
from mutation.run import LESSONS, equivalents, killed, marked_lines, mutants, solution

from .conftest import REPO

SAMPLE = 2  # mutants a lesson, the same ones every run (the smallest digests of their keys)


def starter_functions(lesson: int) -> set[str]:
    """The functions the starter leaves for the student: those whose body raises NotImplementedError."""
    tree = ast.parse((REPO / "starter" / f"lesson{lesson:02d}.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)
            and any(isinstance(inner, ast.Raise) and "NotImplementedError" in ast.unparse(inner)
                    for inner in ast.walk(node))}


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_each_operator_makes_the_mutants_its_examples_show(name):
    operator = OPERATORS[name]
    for example in operator.examples():
        assert mutate_code(example.pre_mutation_code, operator(), example.occurrence) == example.post_mutation_code


def test_the_operators_are_a_cosmic_ray_provider():
    provider = Provider()
    assert sorted(provider) == sorted(OPERATORS)
    assert all(provider[name] is OPERATORS[name] for name in provider)


@pytest.mark.parametrize("code", [
    'raise ValueError(f"leaf {index} is not in a tree")',  # prose: an f-string
    'x = ("the path is too long: " "it goes past")',  # prose, in pieces that have no space of their own
    'def f():\n    """Docstring."""\n',
])
def test_prose_and_docstrings_are_left_alone(code):
    assert mutate_code(code, OPERATORS["ReplaceStringConstant"](), 0) is None


def test_a_return_of_none_and_a_for_loops_in_are_not_mutated():
    assert mutate_code("def f():\n    return None\n", OPERATORS["ReplaceReturnValue"](), 0) is None
    assert mutate_code("for x in y:\n    pass\n", OPERATORS["ReplaceInWithNotIn"](), 0) is None


@pytest.mark.parametrize("source, problem", [
    ("# student writes: begin\nx = 1\n", "never closed"),
    ("x = 1\n# student writes: end\n", "with no"),
    ("# student writes: begin\n# student writes: begin\n# student writes: end\n", "a second"),
])
def test_marks_that_do_not_pair_are_an_error(source, problem):
    with pytest.raises(ValueError, match=problem):
        marked_lines(source)


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_worked_answer_marks_every_function_the_starter_leaves_to_write(lesson):
    source = solution(lesson).read_text(encoding="utf-8")
    marked = marked_lines(source)
    assert marked, f"solutions/lesson{lesson:02d}.py marks no line as the student's"
    defined = {node.name: node.lineno for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    for name in starter_functions(lesson):
        assert defined[name] in marked, f"{name} is left to the student but not marked in the worked answer"


@functools.cache
def made(lesson: int) -> tuple:
    return tuple(mutants(lesson))


def test_every_listed_equivalent_mutant_is_a_mutant_of_its_lesson():
    listed = equivalents()
    made_now = {mutant.key for lesson in {key[0] for key in listed} for mutant in made(lesson)}
    assert set(listed) <= made_now, f"listed but no longer made: {sorted(set(listed) - made_now)}"


def test_an_equivalent_mutant_listed_without_a_reason_is_an_error(tmp_path):
    listed = tmp_path / "equivalent.toml"
    listed.write_text("[[mutant]]\nlesson = 7\nat = 1\nline = 'a'\nmutant = 'b'\nreason = ' '\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no reason"):
        equivalents(listed)


def sample(lesson: int) -> list:
    listed = equivalents()
    judged = [mutant for mutant in made(lesson) if mutant.key not in listed]
    return sorted(judged, key=lambda mutant: hashlib.sha256(repr(mutant.key).encode()).hexdigest())[:SAMPLE]


@pytest.mark.whole
@pytest.mark.parametrize("lesson", LESSONS)
def test_a_fixed_sample_of_each_lessons_mutants_is_killed_by_its_check(lesson):
    with tempfile.TemporaryDirectory() as folder:
        for mutant in sample(lesson):
            assert killed(mutant, Path(folder)), (f"course check {lesson} passes a mutant of line {mutant.line}: "
                                                  f"{mutant.before.strip()!r} -> {mutant.after.strip()!r}")


def test_a_functions_annotations_are_not_mutated():
    from mutation.run import annotations

    source = "def f(a: dict | None, *rest: int) -> str | None:\n    return a | rest\n"
    assert annotations(source) == [((1, 9), (1, 20)), ((1, 29), (1, 32)), ((1, 37), (1, 47))]
    assert not [mutant for mutant in made(7) if "dict + None" in mutant.after or "dict - None" in mutant.after]
