"""A prediction only running can answer (rules 8 and 18), for every lesson held to rules 15 to 19.

Each such page declares its prediction's answer once, in a collapsed answer
block after the question, with the short strings that give it away
(course/predictions.py). None of them may appear on the page above that block,
in the README every student reads at set-up, anywhere in the committed notebook, or in
what the fresh starter's check prints.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from course import manifest, predictions

from .conftest import REPO, run_course

pytestmark = pytest.mark.whole  # make test runs it; make test-fast leaves it out

HELD = [lesson for lesson in manifest.load(REPO) if lesson.ready and lesson.contract >= 2]


@pytest.mark.parametrize("lesson", HELD, ids=lambda lesson: f"lesson{lesson.label}")
def test_nothing_before_the_answer_block_gives_the_prediction_away(lesson):
    found = predictions.answers((REPO / lesson.page).read_text(encoding="utf-8"))
    assert found and all(answer.collapsed and answer.keys for answer in found), lesson.page
    keys = tuple(key for answer in found for key in answer.keys)
    assert all(predictions.leaks((key,), answer.body) for answer in found for key in answer.keys)
    assert [key for answer in found for key in predictions.leaks(answer.keys, answer.above)] == []
    assert predictions.leaks(keys, (REPO / "README.md").read_text(encoding="utf-8")) == []

    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    assert predictions.leaks(keys, predictions.notebook_text(notebook)) == []
    cells = predictions.prediction_cells(notebook)
    assert cells and all(not cell["outputs"] for cell in cells), "a prediction cell is committed with its output"
    assert all(predictions.IGNORE_OUTPUT_TAG in cell["metadata"]["tags"] for cell in cells)

    check = run_course(REPO, "check", str(lesson.number), COURSE_TARGET="pristine", COLUMNS="1000")
    assert check.returncode == 1 and check.stdout, check.stderr
    assert predictions.leaks(keys, check.stdout + check.stderr) == []
    env = {**os.environ, "COURSE_TARGET": "pristine", "COLUMNS": "1000"}
    plain = subprocess.run([sys.executable, "-m", "pytest", lesson.starter_test, "-q"], cwd=REPO, env=env,
                           capture_output=True, text=True)
    assert plain.returncode == 1
    assert predictions.leaks(keys, plain.stdout + plain.stderr) == []


@pytest.mark.parametrize("lesson", HELD, ids=lambda lesson: f"lesson{lesson.label}")
def test_no_command_that_answers_a_prediction_runs_above_it(lesson):
    """Set-up, prediction, run, explanation: what the answer block runs is not shown run before the question."""
    page = (REPO / lesson.page).read_text(encoding="utf-8")
    for answer in predictions.answers(page):
        shown = [" ".join(command.replace("\\\n", " ").split()) for command in predictions.commands_in(answer.above)]
        for command in predictions.commands_in(answer.body):
            ran = " ".join(command.replace("\\\n", " ").split())
            assert not [before for before in shown if ran.startswith(before)], (lesson.page, ran[:80])


def test_a_key_is_found_across_a_table_wrap_and_in_a_notebook_output():
    keys = ("inspect_metadata -> https://lab.example:443/contact",)
    wrapped = "│ stored inspect_metadata ->          │\n│ https://lab.example:443/contact │"
    assert predictions.leaks(keys, "stored inspect_metadata -> https://lab.example:443/contact") == list(keys)
    assert predictions.leaks(keys, wrapped) == list(keys)  # a table's border and its wrap do not hide it
    notebook = {"cells": [{"cell_type": "code", "source": "print(x)", "metadata": {},
                           "outputs": [{"output_type": "stream", "text": ["stored ", keys[0], "\n"]}]}]}
    assert predictions.leaks(keys, predictions.notebook_text(notebook)) == list(keys)
