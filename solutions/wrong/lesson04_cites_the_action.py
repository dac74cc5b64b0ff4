"""Wrong: reads the page right, but cites the act that fetched it instead of the capture.

Kind: author's own
Fails with: an observation cites the capture it was read from
"""

from html.parser import HTMLParser

from core.run.observe import split_response

READ_AS_TEXT = ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes")


class _GeneratorTag(HTMLParser):
    CDATA_CONTENT_ELEMENTS = READ_AS_TEXT

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = False

    def handle_starttag(self, tag, attrs):
        if tag == "meta" and (dict(attrs).get("name") or "").lower() == "generator":
            self.found = True

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in READ_AS_TEXT:
            self.set_cdata_mode(tag)


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    parser = _GeneratorTag()
    parser.feed(split_response(capture_text)[1])
    parser.close()
    return True if parser.found else None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for capture, citing it; None when its page says nothing."""
    if read_has_meta(capture["body"]) is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": True, "capture_id": capture["action_id"]}
