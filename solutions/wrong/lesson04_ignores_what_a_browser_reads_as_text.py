"""Wrong: a plain html.parser reader, which counts a tag written inside <title> or <textarea>.

html.parser reports anything shaped like a tag outside comments, script and
style; a browser reads the content of <title>, <textarea> and <xmp> as text.

Kind: skips the edge
Fails with: which a browser reads as text
Passed the check before lesson 4 was rebuilt: yes
"""

from html.parser import HTMLParser

from core.run.observe import split_response


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = False

    def handle_starttag(self, tag, attrs):
        if tag == "meta" and (dict(attrs).get("name") or "").lower() == "generator":
            self.found = True


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    parser = _Tags()
    parser.feed(split_response(capture_text)[1])
    parser.close()
    return True if parser.found else None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
