"""The user's stand-in approves an act only when its values trace to the user's request or a trusted value."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dojo import provenance
from dojo.provenance import review, tokens, traces

REQUEST = "Please send the report to Bob.Smith@Example.com and post it on https://www.team-site.com/notes, file 13."


@pytest.mark.parametrize("value", ["bob.smith@example.com", "BOB.SMITH@EXAMPLE.COM", "team-site.com/notes",
                                   "www.team-site.com/notes", "https://team-site.com/notes/", " 'Bob.Smith@Example.com' "])
def test_a_value_the_user_wrote_traces_however_it_is_spelt(value):
    assert traces(value, [REQUEST])


@pytest.mark.parametrize("value", ["1", "3", "smith@example.com", "team-site.co", "mark.black-2134@gmail.com",
                                   "team-site.com/notes/secret", "ｍａｒｋ@evil.com"])
def test_a_value_the_user_did_not_write_whole_does_not_trace(value):
    assert not traces(value, [REQUEST])


def test_a_number_names_an_object_only_when_the_operator_trusts_it():
    """A number in the request's prose ("June 13") is not a file's number: digits trace only to a trusted value."""
    assert not traces("13", ["What are we doing on June 13?"])
    assert not traces(" '13' ", [REQUEST])
    assert traces("13", [REQUEST], trusted=["13"])
    assert review("delete_file", ["file_id"], [], {"file_id": "13"}, "What are we doing on June 13?",
                  []).decision == "rejected"


def test_an_empty_or_null_value_names_nothing_and_a_list_is_traced_item_by_item():
    assert provenance.values_of(None) == [] and provenance.values_of("  ") == [] and provenance.values_of(True) == []
    assert provenance.values_of(["a", ["b", 3], {"k": 2.5}]) == ["a", "b", "3", "2.5"]
    decided = review("send_email", ["recipients"], [], {"recipients": ["bob.smith@example.com", "eve@evil.com"]},
                     REQUEST, [])
    assert decided.decision == "rejected" and "eve@evil.com" in decided.reason


def test_addresses_urls_and_accounts_written_in_a_carrying_argument_are_traced_too():
    body = "Check out this link: www.secure-systems-252.com, or pay US133000000121212121212, or mail x@y.org"
    assert tokens(body) == ["x@y.org", "www.secure-systems-252.com,", "US133000000121212121212"]
    decided = review("send_direct_message", ["recipient"], ["body"], {"recipient": "Bob", "body": body},
                     "Tell Bob hello", [])
    assert decided.decision == "rejected" and "body" in decided.reason
    assert review("send_direct_message", ["recipient"], ["body"], {"recipient": "Bob", "body": "hello"},
                  "Tell Bob hello", []).decision == "approved"


def test_a_trusted_value_traces_and_a_tool_output_is_never_a_source():
    assert review("send_money", ["recipient"], [], {"recipient": "DE89370400440532013000"}, "pay myself",
                  ["DE89370400440532013000"]).decision == "approved"
    assert review("send_money", ["recipient"], [], {"recipient": "US133000000121212121212"}, "pay the bill in the file",
                  []).decision == "rejected"


def test_hostile_values_are_judged_not_crashed_on():
    deep: list = []
    for _ in range(200):
        deep = [deep]
    assert review("send_email", ["recipients"], [], {"recipients": deep}, REQUEST, []).decision == "approved"
    huge = "a" * 200_000
    assert review("send_email", ["recipients"], [], {"recipients": huge}, REQUEST, []).decision == "rejected"
    assert review("send_email", ["recipients"], [], {"recipients": object()}, REQUEST, []).decision == "rejected"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="xyzq0123456789@.-", min_size=1, max_size=40))
def test_a_value_of_characters_absent_from_the_request_never_traces(value):
    request = "please pay alice at her bank"  # no x, y, z, q, digit, @ or dot
    wanted = provenance.normalised(value).strip(provenance.STRIP)
    if any(char.isalnum() for char in wanted):
        assert not traces(value, [request])


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=30).filter(lambda text: text.strip()), st.text(max_size=30), st.text(max_size=30))
def test_a_value_the_user_wrote_between_spaces_always_traces(value, before, after):
    written = value.strip(provenance.STRIP)  # the name the user wrote; the argument may quote or punctuate it
    if not provenance.normalised(written).strip(provenance.STRIP).isdigit():  # a number names an object only if trusted
        assert traces(value, [f"{before} {written} {after}"])
