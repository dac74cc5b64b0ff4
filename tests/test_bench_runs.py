"""`make bench` runs to its table: every benchmark's rows, at sizes too small to time anything.

A benchmark that no test runs breaks unseen (door_cost once asked the door a
verdict it refuses, and `make bench` stopped at its first row). These tests run
each row at a toy size and one round and check the table is whole; what the
figures are is never asserted here (timings belong to `make bench`, not to tests).
"""

from __future__ import annotations

import math

import pytest

from benchmarks import (canon_speed, catalogue, door_cost, door_throughput, journal_cost, lab_pass, reference_run,
                        seal_verify, student_loop)
from benchmarks.bench import all_rows
from benchmarks.measure import table

TINY = {
    "canon_speed": lambda: canon_speed.rows(1, 20),
    "seal_verify": lambda: seal_verify.rows(1, (30, 60)),
    "door_throughput": lambda: door_throughput.rows(1, (30, 60), per_round=20),
    "door_cost": lambda: door_cost.rows(1, (40, 80), batch=11),
    "catalogue": lambda: catalogue.rows(1, (5, 10)),
}
WHOLE_COMMANDS = {  # each runs whole commands in child processes: a second or more a row
    "reference_run": lambda: reference_run.rows(1),
    "journal_cost": lambda: journal_cost.rows(1),
    "lab_pass": lambda: lab_pass.rows(1),
    "student_loop": lambda: student_loop.rows(1),
}


def _whole(rows: list) -> None:
    assert rows, "the benchmark gave no rows"
    for row in rows:
        assert len(row.this) == len(row.base) == 1, f"{row.what}: one figure a round on each side"
        for figure in (*row.this, *row.base):
            assert figure > 0 and math.isfinite(figure), f"{row.what}: {figure!r} is not a time"


@pytest.mark.parametrize("name", sorted(TINY))
def test_each_in_process_benchmark_gives_its_rows(name):
    """Each in-process benchmark of make bench runs to its rows at a toy size."""
    _whole(TINY[name]())


@pytest.mark.whole
@pytest.mark.parametrize("name", sorted(WHOLE_COMMANDS))
def test_each_whole_command_benchmark_gives_its_rows(name):
    """Each benchmark that times whole commands runs to its rows."""
    _whole(WHOLE_COMMANDS[name]())


def test_the_table_lists_every_benchmark_module():
    """bench.all_rows takes rows from every benchmark module this test runs, and the table prints."""
    import inspect

    source = inspect.getsource(all_rows)
    for name in (*TINY, *WHOLE_COMMANDS):
        assert f"{name}.rows(" in source, f"make bench does not take the rows of benchmarks/{name}.py"
    rows = TINY["canon_speed"]()
    assert table(rows, 1).row_count == len(rows)


def test_seal_verify_has_a_row_for_each_of_its_goals():
    """seal_verify gives the chain against a json.dumps + SHA-256 chain and the whole check against the door's own recording, each row naming its goal."""
    rows = {row.what: row.against for row in TINY["seal_verify"]()}
    chain = [what for what, against in rows.items()
             if what.startswith("seal verify_chain, 60 events") and against == "json.dumps + sha256 chain"]
    whole = [what for what, against in rows.items() if against.startswith("the door recording the same events")]
    assert chain == [f"seal verify_chain, 60 events (goal {seal_verify.CHAIN_GOAL}x)"]
    assert whole == [f"seal verify, the whole check, the reference report (goal {seal_verify.WHOLE_GOAL}x)"]


def test_the_checks_goal_table_has_a_row_for_each_lesson_and_file():
    """make bench's goal table gives `course check N` a row for each lesson and file, with its goal, wall and CPU."""
    times = [student_loop.CheckTimes(n, target, file, goal, [goal * 0.9, goal * 1.2], [0.3, 0.4])
             for n in (1, 5) for target, file, goal in student_loop.TARGETS]
    goals = student_loop.CheckGoals(times, 2, (1.0, 1.0, 1.0), (2.0, 2.0, 2.0))
    grid = student_loop.goals_table(goals)
    assert grid.row_count == 4
    columns = {column.header: list(column.cells) for column in grid.columns}
    assert columns["goal"] == ["0.5 s", "2 s"] * 2
    assert columns["CPU (median)"] == ["0.35 s"] * 4
    assert all(cell.startswith("no: 1.05x") for cell in columns["within the goal"])
    rows = student_loop.check_rows(2, goals=goals)
    assert [row.against for row in rows] == ["the 0.5 s goal", "the 2 s goal"] * 2
