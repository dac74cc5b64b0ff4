"""The lab's origin and destination canonicalizer against the shared case table data/cases/origins.json."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.origins import CATEGORIES, OriginError, canonical_destination, canonical_origin

from .conftest import examples

TABLE_PATH = Path(__file__).resolve().parent.parent / "data" / "cases" / "origins.json"
TABLE = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
CASES = TABLE["cases"]

# Every note starts with one of these kinds, then ": " and a detail.
NOTE_KINDS = (
    "letter case",
    "default port",
    "explicit port",
    "trailing dot",
    "userinfo",
    "IP literal",
    "internationalized name",
    "percent-encoding",
    "path, query, fragment",
    "suffix collision",
    "empty",
    "malformed",
    "host label",
    "scheme",
    # Destination cases: the path and query of one request, spelled many ways.
    "dot segments",
    "unreserved escapes",
    "escape case",
    "tilde",
    "non-ASCII",
    "query characters",
    "plus and space",
    "encoded slash",
    "leading slashes",
    "stray percent",
    "path characters",
)
# The kinds of case the table must cover.
REQUIRED_KINDS = NOTE_KINDS[:12]
# The alias families: each must show two spellings with one destination.
ALIAS_FAMILIES = ("dot segments", "unreserved escapes", "escape case", "tilde", "non-ASCII",
                  "query characters", "plus and space")
DESTINATION_CASES = [case for case in CASES if "destination" in case]


def outcome(text):
    """("expect", origin) or ("error", category): the shape a table case has."""
    try:
        return ("expect", canonical_origin(text))
    except OriginError as error:
        return ("error", error.category)


def test_the_case_table_holds_at_least_forty_well_formed_cases():
    """The shared origin table holds at least forty cases, each with an input, exactly one of expect or error, and a note."""
    assert len(CASES) >= 40
    assert isinstance(TABLE["about"], str) and TABLE["about"]
    for case in CASES:
        assert isinstance(case["input"], str)
        assert len({"expect", "error"} & set(case)) == 1, case
        assert set(case) <= {"input", "expect", "error", "destination", "note"}, case
        assert "destination" not in case or "expect" in case, "only a valid origin has a destination"
        assert case.get("error", CATEGORIES[0]) in CATEGORIES, case
    assert len({case["input"] for case in CASES}) == len(CASES), "an input appears twice"


def test_every_error_category_appears_in_the_table():
    """Every error category of the origin rule is expected by at least one case of the table."""
    assert {case["error"] for case in CASES if "error" in case} == set(CATEGORIES)


def test_every_kind_of_case_the_issue_names_appears_in_the_table():
    """The table covers letter case, ports, trailing dots, userinfo, IP literals, internationalized names, percent-encoding, paths, suffix collisions, empty and malformed input."""
    kinds = [case["note"].split(": ", 1)[0] for case in CASES]
    assert set(kinds) <= set(NOTE_KINDS), sorted(set(kinds) - set(NOTE_KINDS))
    assert set(REQUIRED_KINDS) <= set(kinds), sorted(set(REQUIRED_KINDS) - set(kinds))


def test_the_table_is_ascii_so_look_alike_characters_stay_visible():
    """The case table file is pure ASCII: every non-ASCII character in it is written as an escape."""
    assert TABLE_PATH.read_bytes().isascii()


@pytest.mark.parametrize("case", CASES, ids=[case["note"] for case in CASES])
def test_the_lab_canonicalizer_agrees_with_every_case(case):
    """The lab's canonicalizer gives each table input its expected origin or its expected error category."""
    expected = ("expect", case["expect"]) if "expect" in case else ("error", case["error"])
    assert outcome(case["input"]) == expected


def test_the_table_holds_forty_destination_cases_in_every_alias_family():
    """At least forty cases give a canonical destination, and every alias family has two spellings in the table that share one destination."""
    assert len(DESTINATION_CASES) >= 40
    for family in ALIAS_FAMILIES:
        spellings: dict[str, set[str]] = {}
        for case in DESTINATION_CASES:
            if case["note"].startswith(family + ": "):
                spellings.setdefault(case["destination"], set()).add(case["input"])
        assert any(len(inputs) >= 2 for inputs in spellings.values()), f"no alias pair for {family}"


@pytest.mark.parametrize("case", DESTINATION_CASES, ids=[case["note"] for case in DESTINATION_CASES])
def test_the_lab_gives_every_destination_case_its_destination(case):
    """The lab's canonical destination of each table input is the expected one, it begins with the expected origin, and it is its own canonical form."""
    destination = canonical_destination(case["input"])
    assert destination == case["destination"]
    assert destination.startswith(case["expect"] + "/")
    assert canonical_destination(destination) == destination


@pytest.mark.parametrize("value", [None, b"https://lab.example", 443, ["https://lab.example"]])
def test_a_value_that_is_not_a_string_is_empty(value):
    """A value that is not a string is refused with the category empty."""
    assert outcome(value) == ("error", "empty")


def test_an_origin_error_is_a_value_error_that_names_its_category():
    """An origin error is a ValueError whose message starts with its category."""
    with pytest.raises(ValueError) as caught:
        canonical_origin("https://lab.example@attacker.test/")
    assert isinstance(caught.value, OriginError)
    assert caught.value.category == "userinfo"
    assert str(caught.value).startswith("userinfo: ")


LABELS = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,10}[A-Za-z0-9]", fullmatch=True)
HOSTS = st.lists(LABELS, min_size=1, max_size=4).map(".".join)
PORTS = st.one_of(st.just(""), st.integers(1, 65535).map(lambda port: f":{port}"))
TAILS = st.sampled_from(["", "/", "/a/b", "?q=1", "#top", "/x?y=https://other.example/#z"])


@settings(max_examples=examples(100), deadline=None)
@given(scheme=st.sampled_from(["http", "https", "HTTPS"]), host=HOSTS, port=PORTS, tail=TAILS)
def test_a_canonical_origin_is_its_own_canonical_form(scheme, host, port, tail):
    """Canonicalizing a canonical origin changes nothing, and a path, query or fragment never changes the origin."""
    origin = canonical_origin(f"{scheme}://{host}{port}{tail}")
    assert canonical_origin(origin) == origin
    assert canonical_origin(f"{scheme}://{host}{port}") == origin
    assert origin == origin.lower()


@settings(max_examples=examples(300), deadline=None)
@given(text=st.text(max_size=40) | st.text(max_size=30).map(lambda tail: "https://" + tail))
def test_any_text_gives_an_origin_or_an_origin_error(text):
    """Any text at all gives either a canonical origin or an origin error with a known category, never another exception."""
    kind, value = outcome(text)
    if kind == "error":
        assert value in CATEGORIES
    else:
        assert canonical_origin(value) == value
