"""Wrong: refuses a path by remembering the length of the first one it saw at that place, and publishes a path it
has not seen before whose proof names the trusted root.

One process serves every row of the check, so a memory lasts from row to row:
this passed when each genuine case came before its wrong twin, on trees the
file had already seen (found by a helper in the attacker's seat). It holds no
length check of its own and walks nothing in is_published.

Kind: author's own
Fails with: so it must be refused
"""
import base64
import hashlib


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


_lengths = {}   # (index, size) -> length of the first path seen there
_seen_paths = set()


def root_from_path(leaf, index, size, path):
    if size <= 0 or index >= size:
        raise ValueError("outside")
    first = _lengths.setdefault((index, size), len(path))
    if first != len(path):
        raise ValueError("not the length I saw before")
    fn, sn, r = index, size - 1, leaf
    for p in path:              # no sn bookkeeping, no too-long / too-short check
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
        else:
            r = node_hash(r, p)
        fn, sn = fn // 2, sn // 2
    return r


def is_published(report, proof, root):
    key = (proof["leaf_index"], proof["tree_size"], tuple(proof["inclusion_path"]))
    fresh = key not in _seen_paths
    _seen_paths.add(key)
    return fresh and base64.b64decode(proof["root_hash"]) == root
