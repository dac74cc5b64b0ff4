"""Wrong: a regular expression over each line instead of a parser.

It passed while every page the check made put each tag on a line of its
own and each decoy after other text. Found by a helper in the attacker's
seat.

Kind: hard-codes the demo
Fails with: whose markup carries the real tag
"""
import re
from core.run.observe import split_response

TAG = re.compile(r"^\s*(?:<html><head>)?<meta\s[^>]*\bname=[\"']?generator(?=[\"'\s/>])", re.I | re.M)


def read_has_meta(capture_text):
    _h, page = split_response(capture_text)
    return True if TAG.search(page) else None


def has_meta_observation(capture):
    if read_has_meta(capture["body"]) is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": True, "capture_id": capture["capture_id"]}
