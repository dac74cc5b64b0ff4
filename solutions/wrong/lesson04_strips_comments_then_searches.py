"""Wrong: removes comments, then searches the text with a regular expression.

It handles letter case, attribute order, quotes, comments and headers, so it
looks like a parser; but a pattern cannot tell a tag from text inside <title>,
<textarea>, <script> or an attribute's value.

Kind: author's own
Fails with: which a browser reads as text
Passed the check before lesson 4 was rebuilt: yes
"""

import re

from core.run.observe import split_response

GENERATOR = re.compile(r"<meta\b[^>]*\bname\s*=\s*[\"']?generator[\"'\s/>]", re.IGNORECASE)


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    page = re.sub(r"<!--.*?-->", "", split_response(capture_text)[1], flags=re.DOTALL)
    return True if GENERATOR.search(page) else None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
