"""Helper tests for lesson 3 that are not completion sentences: stage tables under attack.

Property tests build arbitrary stage tables and throw arbitrary moves and
record kinds at a door that runs under them: the door never raises, admits a
move exactly when the table lists it from the current stage, admits a kind
exactly in the stages the table gives it, and a refusal changes no store and
appends one refused event. Junk given as a table is refused with a
StageTableError, never another exception. The lesson's demo is checked to be
byte-identical across hash seeds, timezones and locales.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.run.doors import door_for
from core.run.policy import Policy
from core.run.records import make_run
from core.run.stages import StageTable, StageTableError, advance

from .lab_run import LAB_POLICY
from .conftest import examples

REPO = Path(__file__).resolve().parent.parent
PROPERTY_SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("authorize", "observe", "collect", "select", "review", "report", "x", "Observe", "observe ")
KINDS = ("observation", "action", "capture", "outcome", "finding", "review")
POLICY = Policy.from_dict(LAB_POLICY)


@st.composite
def tables(draw) -> StageTable:
    """A table every stage of which is reachable: each stage after the first is entered from an earlier one."""
    stages = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=len(NAMES), unique=True))
    moves = [(draw(st.sampled_from(stages[:i])), stage) for i, stage in enumerate(stages) if i]
    extra = draw(st.lists(st.tuples(st.sampled_from(stages), st.sampled_from(stages)), max_size=8))
    transitions = list(dict.fromkeys(moves + extra))
    kinds = draw(st.lists(st.sampled_from(KINDS), unique=True))
    admitted_in = {kind: tuple(draw(st.lists(st.sampled_from(stages), unique=True))) for kind in kinds}
    return StageTable(tuple(stages), tuple(transitions), admitted_in)


def stores(recorder) -> dict:
    return {key: value for key, value in recorder.snapshot().items() if key not in ("events", "counts")}


ANY_MOVE = st.one_of(st.sampled_from(NAMES), st.text(max_size=10), st.none(), st.integers(), st.lists(st.text()))


@PROPERTY_SETTINGS
@given(tables(), st.lists(ANY_MOVE, max_size=20))
def test_a_door_under_any_table_moves_exactly_as_the_table_lists(table, moves):
    """Any move under any table: admitted exactly when listed from the current stage; a refusal changes nothing."""
    recorder = door_for(3, make_run(POLICY.snapshot(), {"world": "tables"}), POLICY, stage_table=table)
    assert recorder.stage == table.stages[0]
    for move in moves:
        before_stage, before = recorder.stage, stores(recorder)
        answer = advance(recorder, move)
        listed = isinstance(move, str) and (before_stage, move) in table.transitions
        assert answer["recorded"] is listed, (before_stage, move, answer)
        if listed:
            assert answer["id"] == f"{before_stage} -> {move}" and recorder.stage == move
        else:
            assert answer["reason"] and recorder.stage == before_stage and stores(recorder) == before
            assert recorder.events[-1]["status"] == "refused"
    assert len(recorder.events) == len(moves)


@PROPERTY_SETTINGS
@given(tables(), st.data())
def test_a_door_under_any_table_admits_each_kind_only_in_its_stages(table, data):
    """A bare payload of any kind, in any reachable stage, is refused at the stage check exactly outside its stages."""
    recorder = door_for(3, make_run(POLICY.snapshot(), {"world": "kinds"}), POLICY, stage_table=table)
    for _ in range(data.draw(st.integers(0, 4))):
        listed = [target for source, target in table.transitions if source == recorder.stage]
        if not listed:
            break
        assert advance(recorder, data.draw(st.sampled_from(listed)))["recorded"]
    for kind in KINDS:
        where = table.admitted_in.get(kind, ())
        before = stores(recorder)
        answer = recorder.record(kind, {"run_id": recorder.run.run_id})
        assert answer["recorded"] is False and stores(recorder) == before
        at_stage = answer["reason"] == f"record kind '{kind}' is not admitted in stage '{recorder.stage}'"
        assert at_stage == (recorder.stage not in where), (kind, recorder.stage, where, answer)


JUNK = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6), st.sampled_from(NAMES)),
                    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                                            st.dictionaries(st.one_of(st.text(max_size=6), st.integers()), inner,
                                                            max_size=3)),
                    max_leaves=12)


@PROPERTY_SETTINGS
@given(JUNK, JUNK, JUNK)
def test_junk_given_as_a_table_is_refused_with_a_stage_table_error(stages, transitions, admitted_in):
    """Whatever is passed as the three tables, building the table succeeds or raises StageTableError."""
    try:
        table = StageTable(stages, transitions, admitted_in)
    except StageTableError as refused:
        assert str(refused)
        return
    assert isinstance(table.stages, tuple) and all(isinstance(stage, str) for stage in table.stages)
    assert all(isinstance(pair, tuple) and set(pair) <= set(table.stages) for pair in table.transitions)


def test_a_table_cannot_be_changed_after_it_is_checked():
    """The table a door runs under is frozen: its admitted_in mapping is read-only."""
    table = StageTable(["a", "b"], [["a", "b"]], {"finding": ["b"]})
    assert table.stages == ("a", "b") and table.transitions == (("a", "b"),)
    try:
        table.admitted_in["finding"] = ("a",)
    except TypeError:
        pass
    else:
        raise AssertionError("admitted_in could be changed after the table was checked")
    assert table.admitted_in["finding"] == ("b",)


def test_the_stages_demo_is_byte_identical_across_seeds_timezones_and_locales(tmp_path):
    """The demo writes the same bytes under any hash seed, timezone and locale, and they are the committed ones."""
    outputs = []
    for number, (seed, tz, locale) in enumerate([("0", "UTC", "C"), ("4242", "Pacific/Chatham", "C.UTF-8"),
                                                  ("random", "Asia/Kathmandu", "C")]):
        out = tmp_path / f"stages-{number}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed, "TZ": tz, "LC_ALL": locale}
        done = subprocess.run([sys.executable, "-m", "core.run.demo_stages", "--out", str(out)], cwd=REPO, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
    assert len(set(outputs)) == 1
    assert outputs[0] == (REPO / "data/course/stages-demo.json").read_bytes()


def test_the_stages_demo_gives_one_line_for_a_bad_output_path(tmp_path):
    """A path the demo cannot write gets one line on stderr and a non-zero exit, never a traceback."""
    (tmp_path / "a-file").write_text("not a folder")
    done = subprocess.run([sys.executable, "-m", "core.run.demo_stages", "--out", str(tmp_path / "a-file" / "x.json")],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_table_cannot_restrict_a_kind_admitted_in_every_stage():
    """A table that names the stage move (or any row admitted in every stage) is refused: moves obey TRANSITIONS alone."""
    recorder = door_for(3, make_run(POLICY.snapshot(), {"world": "restrict"}), POLICY)
    table = StageTable(("authorize", "report"), (("authorize", "report"),), {"transition": ("report",)})
    try:
        door_for(3, recorder.run, recorder.policy, stage_table=table)
    except StageTableError as refused:
        assert str(refused) == "record kind 'transition' is admitted in every stage; a stage table cannot restrict it"
    else:
        raise AssertionError("a table restricted where the run may move")
