"""The picture of lesson 11: the demo log's tree, with the reference run's inclusion proof drawn on it.

``proof_tree(demo)`` takes the demo artifact (data/course/tlog-demo.json):
its leaves (run id and head, in order) and the inclusion proof of one of
them. It rebuilds every node of the RFC 6962 tree from the leaves, finds the
nodes whose hashes the proof carries, checks that they are exactly the
proof's path, and draws: the proved leaf, the path's sibling hashes
(numbered in the order the proof lists them), the nodes a verifier computes
on its way up, and the root the checkpoint signs. A node with no sibling at
its level (the last leaf of an odd tree) is drawn where it joins the tree,
higher up, which is what "moves up unchanged" means.

It returns one self-contained SVG element, in the shape of the course's
other pictures (site_build/pictures.py): every mark carries its datum in
``data-*`` attributes and a ``<title>``.
"""

from __future__ import annotations

import base64
from html import escape

from tlog import merkle
from tlog.logfile import Entry

FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
COLOURS = {"leaf": "#1565c0", "path": "#ef6c00", "walk": "#2e7d32", "root": "#2e7d32", "other": "#90a4ae"}


class PictureError(ValueError):
    """The demo's proof is not the path of its own tree; the message says where."""


def _height(size: int) -> int:
    return (size - 1).bit_length()  # 0 for a leaf; a perfect subtree of 2**h leaves has height h


def _nodes(lo: int, hi: int, leaves: list[bytes], out: list[dict]) -> bytes:
    """Every node of D[lo:hi], children first, with its range, height and hash."""
    if hi - lo == 1:
        digest = leaves[lo]
    else:
        k = lo + merkle.split_point(hi - lo)
        digest = merkle.node_hash(_nodes(lo, k, leaves, out), _nodes(k, hi, leaves, out))
    out.append({"lo": lo, "hi": hi, "height": _height(hi - lo), "hash": digest})
    return digest


def _path_ranges(index: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """The ranges of the nodes PATH(index, D[lo:hi]) lists, lowest first (RFC 9162 2.1.3.1)."""
    if hi - lo == 1:
        return []
    k = lo + merkle.split_point(hi - lo)
    if index < k:
        return _path_ranges(index, lo, k) + [(k, hi)]
    return _path_ranges(index, k, hi) + [(lo, k)]


def proof_tree(demo: dict) -> str:
    """The SVG picture of the demo's tree and its inclusion proof."""
    try:
        entries = [Entry(leaf["run_id"], leaf["head"]) for leaf in demo["leaves"]]
        proof = demo["inclusion"]
        index, size = proof["leaf_index"], proof["tree_size"]
        path = [base64.b64decode(h) for h in proof["inclusion_path"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise PictureError(f"the demo artifact has no leaves and inclusion proof to draw ({exc})") from None
    if size != len(entries) or not 0 <= index < size:
        raise PictureError(f"the proof is for leaf {index} of {size}; the demo lists {len(entries)} leaves")
    leaves = [entry.leaf_hash() for entry in entries]
    nodes: list[dict] = []
    _nodes(0, size, leaves, nodes)
    by_range = {(n["lo"], n["hi"]): n for n in nodes}
    ranges = _path_ranges(index, 0, size)
    if [by_range[r]["hash"] for r in ranges] != path:
        raise PictureError("the proof's path is not the siblings of its leaf in the demo's own tree")
    for order, r in enumerate(ranges):
        by_range[r]["role"], by_range[r]["order"] = "path", order
    for node in nodes:
        on_walk = node["lo"] <= index < node["hi"]
        node.setdefault("role", "leaf" if on_walk and node["hi"] - node["lo"] == 1 else "walk" if on_walk else "other")
    by_range[(0, size)]["role"] = "root"
    if by_range[(0, size)]["hash"] != base64.b64decode(proof["root_hash"]):
        raise PictureError("the proof's root is not the root of the demo's own tree")
    return _draw(nodes, entries, index, size)


def _draw(nodes: list[dict], entries: list[Entry], index: int, size: int) -> str:
    gap, box_w, box_h, row = 128, 108, 40, 78
    top_height = _height(size)
    width, height = max(size * gap + 20, 560), (top_height + 1) * row + 64
    x_of = {}
    for node in nodes:  # children come first, so a parent is placed between its two
        if node["hi"] - node["lo"] == 1:
            x_of[(node["lo"], node["hi"])] = 10 + node["lo"] * gap + (gap - box_w) / 2
    y = lambda h: 14 + (top_height - h) * row  # noqa: E731
    body: list[str] = []
    for node in nodes:
        if node["hi"] - node["lo"] > 1:
            k = node["lo"] + merkle.split_point(node["hi"] - node["lo"])
            left, right = x_of[(node["lo"], k)], x_of[(k, node["hi"])]
            x_of[(node["lo"], node["hi"])] = (left + right) / 2
            for child in ((node["lo"], k), (k, node["hi"])):
                child_node = next(n for n in nodes if (n["lo"], n["hi"]) == child)
                body.append(f'<line x1="{x_of[child] + box_w / 2}" y1="{y(child_node["height"])}" '
                            f'x2="{x_of[(node["lo"], node["hi"])] + box_w / 2}" y2="{y(node["height"]) + box_h}" '
                            f'stroke="{COLOURS["other"]}" stroke-width="1.5"/>')
    for node in nodes:
        key, role = (node["lo"], node["hi"]), node["role"]
        x, top = x_of[key], y(node["height"])
        span = f"leaf {node['lo']}" if node["hi"] - node["lo"] == 1 else f"leaves {node['lo']} to {node['hi'] - 1}"
        label = {"leaf": "the proved leaf", "path": f"path hash {node.get('order', 0) + 1}",
                 "walk": "computed on the way up", "root": "the root the checkpoint signs", "other": "not needed"}[role]
        title = f"{span}: {label}, {node['hash'].hex()[:16]}"
        extra = f' data-order="{node["order"]}"' if role == "path" else ""
        fill = "#ffffff" if role == "other" else COLOURS[role]
        ink = "#263238" if role == "other" else "#ffffff"
        body.append(f'<g class="tree-node" data-lo="{node["lo"]}" data-hi="{node["hi"]}" data-role="{role}" '
                    f'data-hash="{node["hash"].hex()}"{extra}><title>{escape(title)}</title>'
                    f'<rect x="{x}" y="{top}" width="{box_w}" height="{box_h}" rx="6" fill="{fill}" '
                    f'stroke="{COLOURS[role]}" stroke-width="2"/>'
                    f'<text x="{x + box_w / 2}" y="{top + 16}" text-anchor="middle" fill="{ink}">{escape(span)}</text>'
                    f'<text x="{x + box_w / 2}" y="{top + 31}" text-anchor="middle" fill="{ink}">'
                    f'{node["hash"].hex()[:10]}</text></g>')
        if role == "path":
            body.append(f'<text x="{x + box_w - 4}" y="{top - 4}" text-anchor="end" fill="{COLOURS["path"]}" '
                        f'font-weight="bold">{node["order"] + 1}</text>')
    legend = (f'<text x="10" y="{height - 28}" fill="#263238">blue: leaf {index}, run {entries[index].run_id[:12]}; '
              'orange: the proof\'s path, in order;</text>'
              f'<text x="10" y="{height - 12}" fill="#263238">green: what a verifier computes from them, up to the '
              'root</text>')
    name = "tlog-proof"
    label = f"The tree of {size} leaves and the inclusion proof of leaf {index}"
    return (f'<svg id="picture-{name}" class="course-picture" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="{width}" role="img" aria-label="{escape(label)}" '
            f'font-family="{FONT}" font-size="12"><title>{escape(label)}</title>' + "".join(body) + legend + "</svg>")
