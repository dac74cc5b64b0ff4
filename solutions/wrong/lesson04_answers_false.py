"""Wrong: answers False for a page without the tag, as if one page proved the site has none.

Kind: author's own
Fails with: not True or False
"""

from html.parser import HTMLParser

from core.run.observe import split_response


class _Tags(HTMLParser):
    CDATA_CONTENT_ELEMENTS = ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes")

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
    return parser.found


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for capture, citing it; None when its page says nothing."""
    return {"run_id": capture["run_id"], "field": "has_meta", "value": read_has_meta(capture["body"]),
            "capture_id": capture["capture_id"]}
