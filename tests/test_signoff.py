"""A reviewer's signed decision on one exact act (signoff/): what it admits and every way it is turned away."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from signoff import decision, keys
from tlog import note

REPO = Path(__file__).resolve().parents[1]
RUN = "072b203498ae31051511e707f7df344a805359994087973372966da3c8451048"
ACT = ("probe_reflection -> https://lab.example:443/debug with arguments "
       "db7b69f272a0565c50280064f59f25fcfd9d5be0887f2bfb022340c9d10d9701")
ROLE = "engagement-lead"


def signer(name: str) -> note.Signer:
    return note.Signer(name, note.ED25519, hashlib.sha256(name.encode()).digest())


LEAD, OTHER, STRANGER = signer("reviewer.example/lead"), signer("reviewer.example/ops"), signer("evil.example/x")
APPROVERS = {ROLE: [LEAD.verifier().encode()], "operations": [OTHER.verifier().encode()]}


def signed(by: note.Signer = LEAD, run: str = RUN, act: str = ACT, role: str = ROLE, verdict: str = "approved",
           reason: str = "in scope, one light GET") -> str:
    return decision.sign(by, run, act, role, verdict, reason)


HELD = {ACT: ROLE}


def code_of(text: str, act: str = ACT) -> str:
    with pytest.raises(decision.DecisionError) as caught:
        decision.check(text, RUN, {act: ROLE}, APPROVERS)
    assert caught.value.code in decision.CODES
    return caught.value.code


def test_a_decision_signed_by_a_key_listed_for_the_acts_role_is_admitted():
    """A decision signed by a key the operator lists for the act's approver role, over this run and this act, is admitted with what it decided."""
    for verdict in decision.DECISIONS:
        got = decision.check(signed(verdict=verdict), RUN, HELD, APPROVERS)
        assert (got.decision, got.act, got.run, got.signed_by) == (verdict, ACT, RUN, LEAD.name)


@pytest.mark.parametrize("make, code", [
    (lambda: decision.text_of(RUN, ACT, ROLE, "approved", "why"), "decision_unsigned"),
    (lambda: signed(by=STRANGER), "decision_unknown_key"),
    (lambda: signed(by=OTHER, role="operations"), "decision_another_role"),
    (lambda: signed(by=OTHER), "decision_another_role"),
    (lambda: signed(role="operations"), "decision_another_role"),
    (lambda: signed(run="0" * 64), "decision_another_run"),
    (lambda: signed(act=ACT[:-1] + "0"), "decision_another_act"),
    (lambda: "harness-course review decision v1\n\nnot a signature\n", "decision_malformed"),
])
def test_each_decision_that_may_not_decide_the_act_is_refused_with_its_code(make, code):
    """An unsigned decision, a stranger's key, another role's key or role, another run and another act each get their own code."""
    assert code_of(make()) == code


def test_an_approval_of_another_act_is_not_an_approval_of_this_one():
    """A genuine approval of one act, replayed where only an act whose arguments differ in one digit waits, is refused as another act."""
    other_act = ACT.replace("db7b69f2", "db7b69f3")
    assert code_of(signed(), act=other_act) == "decision_another_act"


def test_a_decision_edited_after_signing_does_not_verify():
    """Turning a signed rejection into an approval (or editing any line) breaks its signature: no listed key verifies it."""
    rejection = signed(verdict="rejected")
    assert code_of(rejection.replace("decision rejected", "decision approved")) == "decision_unknown_key"
    assert code_of(rejection.replace("one light GET", "one light GET ")) == "decision_unknown_key"


def test_the_fields_are_read_only_from_the_signed_text():
    """A line added after the signature, or a second text before it, never reaches the decision."""
    genuine = signed(verdict="rejected")
    with pytest.raises(decision.DecisionError):
        decision.check("decision approved\n" + genuine, RUN, HELD, APPROVERS)
    assert decision.check(genuine, RUN, HELD, APPROVERS).decision == "rejected"


@pytest.mark.parametrize("field, value", [("decision", "maybe"), ("reason", " "), ("reason", "bell\x07"),
                                          ("run", ""), ("act", "two\nlines"), ("reason", "x" * (decision.MAX_REASON + 1))])
def test_a_decision_a_line_cannot_hold_is_never_signed(field, value):
    """A decision other than approved or rejected, a field of two lines, an empty or too long reason, or a control character, is refused before signing."""
    fields = {"run": RUN, "act": ACT, "role": ROLE, "decision": "approved", "reason": "why"} | {field: value}
    with pytest.raises(ValueError):
        decision.text_of(**fields)


@given(st.text(max_size=400) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_text_is_a_decision_or_a_refusal_with_a_code(text):
    """Whatever a file holds, check answers a Decision or a DecisionError with one of its codes, never another exception."""
    try:
        decision.check(text, RUN, HELD, APPROVERS)
    except decision.DecisionError as exc:
        assert exc.code in decision.CODES


@given(st.sampled_from(decision.DECISIONS), st.text(max_size=80))
def test_every_signed_decision_reads_back_as_signed(verdict, reason):
    """Any reason is refused before signing, or signed and admitted with exactly that decision and that reason, its whitespace runs made one space."""
    try:
        text = signed(verdict=verdict, reason=reason)
    except ValueError:
        return
    got = decision.check(text, RUN, HELD, APPROVERS)
    assert (got.decision, got.reason) == (verdict, " ".join(reason.split()))


def run_signoff(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "signoff", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_keygen_makes_a_private_key_for_its_owner_alone_and_never_overwrites(tmp_path):
    """`python -m signoff keygen` writes the signer key with mode 600 and its verifier key, and refuses to overwrite either."""
    done = run_signoff("keygen", "reviewer.example/alice", "--out", "alice", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "alice.key").stat().st_mode & 0o777 == 0o600
    verifier = note.parse_verifier((tmp_path / "alice.pub").read_text(encoding="utf-8"))
    assert verifier.encode() in done.stdout
    before = (tmp_path / "alice.key").read_bytes()
    again = run_signoff("keygen", "reviewer.example/alice", "--out", "alice", cwd=tmp_path)
    assert again.returncode == 2 and len(again.stderr.splitlines()) == 1 and "never overwritten" in again.stderr
    assert (tmp_path / "alice.key").read_bytes() == before


def test_a_private_key_others_can_read_is_refused(tmp_path):
    """Signing with a key file that its group or others can read is refused in one line, and nothing is written."""
    run_signoff("keygen", "reviewer.example/alice", "--out", "alice", cwd=tmp_path)
    os.chmod(tmp_path / "alice.key", 0o640)
    done = run_signoff("sign", "--run", RUN, "--act", ACT, "--role", ROLE, "--approve", "--reason", "ok",
                       "--key", "alice.key", "--out", "d.note", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "read by others" in done.stderr
    assert not (tmp_path / "d.note").exists()
    with pytest.raises(keys.ReviewKeyError):
        keys.read_signer(tmp_path / "alice.key")


def test_a_signed_decision_made_by_the_command_is_admitted_under_its_key(tmp_path):
    """The command's decision file, checked under the verifier key keygen printed, decides exactly the act it names."""
    run_signoff("keygen", "reviewer.example/alice", "--out", "alice", cwd=tmp_path)
    done = run_signoff("sign", "--run", RUN, "--act", ACT, "--role", ROLE, "--reject", "--reason", "not today",
                       "--key", "alice.key", "--out", "d.note", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = {ROLE: [(tmp_path / "alice.pub").read_text(encoding="utf-8").strip()]}
    got = decision.check((tmp_path / "d.note").read_text(encoding="utf-8"), RUN, HELD, listed)
    assert (got.decision, got.reason) == ("rejected", "not today")


def test_keygen_refuses_a_name_a_key_cannot_carry_and_writes_nothing(tmp_path):
    """A key name with a space (which no key line can carry) is refused in one line, exit 2, and no file is written."""
    done = run_signoff("keygen", "reviewer example", "--out", "k", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "cannot name a key" in done.stderr
    assert list(tmp_path.iterdir()) == []


# --- the reference run's decisions, signed in advance under a demo key ---------------------------


def test_the_reference_runs_decisions_are_what_the_demo_command_signs_byte_for_byte(tmp_path):
    """`python -m signoff.demo --files DIR` writes the committed signed decisions of data/course/reviews byte for byte (Ed25519 is deterministic), and the configuration lists the demo key's verifier for the engagement lead."""
    from core.run import drive
    from signoff import demo

    assert demo.main(["--files", str(tmp_path)]) == 0
    committed = drive.REPO / "data/course/reviews"
    assert sorted(p.name for p in committed.iterdir()) == sorted(demo.DECISIONS)
    for name in demo.DECISIONS:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes()
    raw = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
    assert raw["approvers"] == {demo.ROLE: [demo.demo_signer().verifier().encode()]}
    assert raw["plugins"]["review_signature"] == "signoff.plugin:check_decision"
    assert raw["signed_reviews"] == "data/course/reviews" and raw["reviewers"] == []


def test_the_demo_key_is_derived_from_its_public_phrase():
    """Anyone can derive the demo reviewer key from the phrase printed in signoff/demo.py: which is why its signatures prove nothing about who decided."""
    from signoff import demo

    seed = hashlib.sha256(demo.PHRASE.encode("utf-8")).digest()
    assert note.Signer(demo.KEY_NAME, note.ED25519, seed).encode() == demo.demo_signer().encode()
    assert "proves nothing" in demo.PHRASE


def test_a_decision_given_in_advance_that_may_not_decide_is_a_recorded_refusal_and_the_others_count(tmp_path):
    """A folder of decisions signed in advance holding, beside the reference run's four, one under a stranger's key, one for another run and one unsigned: each of the three is refused at the run's start with its code, and the four still decide their acts exactly as the reference run's do."""
    from core.run import drive
    from signoff import demo

    folder = tmp_path / "reviews"
    demo.main(["--files", str(folder)])
    run_id = demo.reference_run_id()
    probe = ACT  # the first probe of the reference run
    (folder / "5-stranger.note").write_text(decision.sign(STRANGER, run_id, probe, ROLE, "approved", "ok"))
    (folder / "6-another-run.note").write_text(decision.sign(demo.demo_signer(), "0" * 64, probe, ROLE, "approved", "ok"))
    (folder / "7-unsigned.note").write_text(decision.text_of(run_id, probe, ROLE, "approved", "ok"))
    raw = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
    config = drive.configuration({**raw, "signed_reviews": str(folder)})
    report = drive.run(config).report
    codes = [e["code"] for e in report["events"] if e["kind"] == "review" and e["status"] == "refused"]
    assert codes == ["decision_unknown_key", "decision_another_run", "decision_unsigned"]
    reference = json.loads((drive.REPO / "data/course/report.json").read_text(encoding="utf-8"))
    assert report["reviews"] == reference["reviews"]
    assert report["run"] == reference["run"]
