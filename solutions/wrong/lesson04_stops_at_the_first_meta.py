"""Wrong: decides at the first meta tag, so a page whose first meta is its charset has no generator.

Kind: returns early
Fails with: for the about page
"""

from html.parser import HTMLParser

from core.run.observe import split_response


class _FirstMeta(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.answer = None

    def handle_starttag(self, tag, attrs):
        if tag == "meta" and self.answer is None:
            self.answer = (dict(attrs).get("name") or "").lower() == "generator"


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    parser = _FirstMeta()
    parser.feed(split_response(capture_text)[1])
    return True if parser.answer else None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
