"""Observe: typed facts read from captures, each citing the capture it came from.

A capture is raw evidence: what came back from one action. Tools do not run on
raw evidence; their ``requires`` name observed fields (``inspect_metadata``
needs ``has_meta`` to be true). Observing is the step in between: a small set
of readers, each turning a capture into one typed value, and every value goes
through the door as an ``observation`` that cites its capture, so any fact in
the run can be traced back to the bytes it was read from.

A capture's body is HTTP-like text, written by ``render_response`` in one
fixed form: the status line, the headers sorted by name, a blank line, the
page. Lesson 2's demo capture has the same form; lesson 6's executor writes
every capture with this function, and ``split_response`` reads it back.

A reader answers None when a capture says nothing about its field, and then
nothing is recorded. A page without a generator tag is not evidence that the
site has none, so it must not overwrite what an earlier page showed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html.parser import HTMLParser
from http import HTTPStatus

from core.run.recorder import Recorder, Refusal, Request
from core.run.records import shown
from core.run.stages import stage_of, table_of

OBSERVATION_KIND = "observation"
CODES = {"uncited_observation": "after the first stage, an observation must cite the capture it was read from"}


# --- the capture's text form ---------------------------------------------------------


def render_response(status: int, headers: Mapping[str, str] | Iterable[tuple[str, str]], body: str) -> str:
    """One HTTP response as capture text: status line, headers sorted by name, blank line, body.

    Sorting makes the text, and so the capture_id, independent of the order
    a server or a dict happened to list the headers in.
    """
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    lines = [f"HTTP/1.1 {status} {_phrase(status)}".rstrip()]
    for name, value in sorted(pairs, key=lambda pair: (pair[0].lower(), pair[1])):
        if any(char in "\r\n" for char in name + value):
            raise ValueError(f"header {shown(name)} holds a line break, which would forge another header")
        lines.append(f"{name}: {value}")
    return "\n".join(lines) + "\n\n" + body


def split_response(text: str) -> tuple[dict[str, str], str]:
    """The headers (names lower-cased) and the body of a capture's text.

    The head ends at the first blank line; everything after it is the page,
    whatever the page contains. A repeated header's values are joined with
    ", ", as HTTP does.
    """
    head, _, body = text.partition("\n\n")
    headers: dict[str, str] = {}
    for line in head.split("\n")[1:]:  # the first line is the status line
        name, colon, value = line.partition(":")
        if colon:
            name, value = name.strip().lower(), value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers, body


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


# --- the readers ---------------------------------------------------------------------


def _first_of_each(attrs: list[tuple[str, str | None]]) -> dict[str, str | None]:
    """Each attribute's first value: the HTML standard drops an attribute a tag repeats.

    ``html.parser`` reports every attribute written; ``dict(attrs)`` would keep
    the last of a repeated one, where a browser keeps the first.
    """
    kept: dict[str, str | None] = {}
    for name, value in attrs:
        kept.setdefault(name, value)
    return kept


class _GeneratorTags(HTMLParser):
    """Collect the content of every ``<meta name="generator">`` tag in a page.

    An HTML parser, not a text search: attribute order and letter case do not
    matter, and a tag written inside a comment is not a tag. ``html.parser`` is
    a tokenizer, not a browser: on its own it reads a tag written inside
    ``<title>`` or ``<textarea>`` as a tag, where a browser shows it as text.
    So this parser also reads the content of every element a browser reads as
    text (the HTML standard's raw text and escapable raw text elements, and
    the obsolete ones parsed like them) as text, up to the element's end tag.
    A tag that writes an attribute twice keeps the first, as a browser does.
    """

    CDATA_CONTENT_ELEMENTS = ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.contents: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = _first_of_each(attrs)
        if tag == "meta" and (attributes.get("name") or "").lower() == "generator":
            self.contents.append(attributes.get("content") or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """``<title/>`` opens a title all the same: in HTML only void elements close themselves."""
        self.handle_starttag(tag, attrs)
        if tag in self.CDATA_CONTENT_ELEMENTS:
            self.set_cdata_mode(tag)


def generator_tags(body: str) -> list[str]:
    """The content of each generator meta tag in ``body``, in page order."""
    parser = _GeneratorTags()
    parser.feed(body)
    parser.close()
    return parser.contents


def read_server(headers: dict[str, str], body: str) -> str | None:
    """The Server header: software a response names is a fact worth checking later."""
    return headers.get("server")


def read_has_meta(headers: dict[str, str], body: str) -> bool | None:
    """True when the page carries a generator meta tag; None (no fact) otherwise."""
    return True if generator_tags(body) else None


def read_generator(headers: dict[str, str], body: str) -> str | None:
    """The first generator meta tag's content, often a product and its version."""
    tags = generator_tags(body)
    return tags[0] if tags else None


# Field name and reader, in the order observations are recorded.
READERS = (
    ("server", read_server),
    ("has_meta", read_has_meta),
    ("generator", read_generator),
)


def read_observations(capture_text: str) -> list[tuple[str, object]]:
    """(field, value) for every reader that finds something in the capture, in READERS order."""
    headers, body = split_response(capture_text)
    found = []
    for field, reader in READERS:
        value = reader(headers, body)
        if value is not None:
            found.append((field, value))
    return found


# --- through the door ----------------------------------------------------------------


def observe(door: Recorder, capture_id: str) -> list[dict]:
    """Record every observation the capture ``capture_id`` yields; return the door's answers.

    Each observation cites the capture, and the door checks that the run
    holds it. Observing a capture twice yields the same records again, which
    the door refuses as already recorded.
    """
    if not door.holds("capture", capture_id):
        return [door.refuse(OBSERVATION_KIND, f"capture {shown(capture_id)} is not held by this run",
                            code="unknown_capture", by="observe.observe")]
    capture = door.get("capture", capture_id)
    run_id = door.run.run_id
    return [
        door.record(OBSERVATION_KIND, {"run_id": run_id, "field": field, "value": value, "capture_id": capture_id})
        for field, value in read_observations(capture["body"])
    ]


# --- the door's guard ----------------------------------------------------------------


def cites_a_held_capture(door: Recorder, request: Request) -> None:
    """After the run's first stage, an observation cites the capture it was read from.

    In the first stage (authorize) the operator states facts of their own,
    which cite nothing. Later, every fact was read from something the run
    fetched; lesson 2's builder already checks that a cited capture is held.
    """
    if request.kind == OBSERVATION_KIND and stage_of(door) != table_of(door).start:
        if not request.payload.get("capture_id"):
            raise Refusal("uncited_observation", f"an observation in stage {shown(stage_of(door))} must cite the "
                                                 "capture it was read from")



# --- reading them back ---------------------------------------------------------------


def with_their_acts(door: Recorder) -> list[dict]:
    """Every observation the door holds, in ledger order, each with ``read_from``: the act its capture was of.

    An observation the operator stated (no capture) has none to show, so every
    observation passed here must cite a capture the run holds.
    """
    return [{**observation, "read_from": door.get("capture", observation["capture_id"])["action_id"]}
            for observation in door.records(OBSERVATION_KIND)]
