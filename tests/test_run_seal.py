"""Lesson 9 completion suite: finish or abort closes a run, and the sealed report holds its ledger in a hash chain.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Edge cases, and the tamper test over every event of a
report, live in tests/test_seal_edges.py. The report builders below are
shared with those suites and with tests/test_audit_replay.py.
"""

from __future__ import annotations

import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

from core.run.canon import canonical_bytes, digest, write_artifact
from core.run.rederive import SECTIONS, given_by, redo
from core.run.rederive import verify as verify_report
from core.run.rederive import render as render_markdown
from core.run.drive import seal_report
from core.run.report import derived
from core.run.seal import abort, finish, head_of, reseal, verify_chain
from core.run.stages import advance
from core.safety import load_safety_pack

from .lab_run import go_to, lab_loop, lab_run

ROOT = Path(__file__).resolve().parent.parent
FINISHED = "the loop ran out of proposals worth trying"


# --- report builders (shared with the other seal and replay suites) ----------------------


def sealed_from(recorder) -> dict:
    """The sealed report of a closed run of the final door."""
    return seal_report(recorder, load_safety_pack())


def finished_lab_run():
    """The lab loop of lessons 3 to 5 through the final door, then a finding quoting a capture, then finished."""
    recorder = lab_loop(lesson=10)
    go_to(recorder, "verify")
    capture = recorder.records("capture")[0]
    finding = {"run_id": recorder.run.run_id, "capture_id": capture["capture_id"],
               "quote": capture["body"].splitlines()[0], "claim": "the lab answers over HTTP/1.1"}
    assert recorder.record("finding", finding)["recorded"]
    assert finish(recorder, FINISHED)["recorded"]
    return recorder


@functools.cache
def _lab_report() -> dict:
    return sealed_from(finished_lab_run())


def lab_report() -> dict:
    """A realistic sealed report: admitted and refused events of every lesson so far (a fresh copy each call)."""
    return copy.deepcopy(_lab_report())


def stage_walk_report(world: str) -> dict:
    """A small sealed run of stage moves only; two worlds give two runs whose events differ only in their chain."""
    recorder = lab_run(10, world=world)
    go_to(recorder, "execute")
    go_to(recorder, "observe")
    go_to(recorder, "report")
    assert finish(recorder, "only walked the stages")["recorded"]
    return sealed_from(recorder)


def unchained(event: dict) -> dict:
    return {key: value for key, value in event.items() if key != "chain"}


def run_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


# --- the completion sentences ------------------------------------------------------------


def test_finish_refuses_every_later_record_and_stage_move():
    """Once a run is finished, every later record and stage move is refused with the reason the run was closed, no store changes, and nothing more is appended to the ledger."""
    recorder = lab_run(10, world="finish")
    run_id = recorder.run.run_id
    assert recorder.record("observation", {"run_id": run_id, "field": "lab_online", "value": True})["recorded"]
    go_to(recorder, "observe")
    assert finish(recorder, "nothing more to do") == {"recorded": True, "kind": "close", "id": "finished"}
    before = recorder.snapshot()
    closed = "run is closed (finished): nothing more to do"
    assert recorder.record("observation", {"run_id": run_id, "field": "late", "value": 1}) == {
        "recorded": False, "reason": closed}
    assert advance(recorder, "propose") == {"recorded": False, "reason": closed}
    assert abort(recorder, "changed my mind") == {"recorded": False, "reason": closed}
    after = recorder.snapshot()
    assert after["closed"] == {"how": "finished", "reason": "nothing more to do", "seq": len(before["events"])}
    assert after["stage"] == "observe" and after["observations"] == before["observations"]
    assert after["events"] == before["events"]  # the sealed ledger is final: not even a refusal is appended


def test_abort_keeps_what_was_admitted_and_its_reason():
    """An aborted run keeps every record it admitted before the abort, and its sealed report says it was aborted and why."""
    recorder = lab_loop(rounds=2, lesson=10)
    before = recorder.snapshot()
    assert abort(recorder, "the operator withdrew the authorization")["recorded"]
    after = recorder.snapshot()
    stores = [key for key, value in before.items() if isinstance(value, list) and key != "events"]
    assert all(after[key] == before[key] for key in stores) and before["actions"]
    assert after["events"][:-1] == before["events"]
    assert after["events"][-1] == {"seq": len(after["events"]), "kind": "close", "status": "admitted", "id": "aborted",
                                   "reason": "", "code": "", "by": "",
                                   "payload": {"how": "aborted", "reason": "the operator withdrew the authorization",
                                               "run_id": recorder.run.run_id}}
    sealed = sealed_from(recorder)
    assert sealed["closed"] == {"how": "aborted", "reason": "the operator withdrew the authorization",
                                "seq": len(after["events"])}
    assert "- Outcome: aborted: `the operator withdrew the authorization`" in render_markdown(sealed)


def test_sealed_report_chains_every_event_from_the_run_identifier():
    """A sealed report carries a chain hash on every event, starting from a hash of the run identifier, and a seal holding the event count, the last link, a digest of the rest of the report and a head that commits to all three."""
    sealed = lab_report()
    link = digest({"run_id": sealed["run"]["run_id"]})
    for event in sealed["events"]:
        link = digest({"prev": link, "event": {key: value for key, value in event.items() if key != "chain"}})
        assert event["chain"] == link
    body = {key: value for key, value in sealed.items() if key not in ("events", "seal")}
    fields = {"algorithm": "sha256-jcs-chain/2", "events": len(sealed["events"]), "chain": link, "body": digest(body)}
    assert sealed["seal"] == {**fields, "head": digest(fields)}
    head = sealed["seal"]["head"]
    assert verify_chain(sealed).ok and verify_chain(sealed).message == f"intact: {len(sealed['events'])} events"
    assert len(head) == 64


def test_verify_names_the_first_altered_event_for_each_kind_of_tamper():
    """Verification names the first altered event when a byte of an event is flipped, events are reordered, the ledger is cut short, events are spliced in from another run, or an event is inserted."""
    sealed, other = stage_walk_report("splice-a"), stage_walk_report("splice-b")
    events = sealed["events"]
    same = [{k: v for k, v in unchained(e).items() if k != "payload"} for e in events]
    assert same == [{k: v for k, v in unchained(e).items() if k != "payload"} for e in other["events"]]
    flipped = copy.deepcopy(events)
    kind = flipped[4]["kind"]
    flipped[4]["kind"] = kind[0].swapcase() + kind[1:]  # one bit of one byte: 't' becomes 'T'
    inserted = copy.deepcopy(events)
    inserted.insert(3, {**copy.deepcopy(events[1]), "seq": 4})
    tampered = {
        "flipped": (flipped, 5, "its chain hash does not follow"),
        "reordered": (events[:2] + [events[3], events[2]] + events[4:], 3, "sequence number 4 where 3 belongs"),
        "truncated": (events[:-2], len(events) - 1, "missing: the ledger ends after event"),
        "spliced": (events[:6] + other["events"][6:], 7, "its chain hash does not follow"),
        "inserted": (inserted, 4, "its chain hash does not follow"),
    }
    for name, (altered_events, seq, what) in tampered.items():
        verification = verify_chain({**sealed, "events": altered_events})
        assert (verification.ok, verification.seq) == (False, seq), name
        assert verification.message.startswith(f"altered: event {seq}: {what}"), (name, verification.message)


def test_a_change_outside_the_ledger_is_reported_as_such():
    """A change outside the ledger, such as a finding's verdict, the policy or the way the run closed, is reported as the report body altered outside the ledger."""
    edits = {
        "verdict": lambda report: report["findings"][0].update(verdict="confirmed"),
        "policy": lambda report: report["policy"].update(max_actions=99),
        "closed": lambda report: report["closed"].update(how="aborted", reason="stopped early"),
    }
    for name, edit in edits.items():
        altered = lab_report()
        edit(altered)
        verification = verify_chain(altered)
        assert (verification.ok, verification.seq, verification.message) == (
            False, None, "altered: the report's body was altered outside the ledger"), name


def test_a_resealed_report_with_an_edited_section_fails_verify_and_names_the_section():
    """A report whose derived section was edited and then resealed has a valid chain but a new head, and verify re-derives every section from the ledger and names the first that disagrees."""
    sealed = lab_report()
    assert verify_report(sealed).ok
    edits = {
        "counts": lambda report: report["counts"].update(refusals=0),
        "findings": lambda report: report["findings"][0].update(verdict="confirmed"),
        "safety": lambda report: report["safety"].update(summary="every boundary upheld"),
        "closed": lambda report: report["closed"].update(reason="a better story"),
        "captures": lambda report: report["captures"][0].update(body="HTTP/1.1 200 OK\n\nnothing here"),
    }
    for section, edit in edits.items():
        altered = lab_report()
        edit(altered)
        resealed = reseal(altered)
        assert verify_chain(resealed).ok, section  # the chain alone cannot tell
        assert resealed["seal"]["head"] != sealed["seal"]["head"], section
        verification = verify_report(resealed)
        assert (verification.ok, verification.section) == (False, section), (section, verification.message)
        assert verification.message == (f"altered: the section {section!r} is not what the ledger derives "
                                        "(edited, then resealed?)")


def test_the_head_commits_to_the_whole_report():
    """The seal's head changes when any part of the report changes, and a seal whose head does not commit to its own fields fails verification."""
    sealed = lab_report()
    assert head_of(sealed["seal"]) == sealed["seal"]["head"]
    forged = copy.deepcopy(sealed)
    forged["seal"]["head"] = "0" * 64
    assert verify_chain(forged).message == "altered: the seal's head does not commit to its own fields"
    renamed = copy.deepcopy(sealed)
    renamed["policy"]["reference"] = "another-authorization"
    assert reseal(renamed)["seal"]["head"] != sealed["seal"]["head"]
    assert reseal(copy.deepcopy(sealed)) == sealed  # resealing an unedited report gives it back byte for byte
    assert canonical_bytes(reseal(copy.deepcopy(sealed))) == canonical_bytes(sealed)


def test_markdown_is_rendered_from_the_sealed_json_alone(tmp_path):
    """The Markdown report is rendered from the sealed JSON alone: a copy read back from disk in a new process, with no recorder, gives the same text, which opens with the run, its outcome and each finding with its verdict."""
    sealed = lab_report()
    path = write_artifact(tmp_path / "report.json", sealed)
    rendered = run_command("core.run.report", "render", str(path))
    assert (rendered.returncode, rendered.stderr) == (0, "")
    assert rendered.stdout == render_markdown(json.loads(path.read_text(encoding="utf-8")))
    top = rendered.stdout.split("## Counts")[0]
    assert f"- Run: {sealed['run']['run_id']}" in top
    assert f"- Outcome: finished: `{FINISHED}`" in top
    assert "- unverified: `the lab answers over HTTP/1.1`" in top
    assert f"- Seal: intact: {len(sealed['events'])} events" in top
    assert f"- head: {sealed['seal']['head']}" in rendered.stdout


def test_seal_verify_command_answers_plainly(tmp_path):
    """`python3 -m core.run.seal verify PATH` answers plainly: intact and then the whole head with exit 0, the first altered event in one line with exit 1, and what is wrong in one line with exit 2 for a missing file, a file that is not JSON or JSON that is not a sealed report."""
    sealed = lab_report()
    intact = write_artifact(tmp_path / "intact.json", sealed)
    sealed["events"][9]["reason"] = "nothing was refused here"
    altered = write_artifact(tmp_path / "altered.json", sealed)
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "unsealed.json").write_text('{"run": {"run_id": "x"}, "events": []}', encoding="utf-8")
    expected = {
        intact: (0, f"intact: {len(sealed['events'])} events, checked against itself only (see --config)\n"
                    f"head {sealed['seal']['head']}\n", ""),
        altered: (1, "altered: event 10: its chain hash does not follow from the events before it "
                     "(the event was altered, or it belongs to another run)\n", ""),
        tmp_path / "missing.json": (2, "", "seal: missing.json: no such file\n"),
        tmp_path / "text.json": (2, "", "seal: text.json: not JSON (Expecting value at line 1 column 1)\n"),
        tmp_path / "list.json": (2, "", "seal: list.json: not a report (a report is a JSON object)\n"),
        tmp_path / "unsealed.json": (2, "", "seal: the report has no seal with the fields algorithm, events, chain, "
                                            "body, head\n"),
    }
    for path, (code, out, err) in expected.items():
        done = run_command("core.run.seal", "verify", str(path))
        assert (done.returncode, done.stdout, done.stderr) == (code, out, err), path
    usage = run_command("core.run.seal", "check", str(intact))
    assert usage.returncode == 2 and usage.stdout == "" and usage.stderr.count("\n") == 1
    fewer = lab_report()
    fewer["counts"]["refusals"] = 0
    edited, resealed = write_artifact(tmp_path / "edited.json", fewer), tmp_path / "resealed.json"
    assert run_command("core.run.seal", "seal", str(edited), "--out", str(resealed)).returncode == 0
    again = run_command("core.run.seal", "verify", str(resealed))
    assert (again.returncode, again.stdout) == (1, "altered: the section 'counts' is not what the ledger derives "
                                                   "(edited, then resealed?)\n")


def test_seal_verify_with_a_kept_head_compares_the_whole_head(tmp_path):
    """`python3 -m core.run.seal verify PATH --head HEX` passes the genuine report with its own head and fails it with any other head, one that differs only in its last digit included, each in one line; a resealed rewrite of the report fails against the genuine head although it verifies on its own."""
    genuine = lab_report()
    head = genuine["seal"]["head"]
    path = write_artifact(tmp_path / "genuine.json", genuine)
    rewritten = lab_report()
    rewritten["events"] = [unchained(e) for e in rewritten["events"] if e["status"] != "refused"]
    for seq, event in enumerate(rewritten["events"], start=1):
        event["seq"] = seq
    rewritten.update(derived(redo(rewritten), SECTIONS, given_by(rewritten)))  # every section agrees with the lie
    forged = write_artifact(tmp_path / "forged.json", reseal(rewritten))
    last = head[:-1] + ("0" if head[-1] != "0" else "1")
    other = "altered: the report's head is not the head kept elsewhere (rewritten and resealed, or another run's report)\n"
    events = len(genuine["events"])
    cases = [
        (path, head, 0, f"intact: {events} events, checked against itself only (see --config), and its head is "
                        "the head kept elsewhere\n", ""),
        (path, last, 1, other, ""),
        (path, "0" * 64, 1, other, ""),
        (path, head[:12], 2, "", "seal: --head must be a whole head: 64 lower-case hex digits\n"),
        (path, head.upper(), 2, "", "seal: --head must be a whole head: 64 lower-case hex digits\n"),
    ]
    for report, kept, code, out, err in cases:
        done = run_command("core.run.seal", "verify", str(report), "--head", kept)
        assert (done.returncode, done.stdout, done.stderr) == (code, out, err), kept
    alone = run_command("core.run.seal", "verify", str(forged))
    assert alone.returncode == 0 and alone.stdout.startswith("intact: ")  # on its own the rewrite verifies
    against = run_command("core.run.seal", "verify", str(forged), "--head", head)
    assert (against.returncode, against.stdout, against.stderr) == (1, other, "")


TAMPER_LAB = ROOT / "data" / "course" / "tamper"


def test_the_tamper_lab_is_named_alteration_by_alteration():
    """Each report in the committed tamper lab fails verify at its own alteration: the event that a flipped byte, a deletion, a swap, a splice or a cut reached first, and the section edited in the resealed one, while the intact copy verifies."""
    expected = {
        "intact": (True, None, ""),
        "flipped-byte": (False, 13, "events"),
        "deleted-event": (False, 15, "events"),
        "swapped-events": (False, 17, "events"),
        "spliced-run": (False, 10, "events"),
        "truncated": (False, 44, "events"),
        "resealed-section": (False, None, "counts"),
    }
    assert sorted(path.stem for path in TAMPER_LAB.glob("*.json")) == sorted(expected)
    intact = json.loads((TAMPER_LAB / "intact.json").read_text(encoding="utf-8"))
    for name, (ok, seq, section) in expected.items():
        report = json.loads((TAMPER_LAB / f"{name}.json").read_text(encoding="utf-8"))
        verification = verify_report(report)
        assert (verification.ok, verification.seq, verification.section) == (ok, seq, section), (name, verification)
        if name != "intact":
            assert report != intact, name
    resealed = json.loads((TAMPER_LAB / "resealed-section.json").read_text(encoding="utf-8"))
    assert verify_chain(resealed).ok  # the chain alone cannot tell
    assert resealed["seal"]["head"] != intact["seal"]["head"]  # but the head it would be compared with moved
