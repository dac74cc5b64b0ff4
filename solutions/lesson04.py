"""Lesson 4, worked answer: an observer that makes ``inspect_metadata`` eligible.

The reader parses the page with ``html.parser``, so only real tags count: a
tag inside a comment reaches ``handle_comment``, never ``handle_starttag``,
and the parser lower-cases tag and attribute names. ``html.parser`` is a
tokenizer, not a browser, so the reader also tells it which elements a
browser reads as plain text (``<title>``, ``<textarea>``...): a tag written
inside one is text. The observer returns what the reader found as an
observation citing its capture, so the fact that unlocks the tool can be
traced back to the bytes it came from.
"""

from html.parser import HTMLParser

from core.run.observe import split_response

# student writes: begin
# Elements whose content a browser reads as text, never as tags (html.parser reads
# script and style that way already).
READ_AS_TEXT = ("script", "style", "title", "textarea", "xmp",
                "iframe", "noembed", "noframes")


class _GeneratorTag(HTMLParser):
    """Notices a ``<meta name="generator">`` tag anywhere in the markup."""

    CDATA_CONTENT_ELEMENTS = READ_AS_TEXT

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = dict(reversed(attrs)).get("name") or ""  # a browser keeps the first
        if tag == "meta" and name.lower() == "generator":
            self.found = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in READ_AS_TEXT:  # <title/> opens a title: only void elements close
            self.set_cdata_mode(tag)


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    _headers, page = split_response(capture_text)  # a header is not markup
    parser = _GeneratorTag()
    parser.feed(page)
    parser.close()
    return True if parser.found else None  # one page without it says nothing


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation citing ``capture``; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
# student writes: end
