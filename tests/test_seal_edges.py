"""Edge cases of closing, sealing, verifying, reporting and replaying; not completion sentences.

The table-driven tamper test runs over every event of the committed reference
report (data/course/report.json) when it exists, and over the realistic lab
report of tests/test_run_seal.py until then.
"""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.audit.replay import Answer, replay
from core.run.canon import artifact_text, write_artifact
from core.run.rederive import SECTIONS, DoorError
from core.run.gate import act_subject
from core.run.propose import propose
from core.run.recorder import BOUNDED, PAYLOAD_LIMIT, Recorder
from core.run.rederive import render as render_markdown
from core.run.report import ReportError, build_report, with_verdicts
from core.run.seal import SealError, abort, finish, load_report, reseal, seal
from core.run.seal import verify_chain as verify
from core.run.stages import advance
from core.safety import load_safety_pack

from .lab_run import go_to, lab_run
from .test_audit_replay import gated_report
from .test_run_seal import ROOT, lab_report, run_command, sealed_from, stage_walk_report
from .conftest import examples


def resealed(report: dict, **changes) -> dict:
    """``report`` with ``changes`` applied and sealed again, as a door that sealed its own mistakes would."""
    return reseal({**report, **changes})


def judged_by() -> dict:
    """What build_report needs besides the door: the safety pack the run is judged against."""
    return {"pack": load_safety_pack()}

REFERENCE = ROOT / "data" / "course" / "report.json"


def tamper_source() -> dict:
    """The committed reference report."""
    return load_report(REFERENCE)


SOURCE = tamper_source()
SOURCE_EVENTS = len(SOURCE["events"])


# --- tampering with every event -----------------------------------------------------------


def _flip_kind(events, index):
    kind = events[index]["kind"]
    events[index]["kind"] = kind[0].swapcase() + kind[1:]  # one bit of the first byte


def _flip_chain(events, index):
    chain = events[index]["chain"]
    events[index]["chain"] = chain[:-1] + ("0" if chain[-1] != "0" else "1")


def _edit_payload(events, index):
    payload = events[index]["payload"]
    events[index]["payload"] = {**payload, "extra": 1} if isinstance(payload, dict) else {"extra": 1}


def _drop(events, index):
    del events[index]


def _duplicate(events, index):
    events.insert(index + 1, copy.deepcopy(events[index]))


def _swap_with_next(events, index):
    events[index], events[index + 1] = events[index + 1], events[index]


# name -> (edit, which event verification must name, given the 1-based seq of the edited event)
TAMPERS = {
    "kind byte flipped": (_flip_kind, lambda seq: seq),
    "chain byte flipped": (_flip_chain, lambda seq: seq),
    "payload edited": (_edit_payload, lambda seq: seq),
    "dropped": (_drop, lambda seq: seq),
    "duplicated": (_duplicate, lambda seq: seq + 1),
    "swapped with the next": (_swap_with_next, lambda seq: seq),
}


def test_tamper_source_is_intact():
    """The report the tamper table works on verifies before it is touched."""
    assert verify(SOURCE).ok


@pytest.mark.parametrize("index", range(SOURCE_EVENTS), ids=lambda index: f"event-{index + 1}")
def test_every_tamper_of_every_event_is_named(index):
    """Each way of altering event K is caught, and the first altered event is the one named."""
    for name, (edit, named) in TAMPERS.items():
        if name == "swapped with the next" and index == SOURCE_EVENTS - 1:
            continue
        events = copy.deepcopy(SOURCE["events"])
        edit(events, index)
        verification = verify({**SOURCE, "events": events})
        assert (verification.ok, verification.seq) == (False, named(index + 1)), (name, verification)
        assert verification.message.startswith(f"altered: event {named(index + 1)}: "), name


@pytest.mark.parametrize("key", sorted(key for key in SOURCE if key not in ("events", "seal")))
def test_every_part_outside_the_ledger_is_covered(key):
    """Replacing any top-level part but the ledger and the seal is caught; the run identity breaks the chain itself."""
    if key == "run":
        with pytest.raises(SealError, match="names no run"):
            verify({**SOURCE, key: "tampered"})
        verification = verify({**SOURCE, key: {**SOURCE["run"], "run_id": "0" * 64}})
        assert (verification.ok, verification.seq) == (False, 1)
    else:
        verification = verify({**SOURCE, key: "tampered"})
        assert (verification.ok, verification.seq, verification.message) == (
            False, None, "altered: the report's body was altered outside the ledger")


def test_seal_fields_are_checked():
    """An edited head, count or body digest is caught; a missing seal or another algorithm is not a sealed report."""
    sealed, count = lab_report(), len(lab_report()["events"])
    head = verify({**sealed, "seal": {**sealed["seal"], "head": "0" * 64}})
    assert (head.ok, head.seq) == (False, None) and "head does not commit" in head.message
    chain = verify({**sealed, "seal": {**sealed["seal"], "chain": "0" * 64}})
    assert (chain.ok, chain.seq) == (False, count) and "not the sealed one" in chain.message
    more = verify({**sealed, "seal": {**sealed["seal"], "events": count + 1}})
    assert (more.seq, more.message) == (count + 1, f"altered: event {count + 1}: missing: the ledger ends after event "
                                                   f"{count} but the seal covers {count + 1} (events removed from the end)")
    fewer = verify({**sealed, "seal": {**sealed["seal"], "events": count - 1}})
    assert fewer.seq == count and "not covered by the seal" in fewer.message
    body = verify({**sealed, "seal": {**sealed["seal"], "body": "0" * 64}})
    assert body.message == "altered: the report's body was altered outside the ledger"
    with pytest.raises(SealError, match="no seal"):
        verify({key: value for key, value in sealed.items() if key != "seal"})
    with pytest.raises(SealError, match="algorithm is 'md5'"):
        verify({**sealed, "seal": {**sealed["seal"], "algorithm": "md5"}})
    with pytest.raises(SealError, match="event count"):
        verify({**sealed, "seal": {**sealed["seal"], "events": True}})


def test_every_event_removed_is_a_truncation_at_event_one():
    """A ledger emptied of every event is named at event 1, as missing."""
    sealed = lab_report()
    verification = verify({**sealed, "events": []})
    assert verification.seq == 1 and "missing: the ledger ends after event 0" in verification.message


def test_an_event_that_lost_its_canonical_form_is_named():
    """An event edited to hold a value with no canonical JSON form is named, not raised."""
    sealed = lab_report()
    sealed["events"][3]["payload"] = {"value": float("nan")}
    assert verify(sealed).seq == 4
    sealed = lab_report()
    sealed["policy"]["max_actions"] = float("inf")
    assert verify(sealed).message == "altered: the report's body was altered outside the ledger"


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_one_character_edit_of_the_file_is_caught(data):
    """Changing one character of a sealed report file either leaves the same data, breaks the JSON, or fails verification."""
    text = artifact_text(_LAB_SEALED)
    position = data.draw(st.integers(0, len(text) - 1))
    character = data.draw(st.sampled_from("0aZ\" {}[],:\\1e."))
    edited = text[:position] + character + text[position + 1:]
    try:
        parsed = json.loads(edited)
    except json.JSONDecodeError:
        return
    if parsed == _LAB_SEALED:
        return
    try:
        assert not verify(parsed).ok
    except SealError:
        pass  # no longer a sealed report at all: refused just the same


_LAB_SEALED = lab_report()


# --- sealing ------------------------------------------------------------------------------------


def test_sealing_is_pure_and_deterministic(tmp_path):
    """Sealing leaves its input alone, gives the same bytes every time, and survives a trip through a file."""
    recorder = lab_run(10, world="pure")
    go_to(recorder, "observe")
    finish(recorder, "done")
    unsealed = build_report(recorder, SECTIONS, judged_by())
    before = copy.deepcopy(unsealed)
    first, second = seal(unsealed), seal(unsealed)
    assert unsealed == before and artifact_text(first) == artifact_text(second)
    path = write_artifact(tmp_path / "report.json", first)
    assert verify(load_report(path)).ok
    with pytest.raises(SealError, match="already sealed"):
        seal(first)
    for junk in ([], {"events": []}, {"run": {"run_id": "x"}, "events": [1]}):
        with pytest.raises(SealError):
            seal(junk)


@pytest.mark.parametrize("text, problem", [
    ('{"a": 1, "a": 2}', "the key 'a' appears twice in one object"),
    ('{"a": NaN}', "not JSON (NaN is not a JSON number)"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ("", "not JSON (Expecting value at line 1 column 1)"),
])
def test_load_report_refuses_what_json_would_quietly_accept(tmp_path, text, problem):
    """Repeated keys, NaN, runaway nesting and empty files are refused with one line naming the problem."""
    path = tmp_path / "report.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SealError) as caught:
        load_report(path)
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_load_report_refuses_unreadable_files(tmp_path):
    """A directory or a file that is not UTF-8 is refused with one line."""
    (tmp_path / "latin.json").write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(SealError, match="not UTF-8 text"):
        load_report(tmp_path / "latin.json")
    with pytest.raises(SealError, match="a folder, not a file"):
        load_report(tmp_path)


# --- closing, and what the ledger keeps ---------------------------------------------------------


def test_a_bad_close_is_refused_and_the_run_stays_open():
    """A close with an unknown ending or no reason is a recorded refusal, and the run stays open."""
    recorder = lab_run(10, world="bad-close")
    run_id = recorder.run.run_id
    assert recorder.record("close", {"run_id": run_id, "how": "paused", "reason": "tea"}) == {
        "recorded": False, "reason": "a run closes as finished or aborted, not 'paused'"}
    assert finish(recorder, "  ") == {"recorded": False, "reason": "closing a run needs a reason"}
    assert abort(recorder, None) == {"recorded": False, "reason": "closing a run needs a reason"}
    assert recorder.closed is None and advance(recorder, "observe")["recorded"]
    assert [e["payload"] for e in recorder.ledger[:3]] == [
        {"how": "paused", "reason": "tea", "run_id": run_id}, {"how": "finished", "reason": "  ", "run_id": run_id},
        {"how": "aborted", "reason": None, "run_id": run_id}]


def test_closed_state_and_ledger_are_copies():
    """Editing the snapshot's closed entry or the ledger's payloads changes nothing in the door."""
    recorder = lab_run(10, world="copies")
    finish(recorder, "done")
    snapshot = recorder.snapshot()
    snapshot["closed"]["how"] = "aborted"
    recorder.ledger[-1]["payload"]["how"] = "aborted"
    assert recorder.closed["how"] == "finished" and recorder.ledger[-1]["payload"]["how"] == "finished"


def test_every_event_keeps_a_json_ready_copy_of_its_payload():
    """The ledger keeps what the door was asked, as plain JSON data the caller can no longer edit, in admitted and refused events alike."""
    recorder = Recorder(lab_run(world="payloads").run, lab_run(world="payloads").policy)
    run_id = recorder.run.run_id
    value = {"list": (1, 2), "nested": {"a": 1.5}}
    payload = {"run_id": run_id, "field": "shape", "value": value}
    assert recorder.record("observation", payload)["recorded"]
    value["nested"]["a"] = 99
    recorder.record("observation", {"run_id": run_id, "field": "bad", "value": {1, 2}})
    recorder.record("action", object())
    recorder.refuse("proposal", "a reply that does not parse", code="malformed_reply", by="a test")
    ledger = recorder.ledger
    assert ledger[0]["payload"] == {"run_id": run_id, "field": "shape", "value": {"list": [1, 2], "nested": {"a": 1.5}}}
    assert ledger[1]["payload"] == {"unrepresentable": "dict"}
    assert ledger[2]["payload"] == {"unrepresentable": "object"}
    assert ledger[3]["payload"] is None
    assert all("payload" not in event for event in recorder.events)
    assert [dict(event, payload=None) for event in recorder.events] == [dict(e, payload=None) for e in ledger]


# --- building and rendering reports -------------------------------------------------------------


def test_build_report_refuses_an_open_run_and_sections_with_no_canonical_form():
    """An open run is refused, and so is a section that has no canonical JSON form."""
    recorder = lab_run(10, world="open")
    with pytest.raises(ReportError, match="still open"):
        build_report(recorder, SECTIONS, judged_by())
    finish(recorder, "done")
    assert build_report(recorder, SECTIONS, judged_by())["closed"]["how"] == "finished"
    with pytest.raises(ReportError, match="canonical JSON"):
        build_report(recorder, [*SECTIONS, lambda door, given: {"extra": float("nan")}], judged_by())


def test_findings_carry_their_verdicts():
    """Each finding gets the verdict recorded for it, refuted ones included, and unverified when there is none."""
    findings = [{"finding_id": name, "claim": name} for name in ("a", "b", "c")]
    verdicts = [{"finding_id": "a", "verdict": "confirmed", "verdict_id": "v1", "reason": "seen twice"},
                {"finding_id": "b", "verdict": "refuted", "verdict_id": "v2", "reason": "the control showed it too"}]
    assert [(f["finding_id"], f["verdict"], f["verdict_id"]) for f in with_verdicts(findings, verdicts)] == [
        ("a", "confirmed", "v1"), ("b", "refuted", "v2"), ("c", "unverified", "")]
    assert with_verdicts(findings, [])[0]["verdict_reason"] == "no verdict was recorded"


def test_markdown_tells_the_held_and_approved_story_and_the_safety_verdict():
    """The Markdown shows a held action with its review and admission, each refusal with its reason, and which boundaries were only declared."""
    sealed = gated_report()
    text = render_markdown(sealed)
    held = next(e["seq"] for e in sealed["events"] if e["kind"] == "action" and e["status"] == "refused")
    admitted = next(e["seq"] for e in sealed["events"] if e["kind"] == "action" and e["seq"] > held
                    and e["status"] == "admitted")
    review = sealed["reviews"][0]["review_id"][:12]
    subject = sealed["reviews"][0]["subject_id"]
    assert subject.startswith("probe_reflection -> https://lab.example:443/search with arguments ")
    assert (f"- `{subject}`: refused at event {held}, then admitted at event {admitted}; approved "
            f"by `engagement-lead` in review {review}") in text
    assert f"- event {held} (`action`): `probe.active_light is consequential" in text
    assert "- no_model_written_policy: declared only, not judged: " in text
    assert "- no_out_of_scope_destination: upheld at runtime: " in text
    assert text.index("## Findings") < text.index("## Counts") < text.index("## Refusals") < text.index("## Seal")


def test_text_from_outside_the_harness_stays_inert_in_the_markdown():
    """A refusal reason with Markdown, HTML, backticks and a line break renders as one code span on one line."""
    recorder = lab_run(10, world="inert")
    recorder.refuse("proposal", "see [here](https://attacker.test) `tick` <b>bold</b>\nsecond line",
                    code="malformed_reply", by="a test")
    finish(recorder, "done")
    lines = render_markdown(sealed_from(recorder)).splitlines()
    assert "- event 1 (`proposal`): ``see [here](https://attacker.test) `tick` <b>bold</b>\\nsecond line``" in lines


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=examples(60), deadline=None)
@given(key=st.sampled_from(["findings", "reviews", "safety", "counts", "closed", "policy", "stage", "run"]),
       value=json_values, event_value=json_values)
def test_rendering_any_sealed_junk_never_raises(key, value, event_value):
    """A resealed report whose parts hold any JSON at all renders, saying on its seal line what is wrong, or is refused as not a report; it never crashes."""
    sealed = _LAB_SEALED
    events = copy.deepcopy(sealed["events"])
    events[2]["payload"], events[3]["id"] = event_value, event_value
    if key == "run":
        value = {"run_id": "x", "junk": value}
    try:
        text = render_markdown(resealed(sealed, events=events, **{key: value}))
    except (SealError, ReportError):
        return
    assert text.startswith("# Run report: ") and "\n- Seal: " in text


def test_markdown_of_an_altered_report_says_so_and_the_command_exits_1(tmp_path):
    """An altered report still renders, with the seal line saying what was altered, and the render command exits 1."""
    sealed = lab_report()
    sealed["counts"]["refusals"] = 0
    assert "- Seal: altered: the report's body was altered outside the ledger" in render_markdown(sealed)
    done = run_command("core.run.report", "render", str(write_artifact(tmp_path / "altered.json", sealed)))
    assert done.returncode == 1 and "- Seal: altered: the report's body was altered outside the ledger" in done.stdout


def test_render_command_refuses_what_is_not_a_sealed_harness_report(tmp_path):
    """A missing file, a sealed report of another format, or an unsealed one exits 2 with one line."""
    other = resealed(lab_report(), format="something-else/1")
    unsealed = {key: value for key, value in lab_report().items() if key != "seal"}
    cases = {
        tmp_path / "missing.json": "no such file",
        write_artifact(tmp_path / "other.json", other): "format is 'something-else/1'",
        write_artifact(tmp_path / "unsealed.json", unsealed): "has no seal",
    }
    for path, problem in cases.items():
        done = run_command("core.run.report", "render", str(path))
        assert (done.returncode, done.stdout) == (2, "") and done.stderr.count("\n") == 1, path
        assert done.stderr.startswith("report: ") and problem in done.stderr, done.stderr
    assert run_command("core.run.report", "show", str(tmp_path / "x")).returncode == 2


# --- replay edges -------------------------------------------------------------------------------


def test_replay_copies_refusals_it_cannot_ask_again():
    """A refusal the caller wrote (a model that failed to answer) is copied, and its run still replays in agreement."""
    recorder = lab_run(10, world="garbled")
    go_to(recorder, "propose")

    def failing(prompt: str) -> str:
        raise TimeoutError("no answer")

    propose(recorder, failing)
    recorder.record("observation", {"unhashable": {1, 2}})
    go_to(recorder, "select")
    finish(recorder, "the model made no sense")
    sealed = sealed_from(recorder)
    assert [e["payload"] for e in sealed["events"] if e["kind"] == "reply"] == [None]
    result = replay(sealed)
    assert result.divergences == ()
    assert len(result.not_redecided) == 2


def test_an_admitted_event_without_its_payload_cannot_be_explained():
    """An admitted event whose payload is gone shows as a divergence: replay cannot ask its question again."""
    sealed = stage_walk_report("no-payload")
    events = copy.deepcopy(sealed["events"])
    events[0]["payload"] = None
    divergences = replay(resealed(sealed, events=events)).divergences
    assert divergences[0].seq == 1 and divergences[0].sealed == Answer("admitted", "authorize -> observe", "", "")
    assert divergences[0].replayed.reason == "this event kept no payload to ask again with"


def test_an_over_long_payload_is_kept_as_its_digest_and_is_not_redecided():
    """A payload over the ledger's bound is kept as its digest, its size and a prefix, and replay reports the event as not re-decided, never as agreeing."""
    recorder = lab_run(10, world="huge")
    go_to(recorder, "observe")
    huge = {"run_id": recorder.run.run_id, "field": "page", "value": "x" * (PAYLOAD_LIMIT + 10)}
    assert recorder.record("observation", {**huge, "extra": 1})["recorded"] is False
    kept = recorder.ledger[-1]["payload"]
    assert list(kept) == [BOUNDED] and kept[BOUNDED]["bytes"] > PAYLOAD_LIMIT
    assert len(kept[BOUNDED]["prefix"]) <= 1024 and len(kept[BOUNDED]["sha256"]) == 64
    finish(recorder, "done")
    result = replay(sealed_from(recorder))
    assert result.divergences == () and result.not_redecided == (2,)


def test_replay_refuses_a_report_it_cannot_rebuild():
    """A run that is not a run, a policy that is not the run's own, or a taxonomy version that is not carried stops replay with a reason."""
    sealed = lab_report()
    with pytest.raises(DoorError, match="exactly the fields"):
        replay({**sealed, "run": {"run_id": "x"}})
    with pytest.raises(DoorError, match="not the one its run identifier was made from"):
        replay({**sealed, "policy": {**sealed["policy"], "max_actions": 5}})
    with pytest.raises(DoorError, match="cannot be rebuilt"):
        replay({**sealed, "policy": {"reference": "x"}})
    with pytest.raises(DoorError, match="cannot be rebuilt"):
        replay({**sealed, "gating": None})
    with pytest.raises(DoorError, match="taxonomy version 7 is not carried"):
        replay({**sealed, "gating": {**sealed["gating"], "taxonomy_version": 7}})


def test_replay_and_verify_agree_with_the_reference_report():
    """The committed reference report verifies and replays with every decision agreeing, from the command line."""
    assert run_command("core.run.seal", "verify", str(REFERENCE)).returncode == 0
    done = run_command("core.audit.replay", str(REFERENCE))
    assert done.returncode == 0
    assert done.stdout.startswith(f"replayed {SOURCE_EVENTS} events: every decision agrees")


def test_a_closed_run_appends_nothing_more_and_replays_in_agreement():
    """Records asked for after the close are refused without a ledger event, so the sealed ledger ends at the close."""
    recorder = lab_run(10, world="late")
    finish(recorder, "closed at once")
    assert recorder.record("observation", {"run_id": recorder.run.run_id, "field": "late", "value": 1})["reason"] \
        == "run is closed (finished): closed at once"
    assert advance(recorder, "observe")["recorded"] is False
    sealed = sealed_from(recorder)
    assert [e["kind"] for e in sealed["events"]] == ["close"]
    assert replay(sealed).divergences == ()


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(min_size=32, max_size=32), st.dictionaries(st.text(max_size=8), st.integers(-99, 99), max_size=4))
def test_a_chain_link_is_the_digest_of_the_canonical_object_it_stands_for(prev, event):
    """chain_link builds its bytes by hand for speed; they are exactly canonical_object's, so the chain is RFC 8785's."""
    from core.run.canon import canonical_bytes, canonical_object
    from core.run.seal import chain_link

    prev_hex = prev.hex()
    data = canonical_bytes(event)
    expected = hashlib.sha256(canonical_object({"event": data, "prev": canonical_bytes(prev_hex)})).hexdigest()
    assert chain_link(prev_hex, data) == expected


def test_the_head_commits_to_every_value_not_to_the_files_layout(tmp_path):
    """What lessons 1 and 9 say: any value changes the head; re-indenting or an escape does not."""
    from pathlib import Path

    from core.run.rederive import verify as verify_report

    committed = Path(__file__).resolve().parent.parent / "data" / "course" / "report.json"
    text = committed.read_text(encoding="utf-8")
    report = json.loads(text)
    assert '"by"' in text  # a key the escape below rewrites
    for same in (json.dumps(report, indent=5), text.replace('"by"', '"\\u0062y"')):
        assert same != text
        copy_ = json.loads(same)
        assert verify_report(copy_).ok and reseal(copy_)["seal"]["head"] == report["seal"]["head"]
    other = json.loads(text)
    other["findings"][0]["claim"] += " "
    assert reseal(other)["seal"]["head"] != report["seal"]["head"]
    for name in ("01-read-a-finished-report.md", "09-finish-abort-sealed-report.md"):
        prose = " ".join((committed.parent.parent.parent / "lessons" / name).read_text(encoding="utf-8").split())
        assert "any byte of the report" not in prose and "change any value in the report" in prose, name
