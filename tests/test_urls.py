"""Destination spellings against what the lab actually serves: one destination per resource, one resource per destination.

The oracle is the lab itself. For a URL, ``served`` builds the request the
HTTP adapter would put on the wire (httpx writes the request target), lets
waitress's own parser read it as the real server does, and asks the lab's
WSGI application for the answer, all in process. The properties:

* two spellings of lab requests get one action identity exactly when the lab
  serves them the same answer;
* fetching a canonical destination gets the answer its spelling would get;
* the twins in core/ and lab/ agree on any text at all;
* the one deliberate difference: a dot segment hidden behind an escape is
  resolved, where the lab, sent the text as written, answers 400.
"""

from __future__ import annotations

import functools
import random
from urllib.parse import quote, urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from waitress.adjustments import Adjustments
from waitress.parser import HTTPRequestParser

import lab.origins
from core.run import origins
from core.run.records import RecordError, action_identity
from lab import DEFAULT_LAB_DIR
from lab.adapter import HttpAdapter
from lab.app import respond
from lab.fixtures import TRANSPORT_HEADERS
from lab.server import running

from .conftest import examples

TOOL = "inspect_headers"
# Paths the fixtures serve, each with its own answer, and one path they do not (a 404).
LAB_PATHS = ("/", "/secure/", "/about", "/contact", "/robots.txt", "/backup/", "/news", "/staging/")
OTHER_PATHS = ("/", "/about")
REFLECTING = ("/debug", "/search")  # pages that show the query's q parameter
PATH_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
QUERY_SPECIAL = frozenset("&=+#%")  # characters a query value cannot hold literally
ADAPTER_BASE = "http://127.0.0.1:8000"  # the adapter's base URL; the port never matters here
EXAMPLES = {"alias pairs": 2000, "canonical fetch": 1000, "any text": 3000, "hidden dots": 200, "real server": 100}


@functools.lru_cache(maxsize=4096)
def _answer(host: str, path_info: str, query: str) -> tuple:
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path_info, "QUERY_STRING": query, "HTTP_HOST": host}
    status, headers, body = respond(DEFAULT_LAB_DIR, environ)
    return status, tuple(headers), body


def wire_request(url: str) -> bytes:
    """The request the HTTP adapter sends for ``url`` (as lab/adapter.py builds it)."""
    origin = lab.origins.canonical_origin(url)
    scheme, host_port = origin.split("://")
    host, port = host_port.rsplit(":", 1)
    host_header = host if int(port) == lab.origins.DEFAULT_PORTS[scheme] else host_port
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    raw_target = httpx.URL(ADAPTER_BASE + target).raw_path  # httpx resolves dot segments, escapes non-ASCII
    return b"GET " + raw_target + b" HTTP/1.1\r\nHost: " + host_header.encode() + b"\r\n\r\n"


def served(url: str) -> tuple:
    """(status, headers, body): the lab's answer to ``url``, read by waitress's own parser."""
    parser = HTTPRequestParser(Adjustments())
    parser.received(wire_request(url))
    assert parser.completed and parser.error is None
    path = parser.path
    if path.startswith("/"):  # as waitress/task.py does: a run of leading slashes is one
        path = "/" + path.lstrip("/")
    return _answer(parser.headers["HOST"], path, parser.query)


# --- spellings -----------------------------------------------------------------------
# Hypothesis draws the request and the origin's spelling; a seeded Random, itself drawn,
# makes the many per-character choices (literal or escape, hex case), which keeps an
# example cheap enough for thousands of them.


def escape(rng: random.Random, char: str) -> str:
    """``char`` as percent-escapes of its UTF-8 bytes, each hex digit in either case."""
    return "".join(
        "%" + "".join(rng.choice((digit.lower(), digit.upper())) for digit in f"{byte:02X}")
        for byte in char.encode("utf-8")
    )


def spell_path_text(rng: random.Random, text: str) -> str:
    """A path segment: each character literal (where a URL may carry it) or escaped."""
    return "".join(char if char in PATH_LITERAL and rng.random() < 0.5 else escape(rng, char) for char in text)


def spell_query_text(rng: random.Random, text: str) -> str:
    """A query name or value: a space as + or %20, other characters literal or escaped."""
    spelled = []
    for char in text:
        if char == " ":
            spelled.append(rng.choice(("+", "%20")))
        elif char not in QUERY_SPECIAL and char.isprintable() and not char.isspace() and rng.random() < 0.5:
            spelled.append(char)
        else:
            spelled.append(escape(rng, char))
    return "".join(spelled)


def dot_units(rng: random.Random) -> str:
    """Literal dot segments, each ending in a literal slash: the client resolves them."""
    return "".join(rng.choice(("./", "../", "x/../", "%61b/../", "./x/../")) for _ in range(rng.choice((0, 0, 1, 2))))


SCHEMES = st.sampled_from(["https", "HTTPS", "hTTpS"])
PORTS = st.sampled_from(["", ":443"])
EXTRA_SLASHES = st.sampled_from(["", "", "/", "//", "%2F", "%2f"])
FRAGMENTS = st.sampled_from(["", "#", "#top", "#x?y=%zz"])
SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def spelling(draw, request):
    """One spelling of ``request`` = (host, path, q): origin, path, query and fragment."""
    host, path, q = request
    rng = random.Random(draw(SEEDS))
    host_text = rng.choice((host, host.upper(), host.title() + "."))
    extra_slashes = draw(EXTRA_SLASHES)
    url = f"{draw(SCHEMES)}://{host_text}{draw(PORTS)}/{extra_slashes}"
    after_literal_slash = not extra_slashes.endswith(("F", "f"))
    for index, segment in enumerate(path.split("/")[1:]):
        if index:
            separator = rng.choice(("/", "/", "%2F", "%2f"))
            url += separator
            after_literal_slash = separator == "/"
        if after_literal_slash:  # a dot segment after an escaped slash is the deliberate difference, tested below
            url += dot_units(rng)
        url += spell_path_text(rng, segment)
    if q is not None:
        url += "?" + spell_query_text(rng, "q") + "=" + spell_query_text(rng, q)
    return url + draw(FRAGMENTS)


Q_TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6)
REQUESTS = st.one_of(
    st.tuples(st.just("lab.example"), st.sampled_from(LAB_PATHS), st.none()),
    st.tuples(st.just("other.example"), st.sampled_from(OTHER_PATHS), st.none()),
    st.tuples(st.just("lab.example"), st.sampled_from(REFLECTING), Q_TEXT),
)


@st.composite
def two_spellings(draw):
    """Two spellings, of one request half of the time and of two requests otherwise."""
    first = draw(REQUESTS)
    second = first if draw(st.booleans()) else draw(REQUESTS)
    return draw(spelling(first)), draw(spelling(second))


# --- the properties ------------------------------------------------------------------


def test_the_requests_the_spellings_come_from_get_different_answers():
    """Each request the spellings are drawn from gets an answer of its own from the lab, so 'served the same' means 'the same request'."""
    requests = [("lab.example", path, None) for path in LAB_PATHS]
    requests += [("other.example", path, None) for path in OTHER_PATHS]
    requests += [("lab.example", path, q) for path in REFLECTING for q in ("a", "b", "a b", "a+b", "<b>", "\u00e9")]
    answers = [served(f"https://{host}{path}" + (f"?q={quote(q)}" if q else "")) for host, path, q in requests]
    assert len(set(answers)) == len(requests)
    assert [status for status, _, _ in answers].count(404) == 1


@settings(max_examples=examples(EXAMPLES["alias pairs"]), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=two_spellings())
def test_two_spellings_get_one_identity_exactly_when_the_lab_serves_them_the_same(pair):
    """Two spellings of lab requests get one action identity if and only if the lab serves them the same answer."""
    first, second = pair
    same_identity = action_identity(TOOL, first) == action_identity(TOOL, second)
    assert same_identity == (served(first) == served(second)), (first, second)


@settings(max_examples=examples(EXAMPLES["canonical fetch"]), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=REQUESTS.flatmap(spelling))
def test_a_canonical_destination_is_served_what_its_spelling_is_served(url):
    """Fetching the canonical destination gets the answer the spelling itself would get, the canonical destination is its own canonical form, and both twins write it alike."""
    destination = origins.canonical_destination(url)
    assert served(destination) == served(url), (url, destination)
    assert origins.canonical_destination(destination) == destination
    assert lab.origins.canonical_destination(url) == destination


URL_CHARACTERS = st.sampled_from(list("aAbZ09-._~!$&'()*+,;=:@/?#%[]\\ <>\"{}|^`\u00e9\u212a\u0000\u00a0"))
URLISH = st.text(URL_CHARACTERS | st.characters(), max_size=30)
PREFIXES = st.sampled_from(["https://lab.example", "HTTP://LAB.EXAMPLE:80", "https://lab.example/", ""])


def twin_outcome(module, text):
    try:
        return ("destination", module.canonical_destination(text))
    except module.OriginError as error:
        return ("error", error.category)


@settings(max_examples=examples(EXAMPLES["any text"]), deadline=None)
@given(prefix=PREFIXES, tail=URLISH)
def test_the_twins_agree_on_any_text_and_every_destination_is_a_fixed_point(prefix, tail):
    """Core's and the lab's canonical destinations agree on any text, value or error category, and a canonical destination is printable ASCII with no fragment and no dot segment, and is its own canonical form."""
    text = prefix + tail
    core_says = twin_outcome(origins, text)
    assert core_says == twin_outcome(lab.origins, text), text
    kind, value = core_says
    if kind == "error":
        assert value in origins.CATEGORIES
        return
    assert value.isascii() and value.isprintable() and "#" not in value and " " not in value
    path = urlsplit(value).path
    assert all(segment not in (".", "..") for segment in path.split("/"))
    assert not path.startswith("//")
    assert origins.canonical_destination(value) == value
    assert value.startswith(origins.canonical_origin(text) + "/")
    # Whatever has an origin has an identity: nothing on the path can make the door raise.
    assert action_identity(TOOL, text) == f"{TOOL} -> {value}"


@st.composite
def hidden_dot_segment(draw):
    """A URL of a lab page with a dot segment that only percent-decoding reveals."""
    target = draw(st.sampled_from(LAB_PATHS[:-1]))
    kind = draw(st.sampled_from(["dot", "double dot", "slash"]))
    if kind == "dot":
        return "https://lab.example/" + draw(st.sampled_from(["%2E", "%2e"])) + target
    if kind == "double dot":
        return "https://lab.example/x/" + draw(st.sampled_from(["%2E%2E", ".%2e", "%2e.", "%2E."])) + target
    slash = draw(st.sampled_from(["%2F", "%2f"]))
    return f"https://lab.example/x{slash}..{slash}" + target[1:]


@settings(max_examples=examples(EXAMPLES["hidden dots"]), deadline=None)
@given(url=hidden_dot_segment())
def test_a_dot_segment_behind_an_escape_is_resolved_where_the_lab_would_refuse_it(url):
    """A dot segment that only percent-decoding reveals is resolved in the canonical destination, while the lab, sent the text as written, refuses it with its traversal guard's 400."""
    assert served(url)[0] == 400
    destination = origins.canonical_destination(url)
    assert served(destination)[0] == 200, (url, destination)
    assert all(segment not in (".", "..") for segment in urlsplit(destination).path.split("/"))


@pytest.mark.parametrize("text", ["https://lab.example/\ud800", "https://lab.example/x?q=\udfff", "https:///about"])
def test_a_destination_without_an_origin_has_no_identity(text):
    """A destination whose origin is refused, a lone surrogate anywhere included, gets no action identity."""
    with pytest.raises(RecordError):
        action_identity(TOOL, text)


@pytest.fixture(scope="module")
def over_http():
    """The HTTP adapter, talking to the lab served by a real waitress on loopback."""
    with running() as port, HttpAdapter(transport="http", port=port) as adapter:
        yield adapter


@settings(max_examples=examples(EXAMPLES["real server"]), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=REQUESTS.flatmap(spelling))
def test_the_real_server_answers_every_spelling_as_the_in_process_oracle_says(over_http, url):
    """Over real loopback HTTP, the lab answers each spelling exactly as the in-process oracle of these tests says it does."""
    status, headers, body = served(url)
    fetched = over_http.fetch(url)
    expected_headers = sorted((name.lower(), value) for name, value in headers if name.lower() not in TRANSPORT_HEADERS)
    assert (fetched.status, list(fetched.headers), fetched.body) == (status, expected_headers, body.decode("utf-8", "replace"))
