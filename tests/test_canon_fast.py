"""The fast path of canon.py is correct for the reasons its docstring gives; each claim is checked here.

canonical_bytes hands a checked, plain copy of a value to the standard library's
C JSON encoder. The module docstring says why that encoder's output is RFC 8785's:
its string escaping is RFC 8785's for every character but the lone surrogates,
repr lays out a float the ECMAScript way wherever the copy keeps a float, and
below U+10000 code point order is UTF-16 order. These tests check each claim
directly, against a statement of RFC 8785 written out here, independently of
both the encoder and the rfc8785 package.
"""

from __future__ import annotations

import json
import random

import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.run import canon
from core.run.canon import CanonError, canonical_array, canonical_bytes, canonical_object

from tests.canon_corpus import boundary_float, random_float

from .conftest import examples

PROPERTY_SETTINGS = settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# RFC 8785 section 3.2.2.2, written out: these characters get these escapes...
RFC8785_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def rfc8785_string(text: str) -> str:
    """...the other controls below U+0020 get \\u00xx in lower case, and every other character is itself."""
    escaped = (RFC8785_SHORT_ESCAPES.get(char) or (f"\\u{ord(char):04x}" if char < " " else char) for char in text)
    return '"' + "".join(escaped) + '"'


EVERY_SCALAR_VALUE = "".join(chr(point) for point in range(0x110000) if not 0xD800 <= point <= 0xDFFF)


def test_json_escapes_every_character_as_rfc8785_does():
    """All 1,112,064 Unicode scalar values, in one string: json's escaping and RFC 8785's agree on each."""
    assert canon._compact_json(EVERY_SCALAR_VALUE) == rfc8785_string(EVERY_SCALAR_VALUE)
    assert canonical_bytes(EVERY_SCALAR_VALUE) == rfc8785_string(EVERY_SCALAR_VALUE).encode("utf-8")
    assert canonical_bytes(EVERY_SCALAR_VALUE) == rfc8785.dumps(EVERY_SCALAR_VALUE)


def test_each_character_is_escaped_on_its_own():
    """Escaping one character does not depend on its neighbours, so the one-string check covers every string."""
    rng = random.Random("neighbours")
    for _ in range(2000):
        text = "".join(rng.choice(EVERY_SCALAR_VALUE[:200] + "\u2028\ufeff\U0001F600") for _ in range(8))
        assert canon._compact_json(text) == '"' + "".join(canon._compact_json(c)[1:-1] for c in text) + '"'


@pytest.mark.parametrize("point", [0xD800, 0xDBFF, 0xDC00, 0xDFFF, *range(0xD800, 0xE000, 97)])
def test_lone_surrogates_are_the_one_difference_and_are_refused(point):
    """json writes a lone surrogate as it is; RFC 8785 has none, and canonical_bytes refuses it."""
    surrogate = chr(point)
    assert canon._compact_json(surrogate) == f'"{surrogate}"'
    for value in (surrogate, ["ok", f"a{surrogate}b"], {surrogate: 1}, {"k": {"deeper": surrogate}}):
        with pytest.raises(CanonError, match=f"lone surrogate \\(U\\+{point:04X}\\)"):
            canonical_bytes(value)


def test_a_surrogate_pair_written_as_two_escapes_reads_back_as_one_character():
    assert canonical_bytes(json.loads('"\\ud83d\\ude00"')) == '"\U0001F600"'.encode("utf-8")


def floats_to_check() -> list[float]:
    rng = random.Random("float layouts")
    found = [random_float(rng) for _ in range(20_000)] + [boundary_float(rng) for _ in range(20_000)]
    found += [10.0**e for e in range(-10, 24)] + [2.0**e for e in range(-30, 80)] + [1e-4, 1e16, 1e21, 1e-6, 1e-7]
    return found + [-value for value in found]


def test_each_float_json_is_left_to_write_is_laid_out_as_ecmascript_lays_it_out():
    """Where the plain copy keeps a float, repr(float) (json's text) is ECMAScript's; an int is the same digits."""
    kinds = {"int": 0, "float": 0, "number": 0}
    for value in floats_to_check():
        plain = canon._plain_float(value)
        ecmascript = canon._encode_float(value)
        if type(plain) is int:
            assert str(plain) == ecmascript == canon._compact_json(plain), value
            kinds["int"] += 1
        elif type(plain) is float:
            assert repr(plain) == ecmascript == canon._compact_json(plain), value
            assert 1e-4 <= abs(plain) < 1e16 and not plain.is_integer(), value
            kinds["float"] += 1
        else:
            assert plain.text == ecmascript, value
            kinds["number"] += 1
    assert min(kinds.values()) > 1000, kinds  # every branch was exercised


def test_a_value_holding_an_exponent_number_is_written_by_the_short_path_with_the_same_bytes():
    value = {"b": [1e-7, 2.5, {"c": 1e21}], "a": "x", "n": None, "t": True, "small": 5e-324}
    with pytest.raises(canon._NotJsonReady):
        canon._compact_json(canon._plain(value, 0))
    assert canonical_bytes(value) == rfc8785.dumps(value)
    assert canonical_bytes(value) == b'{"a":"x","b":[1e-7,2.5,{"c":1e+21}],"n":null,"small":5e-324,"t":true}'


def json_values(keys=st.text(), leaves=None):
    leaves = leaves or (st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
                        | st.floats(allow_nan=False, allow_infinity=False) | st.text())
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                        max_leaves=20)


@PROPERTY_SETTINGS
@given(json_values())
def test_both_writers_give_the_same_text_for_any_plain_copy(value):
    """The short writer (for values holding exponent numbers) and json agree wherever json can write."""
    try:
        plain = canon._plain(value, 0)
    except CanonError:
        return  # a lone surrogate in a key or string: refused later, by the UTF-8 step
    try:
        fast = canon._compact_json(plain)
    except canon._NotJsonReady:
        fast = None
    short = canon._written(plain)
    assert fast is None or fast == short


@PROPERTY_SETTINGS
@given(st.lists(st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"])), max_size=8))
def test_below_u10000_code_point_order_is_utf16_order(keys):
    assert sorted(keys) == sorted(keys, key=canon._utf16_code_units)


def test_from_u10000_on_the_two_orders_differ_and_utf16_wins():
    keys = ["\U0001F600", "\uFB01", "\uE000", "\U00010000", "z"]
    assert sorted(keys) != sorted(keys, key=canon._utf16_code_units)
    value = {key: index for index, key in enumerate(keys)}
    assert list(json.loads(canonical_bytes(value))) == sorted(keys, key=canon._utf16_code_units)
    assert canonical_bytes(value) == rfc8785.dumps(value)


@PROPERTY_SETTINGS
@given(json_values(keys=st.text(st.characters(exclude_categories=["Cs"]))))
def test_embedding_already_encoded_members_gives_the_bytes_of_the_whole(value):
    """canonical_object and canonical_array let a record encoded once be part of a larger one."""
    try:
        whole = canonical_bytes({"event": value, "prev": "0" * 64, "list": [value, value]})
    except CanonError:
        return
    encoded = canonical_bytes(value)
    members = {"prev": canonical_bytes("0" * 64), "event": encoded, "list": canonical_array([encoded, encoded])}
    assert canonical_object(members) == whole


def test_canonical_object_refuses_keys_that_are_not_strings():
    with pytest.raises(CanonError, match="keys must be strings"):
        canonical_object({1: b"1"})
