"""This course keeps the lesson contract: lint, artifacts, starters and notebooks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from course import lint, manifest
from course import verify as verify_module
from course.starters import direction_problems

from .conftest import ATTACKS_TABLE, run_course

REPO = Path(__file__).resolve().parent.parent
LESSONS = manifest.load(REPO)
READY = [lesson for lesson in LESSONS if lesson.ready]


def test_course_lint_passes():
    done = run_course(REPO, "lint")
    assert done.returncode == 0, done.stdout + done.stderr


# What `course verify` checks: every artifact of a ready lesson, and any other that is committed.
ARTIFACTS = [a for lesson in LESSONS for a in lesson.artifacts if lesson.ready or (REPO / a.path).exists()]


@pytest.mark.whole
@pytest.mark.parametrize("artifact", ARTIFACTS, ids=lambda artifact: artifact.path)
def test_every_committed_artifact_reproduces_byte_for_byte(artifact, attack_suite, tmp_path):
    """Each artifact's own command, run afresh, writes its committed copy byte for byte (as `course verify` checks;
    the attack table comes from the session's one run of the suite, by the same command)."""
    if artifact.path == ATTACKS_TABLE:
        assert attack_suite.done.returncode == 0, attack_suite.done.stdout[-2000:] + attack_suite.done.stderr
        fresh = tmp_path / "attacks.md"
        fresh.write_bytes(attack_suite.fresh)
        same = attack_suite.fresh == (REPO / artifact.path).read_bytes()
        assert same, verify_module._short_diff(REPO / artifact.path, fresh, artifact.path)
    else:
        verdict = verify_module.verify_one(artifact, REPO, tmp_path)
        assert verdict.status == "identical", f"{verdict.status}: {verdict.detail}"


@pytest.mark.whole
@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_pristine_starter_fails_and_solution_passes(lesson):
    assert direction_problems(lesson, REPO) == []


def test_every_notebook_is_executed_top_to_bottom_with_clean_outputs():
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    problems = [p for path in notebooks for p in lint.check_notebook(path, path.name)]
    assert problems == []


@pytest.mark.parametrize("path", sorted({t for lesson in LESSONS for t in lesson.tests if (REPO / t).exists()}))
def test_every_completion_test_states_one_unique_sentence(path):
    """Completion suites exist before their pages do; their sentences must be ready to list."""
    sentences = lint.test_docstrings(REPO / path)
    assert sentences, f"{path} holds no tests"
    missing = [name for name, doc in sentences if not doc]
    assert missing == [], f"tests without a completion sentence: {missing}"
    docs = [doc for _, doc in sentences]
    assert len(set(docs)) == len(docs), f"{path} repeats a completion sentence"


def test_the_manifest_is_the_only_list_of_lessons():
    """No lesson page, notebook or starter exists that the manifest does not list."""
    listed = {path for lesson in LESSONS for path in (lesson.page, lesson.notebook, lesson.starter,
                                                       lesson.starter_test, lesson.solution)}
    on_disk = {p.relative_to(REPO).as_posix() for pattern in ("lessons/[0-9][0-9]-*.md", "notebooks/*.ipynb",
                                                               "starter/lesson*.py", "solutions/lesson*.py")
               for p in REPO.glob(pattern)}
    assert on_disk - listed == set()
    for lesson in LESSONS:
        assert re.fullmatch(rf"lessons/{lesson.label}-{lesson.slug}\.md", lesson.page), lesson.page
        assert lesson.notebook == f"notebooks/lesson{lesson.label}.ipynb"
