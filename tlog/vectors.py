"""The verifier checked against published vectors: transparency-dev/merkle's and CCTV's.

    python -m tlog vectors tests/vectors

Each vector is a proof and whether a verifier must accept it. A vector
*agrees* when ``merkle.py`` answers as the vector says. Two projects wrote
these sets, and they disagree about one case: a consistency proof from the
empty tree (size 0). transparency-dev refuses it; CCTV's valid vectors
include 0 -> 0 and 0 -> 1 with empty proofs. So each set runs under the rule
its own project states, named in ``SETS`` (a row per set, never a test of a
file's name), and the output says which rule each set ran under.
``--from-empty`` runs both sets under one rule, to show the disagreement.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from core.run import jsonfile
from tlog import merkle

MAX_VECTOR_BYTES = 16 << 20  # the biggest published file is a few hundred kilobytes

# A vector: its name, and a check that returns whether the verifier accepted it.
Vector = tuple[str, bool, Callable[[str], bool]]  # (name, must accept, run under a from_empty rule)


class VectorError(ValueError):
    """The vectors folder is missing or a file is not the shape its project publishes; the message says which."""


@dataclass(frozen=True)
class Tally:
    name: str
    rule: str
    agree: int
    total: int
    disagreements: tuple[str, ...]

    def line(self) -> str:
        return f"{self.name}: {self.agree} of {self.total} agree"


def _b64(value: object, where: str) -> bytes:
    if value is None:
        return b""
    if not isinstance(value, str):
        raise VectorError(f"{where}: a hash is base64 text, not {type(value).__name__}")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise VectorError(f"{where}: {value[:20]!r} is not base64") from None


def _hashes(value: object, where: str) -> list[bytes]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise VectorError(f"{where}: a proof is a list of hashes")
    return [_b64(item, where) for item in value]


def _accepts(check: Callable[[], None]) -> bool:
    try:
        check()
    except merkle.ProofError:
        return False
    return True


def _read(path: Path) -> object:
    return jsonfile.read_json(path, error=VectorError, what="vectors file", limit=MAX_VECTOR_BYTES)


# --- transparency-dev/merkle: one JSON file per vector, {..., "wantErr": bool} ----------------


def transparency_dev(root: Path) -> Iterator[Vector]:
    base = root / "transparency-dev-merkle" / "testdata"
    for path in sorted((base / "inclusion").rglob("*.json")):
        v, where = _read(path), path.relative_to(base).as_posix()
        try:
            index, size, want_err = v["leafIdx"], v["treeSize"], v["wantErr"]
            leaf, root_hash, proof = _b64(v["leafHash"], where), _b64(v["root"], where), _hashes(v["proof"], where)
        except (KeyError, TypeError) as exc:
            raise VectorError(f"{where}: not an inclusion vector (lacks {exc})") from None
        yield where, not want_err, lambda rule, a=(index, size, leaf, proof, root_hash): _accepts(
            lambda: merkle.verify_inclusion(*a))
    for path in sorted((base / "consistency").rglob("*.json")):
        v, where = _read(path), path.relative_to(base).as_posix()
        try:
            sizes, want_err = (v["size1"], v["size2"]), v["wantErr"]
            roots, proof = (_b64(v["root1"], where), _b64(v["root2"], where)), _hashes(v["proof"], where)
        except (KeyError, TypeError) as exc:
            raise VectorError(f"{where}: not a consistency vector (lacks {exc})") from None
        yield where, not want_err, lambda rule, s=sizes, r=roots, p=proof: _accepts(
            lambda: merkle.verify_consistency(s[0], s[1], r[0], r[1], p, from_empty=rule))


# --- CCTV: a few JSON lists, valid and invalid ------------------------------------------------


def cctv(root: Path) -> Iterator[Vector]:
    base = root / "cctv-merkle" / "merkle" / "testdata"
    heads = _read(base / "merkle_tree.json")
    if not isinstance(heads, list):
        raise VectorError("merkle_tree.json: not a list of tree heads")
    leaves: list[bytes] = []
    for number, head in enumerate(heads, start=1):
        where = f"merkle_tree.json #{number}"
        try:
            leaves.append(merkle.leaf_hash(head["leaf_data"].encode("utf-8")))
            want_leaf, want_root = _b64(head["leaf_hash"], where), _b64(head["root_hash"], where)
        except (KeyError, TypeError, AttributeError) as exc:
            raise VectorError(f"{where}: not a tree head (lacks {exc})") from None
        yield where, True, lambda rule, got=(leaves[-1], merkle.tree_root(leaves)), want=(want_leaf, want_root): (
            got == want)
    for valid in (True, False):
        name = f"inclusion-{'valid' if valid else 'invalid'}.json"
        for number, v in enumerate(_list(base / name), start=1):
            where = f"{name} #{number}"
            try:
                args = (v["leaf_index"], v["tree_size"], _b64(v["leaf_hash"], where),
                        _hashes(v["inclusion_path"], where), _b64(v["root_hash"], where))
            except (KeyError, TypeError) as exc:
                raise VectorError(f"{where}: not an inclusion vector (lacks {exc})") from None
            yield where, valid, lambda rule, a=args: _accepts(lambda: merkle.verify_inclusion(*a))
    for valid in (True, False):
        name = f"consistency-{'valid' if valid else 'invalid'}.json"
        for number, v in enumerate(_list(base / name), start=1):
            where = f"{name} #{number}"
            try:
                args = (v["old_size"], v["new_size"], _b64(v["old_root"], where), _b64(v["new_root"], where),
                        _hashes(v["consistency_path"], where))
            except (KeyError, TypeError) as exc:
                raise VectorError(f"{where}: not a consistency vector (lacks {exc})") from None
            yield where, valid, lambda rule, a=args: _accepts(lambda: merkle.verify_consistency(*a, from_empty=rule))


def _list(path: Path) -> list:
    found = _read(path)
    if not isinstance(found, list):
        raise VectorError(f"{path.name}: not a list of vectors")
    return found


# --- the sets, each under its own project's rule ----------------------------------------------

SETS: tuple[tuple[str, Callable[[Path], Iterator[Vector]], str, str], ...] = (
    # name, its vectors, the from_empty rule its project states, where it says so
    ("transparency-dev", transparency_dev, merkle.REFUSE_FROM_EMPTY, "every vector from size 0 wants an error"),
    ("cctv", cctv, merkle.ACCEPT_FROM_EMPTY, "0 -> 0 and 0 -> 1 are valid, by empty proofs"),
)


def run(root: Path, from_empty: str | None = None) -> list[Tally]:
    """Every set's tally; ``from_empty`` overrides each set's own rule when given."""
    root = Path(root)
    if not (root / "transparency-dev-merkle").is_dir() or not (root / "cctv-merkle").is_dir():
        raise VectorError(f"{root} holds no transparency-dev-merkle/ and cctv-merkle/ folders")
    tallies = []
    for name, vectors, own_rule, _ in SETS:
        rule = from_empty or own_rule
        results = [(where, accepted(rule) == must_accept) for where, must_accept, accepted in vectors(root)]
        wrong = tuple(where for where, agrees in results if not agrees)
        tallies.append(Tally(name, rule, len(results) - len(wrong), len(results), wrong))
    return tallies


def report(tallies: list[Tally], overridden: bool) -> list[str]:
    """The lines ``python -m tlog vectors`` prints: each set's tally, then the rule it ran under."""
    lines = []
    for tally, (_, _, own_rule, why) in zip(tallies, SETS):
        lines.append(tally.line())
        how = "set by --from-empty" if overridden else f"its project's rule: {why}"
        lines.append(f"  from_empty={tally.rule}, {how}")
        lines += [f"  disagrees: {where}" for where in tally.disagreements]
    return lines
