"""The log against forgers, with the threat model the lesson states: the forger has the log file and the
log's key, but not the witness's key and not the checkpoint a client kept.

Also: the signatures, checked with the cryptography package's own Ed25519 verification, and against the
published signed-note vectors; the witness refusing a fork, a rollback and a log that did not only grow.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tlog import keys, merkle, note, witness
from tlog.checkpoint import Checkpoint, open_checkpoint, sign_checkpoint
from tlog.logfile import Entry, Log, parse_log, read_log

from .tlog_helpers import REFERENCE, REPO, VECTORS, run_module, run_tlog, write_demo_folder

LOG_KEY = REPO / "data/tlog/demo-log.key"
RUN = json.loads(REFERENCE.read_text(encoding="utf-8"))["run"]["run_id"][:12]  # the reference run, as answers name it


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_demo_folder(tmp_path_factory.mktemp("tlog"))


@pytest.fixture
def here(folder, tmp_path):
    """A private copy of the demo's log folder."""
    shutil.copytree(folder, tmp_path, dirs_exist_ok=True)
    return tmp_path


def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def write_json(path, value) -> None:
    path.write_text(json.dumps(value), encoding="utf-8")


# --- the forgery lesson 9 cannot catch ---------------------------------------------------------


def test_a_report_rewritten_through_a_fresh_door_passes_seal_verify_and_replay(here):
    forged = here / "forged-report.json"
    genuine = reference()
    lie = json.loads(forged.read_text(encoding="utf-8"))
    assert lie["run"]["run_id"] == genuine["run"]["run_id"]
    assert lie["seal"]["head"] != genuine["seal"]["head"]
    assert lie["counts"]["refusals"] < genuine["counts"]["refusals"]
    assert [f["verdict"] for f in lie["findings"]] == ["confirmed"] * 5  # the refuted finding is gone
    assert not any(e["kind"] == "review" and e["payload"]["decision"] == "rejected" for e in lie["events"])
    said = run_module("verify", forged, module="core.run.seal")
    assert said.code == 0 and said.out.startswith(f"intact: {len(lie['events'])} events"), said
    said = run_module(forged, module="core.audit.replay")
    assert said.code == 0 and "every decision agrees" in said.out, said


def forged_head(here) -> str:
    """The first 12 hex digits of the forged report's head, as the log's answers print it."""
    return json.loads((here / "forged-report.json").read_text())["seal"]["head"][:12]


def test_the_rewritten_report_fails_against_the_log_holding_the_genuine_run(capsys, here):
    said = run_tlog(capsys, "verify", here / "heads.log", here / "forged-report.json")
    assert said.code == 1
    genuine, forged = reference()["seal"]["head"][:12], forged_head(here)
    assert said.out == (f"refused: the log's leaf 3 for run {RUN} holds head {genuine}, not this "
                        f"report's {forged}: this is not the report that was published\n")
    said = run_tlog(capsys, "verify", here / "heads.log", REFERENCE, "--witness", "--checkpoint", here / "kept.checkpoint")
    assert said.code == 0 and said.out.startswith(f"verified: run {RUN}'s head {genuine} is leaf 3")


def test_a_resealed_report_with_one_event_body_edited_fails_against_the_log_too(capsys, here):
    """The minimum forgery: one refusal's reason edited, the chain recomputed; seal verify calls it intact."""
    from core.run.seal import reseal

    report = reference()
    for event in report["events"]:
        if event["status"] == "refused" and event["code"] == "out_of_scope":
            event["reason"] = "nothing to see"
    edited = here / "edited.json"
    write_json(edited, reseal(report))
    said = run_module("verify", edited, module="core.run.seal")
    assert said.code == 0 and said.out.startswith(f"intact: {len(report['events'])} events"), said
    said = run_tlog(capsys, "verify", here / "heads.log", edited)
    assert said.code == 1 and said.out.startswith(f"refused: the log's leaf 3 for run {RUN} holds head "
                                                  f"{reference()['seal']['head'][:12]}, not this report's ")


# --- the forger with the log's key ----------------------------------------------------------------


@pytest.fixture
def forger(here):
    """The forger's own log: the genuine leaf swapped for his, and a checkpoint signed with the log's key."""
    mine = here / "mine" / "heads.log"
    mine.parent.mkdir()
    genuine = read_log(here / "heads.log")
    fake = Entry(*[json.loads((here / "forged-report.json").read_text())[k][f] for k, f in (("run", "run_id"),
                                                                                                ("seal", "head"))])
    log = Log(genuine.origin, [fake if e.run_id == fake.run_id else e for e in genuine.entries])
    mine.write_text(log.text(), encoding="ascii")
    return mine


def test_the_forgers_own_log_passes_verify_with_the_log_key_alone(capsys, here, forger):
    """What the log's key alone gives: nothing against the holder of that key."""
    assert run_tlog(capsys, "checkpoint", forger, "--key", LOG_KEY, "--publish").code == 0
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json")
    assert said.code == 0 and said.out.startswith(f"verified: run {RUN}'s head {forged_head(here)} is leaf 3")


def test_the_forger_fails_witness_having_no_valid_cosignature(capsys, here, forger):
    assert run_tlog(capsys, "checkpoint", forger, "--publish").code == 0
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json", "--witness")
    assert said.code == 1
    assert said.out == ("refused: the published checkpoint is not witnessed: no cosignature by the witness "
                        "witness.example/harness-course\n")
    # the genuine checkpoint's witness line, copied onto his, does not fit his checkpoint
    genuine_line = (here / "heads.log.checkpoint").read_text().splitlines()[-1] + "\n"
    published = forger.parent / "heads.log.checkpoint"
    published.write_text(published.read_text() + genuine_line, encoding="utf-8")
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json", "--witness")
    assert said.code == 1 and "does not verify for this checkpoint" in said.out


def test_the_forger_fails_the_kept_checkpoint_having_dropped_the_genuine_leaf(capsys, here, forger):
    assert run_tlog(capsys, "checkpoint", forger, "--publish").code == 0
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json", "--checkpoint", here / "kept.checkpoint")
    assert said.code == 1
    assert said.out.startswith("refused: the log is not consistent with the kept checkpoint (size 4, root ")
    # and with the consistency proof his own log prints: it does not join the kept root to his
    proof = run_tlog(capsys, "consistency", forger, 4)
    (here / "c.json").write_text(proof.out, encoding="utf-8")
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json", "--checkpoint", here / "kept.checkpoint",
                    "--consistency-proof", here / "c.json")
    assert said.code == 1 and "consistency proof's old_root" in said.out


def test_the_witness_refuses_the_forgers_checkpoint_as_a_fork(capsys, here, forger):
    assert run_tlog(capsys, "checkpoint", forger, "--publish").code == 0
    state = here / "witness.state"
    before = state.read_bytes()
    said = run_tlog(capsys, "cosign", forger, "--state", state, "--time", "1767229200")
    assert said.code == 1
    assert said.err.startswith("refused: a fork: size 5 with root ") and "but this witness cosigned size 5" in said.err
    assert state.read_bytes() == before  # the state is unchanged by a refusal


def test_a_forger_who_keeps_the_genuine_leaf_and_adds_his_own_fails_too(capsys, here):
    """With the run inside each leaf, a second head for the run shows to anyone who reads the whole log.

    The forger keeps every genuine leaf (so the tree grows consistently, and the witness cosigns it) and
    appends his head under the same run. The log file then holds two leaves for one run and is refused;
    relabelling the genuine leaf with another run changes its leaf, so the roots no longer match.
    """
    genuine = read_log(here / "heads.log")
    lie = json.loads((here / "forged-report.json").read_text())
    fake = Entry(lie["run"]["run_id"], lie["seal"]["head"])
    grown = Log(genuine.origin, [*genuine.entries])
    grown.entries.append(fake)
    grown.__post_init__()
    (here / "grown.log").write_text(grown.text(), encoding="ascii")
    signed = sign_checkpoint(Checkpoint(grown.origin, grown.size, grown.root()), keys.demo_signer("log"))
    cosigned, why = witness.cosign(signed, grown.consistency_path(5), log_key=keys.demo_signer("log").verifier(),
                                   witness=keys.demo_signer("witness"), state=here / "witness.state",
                                   timestamp=1767229200)
    assert why == "consistent with size 5, the last it cosigned"  # the witness checks growth, not content
    (here / "grown.log.checkpoint").write_text(cosigned, encoding="utf-8")
    said = run_tlog(capsys, "verify", here / "grown.log", here / "forged-report.json", "--witness")
    assert said.code == 2 and f"line 7: run {RUN} is already leaf 3 (one leaf per run)" in said.err
    relabelled = grown.text().replace(f"leaf 3 run {fake.run_id}", f"leaf 3 run {'0' * 64}", 1)
    (here / "grown.log").write_text(relabelled, encoding="ascii")
    said = run_tlog(capsys, "verify", here / "grown.log", here / "forged-report.json", "--witness")
    assert said.code == 2 and "line 5: its root does not follow" in said.err


def test_verify_refuses_a_log_file_that_is_not_the_tree_its_checkpoint_signed(capsys, here, forger):
    shutil.copy(here / "heads.log.checkpoint", forger.parent / "heads.log.checkpoint")  # the genuine one
    said = run_tlog(capsys, "verify", forger, here / "forged-report.json")
    assert said.code == 1 and said.out.startswith("refused: the log file is not the tree its checkpoint signed")


# --- signatures ---------------------------------------------------------------------------------------


def test_a_checkpoint_signed_with_the_demo_key_verifies_with_cryptographys_own_ed25519(capsys, here):
    signed = run_tlog(capsys, "checkpoint", here / "heads.log").out
    text, _, signatures = signed.rpartition("\n\n")
    text += "\n"
    assert text == (here / "heads.log.checkpoint").read_text().rpartition("\n\n")[0] + "\n"
    line = signatures.splitlines()[0]
    assert line.startswith("\u2014 lab.example/harness-course/log ")
    raw = base64.b64decode(line.split(" ")[2])
    public = keys.read_verifier(REPO / "data/tlog/demo-log.pub").public
    Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], text.encode("utf-8"))  # raises if it does not hold
    with pytest.raises(InvalidSignature):
        Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], text.replace("\n5\n", "\n6\n").encode())
    assert raw[:4] == hashlib.sha256(b"lab.example/harness-course/log\n\x01" + public).digest()[:4]


def test_the_witness_cosignature_verifies_with_cryptographys_own_ed25519(here):
    published = (here / "heads.log.checkpoint").read_text()
    text = published.rpartition("\n\n")[0] + "\n"
    raw = base64.b64decode(published.splitlines()[-1].split(" ")[2])
    timestamp = int.from_bytes(raw[4:12], "big")
    message = f"cosignature/v1\ntime {timestamp}\n{text}".encode()
    public = keys.read_verifier(REPO / "data/tlog/demo-witness.pub").public
    Ed25519PublicKey.from_public_bytes(public).verify(raw[12:], message)
    assert timestamp == 1767225600 + 60 * 5


def test_the_signing_matches_rfc_8032_and_the_golang_signed_note_vector():
    vectors = json.loads((VECTORS / "signed-note" / "vectors.json").read_text(encoding="utf-8"))
    rfc = vectors["rfc8032_test1"]
    signer = note.Signer("rfc8032", note.ED25519, bytes.fromhex(rfc["secret_key"]))
    assert signer.verifier().public.hex() == rfc["public_key"]
    assert signer.sign(bytes.fromhex(rfc["message"])).hex() == rfc["signature"]
    assert Ed25519PrivateKey.from_private_bytes(signer.seed).sign(b"").hex() == rfc["signature"]
    go = vectors["golang_mod_sumdb_note_TestSign"]
    key = note.parse_signer(go["signer_key"])
    assert key.verifier().encode() == go["verifier_key"]
    assert note.sign(go["text"], key) == go["signed_note"]
    assert note.open_note(go["signed_note"], note.parse_verifier(go["verifier_key"])) == go["text"]


@pytest.mark.parametrize("change, named", [
    (lambda n: n.replace("\n5\n", "\n6\n", 1), "does not verify"),
    (lambda n: n.replace("\u2014 lab.example/harness-course/log", "\u2014 lab.example/other", 1), "no signature by"),
    (lambda n: n.replace("\n\n", "\n", 1), "a note is its text, a blank line"),
    (lambda n: n.replace("\u2014", "-", 1), "not '\u2014 NAME SIGNATURE'"),
    (lambda n: n[:-1], "ends with a newline"),
    (lambda n: n.replace("\n5\n", "\n5\r\n", 1), "no control characters"),
])
def test_an_altered_checkpoint_note_is_refused(here, change, named):
    published = (here / "heads.log.checkpoint").read_text()
    log_key = keys.read_verifier(REPO / "data/tlog/demo-log.pub")
    assert open_checkpoint(published, log_key).size == 5
    with pytest.raises(Exception, match=named):
        open_checkpoint(change(published), log_key)


def test_the_committed_demo_keys_are_the_ones_their_public_phrases_derive(tmp_path):
    assert keys.main(["--out", str(tmp_path)]) == 0
    for name in ("demo-log.key", "demo-log.pub", "demo-witness.key", "demo-witness.pub"):
        assert (tmp_path / name).read_bytes() == (REPO / "data/tlog" / name).read_bytes(), name
    assert "public on purpose" in (REPO / "data/tlog/README.md").read_text(encoding="utf-8")


# --- the witness -------------------------------------------------------------------------------------


def test_the_witness_cosigns_only_a_log_that_grew_and_refuses_a_fork_or_a_rollback(tmp_path):
    log_signer, witness_signer = keys.demo_signer("log"), keys.demo_signer("witness")
    state = tmp_path / "witness.state"
    entries = [Entry(hashlib.sha256(b"r%d" % i).hexdigest(), hashlib.sha256(b"h%d" % i).hexdigest())
               for i in range(6)]
    other = [*entries[:2], Entry(entries[2].run_id, hashlib.sha256(b"other").hexdigest()), *entries[3:]]

    def signed(log: Log) -> str:
        return sign_checkpoint(Checkpoint(log.origin, log.size, log.root()), log_signer)

    def ask(log: Log, proof) -> str:
        return witness.cosign(signed(log), proof, log_key=log_signer.verifier(), witness=witness_signer,
                              state=state, timestamp=7)[1]

    three, five = Log(keys.LOG_ORIGIN, entries[:3]), Log(keys.LOG_ORIGIN, entries[:5])
    assert ask(three, []) == "the first checkpoint this witness has seen, taken on trust"
    assert ask(five, five.consistency_path(3)) == "consistent with size 3, the last it cosigned"
    assert open_checkpoint(state.read_text(), log_signer.verifier()).size == 5
    forked = Log(keys.LOG_ORIGIN, other[:5])
    for log, proof, named in [
        (forked, [], "a fork: size 5"),
        (Log(keys.LOG_ORIGIN, other), Log(keys.LOG_ORIGIN, other).consistency_path(5), "not consistent with size 5"),
        (Log(keys.LOG_ORIGIN, entries[:6]), [], "not consistent with size 5"),  # no proof
        (three, [], "the log went back: size 3"),
    ]:
        with pytest.raises(witness.WitnessError, match=named):
            ask(log, proof)
        assert open_checkpoint(state.read_text(), log_signer.verifier()).root == five.root()  # unchanged
    with pytest.raises(witness.WitnessError, match="not a checkpoint signed by the log"):
        witness.cosign(sign_checkpoint(Checkpoint("witness.example/harness-course", 5, five.root()),
                                       note.Signer("witness.example/harness-course", note.ED25519, witness_signer.seed)),
                       [], log_key=log_signer.verifier(), witness=witness_signer, state=state, timestamp=7)


def test_an_empty_log_reads_back_empty_with_the_empty_trees_root():
    empty = parse_log(Log(keys.LOG_ORIGIN).text())
    assert empty.size == 0 and empty.root() == merkle.EMPTY_ROOT


def test_the_rejection_rewritten_as_an_approval_passes_lesson_9_and_fails_against_the_log(capsys, here):
    from core.audit.replay import replay
    from core.run.rederive import verify as verify_report
    from tlog.forgery import approve_the_rejection

    lie = approve_the_rejection(reference())
    assert lie["run"] == reference()["run"] and lie["seal"]["head"] != reference()["seal"]["head"]
    assert verify_report(lie).ok and not replay(lie).divergences
    assert all(review["decision"] == "approved" for review in lie["reviews"])
    write_json(here / "approved.json", lie)
    said = run_tlog(capsys, "verify", here / "heads.log", here / "approved.json")
    assert said.code == 1 and "this is not the report that was published" in said.out


def test_a_log_cut_back_by_whole_lines_and_signed_again_fails_only_the_kept_checkpoint(capsys, here):
    """The file alone cannot tell a shorter log; the log's key signs it; the kept checkpoint of size 4 refuses it."""
    intact = REPO / "data/course/tamper/intact.json"  # lesson 9's finished run: leaf 0
    lines = (here / "heads.log").read_text(encoding="ascii").splitlines()
    (here / "heads.log").write_text("\n".join(lines[:4]) + "\n", encoding="ascii")  # three leaves left
    assert run_tlog(capsys, "checkpoint", here / "heads.log", "--publish").code == 0
    assert run_tlog(capsys, "verify", here / "heads.log", intact).code == 0
    said = run_tlog(capsys, "verify", here / "heads.log", intact, "--checkpoint", here / "kept.checkpoint")
    assert said.code == 1 and said.out.startswith("refused: the log went back: the kept checkpoint is of size 4")
