"""Wrong: root_from_path returns, never raises, an exception that is neither equal nor unequal to anything.

It holds no Merkle code: a ValueError subclass whose ``==`` and ``!=`` are
both False slipped past a check that compared with ``!=`` and asked
``isinstance(..., ValueError)`` in its own process (found by a helper in the
attacker's seat). Now only data crosses from the student's process, and an
object of a class of its own is not data.

Kind: tampers with the check
Fails with: which is not JSON data
"""

import base64
import hashlib


class Whatever(ValueError):
    def __eq__(self, other):
        return False

    def __ne__(self, other):
        return False

    __hash__ = ValueError.__hash__


def root_from_path(leaf, index, size, path):
    return Whatever("anything")


def is_published(report, proof, root):
    leaf = hashlib.sha256(b"\x00" + bytes.fromhex(report["run"]["run_id"]) + bytes.fromhex(report["seal"]["head"])).digest()
    return leaf == base64.b64decode(proof["leaf_hash"]) and base64.b64decode(proof["root_hash"]) == root
