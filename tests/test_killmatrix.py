"""The kill matrix, and a kill -9 at an arbitrary moment: real processes killed, resumed, judged by the lab's record.

The sample (python -m lab.killmatrix --sample: the first kill point of each
kind) runs here; the full matrix runs under ``make killmatrix`` and ``make
bench``. Each check that the matrix can fail is run on a harness or lab
broken on purpose, in a process of its own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from core.run import drive, journal
from core.run.rederive import verify
from core.run.gate import subject_of
from lab import server
from lab.killmatrix import Reference, kill_points
from tlog import note

REPO = Path(__file__).resolve().parent.parent
REFERENCE = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))
LINE = re.compile(r"(\d+) kill points: (\d+) duplicated acts, (\d+) lost approvals, (\d+) unapproved acts; "
                  r"(\d+) of (\d+) resumed to a report that verifies and replays")


def killmatrix(*args: str, script: str = "", resume: str = "") -> subprocess.CompletedProcess:
    """``python -m lab.killmatrix ARGS``, or ``script`` (which breaks something first) calling it with its kill points
    resumed by ``resume`` (lab.killmatrix.resuming: a harness assembled otherwise), in a process of its own."""
    call = f"main_command(sys.argv[1:], resume={resume})" if resume else "main_command(sys.argv[1:])"
    command = ["-c", textwrap.dedent(script) + f"\nsys.exit({call})"] if script \
        else ["-m", "lab.killmatrix"]
    return subprocess.run([sys.executable, *command, *args], cwd=REPO, capture_output=True, text=True, timeout=600)


def counts(done: subprocess.CompletedProcess) -> tuple[int, ...]:
    found = LINE.fullmatch(done.stdout.splitlines()[0]) if done.stdout else None
    assert found, done.stdout + done.stderr
    return tuple(int(number) for number in found.groups())


@pytest.mark.whole
def test_the_kill_matrix_sample_finds_no_act_twice_no_approval_lost_or_invented_and_every_point_resumed():
    """Killed with SIGKILL at the first point of each kind (after each kind of ledger write, after a passive and a consequential act reached the lab) and resumed, the reference run acts nothing twice, loses no approval, runs nothing unapproved, sends nothing again that was not in doubt, and resumes to a report that verifies and replays."""
    done = killmatrix("--sample", "--show")
    k, duplicated, lost, unapproved, resumed, of = counts(done)
    assert (duplicated, lost, unapproved, resumed, of) == (0, 0, 0, k, k), done.stdout
    assert k >= 20 and done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[3] == "0 acts sent again that were not in doubt when the run was killed"
    assert lines[2].startswith("1 consequential acts sent again under their key, 1 of them answered"), lines
    assert lines[5] == (f"(the uninterrupted run: {len(REFERENCE['events'])} ledger writes, "
                        f"{len(REFERENCE['actions'])} requests)")


@pytest.mark.whole  # the matrix's own checks can fail: with the sample, in make test only
def test_the_kill_matrix_counts_a_lab_that_forgets_keys_as_duplicated_acts():
    """Against a lab that does not deduplicate, an approved probe sent again after the kill acts twice, and the matrix says so."""
    done = killmatrix("--points", "s7,s8,s1", script="""
        import sys
        from lab import app
        from lab.killmatrix import main_command
        answer = app.FirstAnswers.answer
        app.FirstAnswers.answer = lambda self, key, environ, serve: answer(self, None, environ, serve)
    """)
    assert counts(done)[:4] == (3, 2, 0, 0) and done.returncode == 1, done.stdout


@pytest.mark.whole  # the matrix's own checks can fail: with the sample, in make test only
def test_the_kill_matrix_counts_a_resume_that_starts_over_and_one_that_drops_the_reviews():
    """A resume that keeps nothing of the journal sends settled acts again, and one that forgets the operator's reviews loses the approval: the matrix fails both."""
    done = killmatrix("--points", "30", script="""
        import sys
        from lab.killmatrix import main_command, resuming
    """, resume="resuming(start_over=True)")
    assert done.returncode == 1 and not done.stdout.splitlines()[3].startswith("0 "), done.stdout
    held = next(e["seq"] for e in REFERENCE["events"] if e["code"] == "held_for_review")
    done = killmatrix("--points", str(held), script="""
        import sys
        from dataclasses import replace
        from lab.killmatrix import main_command, resuming
    """, resume="resuming(change=lambda config: replace(config, reviews={}, signed={}))")
    assert counts(done)[2] >= 1 and done.returncode == 1, done.stdout


@pytest.mark.whole  # the matrix's own checks can fail: with the sample, in make test only
def test_the_kill_matrix_counts_a_request_the_operator_never_approved():
    """A resumed harness whose gate lets every act through sends the rejected probe: the lab's record shows an unapproved act."""
    rejected = next(e["seq"] for e in REFERENCE["events"] if e["code"] == "denied")
    done = killmatrix("--points", str(rejected - 3), script="""
        import sys
        from core.run import doors
        from lab.killmatrix import main_command, resuming
    """, resume="resuming(door=doors.final_door_with(without=('the_gate',)))")
    assert counts(done)[3] >= 1 and done.returncode == 1, done.stdout


def test_the_full_matrix_has_a_kill_point_for_every_write_of_the_reference_run_and_every_request():
    """The full matrix kills the run after each of its ledger writes and after each request the lab answers: at least as many points as the reference run has events."""
    record = tuple({"idempotency_key": str(n)} for n in range(11))
    points = kill_points(Reference(REFERENCE, len(REFERENCE["events"]), record), drive.load_configuration(), False)
    assert len(points) == len(REFERENCE["events"]) + 11 >= len(REFERENCE["events"])
    assert [str(point) for point in points[-2:]] == ["s10", "s11"]


def test_kill_minus_9_at_an_arbitrary_moment_then_resume_acts_nothing_twice_and_the_report_verifies(tmp_path):
    """python -m core.run.main --journal killed with kill -9 at an arbitrary moment, its resume killed too, then resumed to the end: by the lab's own record no consequential act acted twice, and the report verifies."""
    seed = random.SystemRandom().randrange(2**32)
    pick = random.Random(seed)
    record, journal_path, out = tmp_path / "record.jsonl", tmp_path / "run.jsonl", tmp_path / "report.json"
    config = drive.load_configuration()
    with server.running(record=record) as port:
        lab = ["--transport", "http", "--lab-url", f"http://127.0.0.1:{port}"]
        started = time.monotonic()
        first = subprocess.Popen([sys.executable, "-m", "core.run.main", "--out", str(out), "--journal", str(journal_path),
                                  *lab], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not journal_path.exists() or not journal_path.stat().st_size:
            assert time.monotonic() - started < 60 and first.poll() is None, f"seed {seed}: the run never began"
            time.sleep(0.002)
        time.sleep(pick.uniform(0, 0.4))
        first.send_signal(signal.SIGKILL)
        first.wait()
        lines_at_kill = len(journal_path.read_bytes().splitlines())
        resume = [sys.executable, "-m", "core.run.main", "--resume", str(journal_path), "--out", str(out), *lab]
        second = subprocess.Popen(resume, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(pick.uniform(0, 0.4))
        second.send_signal(signal.SIGKILL)
        second.wait()
        last = subprocess.run(resume, cwd=REPO, capture_output=True, text=True, timeout=120)
    where = f"seed {seed}, killed with {lines_at_kill} lines in the journal"
    assert last.returncode == 0, f"{where}: {last.stderr}"
    report = json.loads(out.read_text(encoding="utf-8"))
    assert verify(report).ok, where
    execution = journal.read(journal_path).execution
    keys = {drive.idempotency_key(execution, report["run"]["run_id"],
                                  subject_of(a["tool"], a["arguments"], a["destination"])): a for a in report["actions"]}
    acted: dict[str, int] = {}
    for entry in server.read_record(record):
        assert entry.get("idempotency_key") in keys, f"{where}: a request no act accounts for: {entry}"
        acted[entry["idempotency_key"]] = acted.get(entry["idempotency_key"], 0) + (not entry["replayed"])
    for key, times in acted.items():
        tool = config.policy.tool_named(keys[key]["tool"])
        if config.gating.table.classify(tool.activity).consequential:
            assert times == 1, f"{where}: {keys[key]['action_id']} acted {times} times"
    assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"]), where
    assert os.path.getsize(journal_path) > 0


def probe_requests(record: Path, kept: Path) -> list[bool]:
    """Whether each request under the approved probe's key (in the execution of the journal ``kept``) was replayed."""
    probe = next(a for a in REFERENCE["actions"] if a["tool"] == "probe_reflection")
    key = drive.idempotency_key(journal.read(kept).execution, REFERENCE["run"]["run_id"],
                                subject_of(probe["tool"], probe["arguments"], probe["destination"]))
    return [entry["replayed"] for entry in server.read_record(record) if entry["idempotency_key"] == key]


def test_killed_after_the_probe_then_the_lab_restarted_the_resume_hands_the_probe_to_a_person(tmp_path):
    """Killed right after the lab answered the approved probe, the lab restarted (its memory of keys gone), then resumed: the probe is not sent again but handed to a person, so by the lab's record it acted once; with the lab not restarted, it is sent again and answered from the lab's memory."""
    for restarted in (True, False):
        here = tmp_path / ("restarted" if restarted else "kept")
        here.mkdir()
        record, kept, out = here / "record.jsonl", here / "run.jsonl", here / "report.json"
        with ExitStack() as stack:
            port = stack.enter_context(server.running(record=record))
            killed = killmatrix("--kill", "s7", "--journal", str(kept), "--lab-url", f"http://127.0.0.1:{port}")
            assert killed.returncode == 0 and "probe_reflection -> https://lab.example:443/debug" in killed.stdout
            if restarted:
                stack.close()
                port = stack.enter_context(server.running(record=record))
            done = subprocess.run([sys.executable, "-m", "core.run.main", "--resume", str(kept), "--out", str(out),
                                   "--transport", "http", "--lab-url", f"http://127.0.0.1:{port}"], cwd=REPO,
                                  capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        report = json.loads(out.read_text(encoding="utf-8"))
        notes = [e for e in report["events"] if e["code"] == "in_doubt_for_a_person"]
        assert verify(report).ok
        if restarted:
            assert probe_requests(record, kept) == [False] and len(notes) == 1
        else:
            assert probe_requests(record, kept) == [False, True] and not notes
            assert (report["findings"], report["verdicts"]) == (REFERENCE["findings"], REFERENCE["verdicts"])


def test_one_kill_leaves_the_journal_as_the_kill_left_it_and_bad_input_gets_one_line(tmp_path):
    """python -m lab.killmatrix --kill POINT kills one run there and keeps its journal unresumed; a bad point or lab URL is one line and exit 2."""
    journal_path = tmp_path / "run.jsonl"
    with server.running(record=tmp_path / "record.jsonl") as port:
        done = killmatrix("--kill", "30", "--journal", str(journal_path), "--lab-url", f"http://127.0.0.1:{port}")
    assert done.returncode == 0 and done.stdout.startswith("killed with SIGKILL right after ledger write 30;")
    assert len(journal.read(journal_path).events) == 30
    for bad in (["--kill", "s0", "--journal", str(tmp_path / "x"), "--lab-url", "http://127.0.0.1:9"],
                ["--kill", "3", "--journal", str(tmp_path / "y"), "--lab-url", "https://lab.example/"],
                ["--kill", "3"]):
        refused = killmatrix(*bad)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and refused.stderr.startswith("killmatrix: ")


# --- with a person in the loop (lab/killdecisions.py) --------------------------------------

DECIDED = re.compile(r"(\d+) kill points with a person in the loop: (\d+) duplicated acts, (\d+) lost approvals, "
                     r"(\d+) unapproved acts, (\d+) rejected acts that ran; (\d+) of (\d+) resumed to a report that "
                     r"seal verify and replay pass with --config and --reviews")


def decided_counts(done: subprocess.CompletedProcess) -> tuple[int, ...]:
    found = DECIDED.fullmatch(done.stdout.splitlines()[0]) if done.stdout else None
    assert found, done.stdout + done.stderr
    return tuple(int(number) for number in found.groups())


@pytest.mark.whole
def test_the_kill_matrix_with_a_person_in_the_loop_loses_no_decision_and_runs_nothing_undecided():
    """With no review written down, killed with SIGKILL at the first point of each kind and carried on with signed decisions that arrive after the kill (killed again right after one is recorded), the run acts nothing twice, loses no approval, runs nothing unapproved or rejected, and resumes to a report that seal verify and replay pass with --config and --reviews."""
    done = killmatrix("--decisions", "--sample", "--show")
    k, duplicated, lost, unapproved, rejected, resumed, of = decided_counts(done)
    assert (duplicated, lost, unapproved, rejected, resumed, of) == (0, 0, 0, 0, k, k), done.stdout
    assert k >= 20 and done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    after_kill, killed_twice = map(int, re.fullmatch(r"(\d+) decisions signed after a kill; (\d+) points killed "
                                                      r"again right after the resumed run recorded a decision",
                                                      lines[1]).groups())
    assert after_kill >= 1 and killed_twice >= 1, lines
    assert lines[3] == "0 acts sent again that were not in doubt when the run was killed"
    assert lines[5].endswith("3 acts approved and 1 rejected by signed decisions)"), lines


@pytest.mark.whole  # the matrix's own checks can fail: with the sample, in make test only
def test_the_kill_matrix_with_a_person_counts_a_rejected_act_that_a_gateless_resume_sends():
    """Killed right after the person's signed rejection is recorded, a resumed harness whose gate lets every act through sends the rejected probe: the matrix counts a rejected act that ran, and fails."""
    script = textwrap.dedent("""
        import sys, tempfile
        from pathlib import Path
        from core.run import doors
        from lab import killdecisions
        folder = Path(tempfile.mkdtemp())
        ref = killdecisions.uninterrupted(killdecisions.Chain(folder, killdecisions.configuration(folder)))
        reviews = [n for n, kind in enumerate(ref.kinds, start=1) if kind[:2] == ("review", "admitted")]
        tally, ref = killdecisions.kill_matrix(str(reviews[1]), door=doors.final_door_with(without=("the_gate",)))
        print("\\n".join(killdecisions.summary(tally, ref) + tally.failures))
        sys.exit(0 if tally.clean else 1)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert decided_counts(done)[4] == 1 and done.returncode == 1, done.stdout + done.stderr
    assert "/search with arguments" in done.stdout and "rejected, acted" in done.stdout, done.stdout


@pytest.mark.whole  # the matrix's own checks can fail: with the sample, in make test only
def test_the_kill_matrix_with_a_person_counts_a_lab_that_forgets_keys_as_duplicated_acts():
    """Against a lab that does not deduplicate, a probe the person approved, sent again after the kill, acts twice, and the matrix with a person in the loop says so."""
    done = killmatrix("--decisions", "--points", "s7", script="""
        import sys
        from lab import app
        from lab.killmatrix import main_command
        answer = app.FirstAnswers.answer
        app.FirstAnswers.answer = lambda self, key, environ, serve: answer(self, None, environ, serve)
    """)
    assert decided_counts(done)[:2] == (1, 1) and done.returncode == 1, done.stdout + done.stderr


def test_the_matrix_with_a_person_writes_no_review_down_and_lists_a_key_anyone_can_derive(tmp_path):
    """The person-in-the-loop scenario's configuration writes no review down, names the signature check and lists, for every approver role, one demo key whose seed is SHA-256 of a printed phrase; its matrix has a kill point for every write and every request of the whole chain, and its sample the first write of each resumed process."""
    from lab import killdecisions
    config = drive.load_configuration(killdecisions.configuration(tmp_path))
    assert config.reviews == {} and config.plugins["review_signature"] == "signoff.plugin:check_decision"
    reviewer = killdecisions.demo_reviewer()
    assert reviewer.verifier().encode() == note.Signer(
        killdecisions.REVIEWER, note.ED25519, hashlib.sha256(killdecisions.PHRASE.encode()).digest()).verifier().encode()
    roles = set(drive.load_configuration().approvers)  # the roles the reference run's signed decisions are by
    assert config.approvers == {role: [reviewer.verifier().encode()] for role in roles}
    record = tuple({"idempotency_key": str(n)} for n in range(4))
    ref = killdecisions.Reference({}, record, (("event", "admitted", "", ""),) * 9, 4, 5, frozenset(), frozenset(),
                                  {str(n): False for n in range(4)})
    assert [str(p) for p in killdecisions.kill_points(ref, False)] == [*map(str, range(1, 10)), "s1", "s2", "s3", "s4"]
    assert [str(p) for p in killdecisions.kill_points(ref, True)] == ["1", "s1"]
    resumed_at_3 = dataclasses.replace(ref, firsts=(3,))  # a resumed process's first write is a kind of its own
    assert [str(p) for p in killdecisions.kill_points(resumed_at_3, True)] == ["1", "3", "s1"]
