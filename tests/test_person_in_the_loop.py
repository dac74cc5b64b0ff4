"""A person in the loop: a journaled run waits at a held act, a reviewer signs that exact act, the run goes on.

The configuration is the reference one with the review of the first probe
taken out (so the gate holds it with no decision), a signature check
(``plugins.review_signature``) and the keys it lists for each approver role.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.run import decisions, drive, journal, main as harness
from signoff import decision, demo
from tlog import note

REPO = Path(__file__).resolve().parents[1]
REFERENCE = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
ROLE = "engagement-lead"
PROBE = ("probe_reflection -> https://lab.example:443/debug with arguments "
         "db7b69f272a0565c50280064f59f25fcfd9d5be0887f2bfb022340c9d10d9701")
SEARCH = ("probe_reflection -> https://lab.example:443/search with arguments "
          "db7b69f272a0565c50280064f59f25fcfd9d5be0887f2bfb022340c9d10d9701")


def key(name: str) -> note.Signer:
    return note.Signer(name, note.ED25519, hashlib.sha256(name.encode()).digest())


LEAD, OPS, STRANGER = key("reviewer.example/lead"), key("reviewer.example/ops"), key("evil.example/x")


def configuration(folder: Path, *, check: bool = True) -> Path:
    """The reference configuration without its signed reviews, the last three written down as scripted reviews
    (the first probe's is not, so the gate holds it with no decision), with approvers and, unless not, a check."""
    raw = json.loads(json.dumps(REFERENCE))
    del raw["signed_reviews"]
    first, *rest = demo.DECISIONS.values()
    assert first[0] == "probe_reflection -> https://lab.example:443/debug"
    raw["reviewers"] = [{"subject": subject, "arguments": arguments, "reviewer": ROLE, "decision": verdict,
                         "reason": reason} for subject, arguments, verdict, reason in rest]
    raw["approvers"] = {ROLE: [LEAD.verifier().encode()], "operations": [OPS.verifier().encode()]}
    del raw["plugins"]["review_signature"]
    if check:
        raw["plugins"]["review_signature"] = "signoff.plugin:check_decision"
    path = folder / "config.json"
    path.write_text(json.dumps(raw, indent=2), encoding="utf-8")
    return path


def run_id_of(config: Path) -> str:
    return drive.identify(drive.load_configuration(config)).run_id


def waits(folder: Path, config: Path, capsys) -> str:
    """Start a journaled run of ``config``; it must stop, waiting, with exit 5 and one line."""
    status = harness.main(["--config", str(config), "--journal", str(folder / "run.journal"),
                           "--out", str(folder / "r.json")])
    said = capsys.readouterr().err
    assert status == harness.WAITING, said
    assert len(said.splitlines()) == 1 and not (folder / "r.json").exists()
    return said


def resume(folder: Path, config: Path, reviews: Path, capsys) -> int:
    status = harness.main(["--config", str(config), "--resume", str(folder / "run.journal"), "--reviews",
                           str(reviews), "--out", str(folder / "r.json")])
    capsys.readouterr()
    return status


def probe_decisions(folder: Path) -> list[str]:
    """The decisions the finished report in ``folder`` records on the probe held for review, in order."""
    report = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    return [review["decision"] for review in report["reviews"] if review["subject_id"] == PROBE]


def journal_codes(folder: Path) -> list[str]:
    lines = (folder / "run.journal").read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line)["event"].get("code", "") for line in lines if line.startswith('{"chain"')]


def test_a_journaled_run_stops_at_an_act_no_review_decides_and_says_so(tmp_path, capsys):
    """With a journal, the run stops at the held probe with exit 5 and one line naming the act, its class, its role and the command that lists it; nothing is in doubt."""
    config = configuration(tmp_path)
    said = waits(tmp_path, config, capsys)
    assert PROBE in said and "probe.active_light" in said and ROLE in said and "python -m signoff waiting" in said
    codes = journal_codes(tmp_path)
    assert codes[-1] == "held_for_review"
    events = [json.loads(line)["event"] for line in (tmp_path / "run.journal").read_text().splitlines()[1:]
              if line.startswith('{"chain"')]
    outcomes = [e for e in events if e["kind"] == "outcome" and e["status"] == "admitted"]
    assert all(o["payload"]["status"] != "unresolved" for o in outcomes[-1:]), "an act was left in doubt"


def test_without_a_journal_a_held_act_stays_refused_and_the_run_goes_on(tmp_path, capsys):
    """Without a journal the same configuration runs to its sealed report, the probe refused as held for review."""
    config = configuration(tmp_path)
    assert harness.main(["--config", str(config), "--out", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert PROBE not in {review["subject_id"] for review in report["reviews"]}
    assert any(e.get("code") == "held_for_review" for e in report["events"])


def test_the_operators_approver_keys_name_the_run(tmp_path):
    """Listing another key for a role makes another run: the keys whose decisions count are part of its identity."""
    config = configuration(tmp_path)
    other = json.loads(config.read_text(encoding="utf-8"))
    other["approvers"][ROLE].append(STRANGER.verifier().encode())
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    assert run_id_of(config) != run_id_of(tmp_path / "other.json")
    assert run_id_of(drive.DEFAULT_CONFIG) == json.loads(
        (REPO / "data/course/report.json").read_text(encoding="utf-8"))["run"]["run_id"]


def signed_file(folder: Path, name: str, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_every_decision_that_may_not_decide_the_held_act_is_a_recorded_refusal_and_the_run_waits_on(tmp_path, capsys):
    """Unsigned, a stranger's key, another role's key, another act, another run and a malformed file are each recorded as a refusal with its own code, and the run waits again."""
    config = configuration(tmp_path)
    waits(tmp_path, config, capsys)
    run_id = run_id_of(config)
    reviews = tmp_path / "reviews"
    cases = {
        "1-unsigned": (decision.text_of(run_id, PROBE, ROLE, "approved", "ok"), "decision_unsigned"),
        "2-stranger": (decision.sign(STRANGER, run_id, PROBE, ROLE, "approved", "ok"), "decision_unknown_key"),
        "3-ops": (decision.sign(OPS, run_id, PROBE, "operations", "approved", "ok"), "decision_another_role"),
        "4-search": (decision.sign(LEAD, run_id, SEARCH, ROLE, "approved", "ok"), "decision_another_act"),
        "5-run": (decision.sign(LEAD, "0" * 64, PROBE, ROLE, "approved", "ok"), "decision_another_run"),
        "6-noise": ("not a decision\n\nnor a signature line\n", "decision_malformed"),
    }
    for name, (text, _) in cases.items():
        signed_file(reviews, name, text)
    status = harness.main(["--config", str(config), "--resume", str(tmp_path / "run.journal"), "--reviews",
                           str(reviews), "--out", str(tmp_path / "r.json")])
    assert status == harness.WAITING, capsys.readouterr().err
    recorded = [code for code in journal_codes(tmp_path) if code.startswith("decision_")]
    assert recorded == [code for _, code in cases.values()]


def test_without_a_signature_check_no_signed_decision_counts(tmp_path, capsys):
    """A configuration that names no review_signature check refuses even a genuine signed approval (fail closed)."""
    config = configuration(tmp_path, check=False)
    waits(tmp_path, config, capsys)
    signed_file(tmp_path / "reviews", "lead", decision.sign(LEAD, run_id_of(config), PROBE, ROLE, "approved", "ok"))
    assert resume(tmp_path, config, tmp_path / "reviews", capsys) == harness.WAITING
    assert "decision_unchecked" in journal_codes(tmp_path)


def test_a_recorded_decision_is_final(tmp_path, capsys):
    """Once a signed rejection is recorded, a later approval of the same act is refused as a second decision, and the probe never runs."""
    config = configuration(tmp_path)
    waits(tmp_path, config, capsys)
    run_id = run_id_of(config)
    reviews = tmp_path / "reviews"
    signed_file(reviews, "a-no", decision.sign(LEAD, run_id, PROBE, ROLE, "rejected", "not today"))
    signed_file(reviews, "b-yes", decision.sign(LEAD, run_id, PROBE, ROLE, "approved", "changed my mind"))
    assert resume(tmp_path, config, reviews, capsys) == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    decided = [review for review in report["reviews"] if review["subject_id"] == PROBE]
    assert [r["decision"] for r in decided] == ["rejected"] and "signed by reviewer.example/lead" in decided[0]["reason"]
    assert "decision_second" in [e.get("code") for e in report["events"]]
    probes = [e for e in report["events"] if e["kind"] == "action" and e["status"] == "admitted"
              and e["payload"]["tool"] == "probe_reflection" and e["payload"]["destination"].endswith("/debug")]
    assert probes == []


def run_command(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_the_whole_loop_through_the_real_commands(tmp_path):
    """Run, wait (exit 5), list what waits, make a key, sign, resume, seal, verify and replay under the operator's keys (from the report alone: its ledger keeps the signed decision, and one edited and resealed is refused): each through its command, in a fresh folder."""
    keys = run_command("-m", "signoff", "keygen", "reviewer.example/you", "--out", "you", cwd=tmp_path)
    assert keys.returncode == 0, keys.stderr
    raw = json.loads(configuration(tmp_path).read_text(encoding="utf-8"))
    raw["approvers"][ROLE] = [(tmp_path / "you.pub").read_text(encoding="utf-8").strip()]
    (tmp_path / "config.json").write_text(json.dumps(raw), encoding="utf-8")
    config = ["--config", "config.json"]
    first = run_command("-m", "core.run.main", *config, "--journal", "run.journal", "--out", "r.json", cwd=tmp_path)
    assert first.returncode == 5 and PROBE in first.stderr, first.stderr
    listed = run_command("-m", "signoff", "waiting", "run.journal", *config, cwd=tmp_path)
    identity, _, digest = PROBE.partition(" with arguments ")
    assert listed.returncode == 0 and '{"marker": "lab-probe-<i>7</i>"' in listed.stdout
    assert f"act      {identity}\n" in listed.stdout and f"digest   {digest}\n" in listed.stdout
    run_id = listed.stdout.split()[1]
    (tmp_path / "reviews").mkdir()
    sign = run_command("-m", "signoff", "sign", "--run", run_id, "--act", PROBE, "--role", ROLE, "--approve",
                       "--reason", "in scope, one light GET", "--key", "you.key", "--out", "reviews/probe.note",
                       cwd=tmp_path)
    assert sign.returncode == 0, sign.stderr
    resumed = run_command("-m", "core.run.main", *config, "--resume", "run.journal", "--reviews", "reviews",
                          "--out", "r.json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    probe = [r for r in report["reviews"] if r["subject_id"] == PROBE]
    assert probe and probe[0]["decision"] == "approved" and "signed by reviewer.example/you" in probe[0]["reason"]
    signed = [e for e in report["events"] if e["kind"] == decisions.SIGNED]
    assert [e["payload"]["note"] for e in signed] == [(tmp_path / "reviews" / "probe.note").read_text()]
    (tmp_path / "reviews" / "probe.note").unlink()  # the ledger keeps the note: the file is no longer needed
    checks = [("core.run.seal", "verify"), ("core.audit.replay",)]
    for command in checks:
        done = run_command("-m", *command, "r.json", *config, cwd=tmp_path)
        assert done.returncode == 0 and "under the setting of config.json" in done.stdout, done.stdout + done.stderr
    itself = run_command("-m", "core.run.seal", "verify", "r.json", cwd=tmp_path)
    assert "no signed review checked under the operator's keys" in itself.stdout
    edited = report_text = (tmp_path / "r.json").read_text(encoding="utf-8")
    edited = report_text.replace("one light GET", "two light GETs")
    assert edited.count("two light GETs") >= 2  # the note and the review it gave, both edited
    (tmp_path / "edited.json").write_text(edited, encoding="utf-8")
    resealed = run_command("-m", "core.run.seal", "seal", "edited.json", "--out", "forged.json", cwd=tmp_path)
    assert resealed.returncode == 0, resealed.stderr
    for command in checks:
        forged = run_command("-m", *command, "forged.json", *config, cwd=tmp_path)
        assert forged.returncode == 1 and "wrote down none" in forged.stdout, forged.stdout + forged.stderr


def test_reviews_without_resume_is_one_line_and_exit_2(tmp_path, capsys):
    """`--reviews` without `--resume` is refused in one line with exit 2, and nothing runs."""
    assert harness.main(["--reviews", str(tmp_path), "--out", str(tmp_path / "r.json")]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1 and not (tmp_path / "r.json").exists()


def test_the_reviews_folder_is_read_without_waiting_on_a_hostile_file(tmp_path):
    """A FIFO, a folder and a file too large in the reviews folder are each read as no decision, without hanging."""
    folder = tmp_path / "reviews"
    folder.mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "sub").mkdir()
    (folder / "big").write_bytes(b"x" * (decisions.MAX_DECISION_BYTES + 1))
    assert decisions.read_folder(folder) == {"big": None, "fifo": None, "sub": None}


def finished_with(folder: Path, capsys, decided: str, reason: str) -> tuple[Path, str, bytes]:
    """A run that waited on the probe, resumed with the lead's signed decision in ``first/signed``.

    Returns its configuration, its run id and the sealed report's bytes.
    """
    config = configuration(folder)
    waits(folder, config, capsys)
    run_id = run_id_of(config)
    signed_file(folder / "first", "signed", decision.sign(LEAD, run_id, PROBE, ROLE, decided, reason))
    assert resume(folder, config, folder / "first", capsys) == 0
    return config, run_id, (folder / "r.json").read_bytes()


def test_a_recorded_rejection_stays_final_when_the_run_is_resumed_without_its_signed_file(tmp_path, capsys):
    """A signed rejection the journal records stands when the run is resumed without the reviews folder that held it: the finished run is not asked again, and an approval signed later is refused as a second decision, so the rejected probe never runs."""
    config, run_id, finished = finished_with(tmp_path, capsys, "rejected", "not today")
    (tmp_path / "later").mkdir()
    assert resume(tmp_path, config, tmp_path / "later", capsys) == 0  # no decision given: nothing to wait for
    assert (tmp_path / "r.json").read_bytes() == finished
    signed_file(tmp_path / "later", "yes", decision.sign(LEAD, run_id, PROBE, ROLE, "approved", "changed my mind"))
    assert resume(tmp_path, config, tmp_path / "later", capsys) == 0
    assert probe_decisions(tmp_path) == ["rejected"]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert not [e for e in report["events"] if e["kind"] == "action" and e["status"] == "admitted"
                and e["payload"]["tool"] == "probe_reflection" and e["payload"]["destination"].endswith("/debug")]


def test_a_decision_signed_before_a_resume_that_was_killed_still_decides_the_act_it_waited_on(tmp_path, capsys):
    """A resume killed after it cut the held act off its journal and before it held the act again leaves no act waiting on disk: resumed once more with the same signed decision, the run admits it for that act when the act is held again (no refusal as another act) and goes on to its report."""
    config = configuration(tmp_path)
    waits(tmp_path, config, capsys)
    signed_file(tmp_path / "reviews", "lead", decision.sign(LEAD, run_id_of(config), PROBE, ROLE, "approved", "ok"))
    sink, read = journal.Journal.reopen(tmp_path / "run.journal")
    with sink:  # what the killed resume left: its restart point, before it wrote anything of its own
        sink.cut_back(read, journal.restart_point(read.events))
    assert decisions.waiting(journal.read(tmp_path / "run.journal").events, drive.load_configuration(config).policy,
                             drive.load_configuration(config).gating) == {}
    assert resume(tmp_path, config, tmp_path / "reviews", capsys) == 0
    assert probe_decisions(tmp_path) == ["approved"]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert not [e for e in report["events"] if str(e.get("code")).startswith("decision_")]


def test_a_recorded_signed_approval_stays_final_when_the_run_is_resumed_without_its_signed_file(tmp_path, capsys):
    """The ledger keeps a signed approval whole: resumed without the reviews folder that held it, the run checks the recorded decision's signature again, asks for no decision on that act (it does not wait) and seals the same report, byte for byte; a rejection signed later is refused as a second decision."""
    config, run_id, finished = finished_with(tmp_path, capsys, "approved", "in scope")
    (tmp_path / "first" / "signed").unlink()
    assert resume(tmp_path, config, tmp_path / "first", capsys) == 0
    assert (tmp_path / "r.json").read_bytes() == finished
    status = harness.main(["--config", str(config), "--resume", str(tmp_path / "run.journal"),
                           "--out", str(tmp_path / "r.json")])
    assert status == 0, capsys.readouterr().err
    assert (tmp_path / "r.json").read_bytes() == finished
    signed_file(tmp_path / "later", "no", decision.sign(LEAD, run_id, PROBE, ROLE, "rejected", "changed my mind"))
    assert resume(tmp_path, config, tmp_path / "later", capsys) == 0
    assert probe_decisions(tmp_path) == ["approved"]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert len([e for e in report["events"] if e["kind"] == decisions.SIGNED]) == 1


def test_a_signed_approval_recorded_before_a_kill_is_not_asked_for_again(tmp_path, capsys):
    """Killed just after the run recorded a signed approval and its review, and resumed without the signed file, the run admits the recorded decision again from its note and sends the approved probe: it does not wait."""
    config = configuration(tmp_path)
    waits(tmp_path, config, capsys)
    signed_file(tmp_path / "reviews", "yes", decision.sign(LEAD, run_id_of(config), PROBE, ROLE, "approved", "ok"))
    assert resume(tmp_path, config, tmp_path / "reviews", capsys) == 0
    lines = (tmp_path / "run.journal").read_text(encoding="utf-8").splitlines(keepends=True)
    review = next(index for index, line in enumerate(lines) if line.startswith('{"chain"')
                  and json.loads(line)["event"]["kind"] == "review" and json.loads(line)["event"]["status"] == "admitted"
                  and json.loads(line)["event"]["payload"]["subject_id"] == PROBE)
    assert json.loads(lines[review - 1])["event"]["kind"] == decisions.SIGNED
    (tmp_path / "run.journal").write_text("".join(lines[:review + 1]), encoding="utf-8")  # killed there
    (tmp_path / "reviews" / "yes").unlink()
    assert resume(tmp_path, config, tmp_path / "reviews", capsys) == 0
    assert probe_decisions(tmp_path) == ["approved"]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [e for e in report["events"] if e["kind"] == "action" and e["status"] == "admitted"
            and e["payload"]["destination"].endswith("/debug") and e["payload"]["tool"] == "probe_reflection"]
