"""Lesson 11's completion suite: each test's docstring is one sentence under the page's "Check completion".

The suites beside it (test_tlog_merkle, _logfile, _cli, _forgers, _inputs, _picture) attack each part in
more ways; this one states what the lesson promises, one sentence per test, on the committed artifacts.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from course import manifest
from course.check import run_check
from tlog import keys, note, witness
from tlog.checkpoint import Checkpoint, sign_checkpoint
from tlog.logfile import Entry, Log, LogError, parse_log, read_log

from .test_tlog_merkle import rfc_verify_consistency, rfc_verify_inclusion
from .tlog_helpers import REFERENCE, REPO, VECTORS, one_line, run_module, run_tlog

HEAD = json.loads(REFERENCE.read_text(encoding="utf-8"))["seal"]["head"]  # the reference run's, leaf 3

DEMO = REPO / "data" / "course" / "tlog"
LESSON = manifest.find(11, REPO)


@pytest.fixture
def here(tmp_path):
    """A private copy of the committed log folder (data/course/tlog/), to change freely."""
    shutil.copytree(DEMO, tmp_path, dirs_exist_ok=True)
    return tmp_path


def test_the_verifier_agrees_with_every_published_vector():
    """`python -m tlog vectors tests/vectors` prints `transparency-dev: 196 of 196 agree` and `cctv: 44 of 44 agree`, each set run under the rule its own project states for a consistency proof from the empty tree, which the output names."""
    said = run_module("vectors", VECTORS)
    lines = said.out.splitlines()
    assert said.code == 0, said.out + said.err
    assert lines[0] == "transparency-dev: 196 of 196 agree"
    assert lines[1].startswith("  from_empty=refuse, its project's rule: ")
    assert lines[2] == "cctv: 44 of 44 agree"
    assert lines[3].startswith("  from_empty=accept, its project's rule: ")
    assert run_module("vectors", VECTORS, "--from-empty", "refuse").code == 1  # the rule is real, not decoration


def _flip(b64: str) -> str:
    raw = bytearray(base64.b64decode(b64))
    raw[5] ^= 0x10
    return base64.b64encode(bytes(raw)).decode("ascii")


def _each_flip(proof: dict):
    for name, value in proof.items():
        if isinstance(value, int):
            yield name, {**proof, name: value ^ 1}
        elif isinstance(value, str):
            yield name, {**proof, name: _flip(value)}
        else:
            for i in range(len(value)):
                yield f"{name}[{i}]", {**proof, name: [_flip(h) if j == i else h for j, h in enumerate(value)]}


def test_printed_proofs_verify_independently_and_one_flipped_bit_fails_verify(capsys, here):
    """Every inclusion and consistency proof the log prints verifies under an independent verifier written from RFC 9162's pseudo-code, and one flipped bit in any element of either makes `python -m tlog verify` refuse it."""
    log, kept = here / "heads.log", here / "kept.checkpoint"
    inclusion = json.loads(run_tlog(capsys, "prove", log, REFERENCE).out)
    b = base64.b64decode
    assert rfc_verify_inclusion(inclusion["leaf_index"], inclusion["tree_size"], b(inclusion["leaf_hash"]),
                                [b(h) for h in inclusion["inclusion_path"]], b(inclusion["root_hash"]))
    for old in range(1, 6):
        c = json.loads(run_tlog(capsys, "consistency", log, old).out)
        assert rfc_verify_consistency(c["old_size"], c["new_size"], b(c["old_root"]), b(c["new_root"]),
                                      [b(h) for h in c["consistency_path"]]), old
    consistency = json.loads(run_tlog(capsys, "consistency", log, 4).out)
    for option, proof, extra in (("--proof", inclusion, []), ("--consistency-proof", consistency, ["--checkpoint", kept])):
        path = here / "proof.json"
        path.write_text(json.dumps(proof), encoding="utf-8")
        assert run_tlog(capsys, "verify", log, REFERENCE, *extra, option, path).code == 0
        for what, flipped in _each_flip(proof):
            path.write_text(json.dumps(flipped), encoding="utf-8")
            said = run_tlog(capsys, "verify", log, REFERENCE, *extra, option, path)
            assert said.code == 1 and said.out.startswith("refused: "), (what, said)


def test_a_torn_or_edited_log_is_refused_and_a_run_holds_one_leaf(capsys, here):
    """A torn or edited log file is refused in one line naming its line, a second, different head for a run the log holds is refused, and appending the same head again changes no byte."""
    log = here / "heads.log"
    text = log.read_text(encoding="ascii")
    lines = text.splitlines()
    for edited, named in [(text[:-20], "line 6 is torn"),
                          (text.replace(lines[3][-64:], "0" * 64), "line 4: its root does not follow"),
                          ("\n".join(lines[:3] + lines[4:]) + "\n", "line 4 holds leaf 3 where leaf 2 belongs"),
                          (text.replace(f" head {HEAD[:4]}", f" head {HEAD[:3]}{'1' if HEAD[3] == '0' else '0'}"),
                           "line 5: its root does not follow")]:
        with pytest.raises(LogError, match=named) as caught:
            parse_log(edited)
        assert "\n" not in str(caught.value)
    before = log.read_bytes()
    said = run_tlog(capsys, "append", log, REFERENCE)
    assert said.code == 0 and "nothing changed" in said.out and log.read_bytes() == before
    said = run_tlog(capsys, "append", log, here / "forged-report.json")
    assert said.code == 1 and "a second head" in one_line(said) and log.read_bytes() == before


def test_the_fresh_door_forgery_passes_lesson_9_and_fails_against_the_log(capsys, here):
    """A report rewritten through a fresh door and resealed, with the genuine run identifier, passes seal verify and replay, and fails `python -m tlog verify` against the log that holds the genuine run."""
    forged = here / "forged-report.json"
    lie, truth = (json.loads(p.read_text(encoding="utf-8")) for p in (forged, REFERENCE))
    assert lie["run"] == truth["run"] and lie["seal"]["head"] != truth["seal"]["head"]
    assert run_module("verify", forged, module="core.run.seal").out.startswith(f"intact: {len(lie['events'])} events")
    assert "every decision agrees" in run_module(forged, module="core.audit.replay").out
    said = run_tlog(capsys, "verify", here / "heads.log", forged)
    assert said.code == 1 and "this is not the report that was published" in said.out
    assert run_tlog(capsys, "verify", here / "heads.log", REFERENCE, "--witness", "--checkpoint",
                    here / "kept.checkpoint").code == 0


def test_a_forger_with_the_log_key_fails_the_witness_and_the_kept_checkpoint(capsys, here):
    """A forger who has the log file and the log's key, but not the witness's key or the kept checkpoint, passes a plain verify with a log of his own, and fails `--witness`, having no valid cosignature, and `--checkpoint`, since no consistency proof joins the kept checkpoint to his tree."""
    his, forged = here / "forger" / "heads.log", here / "forged-report.json"
    assert read_log(his).entries[3].head == json.loads(forged.read_text())["seal"]["head"]
    assert run_tlog(capsys, "verify", his, forged).out.startswith("verified: ")  # the log key alone: no defence
    said = run_tlog(capsys, "verify", his, forged, "--witness")
    assert said.code == 1 and said.out.startswith("refused: the published checkpoint is not witnessed")
    said = run_tlog(capsys, "verify", his, forged, "--checkpoint", here / "kept.checkpoint")
    assert said.code == 1 and said.out.startswith("refused: the log is not consistent with the kept checkpoint")
    assert run_tlog(capsys, "checkpoint", his, "--publish").code == 0  # a fresh signature changes nothing
    assert run_tlog(capsys, "verify", his, forged, "--witness").code == 1


def test_the_witness_cosigns_only_consistent_growth_and_refuses_a_fork(capsys, here):
    """The witness cosigns a checkpoint only after the consistency proof from the last one it cosigned holds, and refuses a fork, a rollback and a tree that does not extend the last one, its state unchanged."""
    state = here / "witness.state"
    before = state.read_bytes()
    said = run_tlog(capsys, "cosign", here / "forger" / "heads.log", "--state", state, "--time", "1767229200")
    assert said.code == 1 and said.err.startswith("refused: a fork: size 5 with root ")
    log = read_log(here / "heads.log")
    signer, wit = keys.demo_signer("log"), keys.demo_signer("witness")
    ask = lambda grown, proof: witness.cosign(  # noqa: E731
        sign_checkpoint(Checkpoint(grown.origin, grown.size, grown.root()), signer), proof,
        log_key=signer.verifier(), witness=wit, state=state, timestamp=1767229200)
    other = Log(log.origin, [*log.entries[1:], log.entries[0], Entry("ab" * 32, "cd" * 32)])
    for grown, proof, named in [(Log(log.origin, log.entries[:4]), [], "the log went back"),
                                (other, other.consistency_path(5), "not consistent with size 5")]:
        with pytest.raises(witness.WitnessError, match=named):
            ask(grown, proof)
        assert state.read_bytes() == before
    longer = Log(log.origin, [*log.entries, Entry("ab" * 32, "cd" * 32)])
    assert ask(longer, longer.consistency_path(5))[1] == "consistent with size 5, the last it cosigned"


def test_the_witness_refuses_an_edited_state_and_cannot_see_a_rolled_back_one(here):
    """The witness refuses a state file that was edited, its own cosignature on it no longer holding, and cosigns a fork after a state put back to an earlier one it really cosigned, which only storage its host cannot rewind would catch."""
    state, log = here / "witness.state", read_log(here / "heads.log")
    signer, wit = keys.demo_signer("log"), keys.demo_signer("witness")
    fork = Log(log.origin, [*log.entries[:4], Entry("ab" * 32, "cd" * 32), Entry("ef" * 32, "01" * 32)])
    ask = lambda: witness.cosign(  # noqa: E731
        sign_checkpoint(Checkpoint(fork.origin, fork.size, fork.root()), signer), fork.consistency_path(4),
        log_key=signer.verifier(), witness=wit, state=state, timestamp=1767229200)
    genuine = state.read_text(encoding="utf-8")
    root4 = base64.b64encode(log.root(4)).decode("ascii")
    state.write_text(genuine.replace("\n5\n", "\n4\n").replace(genuine.split("\n")[2], root4), encoding="utf-8")
    with pytest.raises(witness.WitnessError, match="so it is not trusted"):
        ask()
    shutil.copy(here / "kept.checkpoint", state)  # the witnessed checkpoint of size 4: a state it did write
    assert ask()[1] == "consistent with size 4, the last it cosigned"


def test_signatures_verify_with_cryptography_and_match_the_published_vectors(capsys, here):
    """A checkpoint signed with the demo key verifies under the cryptography package's own Ed25519 verification of the note text, and the signing gives RFC 8032's test 1 and golang.org/x/mod's signed note exactly."""
    signed = run_tlog(capsys, "checkpoint", here / "heads.log").out
    text, _, lines = signed.rpartition("\n\n")
    raw = base64.b64decode(lines.split(" ")[2])
    public = keys.read_verifier(REPO / "data/tlog/demo-log.pub").public
    Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], (text + "\n").encode("utf-8"))
    vectors = json.loads((VECTORS / "signed-note" / "vectors.json").read_text(encoding="utf-8"))
    rfc = vectors["rfc8032_test1"]
    assert note.Signer("t", note.ED25519, bytes.fromhex(rfc["secret_key"])).sign(b"").hex() == rfc["signature"]
    go = vectors["golang_mod_sumdb_note_TestSign"]
    assert note.sign(go["text"], note.parse_signer(go["signer_key"])) == go["signed_note"]


def test_every_command_answers_bad_input_in_one_line(here):
    """Every command of `python -m tlog` answers bad input with one line on stderr and exit status 2, never a traceback."""
    missing = here / "missing"
    for args in (["append", here / "heads.log", missing], ["prove", missing, REFERENCE],
                 ["consistency", here / "heads.log", "99"], ["checkpoint", here / "heads.log", "--key", REFERENCE],
                 ["cosign", here / "heads.log", "--state", REFERENCE], ["verify", here / "heads.log", here / "heads.log"],
                 ["vectors", missing], ["nonsense"]):
        said = run_module(*args)
        assert said.code == 2 and one_line(said).startswith("tlog: "), (args, said)


# Each wrong answer, the check that must fail on it, and words its failure must say (the idea it misses).
EDGES = "test_every_edge_class_of_the_two_contracts_gets_the_rules_answer"
WRONG = {
    "hard_coded_demo": ("test_every_leaf_of_fresh_trees_leads_to_its_root", "must follow from the leaf and its path"),
    "skips_the_last_node": ("test_a_node_with_no_sibling_moves_up_unchanged", "moves up unchanged"),
    "accepts_everything": ("test_the_resealed_forgery_is_caught", "the leaf must come from the report you hold"),
    "returns_early": ("test_a_path_that_does_not_fit_its_tree_is_refused", "must be refused"),
    "imports_reference": ("test_your_file_checks_proofs_with_hashlib_alone", "hashlib alone"),
    "reads_the_demo_artifact": ("test_every_leaf_of_fresh_trees_leads_to_its_root", "for every tree"),
    "trusts_the_proofs_leaf": ("test_the_resealed_forgery_is_caught", "not from the proof"),
    "trusts_the_proofs_root": ("test_the_resealed_forgery_is_caught", "never with the root the proof brings"),
    "never_walks_the_path": ("test_fresh_forgeries_are_caught", "the proof's own leaf and root fields prove nothing"),
    "remembers_earlier_calls": ("test_a_path_that_does_not_fit_its_tree_is_refused", "so it must be refused"),
    "trusts_the_seals_head": ("test_a_report_whose_content_is_not_its_seals_is_caught",
                              "recompute it from the report's content"),
    "takes_a_negative_index": ("test_every_edge_class_of_the_two_contracts_gets_the_rules_answer", "a leaf index outside the tree: negative"),
    "compares_twelve_digits": ("test_every_edge_class_of_the_two_contracts_gets_the_rules_answer",
                               "a trusted root that differs from where the path leads only at its end"),
    "raises_on_a_proof_that_does_not_fit": ("test_every_edge_class_of_the_two_contracts_gets_the_rules_answer", "a proof that does not fit its tree"),
    "ignores_the_seq": (EDGES, "a report logged by its seal's head whose walk fails in one place only"),
    "trusts_the_seals_count": (EDGES, "a report logged by its seal's head whose walk fails in one place only"),
    "compares_seqs_by_identity": (EDGES, "one of more than 256 events"),
    "pops_the_chain_out_of_each_event": (EDGES, "changes nothing it was handed"),
    "takes_the_body_from_the_seal": (EDGES, "a report whose body, outside its ledger, was edited"),
    "ignores_the_proofs_own_fields": (EDGES, "a proof whose own leaf_hash or root_hash is not the report's leaf"),
    "raises_on_a_proof_missing_a_field": (EDGES, "a proof not as `tlog prove` prints it"),
    "takes_the_algorithm_the_seal_names": (EDGES, "a seal that names another algorithm than the course's"),
}


@pytest.mark.whole
def test_every_wrong_answer_fails_course_check_naming_its_idea():
    """Each wrong answer in solutions/wrong/ fails `course check 11` with a row that names the idea it gets wrong, never a crash, and the worked solution passes every row."""
    stored = {path.stem.removeprefix("lesson11_"): path for path in (REPO / "solutions" / "wrong").glob("lesson11_*")}
    found = set(stored)
    assert found == set(WRONG), found ^ set(WRONG)
    assert all(result.passed for result in run_check(LESSON, REPO, target="solution"))
    for name, (check, words) in WRONG.items():
        results = {r.name: r for r in run_check(LESSON, REPO, target=str(stored[name]))}
        assert not results[check].passed, f"{name} passes {check}"
        assert words in results[check].message and "Traceback" not in results[check].message, (name, results[check])


def test_the_demo_is_byte_identical_on_every_run(tmp_path):
    """`python -m tlog.demo` writes data/course/tlog-demo.json and every file of data/course/tlog/ byte for byte as committed, under another hash seed, timezone and locale."""
    env = {**os.environ, "PYTHONHASHSEED": "12345", "TZ": "Pacific/Kiritimati", "LC_ALL": "C"}
    for args in (["--out", tmp_path / "demo.json"], ["--files", tmp_path / "tlog"]):
        done = subprocess.run([sys.executable, "-m", "tlog.demo", *map(str, args)], cwd=REPO, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "demo.json").read_bytes() == (REPO / "data/course/tlog-demo.json").read_bytes()
    written = sorted(p.relative_to(tmp_path / "tlog").as_posix() for p in (tmp_path / "tlog").rglob("*") if p.is_file())
    committed = sorted(p.relative_to(DEMO).as_posix() for p in DEMO.rglob("*") if p.is_file())
    assert written == committed
    for name in written:
        assert (tmp_path / "tlog" / name).read_bytes() == (DEMO / name).read_bytes(), name


def _worked_lesson_11():
    import importlib.util

    spec = importlib.util.spec_from_file_location("worked_lesson11", REPO / "solutions" / "lesson11.py")
    worked = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worked)
    return worked


def test_is_published_recomputes_the_head_and_refuses_a_report_cut_under_its_old_seal(tmp_path):
    """The worked is_published recomputes the head from the report's content: the reference report with every refused event deleted and its seal left as it was is not published, and `python -m tlog verify` refuses the same file."""
    worked = _worked_lesson_11()
    report = json.loads(REFERENCE.read_text(encoding="utf-8"))
    proof = json.loads((REPO / "data" / "course" / "tlog-demo.json").read_text(encoding="utf-8"))["inclusion"]
    root = base64.b64decode(proof["root_hash"])
    assert worked.is_published(report, proof, root) is True
    cut = {**report, "events": [event for event in report["events"] if event["status"] != "refused"]}
    assert len(cut["events"]) < len(report["events"]) and cut["seal"] == report["seal"]
    assert worked.is_published(cut, proof, root) is False
    (tmp_path / "cut.json").write_text(json.dumps(cut), encoding="utf-8")
    said = run_module("verify", DEMO / "heads.log", tmp_path / "cut.json")
    assert said.code != 0 and "refused" in (said.out + said.err), said
