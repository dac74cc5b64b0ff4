"""What a selection cites is kept ready: the same seqs, bytes and id as encoding them afresh, at a cost flat in the run.

A selection cites its proposal and every feedback its family earned, a list
as long as the run. select.Earned keeps that list and its canonical JSON as
feedback arrives, so a selection copies them instead of walking them.
"""

from __future__ import annotations

import gc
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.door_cost import Bench, fill
from core.run.canon import canonical_bytes
from core.run.records import RecordError, named_by_content
from core.run.select import Earned, Selection, selection_state

RUN = "a" * 64
ACT = "inspect_headers -> https://lab.example:443/x"


def earned_from(seqs: list[int]) -> Earned:
    earned = Earned()
    for seq in seqs:
        earned.add(1.0, seq)
    return earned


@st.composite
def family_and_proposal(draw):
    """Ascending feedback seqs (huge ones and empty lists too), how many of them a candidate saw, and a proposal's seq."""
    seqs = sorted(draw(st.sets(st.integers(1, 2**53 - 1), max_size=40)))
    count = draw(st.integers(0, len(seqs)))
    proposal = draw(st.integers(1, 2**53 - 1).filter(lambda seq: seq not in seqs))
    return seqs, count, proposal


@given(family_and_proposal())
def test_the_kept_citations_are_the_sorted_seqs_and_their_canonical_bytes(case):
    """cites_with gives the first count feedback seqs with the proposal's in its place, and canonical_bytes of that list."""
    seqs, count, proposal = case
    cites, canonical = earned_from(seqs).cites_with(proposal, count)
    assert cites == tuple(sorted([*seqs[:count], proposal]))
    assert type(cites) is tuple
    assert canonical == canonical_bytes(list(cites))


@given(family_and_proposal(), st.text(min_size=1, max_size=20).filter(str.strip), st.floats(0, 1e6))
def test_a_selection_made_from_kept_bytes_is_the_selection_made_afresh(case, reason, value):
    """A Selection given its cites' kept bytes has the id and the data of one that encodes them itself."""
    seqs, count, proposal = case
    cites, canonical = earned_from(seqs).cites_with(proposal, count)
    kept = Selection(RUN, ACT, value, reason, cites, canonical_cites=canonical)
    fresh = Selection(RUN, ACT, value, reason, cites)
    assert kept.selection_id == fresh.selection_id
    assert kept.to_dict() == fresh.to_dict()
    assert Selection(RUN, ACT, value, reason, cites, selection_id=kept.selection_id) == kept


def test_a_list_of_cites_is_checked_whatever_bytes_come_with_it():
    """Kept bytes are taken only with a tuple the door made; cites in a list are checked and encoded in full."""
    with pytest.raises(RecordError, match="cites must be ledger sequence numbers"):
        Selection(RUN, ACT, 1.0, "r", [0, 5], canonical_cites=b"[0,5]")
    with pytest.raises(RecordError, match="cites must be ledger sequence numbers"):
        Selection(RUN, ACT, 1.0, "r", [True], canonical_cites=b"[true]")


@pytest.mark.parametrize("later", [7, 6, 1])
def test_feedback_seqs_must_arrive_in_ledger_order(later):
    """Earned refuses a feedback seq that does not come after the last one (the same, or an earlier one)."""
    earned = earned_from([3, 7])
    with pytest.raises(ValueError, match="comes after seq 7"):
        earned.add(1.0, later)
    assert earned.seqs == [3, 7] and earned.credit == 2.0 and bytes(earned.text) == b"3,7"


def test_bytes_kept_for_a_field_the_record_lacks_are_refused():
    """named_by_content refuses kept bytes named for a field the record does not have."""
    record = Selection(RUN, ACT, 1.0, "r", (1, 2))
    with pytest.raises(RecordError, match="not its fields"):
        named_by_content(record, "selection_id", encoded={"citations": b"[1,2]"})


def python_calls(bench: Bench, selections: int) -> Counter:
    """The Python functions called while the door makes ``selections`` selections."""
    calls: Counter = Counter()

    def count(frame, event, arg):
        if event == "call":
            calls[frame.f_code.co_name] += 1

    # A collection may run any registered gc callback in the middle; that is not the selection's work.
    gc.collect()
    gc.disable()
    sys.setprofile(count)
    try:
        for _ in range(selections):
            bench.one("selection")
    finally:
        sys.setprofile(None)
        gc.enable()
    return calls


def test_a_selection_walks_nothing_per_feedback_its_family_earned():
    """With 2,000 feedback held, a selection calls exactly the Python functions it calls with 20: none per citation."""
    counted = {}
    for feedback in (20, 2000):
        bench = Bench()
        fill(bench, 200)
        while len(selection_state(bench.door).credit["fam-recon"].seqs) < feedback:
            bench.one("feedback")
        bench.one("selection")  # the first after new feedback makes the family's tuple again
        counted[feedback] = python_calls(bench, 5)
        cited = bench.door.stored("selection", next(bench.door.newest_first("selection"))).cites
        assert len(cited) > feedback
    assert counted[2000] == counted[20]
