"""Lesson 11 completion test: your inclusion-proof verifier, on the demo's log and on trees made fresh.

The demo (python -m tlog.demo) logged five sealed runs and published a
checkpoint; data/course/tlog-demo.json holds the reference run's inclusion
proof, and data/course/tlog/forged-report.json the forgery that lesson 9's
seal calls intact. The check also builds trees of its own from a seed it
shows, so no answer written in advance can pass. Your file runs in a process
of its own (course/student.py), where the reference (tlog, and the worked
answer) cannot be read; bytes cross between the two as bytes.
By default this checks starter/lesson11.py; `course check 11` shows each result.
"""

import ast
import base64
import copy
import functools
import hashlib
import json
import random
from pathlib import Path

import pytest

from core.run.rederive import verify as verify_report
from core.run.seal import ALGORITHM, head_of, reseal, seal, unchained, verify_chain
from course.manifest import course_root
from course.differ import Edge, Rule, compare
from course.student import Raised, Student, seed
from course.target import load_lesson, target_path

SEED = seed()  # 2**48 of them, and COURSE_SEED is never in your file's environment (course/student.py)
REFERENCE = ("tlog", "solutions")  # what your file may not lean on (the hashlib-alone row reads its text)


def fail(message: str) -> None:
    pytest.fail(message, pytrace=False)


# --- the check's own tree maker (RFC 9162's MTH and PATH), run before your file loads -----------


def _h(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def _root(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return _h(b"\x01", _root(leaves[:k]), _root(leaves[k:]))


def _path(index: int, leaves: list[bytes]) -> list[bytes]:
    if len(leaves) == 1:
        return []
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    if index < k:
        return _path(index, leaves[:k]) + [_root(leaves[k:])]
    return _path(index - k, leaves[k:]) + [_root(leaves[:k])]


def _hex(rng: random.Random) -> str:
    return "%064x" % rng.getrandbits(256)


def _leaf(run_id: str, head: str) -> bytes:
    return _h(b"\x00", bytes.fromhex(run_id), bytes.fromhex(head))


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def fresh_trees(seed: int) -> list[dict]:
    """Trees of random runs and heads, of sizes 1 to 40, from ``seed``."""
    rng = random.Random(seed)
    return [tree_of(rng, size) for size in sorted({1, 2, 3, 5, 6, 7, *rng.sample(range(8, 41), 9)})]


def tree_of(rng: random.Random, size: int) -> dict:
    """One tree of ``size`` random runs and heads, with its root and every leaf's path."""
    entries = [(_hex(rng), _hex(rng)) for _ in range(size)]
    leaves = [_leaf(run, head) for run, head in entries]
    return {"size": size, "entries": entries, "leaves": leaves, "root": _root(leaves),
            "paths": [_path(i, leaves) for i in range(size)]}


def sealed_report(rng: random.Random) -> dict:
    """A small sealed report of a fresh run: admitted and refused events, sealed as a run seals."""
    statuses = ["admitted"] * rng.randint(2, 5) + ["refused"] * rng.randint(1, 3)
    rng.shuffle(statuses)
    events = [{"seq": seq, "kind": "note", "status": status, "payload": {"n": rng.getrandbits(32)}}
              for seq, status in enumerate(statuses, start=1)]
    return seal({"run": {"run_id": _hex(rng)}, "events": events, "stage": "report"})


def report_tree_of(rng: random.Random, size: int) -> dict:
    """A tree of ``size`` sealed reports' leaves, each leaf from the head its report's content hashes to."""
    reports = [sealed_report(rng) for _ in range(size)]
    leaves = [_leaf(r["run"]["run_id"], r["seal"]["head"]) for r in reports]
    return {"size": size, "reports": reports, "leaves": leaves, "root": _root(leaves),
            "paths": [_path(i, leaves) for i in range(size)]}


def without_refusals(report: dict, rechain: bool) -> dict:
    """``report`` with every refused event deleted and its seal's head left as it was.

    With ``rechain``, the rest is numbered again, chained again and the seal's count and last link
    follow it: only the head still says what the report was.
    """
    kept = [unchained(e) for e in report["events"] if e["status"] != "refused"]
    if not rechain:
        return {**report, "events": [e for e in report["events"] if e["status"] != "refused"]}
    for seq, event in enumerate(kept, start=1):
        event["seq"] = seq
    redone = reseal({**report, "events": kept})
    return {**redone, "seal": {**redone["seal"], "head": report["seal"]["head"]}}


def promoted(size: int, index: int) -> bool:
    """Whether leaf ``index``'s walk meets a level where its node is the last one, with no sibling."""
    fn, sn = index, size - 1
    while sn:
        if fn == sn and fn % 2 == 0:
            return True
        fn, sn = fn // 2, sn // 2
    return False


TREES = fresh_trees(SEED)  # made now, before your file loads
# Trees no earlier row shows. A path that does not fit is asked about a tree of a size no other row
# uses (41 to 64 leaves), so no path of the right length was ever seen at its place; forgeries are
# asked about trees of their own. Nothing remembered from an earlier call can tell them apart.
_unseen = random.Random(SEED + 2)
UNFIT_TREE = tree_of(_unseen, _unseen.randrange(41, 65))
_forgeries = random.Random(SEED + 3)
FORGERY_TREES = [report_tree_of(_forgeries, _forgeries.randrange(2, 24)) for _ in range(6)]


def course_file(relative: str) -> Path:
    return course_root() / relative


def read_json(relative: str) -> dict:
    try:
        return json.loads(course_file(relative).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        fail(f"{relative} cannot be read ({exc}); write it again with python -m tlog.demo (see the page)")


def _demo() -> tuple[dict, bytes]:
    """The demo artifact and its published root, read now (before your file loads), or ({}, b"") if missing."""
    try:
        demo = json.loads(course_file("data/course/tlog-demo.json").read_text(encoding="utf-8"))
        return demo, base64.b64decode(demo["published"].split("\n")[2])
    except (OSError, ValueError, KeyError, IndexError):
        return {}, b""


DEMO, PUBLISHED_ROOT = _demo()


@pytest.fixture(autouse=True)
def demo_artifact():
    if not DEMO:
        fail("data/course/tlog-demo.json cannot be read; write it again with "
             "python3 -m tlog.demo --out data/course/tlog-demo.json")


# --- your file, in a process of its own with the reference out of reach --------------------------


def shown() -> str:
    path = target_path(11)
    try:
        return path.resolve().relative_to(course_root().resolve()).as_posix()
    except ValueError:
        return "starter/lesson11.py"


HASHLIB_ALONE = "a client checks a proof with hashlib alone, not the log's own verifier"
YOURS = Student(11, names=("root_from_path", "is_published"), blocked=("tlog",), why=HASHLIB_ALONE)


@pytest.fixture(scope="module")
def module():
    return YOURS  # the file runs apart from the check (course/student.py); bytes cross as bytes


class Refused:
    """root_from_path raised ValueError: the check's own record of it (the exception object is not kept)."""

    def __init__(self, why: str) -> None:
        self.why = why


def root_of(module, leaf: bytes, index: int, size: int, path: list[bytes], what: str):
    """What the student's root_from_path answers (bytes, or Refused when it raised ValueError), or a failure."""
    got = module.call("root_from_path", leaf, index, size, list(path), allowed=ValueError)
    if isinstance(got, Raised):
        return Refused(got.message[:80])
    if type(got) is not bytes:  # exactly bytes: nothing else crosses as bytes
        fail(f"root_from_path returned {str(got)[:40]!r} on {what}: a root is the bytes of a hash, and a path "
             "that does not fit is refused by raising ValueError, not by returning one")
    return got


def published(module, report: dict, proof: dict, root: bytes, what: str):
    return module.call("is_published", copy.deepcopy(report), copy.deepcopy(proof), root)


def seeded(message: str) -> str:
    return f"{message} (fresh trees from seed {SEED}; COURSE_SEED={SEED} course check 11 makes them again)"


# --- the checks ------------------------------------------------------------------------------------


def test_your_file_checks_proofs_with_hashlib_alone(module):
    tree = ast.parse(target_path(11).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("__import__", "exec", "eval"):
            names = [f"{node.func.id}(...)"]
        leaning = [name for name in names if name.split(".")[0] in (*REFERENCE, "__import__(...)",
                                                                    "exec(...)", "eval(...)", "importlib")]
        if leaning:
            fail(f"{shown()}, line {node.lineno} uses {leaning[0]}: {HASHLIB_ALONE}")


def test_the_demo_proof_leads_to_the_published_root(module):
    proof = DEMO["inclusion"]
    leaf = base64.b64decode(proof["leaf_hash"])
    path = [base64.b64decode(h) for h in proof["inclusion_path"]]
    got = root_of(module, leaf, proof["leaf_index"], proof["tree_size"], path, "the demo's proof")
    if got != PUBLISHED_ROOT:
        fail(f"the reference run's proof (leaf {proof['leaf_index']} of {proof['tree_size']}) leads your "
             f"root_from_path to {_said(got)}, not the published root: at each level the sibling joins from "
             "the left when the node is a right child or the last of its level, from the right otherwise")


def _said(value) -> str:
    if isinstance(value, Refused):
        return f"a refusal ({value.why})"
    return value.hex()[:12] if isinstance(value, bytes) else repr(value)[:40]


def test_every_leaf_of_fresh_trees_leads_to_its_root(module):
    for tree in TREES:
        for index, path in enumerate(tree["paths"]):
            got = root_of(module, tree["leaves"][index], index, tree["size"], path, f"leaf {index} of {tree['size']}")
            if got != tree["root"]:
                fail(seeded(f"leaf {index} of a fresh tree of {tree['size']} leads your root_from_path to "
                            f"{_said(got)}, not the tree's root: the root must follow from the leaf and its "
                            "path alone, for every tree"))


def test_a_node_with_no_sibling_moves_up_unchanged(module):
    cases = [(tree, i) for tree in TREES for i in range(tree["size"]) if promoted(tree["size"], i)]
    assert cases, "the fresh trees hold no leaf whose walk meets a level with no sibling"
    for tree, index in cases:
        got = root_of(module, tree["leaves"][index], index, tree["size"], tree["paths"][index],
                      f"leaf {index} of {tree['size']}")
        if got != tree["root"]:
            fail(seeded(f"leaf {index} of a tree of {tree['size']}: on its way up it is the last node of a "
                        f"level with no sibling there, and your root is {_said(got)}, not the tree's: such a "
                        "node moves up unchanged, and the next hash of the path is its sibling on the left"))


def test_a_path_that_does_not_fit_its_tree_is_refused(module):
    tree = UNFIT_TREE
    size, leaves = tree["size"], tree["leaves"]
    cases = [
        (leaves[2], 2, size, tree["paths"][2] + [leaves[0]], "a path with one hash too many"),
        (leaves[2], 2, size, tree["paths"][2][:-1], "a path with its last hash missing"),
        (leaves[0], size, size, tree["paths"][0], f"leaf {size} of a tree of {size} (past its last leaf)"),
        (leaves[0], 0, 0, [], "a tree of no leaves"),
        (leaves[0], 0, 1, [leaves[1]], "a path for the only leaf of a tree of one"),
    ]
    for leaf, index, size_, path, what in cases:
        got = root_of(module, leaf, index, size_, path, what)
        if not isinstance(got, Refused):
            fail(seeded(f"{what}: your root_from_path answered {_said(got)}; a path that cannot belong to the "
                        "tree proves nothing, so it must be refused (ValueError)"))


def test_another_sibling_or_place_leads_to_another_root(module):
    for tree in TREES[3:6]:
        size = tree["size"]
        for index in (0, size // 2, size - 1):
            path = tree["paths"][index]
            for i in range(len(path)):
                bent = [bytes(h[:1]) + bytes([h[1] ^ 1]) + h[2:] if j == i else h for j, h in enumerate(path)]
                got = root_of(module, tree["leaves"][index], index, size, bent, "a bent path")
                if got == tree["root"]:
                    fail(seeded(f"leaf {index} of {size} with one bit of path hash {i} flipped still gives the "
                                "tree's root: every hash of the path must go into the root"))
            other = (index + 1) % size
            got = root_of(module, tree["leaves"][other], index, size, path, "another leaf")
            if got == tree["root"]:
                fail(seeded(f"leaf {other}'s hash with leaf {index}'s path gives the tree's root: the leaf itself "
                            "must go into the root"))


def test_the_genuine_report_is_published(module):
    report = read_json("data/course/report.json")
    if published(module, report, DEMO["inclusion"], PUBLISHED_ROOT, "the reference run") is not True:
        fail("is_published says the reference run (data/course/report.json), with its proof from the log, is not "
             "published: its leaf is the hash of its run id and head, and its path leads to the checkpoint's root")


def test_the_resealed_forgery_is_caught(module):
    forged = read_json("data/course/tlog/forged-report.json")
    lesson9 = verify_report(forged)
    assert lesson9.ok, f"the forged report should pass lesson 9's verify; it says {lesson9.message}"
    if published(module, forged, DEMO["inclusion"], PUBLISHED_ROOT, "the forgery with the genuine proof") is not False:
        fail(f"the forged report (lesson 9's verify calls it {lesson9.message!r}) with the genuine report's proof: "
             "is_published says published; the leaf must come from the report you hold, not from the proof")
    his = DEMO["forger"]["inclusion"]
    if published(module, forged, his, PUBLISHED_ROOT, "the forgery with the forger's proof") is not False:
        fail("the forged report with the forger's own proof (from his log): is_published says published; compare "
             "with the root of the checkpoint you trust, never with the root the proof brings")


CUT = ("the head the seal states is the report's word about itself: recompute it from the report's content "
       "(lesson 9's walk) and use that")


def test_a_report_whose_content_is_not_its_seals_is_caught(module):
    report = read_json("data/course/report.json")
    asked = [(report, DEMO["inclusion"], PUBLISHED_ROOT, "the reference run, with the genuine proof")]
    rng = random.Random(SEED + 4)
    for tree in FORGERY_TREES:
        index = rng.randrange(tree["size"])
        proof = {"leaf_index": index, "tree_size": tree["size"], "root_hash": _b64(tree["root"]),
                 "leaf_hash": _b64(tree["leaves"][index]), "inclusion_path": [_b64(h) for h in tree["paths"][index]]}
        asked.append((tree["reports"][index], proof, tree["root"], f"a fresh report at leaf {index} of {tree['size']}"))
    for genuine, proof, root, what in asked:
        for rechain, how in ((False, "the seal left as it was"),
                             (True, "the rest chained again and only the seal's head left as it was")):
            if published(module, without_refusals(genuine, rechain), proof, root, what) is not False:
                fail(seeded(f"{what}, with every refused event deleted and {how}: is_published says published, "
                            f"where `tlog verify` refuses it; {CUT}"))


def test_fresh_forgeries_are_caught(module):
    rng = random.Random(SEED + 1)
    for tree in FORGERY_TREES:
        index = rng.randrange(tree["size"])
        genuine = tree["reports"][index]
        proof = {"leaf_index": index, "tree_size": tree["size"], "root_hash": _b64(tree["root"]),
                 "leaf_hash": _b64(tree["leaves"][index]), "inclusion_path": [_b64(h) for h in tree["paths"][index]]}
        edited = copy.deepcopy(genuine)
        edited["events"][0]["payload"]["n"] ^= 1
        forged = reseal(edited)  # a whole, consistent report: lesson 9's forgery
        claims = {**proof, "leaf_hash": _b64(_leaf(forged["run"]["run_id"], forged["seal"]["head"]))}
        where = f"leaf {index} of {tree['size']}"
        cases = [
            (genuine, proof, tree["root"], True, f"a fresh log's {where}, with its own proof, is not published by "
             "your is_published: the leaf of the report's run id and of the head its content hashes to, by the "
             "proof's path, must lead to the root"),
            ({**genuine, "seal": {**genuine["seal"], "head": _hex(rng)}}, proof, tree["root"], False,
             f"a fresh report at {where} whose seal states another head is published by your is_published: a seal "
             "that is not its report's proves nothing"),
            ({**genuine, "run": {"run_id": _hex(rng)}}, proof, tree["root"], False,
             f"a fresh forgery with another run at {where} is published by your is_published: a report whose leaf "
             "is not the logged one must be refused"),
            (forged, proof, tree["root"], False, f"a fresh report at {where}, edited and resealed, is published by "
             "your is_published: its head is not the logged one"),
            (forged, claims, tree["root"], False,
             f"a fresh forgery at {where}, whose proof names the forgery's own leaf and the trusted root but carries "
             "the genuine report's path, is published by your is_published: the proof's own leaf and root fields "
             "prove nothing; walk the path from the report's leaf and compare where it leads with the root you trust"),
            (genuine, proof, _h(tree["root"]), False, "a fresh report checked against another tree's root is "
             "published by your is_published: the path must lead to the root you trust"),
        ]
        rng.shuffle(cases)  # the genuine report is not always asked first: no answer can lean on the order
        for report, told, root, expected, why in cases:
            if published(module, report, told, root, "a fresh case") is not expected:
                fail(seeded(why))


# --- the edge classes of the two contracts, each asked in every run ----------------------------------------
#
# Each class is a kind of input the contracts judge, listed as data: questions every run asks, and more that
# Hypothesis draws from the seed. The rule is RFC 9162's own recursive definition, walked here: a path fits a
# leaf of a tree only when the leaf is in the tree (0 <= index < size) and the path has exactly the hashes
# that leaf's place needs.

ROOT_RULES = {
    "refused": "a path that cannot belong to the tree (a leaf index outside 0 to size - 1, or a path too long or "
               "too short for that leaf's place) proves nothing and is refused with ValueError",
    "root": "a path that fits leads to exactly one root, the hash of the leaf and every hash of the path, each "
            "joined from its side",
}
PUBLISHED_RULES = {
    False: "is_published answers False, and never raises, unless the report's own leaf, walked up the proof's "
           "path, leads to every byte of the trusted root",
    True: "a report whose own leaf, walked up a path that fits, leads to every byte of the trusted root is "
          "published",
    "body": "the head is recomputed from the report's whole content, its body too: a body edited after sealing "
            "hashes to another head, which no leaf holds, so is_published answers False",
    "named": "a proof that names another leaf or another root than the report's leaf and the trusted root is "
             "not this report's proof: is_published answers False",
    "malformed": "a proof not as `tlog prove` prints it proves nothing: is_published answers False, and never "
                 "raises",
    "algorithm": "the course seals under one algorithm (lesson 9), so a seal that names another matches no "
                 "logged head: is_published answers False",
}
PROOF_FIELDS = ("leaf_index", "tree_size", "root_hash", "leaf_hash", "inclusion_path")


def _split(size: int) -> int:
    return 1 << ((size - 1).bit_length() - 1)


def path_length(index: int, size: int) -> int | None:
    """How many hashes the path of leaf ``index`` in a tree of ``size`` has; None when no leaf is there."""
    if not 0 <= index < size:
        return None
    length = 0
    while size > 1:
        k = _split(size)
        index, size = (index, k) if index < k else (index - k, size - k)
        length += 1
    return length


def walked(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes | None:
    """The root ``path`` leads to from ``leaf`` (RFC 9162's recursion); None when the path does not fit."""
    if path_length(index, size) != len(path):
        return None
    if size == 1:
        return leaf
    k = _split(size)
    if index < k:
        return _h(b"\x01", walked(leaf, index, k, path[:-1]), path[-1])
    return _h(b"\x01", path[-1], walked(leaf, index - k, size - k, path[:-1]))


def root_rule(question: tuple) -> Rule:
    found = walked(*question)
    return Rule("refused" if found is None else found.hex(), ROOT_RULES["refused" if found is None else "root"])


def root_answered(found) -> object:
    if isinstance(found, Raised) and found.type == "ValueError":
        return "refused"
    if type(found) is bytes:
        return found.hex()
    return f"no answer (it returned {str(found)[:40]!r}: a root is bytes, and a misfit raises ValueError)"


def root_question(question: tuple) -> str:
    leaf, index, size, path = question
    needs = path_length(index, size)
    place = "no leaf is there" if needs is None else f"a leaf there needs {needs}"
    return f"leaf {leaf.hex()[:12]}... at index {index} of a tree of {size}, with a path of {len(path)} hash(es) ({place})"


def published_rule(question: tuple) -> Rule:
    report, proof, root = question
    if report["seal"]["algorithm"] != ALGORITHM:  # verify_chain refuses to read it at all
        return Rule(False, PUBLISHED_RULES["algorithm"])
    verdict = verify_chain(report)
    if not verdict.ok:  # its content does not hash to its seal's head: no leaf of it was logged
        return Rule(False, PUBLISHED_RULES["body" if verdict.section == "body" else False])
    try:
        named = [base64.b64decode(proof[key]) for key in ("leaf_hash", "root_hash")]
        path = [base64.b64decode(item) for item in proof["inclusion_path"]]
        whole = all(type(proof[key]) is int for key in ("leaf_index", "tree_size"))
    except (KeyError, TypeError, ValueError):
        whole = False
    if not whole:
        return Rule(False, PUBLISHED_RULES["malformed"])
    leaf = _leaf(report["run"]["run_id"], report["seal"]["head"])
    if named != [leaf, root]:
        return Rule(False, PUBLISHED_RULES["named"])
    found = walked(leaf, proof["leaf_index"], proof["tree_size"], path)
    return Rule(found == root, PUBLISHED_RULES[found == root])


def published_answered(found) -> object:
    if type(found) is bool:
        return found
    return f"no answer (it returned {str(found)[:40]!r}, not True or False)"


def published_question(question: tuple) -> str:
    report, proof, root = question
    fields = {key: proof.get(key, "(missing)") for key in PROOF_FIELDS}
    path = fields["inclusion_path"]
    return (f"the report of run {report['run']['run_id'][:12]}... (head {report['seal']['head'][:12]}..., seal "
            f"algorithm {report['seal']['algorithm']!r}), a proof for leaf {fields['leaf_index']!r} of "
            f"{fields['tree_size']!r} with {len(path) if isinstance(path, list) else repr(path)} hash(es) in its "
            f"path, naming leaf {str(fields['leaf_hash'])[:16]!r} and root {str(fields['root_hash'])[:16]!r}, "
            f"and the trusted root {root.hex()}")


def made_tree(size: int, salt: int) -> dict:
    """A tree of ``size`` runs made from the seed and ``salt``."""
    return tree_of(random.Random(SEED * 131 + salt), size)


def bent(path: list[bytes], at: int) -> list[bytes]:
    return [h[:-1] + bytes([h[-1] ^ 1]) if i == at else h for i, h in enumerate(path)]


def leaf_questions(size: int, salt: int) -> list[list[tuple]]:
    tree = made_tree(size, salt)
    return [[(tree["leaves"][i], i, size, tree["paths"][i]) for i in range(size)]]


def index_questions() -> list[list[tuple]]:
    tree = made_tree(13, 1)
    last = tree["size"] - 1
    return [[(tree["leaves"][index % 13], index, 13, tree["paths"][index % 13]) for index in (-1, -13, 13, 14, -2)],
            [(tree["leaves"][last], -1, 13, tree["paths"][last])], [(tree["leaves"][0], -1, 1, [])],
            # the leaf just past the end, with paths of every length up to the deepest place's: none fits
            [(tree["leaves"][0], size, size, [_h(bytes([size, n])) for n in range(length)])
             for size in (1, 2, 3, 5, 13, 17, 33) for length in range(path_length(0, size) + 2)]]


def length_questions() -> list[list[tuple]]:
    questions = []
    for size, salt in ((1, 2), (2, 3), (5, 4), (8, 5), (9, 6)):
        tree = made_tree(size, salt)
        for index in {0, size // 2, size - 1}:
            path = tree["paths"][index]
            questions.append([(tree["leaves"][index], index, size, path + [tree["leaves"][0]])])
            if path:
                questions.append([(tree["leaves"][index], index, size, path[:-1])])
    return questions


def bent_questions() -> list[list[tuple]]:
    tree = made_tree(11, 7)
    return [[(tree["leaves"][index], index, 11, bent(tree["paths"][index], at))
             for at in range(len(tree["paths"][index]))] for index in (0, 5, 10)]


def drawn_root_questions():
    """Hypothesis: a tree of 1 to 64 leaves, a place in it or just outside, and its path, kept, cut or lengthened."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        size = draw(st.integers(1, 64))
        tree = made_tree(size, 1000 + size)
        place = draw(st.integers(-size - 1, size))
        path = tree["paths"][place % size]
        change = draw(st.sampled_from(("kept", "kept", "cut", "lengthened", "bent")))
        if change == "cut":
            path = path[:-1]
        elif change == "lengthened":
            path = path + [tree["root"]]
        elif change == "bent" and path:
            path = bent(path, draw(st.integers(0, len(path) - 1)))
        return [(tree["leaves"][place % size], place, size, path)]

    return question()


def arbitrary_path(index: int, size: int) -> list[bytes]:
    """Hashes enough for leaf ``index`` of a tree of ``size``, made from the place itself (any hashes fit a place)."""
    return [_h(f"{SEED}-{index}-{size}-{level}".encode()) for level in range(path_length(index, size) or 0)]


HUGE = 2**60


def huge_questions() -> list[list[tuple]]:
    leaf = _h(b"huge", str(SEED).encode())
    places = [(HUGE - 1, HUGE), (HUGE - 2, HUGE - 1), (HUGE - 1, HUGE + 1), (HUGE // 2 + 12345, HUGE + 7),
              (2**53 + 1, 2**54), (300, 301), (256, 257), (2**61 - 2, 2**61 - 1)]
    return [[(leaf, index, size, arbitrary_path(index, size)) for index, size in places]]


def drawn_huge_questions():
    """Hypothesis: a tree of 2**53 to 2**62 leaves and a place in it, with hashes enough for that place."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        size = draw(st.integers(2**53, 2**62))
        index = draw(st.sampled_from((size - 1, size - 2, size // 2, draw(st.integers(0, size - 1)))))
        return [(_h(b"huge", str(index).encode()), index, size, arbitrary_path(index, size))]

    return question()


ROOT_EDGE_CLASSES = (
    Edge("a leaf index outside the tree: negative, the size itself, or past it", fixed=index_questions,
         drawn=drawn_root_questions),
    Edge("a path one hash too long or one too short for its leaf's place", fixed=length_questions,
         drawn=drawn_root_questions),
    Edge("every leaf of trees of 1, 2, 3, 4, 5, 7, 8, 9, 16 and 17 leaves (a power of two, and one past)",
         fixed=lambda: [question for size, salt in ((1, 10), (2, 11), (3, 12), (4, 13), (5, 14), (7, 15), (8, 16),
                                                    (9, 17), (16, 18), (17, 19))
                        for question in leaf_questions(size, salt)],
         drawn=drawn_root_questions),
    Edge("a path with one bit of one hash flipped", fixed=bent_questions, drawn=drawn_root_questions),
    Edge("a huge tree: a size and an index past 256, and past 2**53 (a float's last exact whole number)",
         fixed=huge_questions, drawn=drawn_huge_questions),
)


def proof_of(tree: dict, index: int, path: list[bytes] | None = None, size: int | None = None) -> dict:
    return {"leaf_index": index, "tree_size": tree["size"] if size is None else size,
            "root_hash": _b64(tree["root"]), "leaf_hash": _b64(tree["leaves"][index % tree["size"]]),
            "inclusion_path": [_b64(h) for h in (tree["paths"][index % tree["size"]] if path is None else path)]}


def report_of(tree: dict, index: int) -> dict:
    return tree["reports"][index]


@functools.cache
def made_report_tree(size: int, salt: int) -> dict:
    """A tree of ``size`` sealed reports made from the seed and ``salt``."""
    return report_tree_of(random.Random(SEED * 131 + salt), size)


def near_roots(root: bytes) -> list[bytes]:
    """Roots that differ from ``root`` only at its end, only at its start, or only past its first six bytes."""
    return [root[:-1] + bytes([root[-1] ^ 1]), bytes([root[0] ^ 0x80]) + root[1:], root[:6] + bytes(26),
            root[:16] + _h(root)[:16]]


def near_root_questions() -> list[list[tuple]]:
    tree = made_report_tree(12, 20)
    return [[(report_of(tree, index), naming(proof_of(tree, index), root), root) for root in near_roots(tree["root"])]
            for index in (0, 7, 11)] + [[(report_of(tree, 3), proof_of(tree, 3), tree["root"])]]


def naming(proof: dict, root: bytes) -> dict:
    """``proof`` with its own root_hash the trusted ``root``: only the walk up its path tells them apart."""
    return {**proof, "root_hash": _b64(root)}


def unfit_proof_questions() -> list[list[tuple]]:
    tree = made_report_tree(10, 21)
    path = tree["paths"][9]
    return [[(report_of(tree, 9), proof, tree["root"]) for proof in (
        proof_of(tree, -1), proof_of(tree, 10), proof_of(tree, 9, path + path[:1]), proof_of(tree, 9, path[:-1]),
        proof_of(tree, 9, size=0), proof_of(tree, 9, size=-3), proof_of(tree, 9, []))]]


def other_report_questions() -> list[list[tuple]]:
    tree, rng = made_report_tree(9, 22), random.Random(SEED * 131 + 23)
    report = report_of(tree, 4)
    run_id, head = report["run"]["run_id"], report["seal"]["head"]
    return [[({**report, "seal": {**report["seal"], "head": other}}, proof_of(tree, 4), tree["root"]),
             ({**report, "run": {"run_id": other}}, proof_of(tree, 4), tree["root"]),
             (report_of(tree, 4), proof_of(tree, 5), tree["root"]), (report_of(tree, 4), proof_of(tree, 4), tree["root"])]
            for other in (_hex(rng), head[:-1] + ("0" if head[-1] != "0" else "1"))]


def resealed_as_they_stand(report: dict, events: list[dict]) -> dict:
    """``report`` with ``events`` (numbered as they are) chained and sealed: a seal over whatever they say."""
    bare = {key: value for key, value in report.items() if key not in ("events", "seal")}
    return seal({**bare, "events": [unchained(event) for event in events]})


def renumbered(report: dict, at: int, seq: int) -> dict:
    events = [unchained(event) for event in report["events"]]
    events[at]["seq"] = seq
    return resealed_as_they_stand(report, events)


def relinked(report: dict, at: int, link: str) -> dict:
    events = copy.deepcopy(report["events"])
    events[at]["chain"] = link
    return {**report, "events": events}


def resealed_field(report: dict, field: str, value) -> dict:
    return {**report, "seal": {**report["seal"], field: value}}


def flipped(digits: str) -> str:
    return digits[:-1] + ("0" if digits[-1] != "0" else "1")


def walk_questions() -> list[list[tuple]]:
    """Reports each wrong in one place only lesson 9's walk finds, logged by the head their seal states.

    A seq out of its place with the chain made over it, one event's chain link alone, the seal's count alone, or
    its last link alone: the leaf of the run and the seal's head is in the tree, so only the walk tells them.
    A ledger of more than 256 events, genuine, is asked too.
    """
    rng = random.Random(SEED * 131 + 24)
    base = sealed_report(rng)
    events, last = base["events"], len(base["events"])
    chain = base["seal"]["chain"]
    reports = [base, renumbered(base, -1, last + 1), renumbered(base, -1, last - 1), renumbered(base, 0, 0),
               renumbered(base, 0, 2), renumbered(base, 1, 1),
               relinked(base, 0, "0" * 64), relinked(base, 0, "f" * 64),
               relinked(base, -1, flipped(events[-1]["chain"])),
               relinked(base, 1, events[0]["chain"]),
               resealed_field(base, "events", last + 1), resealed_field(base, "events", last - 1),
               resealed_field(base, "events", 0), resealed_field(base, "chain", "0" * 64),
               resealed_field(base, "chain", "f" * 64), resealed_field(base, "chain", flipped(chain)),
               long_report()]
    leaves = [_leaf(report["run"]["run_id"], report["seal"]["head"]) for report in reports]
    tree = {"size": len(leaves), "leaves": leaves, "root": _root(leaves),
            "paths": [_path(i, leaves) for i in range(len(leaves))]}
    return [[(report, proof_of(tree, index), tree["root"]) for index, report in enumerate(reports)]]


@functools.cache
def long_report() -> dict:
    """A genuine sealed report of 260 events: sequence numbers and counts past 256."""
    rng = random.Random(SEED * 131 + 25)
    events = [{"seq": seq, "kind": "note", "status": "admitted", "payload": {"n": rng.getrandbits(16)}}
              for seq in range(1, 261)]
    return seal({"run": {"run_id": _hex(rng)}, "events": events, "stage": "report"})


def drawn_walk_questions():
    """Hypothesis: one report of a small logged tree, wrong in one place only the walk finds, or genuine."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        size = draw(st.integers(1, 6))
        tree = made_report_tree(size, 3000 + size)
        index = draw(st.integers(0, size - 1))
        report = report_of(tree, index)
        events, count = report["events"], len(report["events"])
        at = draw(st.integers(0, count - 1))
        change = draw(st.sampled_from(("none", "seq", "link", "count", "last link")))
        if change == "seq":
            changed = renumbered(report, at, draw(st.sampled_from((0, at, at + 2, count + 1, -1))))
        elif change == "link":
            changed = relinked(report, at, draw(st.sampled_from(("0" * 64, "f" * 64, flipped(events[at]["chain"])))))
        elif change == "count":
            changed = resealed_field(report, "events", draw(st.sampled_from((count - 1, count + 1, 0, 2 * count))))
        elif change == "last link":
            chain = report["seal"]["chain"]
            changed = resealed_field(report, "chain", draw(st.sampled_from(("0" * 64, "f" * 64, flipped(chain)))))
        else:
            changed = report
        leaves = list(tree["leaves"])
        leaves[index] = _leaf(changed["run"]["run_id"], changed["seal"]["head"])
        logged = {"size": size, "leaves": leaves, "root": _root(leaves),
                  "paths": [_path(i, leaves) for i in range(size)]}
        return [(changed, proof_of(logged, index), logged["root"])]

    return question()


def drawn_published_questions():
    """Hypothesis: a report of a tree of 1 to 40 leaves, a proof for it or a near one, and a root, near or not."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        size = draw(st.integers(1, 12))
        tree = made_report_tree(size, 2000 + size)
        index = draw(st.integers(0, size - 1))
        place = draw(st.sampled_from((index, index, -1, size, (index + 1) % size)))
        path = tree["paths"][index]
        path = draw(st.sampled_from((path, path, path[:-1], path + [tree["root"]])))
        root = draw(st.sampled_from((tree["root"], tree["root"], *near_roots(tree["root"]))))
        return [(report_of(tree, index), naming(proof_of(tree, place, path), root), root)]

    return question()


def body_questions() -> list[list[tuple]]:
    """Reports whose body (every section outside the ledger) was edited after sealing, the seal left as it was.

    The leaf of the run and the seal's head is in the tree and the ledger's walk holds: only the body's own
    digest, recomputed, tells them from the genuine report, asked last.
    """
    tree = made_report_tree(7, 26)
    report = report_of(tree, 2)
    edits = [{**report, "stage": "finished"}, {**report, "counts": {"admitted": 1}},
             {key: value for key, value in report.items() if key != "stage"},
             {**report, "run": {**report["run"], "operator": "someone else"}}, report]
    return [[(edited, proof_of(tree, 2), tree["root"]) for edited in edits]]


def named_questions() -> list[list[tuple]]:
    """Proofs that fit, from the report's own leaf to the trusted root, whose own leaf_hash or root_hash differs."""
    tree = made_report_tree(8, 27)
    proof = proof_of(tree, 5)
    other_root = made_report_tree(8, 28)["root"]
    return [[(report_of(tree, 5), told, tree["root"]) for told in (
        {**proof, "leaf_hash": _b64(tree["leaves"][4])}, {**proof, "leaf_hash": _b64(_h(tree["leaves"][5]))},
        {**proof, "root_hash": _b64(other_root)}, {**proof, "root_hash": _b64(near_roots(tree["root"])[0])},
        proof)]]


def malformed_questions() -> list[list[tuple]]:
    """Proofs that are not as `tlog prove` prints them: each field missing in turn, or of another kind."""
    tree = made_report_tree(6, 29)
    proof = proof_of(tree, 1)
    missing = [{key: value for key, value in proof.items() if key != gone} for gone in proof]
    other = [{**proof, "inclusion_path": None}, {**proof, "inclusion_path": ["not base64"]},
             {**proof, "leaf_index": "1"}, {**proof, "tree_size": None}, {**proof, "leaf_hash": 7},
             {**proof, "root_hash": "not base64"}]
    return [[(report_of(tree, 1), told, tree["root"])] for told in missing + other]


def algorithm_questions() -> list[list[tuple]]:
    """Reports whose seal names another algorithm than the course's, the head hashed under that name and logged."""
    rng = random.Random(SEED * 131 + 30)
    reports = []
    for name in ("sha256-jcs-chain/1", ALGORITHM.upper(), ALGORITHM + " ", "sha256"):
        genuine = sealed_report(rng)
        fields = {**genuine["seal"], "algorithm": name}
        reports.append({**genuine, "seal": {**fields, "head": head_of(fields)}})
    leaves = [_leaf(report["run"]["run_id"], report["seal"]["head"]) for report in reports]
    tree = {"size": len(leaves), "leaves": leaves, "root": _root(leaves),
            "paths": [_path(i, leaves) for i in range(len(leaves))]}
    return [[(report, proof_of(tree, index), tree["root"]) for index, report in enumerate(reports)]]


def drawn_report_questions(change):
    """Hypothesis: a report of a small logged tree and its own proof, ``change``d by what the strategy draws."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        size = draw(st.integers(1, 6))
        tree = made_report_tree(size, 4000 + size)
        index = draw(st.integers(0, size - 1))
        return [draw(change(st, tree, index))]

    return question()


def body_changed(st, tree: dict, index: int):
    report = report_of(tree, index)
    edits = st.sampled_from((
        lambda text: {**report, "stage": text}, lambda text: {**report, text or "counts": {"admitted": 1}},
        lambda text: {key: value for key, value in report.items() if key != "stage"},
        lambda text: {**report, "run": {**report["run"], "note": text}}, lambda text: report))
    return st.builds(lambda edit, text: (edit(text), proof_of(tree, index), tree["root"]), edits,
                     st.text(alphabet="abcXYZ 09-\u00e9", max_size=8))


def fields_changed(st, tree: dict, index: int):
    proof = proof_of(tree, index)
    other = proof_of(tree, (index + 1) % tree["size"])["leaf_hash"]
    named = st.sampled_from(({**proof, "leaf_hash": other}, {**proof, "leaf_hash": _b64(_h(b"x"))}, proof,
                             *({**proof, "root_hash": _b64(root)} for root in near_roots(tree["root"]))))
    return named.map(lambda told: (report_of(tree, index), told, tree["root"]))


def proof_broken(st, tree: dict, index: int):
    proof = proof_of(tree, index)
    junk = st.sampled_from((None, "1", [], {}, 7, "not base64"))
    missing = st.sampled_from(PROOF_FIELDS).map(lambda gone: {k: v for k, v in proof.items() if k != gone})
    wrong = st.builds(lambda key, value: {**proof, key: value}, st.sampled_from(PROOF_FIELDS), junk)
    return st.one_of(missing, wrong).map(lambda told: (report_of(tree, index), told, tree["root"]))


def algorithm_renamed(st, tree: dict, index: int):
    def renamed(name):
        report = report_of(tree, index)
        fields = {**report["seal"], "algorithm": name}
        renamed_report = {**report, "seal": {**fields, "head": head_of(fields)}}
        leaves = list(tree["leaves"])
        leaves[index] = _leaf(report["run"]["run_id"], renamed_report["seal"]["head"])
        logged = {"size": tree["size"], "leaves": leaves, "root": _root(leaves),
                  "paths": [_path(i, leaves) for i in range(tree["size"])]}
        return (renamed_report, proof_of(logged, index), logged["root"])

    names = st.one_of(st.sampled_from((ALGORITHM, "sha256-jcs-chain/1", ALGORITHM.upper(), ALGORITHM[:-1], "")),
                      st.text(alphabet="sha256-jcs/12", max_size=20))
    return names.map(renamed)


PUBLISHED_EDGE_CLASSES = (
    Edge("a trusted root that differs from where the path leads only at its end, only at its start, or past its "
         "first bytes", fixed=near_root_questions, drawn=drawn_published_questions),
    Edge("a proof that does not fit its tree: an index outside it, a path too long or too short, a size of none",
         fixed=unfit_proof_questions, drawn=drawn_published_questions),
    Edge("a report whose run or head differs from the logged one, even in one last digit",
         fixed=other_report_questions, drawn=drawn_published_questions),
    Edge("a report logged by its seal's head whose walk fails in one place only: a seq out of place with the chain "
         "made over it, one event's link, the seal's count or its last link; and one of more than 256 events",
         fixed=walk_questions, drawn=drawn_walk_questions, draws=8),
    Edge("a report whose body, outside its ledger, was edited with its seal left as it was (a section changed, "
         "added or removed)", fixed=body_questions, drawn=lambda: drawn_report_questions(body_changed), draws=8),
    Edge("a proof whose own leaf_hash or root_hash is not the report's leaf or the trusted root",
         fixed=named_questions, drawn=lambda: drawn_report_questions(fields_changed), draws=8),
    Edge("a proof not as `tlog prove` prints it: a field missing, or a field of another kind",
         fixed=malformed_questions, drawn=lambda: drawn_report_questions(proof_broken), draws=8),
    Edge("a seal that names another algorithm than the course's, its head hashed under that name and logged",
         fixed=algorithm_questions, drawn=lambda: drawn_report_questions(algorithm_renamed), draws=8),
)
EDGE_CLASSES = ROOT_EDGE_CLASSES + PUBLISHED_EDGE_CLASSES


def test_every_edge_class_of_the_two_contracts_gets_the_rules_answer(module):
    compare(module, "root_from_path", ROOT_EDGE_CLASSES, rule=root_rule, judged=root_answered, shown=root_question,
            allowed=ValueError, unchanged=True)
    compare(module, "is_published", PUBLISHED_EDGE_CLASSES, rule=published_rule, judged=published_answered,
            shown=published_question, arguments=lambda question: copy.deepcopy(question), unchanged=True)


def tell(run) -> str:
    """What ``run()`` gives, in a few words; an error as its kind and the line of your file it came from."""
    try:
        value = run()
    except Exception as exc:
        return f"raised {type(exc).__name__}: {' '.join(str(exc).split())}"
    return value.hex()[:12] if isinstance(value, bytes) else repr(value)


if __name__ == "__main__":  # python3 starter/lesson11_test.py: what your functions say of the demo
    mine = load_lesson(11)
    proof = DEMO["inclusion"]
    path = [base64.b64decode(h) for h in proof["inclusion_path"]]
    leaf = base64.b64decode(proof["leaf_hash"])
    print(f"published root:         {PUBLISHED_ROOT.hex()[:12]}")
    print(f"your root, leaf 3 of 5: {tell(lambda: mine.root_from_path(leaf, 3, 5, path))}")
    for name, relative in (("genuine", "data/course/report.json"), ("forged", "data/course/tlog/forged-report.json")):
        said = tell(lambda: mine.is_published(read_json(relative), proof, PUBLISHED_ROOT))
        print(f"{name} report published: {said}")
