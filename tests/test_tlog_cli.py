"""``python -m tlog``: its commands, their proofs checked by an independent verifier, and bad input in one line."""

from __future__ import annotations

import base64
import json
import shutil

import pytest

from tlog import merkle

from .test_tlog_merkle import rfc_verify_consistency, rfc_verify_inclusion
from .tlog_helpers import REFERENCE, REPO, VECTORS, one_line, run_module, run_tlog, write_demo_folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_demo_folder(tmp_path_factory.mktemp("tlog"))


@pytest.fixture
def log(folder, tmp_path):
    """A private copy of the demo's log and its published checkpoint, to change freely."""
    for name in ("heads.log", "heads.log.checkpoint", "kept.checkpoint", "forged-report.json"):
        shutil.copy(folder / name, tmp_path / name)
    return tmp_path / "heads.log"


# --- the published vectors --------------------------------------------------------------------


def test_the_verifier_agrees_with_every_published_vector():
    said = run_module("vectors", VECTORS)
    lines = said.out.splitlines()
    assert said.code == 0, said.out + said.err
    assert "transparency-dev: 196 of 196 agree" in lines
    assert "cctv: 44 of 44 agree" in lines
    assert "  from_empty=refuse, its project's rule: every vector from size 0 wants an error" in lines
    assert "  from_empty=accept, its project's rule: 0 -> 0 and 0 -> 1 are valid, by empty proofs" in lines


@pytest.mark.parametrize("rule, td, cctv", [("refuse", 196, 42), ("accept", 195, 44)])
def test_the_size_zero_disagreement_is_the_named_option_not_a_file(capsys, rule, td, cctv):
    """One rule for both sets: each set then disagrees exactly where the other project's rule differs."""
    said = run_tlog(capsys, "vectors", VECTORS, "--from-empty", rule)
    assert said.code == 1
    assert f"transparency-dev: {td} of 196 agree" in said.out.splitlines()
    assert f"cctv: {cctv} of 44 agree" in said.out.splitlines()
    assert said.out.count(f"from_empty={rule}, set by --from-empty") == 2
    disagreements = [line for line in said.out.splitlines() if line.startswith("  disagrees: ")]
    assert len(disagreements) == (196 - td) + (44 - cctv)


def test_a_folder_without_the_vectors_is_one_line(capsys, tmp_path):
    said = run_tlog(capsys, "vectors", tmp_path)
    assert said.code == 2 and "holds no transparency-dev-merkle/" in one_line(said)


# --- prove and consistency print proofs an independent verifier accepts ----------------------------


def _b(value: str) -> bytes:
    return base64.b64decode(value)


def test_prove_prints_an_inclusion_proof_the_independent_verifier_accepts(capsys, log):
    said = run_tlog(capsys, "prove", log, REFERENCE)
    assert said.code == 0, said.err
    proof = json.loads(said.out)
    assert list(proof) == ["leaf_index", "tree_size", "root_hash", "leaf_hash", "inclusion_path"]
    assert (proof["leaf_index"], proof["tree_size"]) == (3, 5)
    assert rfc_verify_inclusion(proof["leaf_index"], proof["tree_size"], _b(proof["leaf_hash"]),
                                [_b(h) for h in proof["inclusion_path"]], _b(proof["root_hash"]))
    published = (log.parent / "heads.log.checkpoint").read_text(encoding="utf-8").split("\n")
    assert proof["root_hash"] == published[2] and proof["tree_size"] == int(published[1])


@pytest.mark.parametrize("old_size", [0, 1, 2, 3, 4, 5])
def test_consistency_prints_a_proof_the_independent_verifier_accepts(capsys, log, old_size):
    said = run_tlog(capsys, "consistency", log, old_size)
    assert said.code == 0, said.err
    proof = json.loads(said.out)
    assert list(proof) == ["old_size", "new_size", "old_root", "new_root", "consistency_path"]
    path = [_b(h) for h in proof["consistency_path"]]
    if old_size == 0:
        assert path == [] and _b(proof["old_root"]) == merkle.EMPTY_ROOT
    else:
        assert rfc_verify_consistency(old_size, 5, _b(proof["old_root"]), _b(proof["new_root"]), path)


# --- one flipped bit in any element of a printed proof fails verify --------------------------------


def _flips(proof: dict) -> list[tuple[str, dict]]:
    """The proof with one bit flipped, once for each of its elements (each hash of a path too)."""
    out = []
    for name, value in proof.items():
        if isinstance(value, int):
            for bit in (0, 1, 2):
                out.append((f"{name} bit {bit}", {**proof, name: value ^ (1 << bit)}))
        elif isinstance(value, str):
            out.append((name, {**proof, name: _flip(value)}))
        else:
            for i in range(len(value)):
                out.append((f"{name}[{i}]", {**proof, name: [_flip(h) if j == i else h for j, h in enumerate(value)]}))
    return out


def _flip(b64: str, bit: int = 77) -> str:
    raw = bytearray(base64.b64decode(b64))
    raw[bit // 8] ^= 1 << (bit % 8)
    return base64.b64encode(bytes(raw)).decode("ascii")


def test_one_flipped_bit_in_any_inclusion_proof_element_fails_verify(capsys, log, tmp_path):
    proof = json.loads(run_tlog(capsys, "prove", log, REFERENCE).out)
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    assert run_tlog(capsys, "verify", log, REFERENCE, "--proof", path).code == 0
    flips = _flips(proof)
    assert len(flips) == 3 + 3 + 2 + len(proof["inclusion_path"])
    for what, flipped in flips:
        path.write_text(json.dumps(flipped), encoding="utf-8")
        said = run_tlog(capsys, "verify", log, REFERENCE, "--proof", path)
        assert said.code == 1 and said.out.startswith("refused: the inclusion proof"), (what, said)


def test_one_flipped_bit_in_any_consistency_proof_element_fails_verify(capsys, log, tmp_path):
    kept = log.parent / "kept.checkpoint"
    proof = json.loads(run_tlog(capsys, "consistency", log, 4).out)
    path = tmp_path / "consistency.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    assert run_tlog(capsys, "verify", log, REFERENCE, "--checkpoint", kept, "--consistency-proof", path).code == 0
    for what, flipped in _flips(proof):
        path.write_text(json.dumps(flipped), encoding="utf-8")
        said = run_tlog(capsys, "verify", log, REFERENCE, "--checkpoint", kept, "--consistency-proof", path)
        assert said.code == 1, (what, said)
        assert said.out.startswith(("refused: the consistency proof", "refused: the log is not consistent")), said


def test_a_proof_file_that_is_not_a_proof_is_one_line(capsys, log, tmp_path):
    path = tmp_path / "proof.json"
    for text, named in [("[]", "exactly the fields"), ("{", "not JSON"),
                        ('{"leaf_index": 3, "tree_size": 5, "root_hash": "AA==", "leaf_hash": "AA==", '
                         '"inclusion_path": []}', "root_hash is a 32-byte hash")]:
        path.write_text(text, encoding="utf-8")
        said = run_tlog(capsys, "verify", log, REFERENCE, "--proof", path)
        assert said.code == 2 and named in one_line(said), said


# --- every command answers bad input in one line ----------------------------------------------------


@pytest.mark.parametrize("args, named", [
    (["prove", "{tmp}/missing.log", REFERENCE], "no such log file"),
    (["prove", "{log}", "{tmp}/missing.json"], "missing.json"),
    (["prove", "{log}", "{log}"], "not JSON"),
    (["prove", "{log}", REPO / "data/policy/training-authorization-0001.json"], "run"),
    (["prove", "{log}", REFERENCE, "--size", "9"], "has no tree of size 9"),
    (["prove", "{log}", REFERENCE, "--size", "x"], "'x' is not a valid integer"),
    (["consistency", "{log}", "-1"], "-1"),
    (["consistency", "{log}", "6"], "OLD_SIZE 6 is bigger than the tree of size 5"),
    (["consistency", "{log}", "3", "--size", "2"], "bigger than the tree of size 2"),
    (["checkpoint", "{log}", "--key", "{log}"], "a signer key starts with PRIVATE+KEY+"),
    (["checkpoint", "{log}", "--key", REPO / "data/tlog/demo-witness.key"], "is not the key of the log"),
    (["verify", "{log}", REFERENCE, "--log-key", "{tmp}/none.pub"], "no such key file"),
    (["verify", "{log}", REFERENCE, "--checkpoint", "{tmp}/none"], "none: no such checkpoint file"),
    (["cosign", "{log}"], "Missing option '--state'"),
    (["cosign", "{log}", "--state", "{log}"], "is not a checkpoint"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["append", "{tmp}/new.log"], "Missing argument 'REPORT'"),
    (["append", "{tmp}", REFERENCE], "is a directory"),
    (["append", "{tmp}/new.log", REFERENCE, "--origin", "two words"], "an origin is non-empty"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, log, tmp_path, args, named):
    args = [str(a).format(log=log, tmp=tmp_path) for a in args]
    said = run_tlog(capsys, *args)
    assert said.code == 2, said
    assert named in one_line(said), said.err
    assert said.out == ""


def test_the_module_itself_answers_in_one_line_without_a_traceback(log):
    said = run_module("prove", log, log)
    assert said.code == 2 and one_line(said).startswith("tlog: ")
    said = run_module("verify", log.parent / "nothing.log", REFERENCE)
    assert said.code == 2 and one_line(said) == "tlog: nothing.log: no such log file"  # named, never by an absolute path


def test_a_torn_log_is_refused_by_every_command_in_one_line(capsys, log):
    log.write_bytes(log.read_bytes()[:-10])
    for args in (["prove", log, REFERENCE], ["consistency", log, 1], ["checkpoint", log],
                 ["verify", log, REFERENCE], ["append", log, REFERENCE]):
        said = run_tlog(capsys, *args)
        assert said.code == 2 and "line 6 is torn" in one_line(said), (args, said)


def test_each_sets_rule_is_the_one_its_own_vectors_state():
    """What vectors.SETS says of each project is read off its vectors, not assumed."""
    base = VECTORS / "transparency-dev-merkle" / "testdata" / "consistency"
    from_zero = [json.loads(p.read_text()) for p in base.rglob("*.json") if json.loads(p.read_text())["size1"] == 0]
    assert from_zero and all(v["wantErr"] for v in from_zero)  # "every vector from size 0 wants an error"
    valid = json.loads((VECTORS / "cctv-merkle/merkle/testdata/consistency-valid.json").read_text())
    assert [(v["old_size"], v["new_size"], v["consistency_path"]) for v in valid if v["old_size"] == 0] == [
        (0, 0, []), (0, 1, [])]  # "0 -> 0 and 0 -> 1 are valid, by empty proofs"
