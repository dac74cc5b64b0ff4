"""Lesson 4, worked answer: an observer that makes ``inspect_metadata`` eligible.

The reader parses the page with ``html.parser``, so only real tags count: a
tag inside a comment reaches ``handle_comment``, never ``handle_starttag``,
and the parser lower-cases tag and attribute names. The observer sends what
the reader found through the door as an observation citing its capture, so
the fact that unlocks the tool can be traced back to the bytes it came from.
"""

from html.parser import HTMLParser

from core.run.observe import split_response
from core.run.policy import Policy
from core.run.recorder import Recorder


class _GeneratorTag(HTMLParser):
    """Notices a ``<meta name="generator">`` tag anywhere in the markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = dict(attrs).get("name") or ""
        if tag == "meta" and name.lower() == "generator":
            self.found = True


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    _headers, page = split_response(capture_text)  # a header is not markup
    parser = _GeneratorTag()
    parser.feed(page)
    parser.close()
    return True if parser.found else None  # one page without it says nothing


def observe_has_meta(door: Recorder, capture_id: str) -> dict | None:
    """Record has_meta from capture ``capture_id``; None when the page says nothing."""
    capture = door.get("capture", capture_id)
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    observation = {"run_id": door.run.run_id, "field": "has_meta", "value": value,
                   "capture_id": capture_id}
    return door.record("observation", observation)


def build_policy() -> Policy:
    """Lesson 2's finished policy, restated."""
    return Policy.from_dict(
        {
            "reference": "training-authorization-0042",
            "allowed_origins": ["https://lab.example:443"],
            "tools": [
                {"tool_id": "inspect_headers", "activity": "passive", "requires": {},
                 "family": "fam-recon", "weight": 2.0, "cost": 1.0},
                {"tool_id": "inspect_metadata", "activity": "passive",
                 "requires": {"has_meta": True}, "family": "fam-recon",
                 "weight": 1.5, "cost": 1.0},
            ],
            "max_actions": 4,
            "max_model_calls": 4,
        }
    )
