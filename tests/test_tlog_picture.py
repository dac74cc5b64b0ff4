"""tlog/picture.py: the tree and its proof, drawn from the demo log's own data, say what the data says."""

from __future__ import annotations

import base64
import copy
import json
import re

import pytest

from tlog import merkle
from tlog.picture import PictureError, proof_tree

from .tlog_helpers import REPO

DEMO = json.loads((REPO / "data/course/tlog-demo.json").read_text(encoding="utf-8"))


def marks(svg: str) -> list[dict]:
    return [dict(re.findall(r'data-([\w-]+)="([^"]*)"', tag)) for tag in re.findall(r'<g class="tree-node"[^>]*>', svg)]


def test_the_picture_marks_the_proofs_path_in_order_and_the_signed_root():
    svg = proof_tree(DEMO)
    assert svg.startswith('<svg id="picture-tlog-proof" class="course-picture"') and svg.endswith("</svg>")
    drawn = marks(svg)
    path = sorted((m for m in drawn if m["role"] == "path"), key=lambda m: int(m["order"]))
    assert [bytes.fromhex(m["hash"]) for m in path] == [base64.b64decode(h) for h in DEMO["inclusion"]["inclusion_path"]]
    (root,) = [m for m in drawn if m["role"] == "root"]
    assert base64.b64encode(bytes.fromhex(root["hash"])).decode() == DEMO["published"].split("\n")[2]
    (leaf,) = [m for m in drawn if m["role"] == "leaf"]
    assert (leaf["lo"], leaf["hi"]) == ("3", "4")
    # every leaf and node of the tree, 2n - 1 of them, and each node's hash is its children's
    assert len(drawn) == 2 * len(DEMO["leaves"]) - 1
    by = {(int(m["lo"]), int(m["hi"])): bytes.fromhex(m["hash"]) for m in drawn}
    for (lo, hi), digest in by.items():
        if hi - lo > 1:
            k = lo + merkle.split_point(hi - lo)
            assert digest == merkle.node_hash(by[(lo, k)], by[(k, hi)])


def test_a_proof_that_is_not_its_trees_stops_the_picture():
    bent = copy.deepcopy(DEMO)
    bent["inclusion"]["inclusion_path"][0] = bent["inclusion"]["inclusion_path"][1]
    with pytest.raises(PictureError, match="not the siblings of its leaf"):
        proof_tree(bent)
    with pytest.raises(PictureError):
        proof_tree({"leaves": []})
