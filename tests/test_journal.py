"""A run survives a kill: the ledger written ahead to disk, resume, approvals that wait, and no act twice.

A kill leaves the journal as it was after its last whole write (each line is
fsynced before the door answers), so most tests here cut the reference run's
journal after its n-th event: exactly what a kill right after that write
leaves on disk. The kill matrix (tests/test_killmatrix.py) kills real
processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.audit.replay import replay
from core.run import decisions, drive, journal
from core.run.canon import canonical_bytes
from core.run.doors import CODES, final_door
from core.run.rederive import ask_again, verify
from core.run.gate import subject_of
from core.run.journal import Journal, JournalError
from core.run.seal import chain_link, unchained
from lab.adapter import HttpAdapter
from lab.app import FirstAnswers
from lab.plugin import LabAdapter
from signoff import demo

from .conftest import examples

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "data" / "course" / "report.json"
REFERENCE = json.loads(COMMITTED.read_text(encoding="utf-8"))
PROBE = "probe_reflection -> https://lab.example:443/debug"
SEARCH = "probe_reflection -> https://lab.example:443/search"


def seq_of(kind: str, status: str, n: int = 1, where=lambda event: True) -> int:
    """The seq of the reference run's n-th event of ``kind`` with ``status`` that ``where`` accepts."""
    found = [e["seq"] for e in REFERENCE["events"] if e["kind"] == kind and e["status"] == status and where(e)]
    return found[n - 1]


PROBE_HELD = seq_of("action", "refused", where=lambda e: e["payload"]["destination"].endswith("/debug"))
PROBE_STARTED = seq_of("outcome", "admitted", where=lambda e: e["payload"]["action_id"] == PROBE
                       and e["payload"]["status"] == "unresolved")
FIRST_STARTED = seq_of("outcome", "admitted")  # a passive read handed to the adapter
IN_DOUBT = {e["seq"] for e in REFERENCE["events"] if e["kind"] == "outcome"
            and e["payload"].get("status") == "unresolved"}


class Lab(LabAdapter):
    """The in-process lab, keeping its record, its keys held in ``memory`` (one that outlives a harness) or its own."""

    def __init__(self, memory: FirstAnswers | None = None):
        self.record: list[dict] = []
        super().__init__(HttpAdapter("inprocess", record=self.record, memory=memory))

    def requests_of(self, path: Path, action_id: str, arguments: dict) -> list[dict]:
        """What reached the lab under the key of the act ``action_id`` with ``arguments``, in the execution of the
        journal at ``path``."""
        key = drive.idempotency_key(journal.read(path).execution, REFERENCE["run"]["run_id"],
                                    subject_of(action_id, arguments))
        return [entry for entry in self.record if entry.get("idempotency_key") == key]


PROBE_ARGUMENTS = {"marker": "lab-probe-<i>7</i>", "parameter": "q"}
# The memory of keys of a lab that outlives every harness in this module (a lab served on its own, not restarted).
OUTLIVING = FirstAnswers()


def full_journal(folder: Path, config: drive.Configuration | None = None) -> Path:
    """The journal of an uninterrupted run of ``config`` (the reference one by default), in process, against the
    lab whose memory is OUTLIVING."""
    config = config or drive.load_configuration()
    path = folder / "full.jsonl"
    with Journal.start(path, drive.identify(config).to_dict()) as sink:
        drive.run(config, sink=sink, adapter=Lab(OUTLIVING))
    return path


@pytest.fixture(scope="module")
def reference_journal(tmp_path_factory) -> Path:
    return full_journal(tmp_path_factory.mktemp("journal"))


def cut(source: Path, events: int, into: Path) -> Path:
    """What a kill right after event ``events`` leaves: the header and that many events (with the memories after)."""
    into.write_bytes(source.read_bytes()[: journal.read(source).ends[events]])
    return into


def resumed(path: Path, lab: LabAdapter | None = None, config: drive.Configuration | None = None) -> drive.Resumed:
    """The journal at ``path`` resumed, by default against the lab that outlived the run (OUTLIVING)."""
    return drive.resume(config or drive.load_configuration(), path, adapter=lab or Lab(OUTLIVING))


def main(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "core.run.main", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


# --- the journal on disk -----------------------------------------------------------------


def test_each_event_is_on_disk_chained_before_the_door_answers(tmp_path):
    """Each event the door writes, admitted or refused, is a chained line of the journal file before the door's answer returns (that the line is fsynced too, only a power cut could show)."""
    config = drive.load_configuration()
    run = drive.identify(config)
    path = tmp_path / "run.jsonl"
    sink = Journal.start(path, run.to_dict())
    door = final_door(run, config.policy, config.gating, sink=sink)
    answers = [door.record("transition", {"run_id": run.run_id, "to": "observe"}),
               door.record("transition", {"run_id": run.run_id, "to": "verify"}),  # refused: written too
               door.record("observation", {"run_id": run.run_id, "field": "f", "value": 1, "capture_id": "x"})]
    assert [answer["recorded"] for answer in answers] == [True, False, False]
    read = journal.read(path)
    assert read.event_bytes == door.event_bytes()
    assert [e["status"] for e in read.events] == ["admitted", "refused", "refused"]
    assert read.run == run.to_dict() and read.torn == ""
    seen = []
    probe = Journal.start(tmp_path / "probe.jsonl", run.to_dict())

    def watching(event: bytes) -> None:
        probe(event)
        seen.append(journal.read(probe.path).event_bytes[-1] == event)  # on disk as the sink returns

    door = final_door(run, config.policy, config.gating, sink=watching)
    door.record("transition", {"run_id": run.run_id, "to": "observe"})
    assert seen == [True]
    sink.close()
    probe.close()


def test_a_run_with_a_journal_writes_its_whole_ledger_and_the_same_report(tmp_path):
    """python -m core.run.main --journal writes one chained line per event of the ledger, and the report is byte for byte the committed one."""
    done = main("--out", str(tmp_path / "report.json"), "--journal", str(tmp_path / "run.jsonl"))
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "report.json").read_bytes() == COMMITTED.read_bytes()
    read = journal.read(tmp_path / "run.jsonl")
    assert read.event_bytes == tuple(canonical_bytes(unchained(event)) for event in REFERENCE["events"])
    assert read.heads[-1] == REFERENCE["seal"]["chain"]  # the journal's chain is the sealed report's


def test_a_journal_never_overwrites_a_file(tmp_path):
    """--journal onto a file that exists is refused with one line, and the file is left as it was."""
    there = tmp_path / "run.jsonl"
    there.write_text("someone's notes\n", encoding="utf-8")
    done = main("--out", str(tmp_path / "report.json"), "--journal", str(there))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "already exists" in done.stderr and "--resume" in done.stderr
    assert there.read_text(encoding="utf-8") == "someone's notes\n" and not (tmp_path / "report.json").exists()


# --- resuming ------------------------------------------------------------------------------

STRIDE = sorted({1, 2, 3, 4, 5, 9, 13, 18, 22, 31, 47, 61, 62, 87, 88, 92, 96, 106, 107, 111, 112, 113, 115, 126,
                 127, 136, 138, 139, FIRST_STARTED, PROBE_HELD, PROBE_STARTED, PROBE_STARTED + 1})


@pytest.mark.parametrize("events", [0, *STRIDE])
def test_resumed_after_any_write_the_run_reaches_the_uninterrupted_findings(reference_journal, tmp_path, events):
    """Killed after any write and resumed, the run ends in a report that verifies and replays, with the uninterrupted run's findings and verdicts; unless an act was in doubt, it is the uninterrupted report byte for byte."""
    path = cut(reference_journal, events, tmp_path / "killed.jsonl")
    done = resumed(path)
    report = done.driven.report
    assert done.notes == ()
    assert verify(report).ok and replay(report).divergences == ()
    assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"])
    if events not in IN_DOUBT:
        assert report == REFERENCE, f"resumed after event {events}"
    assert journal.read(path).event_bytes == done.driven.door.event_bytes()  # the journal went on being written


def test_an_approval_waits_across_a_restart(reference_journal, tmp_path):
    """Killed while the probe waits for its approval, the run resumes, reads the operator's review and runs the probe: the approval is neither lost nor taken from the journal."""
    path = cut(reference_journal, PROBE_HELD, tmp_path / "waiting.jsonl")
    assert journal.read(path).events[-1]["code"] == "held_for_review"
    lab = Lab()
    report = resumed(path, lab).driven.report
    approved = [r for r in report["reviews"] if r["subject_id"] == subject_of(PROBE, {"marker": "lab-probe-<i>7</i>",
                                                                                      "parameter": "q"})]
    assert [r["decision"] for r in approved] == ["approved"]
    assert [e["replayed"] for e in lab.requests_of(path, PROBE, PROBE_ARGUMENTS)] == [False]
    assert report == REFERENCE


def forge_approval(source: Path, into: Path, at: int, config: drive.Configuration, held: dict) -> Path:
    """The journal cut after event ``at`` (the held act ``held``), then, chained on as the harness itself writes
    them: an approval of that act the configuration does not hold, the act admitted, and its start (in doubt)."""
    read = journal.read(cut(source, at, into))
    door = drive.door_of(config, drive.identify(config))
    for event in read.events:
        ask_again(door, event)
    act = held["payload"]
    subject = subject_of(act["tool"], act["arguments"], act["destination"])
    assert door.record("review", {"run_id": act["run_id"], "subject_id": subject, "decision": "approved",
                                  "reviewer": "engagement-lead", "reason": "forged into the journal"})["recorded"]
    action = door.record("action", act)
    assert action["recorded"]
    assert door.record("outcome", {"run_id": act["run_id"], "action_id": action["id"], "status": "unresolved",
                                   "capture_id": "", "detail": "handed to the adapter"})["recorded"]
    head, lines = read.heads[-1], []
    for data in door.event_bytes()[at:]:
        head = chain_link(head, data)
        lines.append(b'{"chain":"' + head.encode() + b'","event":' + data + b"}\n")
    into.write_bytes(into.read_bytes() + b"".join(lines))
    assert journal.read(into).events[-3]["payload"]["reason"] == "forged into the journal"  # the chain holds
    return into


def test_an_approval_forged_into_the_journal_does_not_count_and_the_act_stays_held(tmp_path):
    """A journal edited in the middle, its chain recomputed, adding an approval the operator's configuration does not hold (and the approved act begun), resumes without it: the act stays held, the run waits for a person's decision on it, and it never reaches the lab; one line names the line."""
    raw = demo.written_down(json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8")))  # another run's
    reviewers = [r for r in raw["reviewers"] if not r["subject"].endswith("/search")]
    config = drive.configuration({**raw, "reviewers": reviewers})
    source = tmp_path / "full.jsonl"
    with pytest.raises(decisions.Waiting), Journal.start(source, drive.identify(config).to_dict()) as sink:
        drive.run(config, sink=sink, adapter=Lab(OUTLIVING))  # a journaled run waits at the act no review decides
    held = [e for e in journal.read(source).events if e["code"] == "held_for_review"
            and e["payload"]["destination"].endswith("/search")][0]
    path = forge_approval(source, tmp_path / "forged.jsonl", held["seq"], config, held)
    subject = subject_of(SEARCH, held["payload"]["arguments"])
    lab = Lab(OUTLIVING)
    with pytest.raises(decisions.Waiting) as waited:
        resumed(path, lab, config)
    assert waited.value.held.subject == subject
    events = journal.read(path).events
    notes = [e["reason"] for e in events if e["code"] == "journal_not_trusted"]
    assert len(notes) == 1 and f"line {held['seq'] + 2}" in notes[0] and "does not hold" in notes[0]
    assert subject not in decisions.decided(events)
    assert not [e for e in events if e["kind"] == "action" and e["status"] == "admitted" and e["id"] == SEARCH]
    assert not lab.requests_of(path, SEARCH, held["payload"]["arguments"])
    assert events[-1]["code"] == "held_for_review" and events[-1]["seq"] == held["seq"] + 1


def test_an_approval_forged_over_a_rejection_does_not_count(reference_journal, tmp_path):
    """Where the operator rejected the act, an approval forged into the journal (and the act begun) is not taken: the journal and the configuration disagree, so nothing is resumed and the act never reaches the lab."""
    held = [e for e in REFERENCE["events"] if e["code"] == "held_for_review" and
            e["payload"]["destination"].endswith("/search")][0]
    lab = Lab(OUTLIVING)
    path = forge_approval(reference_journal, tmp_path / "f.jsonl", held["seq"], drive.load_configuration(), held)
    before = path.read_bytes()
    with pytest.raises(drive.DecisionsDisagree, match=f"line {held['seq'] + 2} records 'approved' by"):
        resumed(path, lab)
    assert lab.record == [] and path.read_bytes() == before


# --- the journal refused, or cut short -------------------------------------------------------


def edited(source: Path, into: Path, edit) -> Path:
    """``source`` as its header and its event lines alone, with ``edit`` applied to the event lines."""
    lines = source.read_bytes().split(b"\n")[:-1]
    at = [index for index, line in enumerate(lines) if line.startswith(journal.LINE_START)]
    events = edit([lines[index] for index in at])
    kept = [line for index, line in enumerate(lines) if index not in at][:1] + events
    into.write_bytes(b"".join(line + b"\n" for line in kept))
    return into


@pytest.mark.parametrize("name, edit, line, says", [
    ("a byte changed", lambda ls: [*ls[:50], ls[50].replace(b'"admitted"', b'"refused"'), *ls[51:]], 52,
     "chain hash does not follow"),
    ("a line removed", lambda ls: [*ls[:50], *ls[51:]], 52, "event 52 where event 51 belongs"),
    ("two lines swapped", lambda ls: [*ls[:50], ls[51], ls[50], *ls[52:]], 52, "event 52 where event 51 belongs"),
    ("not a line", lambda ls: [*ls[:50], b"garbage", *ls[51:]], 52, "not a journal line"),
])
def test_an_edited_journal_is_refused_with_one_line_naming_its_line(reference_journal, tmp_path, name, edit, line,
                                                                    says):
    """A journal with one edited line (its chain not recomputed) is refused on resume with one line naming that line, and nothing runs."""
    path = edited(reference_journal, tmp_path / "edited.jsonl", edit)
    before = path.read_bytes()
    done = main("--resume", str(path), "--out", str(tmp_path / "report.json"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("resume: ") and f"line {line}:" in done.stderr and says in done.stderr, name
    assert path.read_bytes() == before and not (tmp_path / "report.json").exists()


def test_a_torn_last_line_is_dropped_with_one_line_and_a_recorded_note(reference_journal, tmp_path):
    """A journal whose last line a kill cut short is resumed: one line names the line, the ledger records the note, and the run carries on to a report that verifies with the uninterrupted findings."""
    path = cut(reference_journal, 60, tmp_path / "torn.jsonl")
    ends = journal.read(reference_journal).ends
    path.write_bytes(path.read_bytes() + reference_journal.read_bytes()[ends[60]:ends[61]][:137])
    number = path.read_bytes().count(b"\n") + 1
    done = main("--resume", str(path), "--out", str(tmp_path / "report.json"))
    assert done.returncode == 0
    assert done.stderr.count("\n") == 1 and f"line {number} was cut short" in done.stderr, done.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    notes = [e for e in report["events"] if e["code"] == "journal_torn_line"]
    assert len(notes) == 1 and f"line {number} was cut short" in notes[0]["reason"] and "journal_torn_line" in CODES
    assert verify(report).ok and replay(report).divergences == ()
    assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"])
    assert journal.read(path).torn == ""  # cut back to whole lines, and carried on


def test_a_last_line_that_lost_only_its_end_of_line_is_kept(reference_journal, tmp_path):
    """A journal whose last line is whole and holds, only its end of line missing, is not torn: the probe's start is kept, so the probe is carried on as the act in doubt it is, with no note, and the journal is written on from a whole line."""
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "open.jsonl")
    path.write_bytes(path.read_bytes().removesuffix(b"\n"))
    lab = Lab(OUTLIVING)
    done = resumed(path, lab)
    report = done.driven.report
    assert done.notes == () and "journal_torn_line" not in {e["code"] for e in report["events"]}
    details = [o["detail"] for o in report["outcomes"] if o["action_id"] == PROBE]
    assert details[:2] == ["handed to the adapter",
                           "in doubt after a restart: sent again under its idempotency key (attempt 2)"]
    assert [e["replayed"] for e in lab.requests_of(path, PROBE, PROBE_ARGUMENTS)] == [True]
    assert journal.read(path).event_bytes == done.driven.door.event_bytes()


def test_a_journal_of_another_run_is_refused(reference_journal, tmp_path):
    """A journal is carried on only by the configuration and lab that made its run: another's is refused with one line."""
    other = tmp_path / "other.json"
    raw = json.loads((REPO / "data/policy/training-authorization-0001.json").read_text(encoding="utf-8"))
    other.write_text(json.dumps({**raw, "policy": {**raw["policy"], "max_actions": 11}}), encoding="utf-8")
    path = cut(reference_journal, 40, tmp_path / "j.jsonl")
    done = main("--resume", str(path), "--config", str(other), "--out", str(tmp_path / "r.json"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert f"is the journal of run {REFERENCE['run']['run_id'][:12]}" in done.stderr and "make run" in done.stderr
    with pytest.raises(JournalError, match="no such journal"):
        journal.read(tmp_path / "nowhere.jsonl")


# --- acts in doubt ----------------------------------------------------------------------------


def test_an_act_in_doubt_is_sent_again_under_the_same_key_to_a_target_that_deduplicates(reference_journal,
                                                                                        tmp_path):
    """An act whose start is in the journal with nothing after it is sent again, under the key of the execution, the run and the exact act, with a start of its own, to a target that shows the memory its key went to: the target answers it from that memory."""
    lab = Lab(OUTLIVING)
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "j.jsonl")
    report = resumed(path, lab).driven.report
    sent = lab.requests_of(path, PROBE, PROBE_ARGUMENTS)
    assert [e["replayed"] for e in sent] == [True] and sent[0]["query"] == "q=lab-probe-%3Ci%3E7%3C%2Fi%3E"
    details = [o["detail"] for o in report["outcomes"] if o["action_id"] == PROBE]
    assert details == ["handed to the adapter",
                       "in doubt after a restart: sent again under its idempotency key (attempt 2)", ""]
    assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"])


def test_a_consequential_act_in_doubt_goes_to_a_person_where_the_target_does_not_deduplicate(reference_journal,
                                                                                             tmp_path):
    """Against a target that does not show the memory the act's key went to (another memory: a lab restarted), a consequential act in doubt is not sent again: it stays in doubt with a note for a person, and the gate's stale view fails the rest closed; a passive read in doubt is sent again."""
    lab = Lab()
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "j.jsonl")
    report = resumed(path, lab).driven.report
    assert not lab.requests_of(path, PROBE, PROBE_ARGUMENTS)
    notes = [e for e in report["events"] if e["code"] == "in_doubt_for_a_person"]
    assert len(notes) == 1 and PROBE in notes[0]["reason"] and "a person must settle it" in notes[0]["reason"]
    assert [o["status"] for o in report["outcomes"] if o["action_id"] == PROBE] == ["unresolved"]
    assert {e["code"] for e in report["events"][PROBE_STARTED:] if e["kind"] == "action"} == {"denied"}
    assert verify(report).ok and replay(report).divergences == ()
    read_lab = Lab()
    report = resumed(cut(reference_journal, FIRST_STARTED, tmp_path / "k.jsonl"), read_lab).driven.report
    first = REFERENCE["actions"][0]
    assert [e["path"] for e in read_lab.record][:1] == ["/"] and first["tool"] == "inspect_headers"
    assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"])


def test_the_idempotency_key_is_the_run_and_the_exact_act():
    """The key is the same for the same act of the same execution of the same run, and differs for other arguments, another run or another execution; an adapter that takes no key is asked fetch(url) as before."""
    run_id, other_run = REFERENCE["run"]["run_id"], "0" * 64
    execution, other_execution = journal.new_execution(), journal.new_execution()
    one = subject_of(PROBE, {"marker": "a", "parameter": "q"})
    key = drive.idempotency_key(execution, run_id, one)
    assert key == drive.idempotency_key(execution, run_id, subject_of(
        "probe_reflection", {"parameter": "q", "marker": "a"}, "https://lab.example/debug"))
    assert key != drive.idempotency_key(execution, run_id, subject_of(PROBE, {"marker": "b", "parameter": "q"}))
    assert key != drive.idempotency_key(execution, other_run, one)
    assert key != drive.idempotency_key(other_execution, run_id, one) and execution != other_execution
    asked = []

    class Plain:
        def fetch(self, url):
            asked.append(url)
            return "answer"

    class Keys(Plain):
        def memory(self):
            return "m1"

        def fetch(self, url, idempotency_key=None):
            asked.append((url, idempotency_key))
            return "answer"

    keys = drive.Target(Keys())
    assert drive.Keyed(drive.Target(Plain()), "k").fetch("u") == drive.Keyed(keys, "k").fetch("u") == "answer"
    assert asked == ["u", ("u", "k")] and keys.keys.memories == [(0, "m1")]


def test_a_resumed_run_is_carried_on_again_after_a_second_kill(reference_journal, tmp_path):
    """A resumed run writes on to the same journal, so a second kill is resumed like the first."""
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "twice.jsonl")
    lab = Lab(OUTLIVING)
    first = resumed(path, lab)
    again_cut = cut(path, PROBE_STARTED + 1, tmp_path / "again.jsonl")  # killed right after the second start
    assert journal.read(again_cut).events[-1]["payload"]["detail"].startswith("in doubt after a restart")
    report = resumed(again_cut, lab).driven.report
    details = [o["detail"] for o in report["outcomes"] if o["action_id"] == PROBE]
    assert details[1:] == ["in doubt after a restart: sent again under its idempotency key (attempt 2)",
                           "in doubt after a restart: sent again under its idempotency key (attempt 3)", ""]
    sent = lab.requests_of(path, PROBE, PROBE_ARGUMENTS)
    assert [e["replayed"] for e in sent] == [True, True]  # the lab acted once, for the run that was killed
    assert first.notes == () and (report["findings"], report["verdicts"]) == (REFERENCE["findings"],
                                                                               REFERENCE["verdicts"])


def test_without_a_journal_nothing_is_written_and_the_report_is_the_committed_one(tmp_path):
    """Without --journal the run writes no file besides its report, which is the committed report byte for byte."""
    done = subprocess.run([sys.executable, "-m", "core.run.main", "--out", "report.json"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]
    assert (tmp_path / "report.json").read_bytes() == COMMITTED.read_bytes()


def test_an_aborted_run_resumed_stays_aborted(tmp_path):
    """A run aborted before the kill is resumed as it stands: the abort is kept, nothing more is asked, and its report is sealed aborted."""
    config = drive.load_configuration()
    path = tmp_path / "aborted.jsonl"

    def abort_after_the_first_act(step: str, answer: object) -> None:
        if step == "executed" and door_of["door"].closed is None:
            from core.run.seal import abort
            abort(door_of["door"], "the operator withdrew the authorization")

    door_of = {}
    with Journal.start(path, drive.identify(config).to_dict()) as sink:
        def selecting(step: str, answer: object) -> None:
            if step == "selecting":
                door_of["door"] = answer
            abort_after_the_first_act(step, answer)
        aborted = drive.run(config, sink=sink, watch=selecting).report
    lab = Lab(OUTLIVING)
    report = resumed(path, lab).driven.report
    assert report["closed"]["how"] == "aborted" and report == aborted
    assert lab.record == []  # nothing was sent again, nothing new asked


def test_two_processes_never_write_one_journal(reference_journal, tmp_path):
    """While a run writes its journal, the journal is locked: a resume of it elsewhere is refused with one line."""
    config = drive.load_configuration()
    path = tmp_path / "busy.jsonl"
    with Journal.start(path, drive.identify(config).to_dict()):
        with pytest.raises(JournalError, match="being written by another run"):
            resumed(path)
    assert resumed(cut(reference_journal, 30, tmp_path / "free.jsonl")).driven.report == REFERENCE


def test_a_capture_forged_into_the_journal_is_admitted_as_the_scope_says(reference_journal, tmp_path):
    """What resume cannot catch: a capture the lab never sent, forged into the journal with its chain recomputed, is admitted by the fresh door like any other, because the adapter's word is trusted."""
    config = drive.load_configuration()
    start = FIRST_STARTED  # the first act's start: nothing came back yet
    read = journal.read(cut(reference_journal, start, tmp_path / "forged.jsonl"))
    door = drive.door_of(config, drive.identify(config))
    for event in read.events:
        ask_again(door, event)
    action_id = read.events[-1]["payload"]["action_id"]
    assert door.record("capture", {"run_id": door.run.run_id, "action_id": action_id, "status": 200,
                                   "body": "HTTP/1.1 200 OK\n\nforged: the lab never sent this"})["recorded"]
    head, lines = read.heads[-1], []
    for data in door.event_bytes()[start:]:
        head = chain_link(head, data)
        lines.append(b'{"chain":"' + head.encode() + b'","event":' + data + b"}\n")
    path = tmp_path / "forged.jsonl"
    path.write_bytes(path.read_bytes() + b"".join(lines))
    done = resumed(path)
    assert done.notes == ()
    bodies = [c["body"] for c in done.driven.report["captures"] if c["action_id"] == action_id]
    assert bodies == ["HTTP/1.1 200 OK\n\nforged: the lab never sent this"]
    assert verify(done.driven.report).ok


def test_a_verification_resumed_between_its_acts_asks_nothing_twice(tmp_path):
    """Killed in the verify stage after its confirming act was denied and while its control was under way, the run resumes the check without asking for the denied act again, to the uninterrupted run's report byte for byte."""
    raw = demo.written_down(json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8")))  # another run's
    reviewers = [{**r, "decision": "rejected"} if r["subject"].startswith(PROBE + "?") else r
                 for r in raw["reviewers"]]
    config = drive.configuration({**raw, "reviewers": reviewers})
    source = full_journal(tmp_path, config)
    events = journal.read(source).events
    denied = next(e["seq"] for e in events if e["code"] == "denied" and "?" in e["payload"]["destination"])
    control = next(e["seq"] for e in events[denied:] if e["kind"] == "action" and e["status"] == "admitted")
    uninterrupted = drive.run(config).report
    for at in (control, control + 1):  # the control admitted; its start written (in doubt)
        lab = Lab(OUTLIVING)
        report = resumed(cut(source, at, tmp_path / f"at-{at}.jsonl"), lab, config).driven.report
        assert [e["code"] for e in report["events"]].count("denied") == [e["code"] for e in events].count("denied")
        assert (report["findings"], report["verdicts"]) == (uninterrupted["findings"], uninterrupted["verdicts"])
        if at == control:
            assert report == uninterrupted


# --- a journal is outside input -----------------------------------------------------------------

EDITS = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=40)),
)


def apply(data: bytes, edit: tuple) -> bytes:
    what, at, value = edit
    at %= len(data) + 1
    if what == "flip":
        return data if at == len(data) else data[:at] + bytes([data[at] ^ value]) + data[at + 1:]
    if what == "cut":
        return data[:at]
    return data[:at] + value + data[at:]


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(EDITS, min_size=1, max_size=3))
def test_an_edited_journal_is_read_or_refused_in_one_line_and_what_resumes_verifies(reference_journal, tmp_path,
                                                                                  edits):
    """Whatever bytes a journal holds, reading it gives its events or one JournalError line, and a journal that reads resumes to a report that verifies, or is refused with one line: never a traceback."""
    data = reference_journal.read_bytes()
    for edit in edits:
        data = apply(data, edit)
    path = tmp_path / "edited.jsonl"
    path.write_bytes(data)
    try:
        journal.read(path)
    except JournalError as error:
        assert "\n" not in str(error) and str(error).startswith("edited.jsonl")
        return
    try:
        report = resumed(path).driven.report
    except JournalError as error:
        assert "\n" not in str(error)
        return
    assert verify(report).ok


# --- keys of one execution, and a target that shows what it remembers ---------------------------


def test_two_fresh_runs_against_one_lab_both_act(tmp_path):
    """Two fresh runs of one configuration against one lab served on its own both act: every request of each reaches the lab as a new one, none answered from the other run's keys."""
    from lab import server

    record = tmp_path / "record.jsonl"
    with server.running(record=record) as port:
        for number in (1, 2):
            done = main("--out", str(tmp_path / f"r{number}.json"), "--transport", "http",
                        "--lab-url", f"http://127.0.0.1:{port}")
            assert (done.returncode, done.stderr) == (0, "")
            assert (tmp_path / f"r{number}.json").read_bytes() == COMMITTED.read_bytes()
    entries = server.read_record(record)
    assert len(entries) == 2 * len(REFERENCE["actions"])
    assert [entry["replayed"] for entry in entries] == [False] * len(entries)
    halves = [{entry["idempotency_key"] for entry in entries[:len(entries) // 2]},
              {entry["idempotency_key"] for entry in entries[len(entries) // 2:]}]
    assert not halves[0] & halves[1]


def test_the_execution_is_the_journals_kept_by_a_resume_and_in_no_report(reference_journal, tmp_path):
    """A journal's execution is made fresh when it starts, never twice the same, kept by a resume, and never in the report or a capture."""
    first = journal.read(reference_journal)
    other = journal.read(full_journal(tmp_path))
    assert first.execution != other.execution
    assert journal.EXECUTION.fullmatch(first.execution) and journal.EXECUTION.fullmatch(other.execution)
    path = cut(reference_journal, 30, tmp_path / "j.jsonl")
    header = path.read_bytes().split(b"\n")[0]
    report = resumed(path).driven.report
    assert path.read_bytes().split(b"\n")[0] == header and journal.read(path).execution == first.execution
    sealed = canonical_bytes(report)
    assert first.execution.encode() not in sealed and first.memories[0][1].encode() not in sealed
    assert report == REFERENCE


class Showing(Lab):
    """The lab that outlived the run, saying whatever ``shows`` says its memory is."""

    def __init__(self, shows):
        super().__init__(OUTLIVING)
        self.shows = shows

    def memory(self):
        return self.shows()


def raising():
    raise TimeoutError("the memory was not said in time")


@pytest.mark.parametrize("name, shows", [
    ("another memory", lambda: "0" * 32),
    ("none", lambda: ""),
    ("the same, and more after it", lambda: OUTLIVING.name + " "),
    ("the same, on two lines", lambda: OUTLIVING.name + "\n" + OUTLIVING.name),
    ("the same, huge", lambda: OUTLIVING.name * 1000),
    ("not text", lambda: [OUTLIVING.name]),
    ("bytes", lambda: OUTLIVING.name.encode()),
    ("it raises", raising),
])
def test_an_act_in_doubt_is_sent_again_only_to_the_memory_its_key_went_to(reference_journal, tmp_path, name, shows):
    """A consequential act in doubt is sent again only when the target shows, as a plain name, the very memory its key went to: another memory, none, one spelled otherwise, huge, not text, or a target that cannot say, and it goes to a person."""
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "j.jsonl")
    lab = Showing(shows)
    report = resumed(path, lab).driven.report
    assert not lab.requests_of(path, PROBE, PROBE_ARGUMENTS), name
    assert [e["code"] for e in report["events"] if e["code"] == "in_doubt_for_a_person"] == ["in_doubt_for_a_person"]
    same = Showing(lambda: OUTLIVING.name)
    assert [e["replayed"] for e in same.requests_of(path, PROBE, PROBE_ARGUMENTS)] == []
    resumed(cut(reference_journal, PROBE_STARTED, tmp_path / "k.jsonl"), same)
    assert len(same.requests_of(tmp_path / "k.jsonl", PROBE, PROBE_ARGUMENTS)) == 1


def test_a_journal_that_never_recorded_a_memory_hands_an_act_in_doubt_to_a_person(reference_journal, tmp_path):
    """An act in doubt whose key went to no memory the journal recorded (a memory line removed, or written after its start by a later process) goes to a person, whatever the target shows now."""
    path = cut(reference_journal, PROBE_STARTED, tmp_path / "j.jsonl")
    path.write_bytes(b"".join(line + b"\n" for line in path.read_bytes().split(b"\n")[:-1]
                              if not line.startswith(journal.MEMORY_START)))
    assert journal.read(path).memories == ()
    lab = Lab(OUTLIVING)
    report = resumed(path, lab).driven.report
    assert not lab.requests_of(path, PROBE, PROBE_ARGUMENTS)
    assert "in_doubt_for_a_person" in {e["code"] for e in report["events"]}
    assert journal.memory_at(((5, "a"), (9, "b")), 4) == "" and journal.memory_at(((5, "a"), (9, "b")), 9) == "b"


# --- a recorded decision is final -------------------------------------------------------------


def flipped_configuration(folder: Path) -> Path:
    """The reference configuration with the engagement lead's signed rejection of the search probe overruled: an
    approval of that act written down under ``reviewers`` (a written review names no run, so the run is the same)."""
    raw = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
    reviewers = [{**r, "decision": "approved"} for r in demo.written_down(raw)["reviewers"]
                 if r["subject"].endswith("/search")]
    assert len(reviewers) == 1
    path = folder / "flipped.json"
    path.write_text(json.dumps({**raw, "reviewers": reviewers}), encoding="utf-8")
    return path


def test_a_configuration_whose_reviews_disagree_with_the_journal_is_refused(reference_journal, tmp_path):
    """Resumed under a configuration whose reviewers decide otherwise than a review the journal records (the search rejection flipped to approved), the run is refused with one line and exit status 4: the journal is left as it was, no report is written, and nothing reaches the lab."""
    flipped = flipped_configuration(tmp_path)
    rejected = next(e["seq"] for e in REFERENCE["events"] if e["kind"] == "review"
                    and e["payload"]["decision"] == "rejected")
    path = cut(reference_journal, rejected + 3, tmp_path / "j.jsonl")
    before = path.read_bytes()
    done = main("--resume", str(path), "--config", str(flipped), "--out", str(tmp_path / "r.json"))
    assert done.returncode == 4 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("resume: ") and f"line {rejected + 1} records 'rejected' by" in done.stderr
    assert "reviewers say 'approved' by" in done.stderr and "is final" in done.stderr
    assert path.read_bytes() == before and not (tmp_path / "r.json").exists()
    lab = Lab(OUTLIVING)
    with pytest.raises(drive.DecisionsDisagree):
        resumed(path, lab, drive.load_configuration(flipped))
    assert lab.record == []
    # before the decision is recorded, the flipped configuration is a decision that arrived while the run waited
    assert REFERENCE["events"][rejected - 2]["kind"] == decisions.SIGNED  # the signed note, just before its review
    waiting = cut(reference_journal, rejected - 2, tmp_path / "w.jsonl")
    report = resumed(waiting, Lab(), drive.load_configuration(flipped)).driven.report
    assert "approved" in {r["decision"] for r in report["reviews"] if r["subject_id"].endswith(
        REFERENCE["reviews"][1]["subject_id"].partition(" -> ")[2])}


# --- a resume writes its own notes -------------------------------------------------------------

FORGED_NOTE = "OPERATOR NOTE: engagement lead approved all probes by phone"


def forged_line(source: Path, at: int, into: Path, event: dict) -> Path:
    """``source`` cut after event ``at``, then ``event`` (its seq set), chained on as the harness itself writes."""
    read = journal.read(cut(source, at, into))
    data = canonical_bytes({**event, "seq": at + 1})
    head = chain_link(read.heads[-1], data)
    into.write_bytes(into.read_bytes() + b'{"chain":"' + head.encode() + b'","event":' + data + b"}\n")
    assert journal.read(into).events[-1]["reason"] == event["reason"]  # the chain holds
    return into


NOTE_EVENT = {"kind": "journal", "status": "refused", "id": "", "reason": FORGED_NOTE, "payload": None,
              "code": "journal_torn_line", "by": "caller: drive.resume"}


def test_a_note_forged_into_the_journal_is_not_in_the_report(reference_journal, tmp_path):
    """A note forged into the journal as a resumption's own (kind journal, a journal code, by drive.resume, its chain recomputed) is not taken: the resumed run names its line in its own words, resumes before it, and the report holds none of the forged words."""
    at = PROBE_STARTED - 1
    template = json.loads(canonical_bytes(unchained(REFERENCE["events"][at])))
    event = {key: template.get(key) for key in template} | NOTE_EVENT
    path = forged_line(reference_journal, at, tmp_path / "forged.jsonl", event)
    done = resumed(path)
    report = done.driven.report
    assert FORGED_NOTE not in canonical_bytes(report).decode()
    assert done.notes == (f"journal line {at + 2}: a note no resumption wrote: not trusted, and the run resumed "
                          "before it",)
    assert [e["code"] for e in report["events"] if e["kind"] == "journal"] == ["journal_not_trusted"]
    assert verify(report).ok and (report["findings"], report["verdicts"]) == (REFERENCE["findings"],
                                                                              REFERENCE["verdicts"])


NOTES_WORDS = st.sampled_from([
    ("journal_torn_line", journal.note("journal_torn_line", line=62, size=137)),
    ("journal_not_trusted", journal.note("journal_not_trusted", line=107, why=journal.DISTRUST[1])),
    ("in_doubt_for_a_person", journal.note("in_doubt_for_a_person", act=PROBE)),
])


@settings(max_examples=examples(200))
@given(NOTES_WORDS, st.text(min_size=1, max_size=40), st.sampled_from(["before", "after", "instead"]))
def test_a_note_is_taken_only_in_a_resumptions_own_words(note, text, where):
    """A note is trusted only word for word as a resumption writes it, naming only a line, a size, a reason of its own list or an act the run admitted: words added before or after it, or put in its place, and it is not a note."""
    code, words = note
    kind, by, _ = journal.NOTES[code]
    event = {"kind": kind, "status": "refused", "code": code, "by": f"caller: {by}", "reason": words}
    known = {PROBE}.__contains__
    assert journal.is_note(event, known)
    changed = {"before": text + words, "after": words + text, "instead": text}[where]
    if changed != words:
        assert not journal.is_note({**event, "reason": changed}, known)
    assert not journal.is_note({**event, "by": "caller: drive.other"}, known)
    assert not journal.is_note({**event, "kind": "observation"}, known)
    assert not journal.is_note({**event, "code": ["journal_torn_line"]}, known)
    if code == "in_doubt_for_a_person":
        assert not journal.is_note(event, set().__contains__)  # an act the run never admitted


# --- --resume opens only a journal --------------------------------------------------------------

NOT_JOURNALS = [
    ("an empty file", b""),
    ("notes without an end of line", b'{"notes": "call the engagement lead"}'),
    ("notes", b"call the engagement lead\nthen resume\n"),
    ("an end of line only", b"\n"),
    ("a journal of another format", b'{"journal":"harness-journal/1","run":{"run_id":"x"}}\n'),
    ("a header cut short", b'{"execution":"0123'),
    ("not UTF-8", b"\xff\xfe\n"),
    ("a list", b"[1, 2]\n"),
]


@pytest.mark.parametrize("name, data", NOT_JOURNALS)
def test_resume_opens_only_a_journal(tmp_path, name, data):
    """--resume of a file whose first line is not a journal's header (an empty file, notes, another format, a header cut short) is refused with one line and exit status 3, and the file is left byte for byte as it was."""
    path = tmp_path / "notes.json"
    path.write_bytes(data)
    done = main("--resume", str(path), "--out", str(tmp_path / "r.json"))
    assert done.returncode == 3 and done.stderr.count("\n") == 1, (name, done.stderr)
    assert done.stderr.startswith("resume: notes.json is not a journal: ") and "nothing was written" in done.stderr
    assert path.read_bytes() == data and not (tmp_path / "r.json").exists(), name


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300), st.sampled_from([b"", b"\n", b"\nmore\n"]))
def test_a_file_that_is_not_a_journal_is_never_written(reference_journal, tmp_path, first, rest):
    """Whatever bytes a file begins with, resuming it either carries on a journal whose header holds or refuses it without writing a byte: a header with a field added, removed or changed is not a journal's."""
    header = reference_journal.read_bytes().split(b"\n")[0]
    for data in (first + rest, header[:-1] + b',"x":1}' + rest, header.replace(b'"execution"', b'"executio"') + rest,
                 header.replace(b"harness-journal/2", b"harness-journal/3") + rest, b" " + header + rest):
        path = tmp_path / "file.jsonl"
        path.write_bytes(data)
        try:
            resumed(path)
        except journal.NotAJournal as error:
            assert "\n" not in str(error) and path.read_bytes() == data
            continue
        except JournalError:
            assert path.read_bytes() == data
            continue
        assert data.startswith(header)


def test_a_journal_cut_before_an_act_sends_it_again_and_only_the_targets_memory_stops_it(reference_journal,
                                                                                        tmp_path):
    """A journal whose tail was deleted, back to before the probe began, holds together and sends the probe again with no note: a lab that still holds the key answers it from its memory, and one that was restarted acts on it a second time."""
    for lab, replayed in ((Lab(OUTLIVING), [True]), (Lab(), [False])):
        path = cut(reference_journal, PROBE_STARTED - 1, tmp_path / f"cut-{replayed[0]}.jsonl")
        done = resumed(path, lab)
        assert done.notes == ()
        assert [e["code"] for e in done.driven.report["events"] if e["code"] in journal.CODES] == []
        assert [e["replayed"] for e in lab.requests_of(path, PROBE, PROBE_ARGUMENTS)] == replayed
        assert verify(done.driven.report).ok
