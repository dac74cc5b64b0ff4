"""Canonical JSON agrees with a maintained RFC 8785 implementation, and refuses what has no form."""

from __future__ import annotations

import json
import math
import struct

import pytest
import rfc8785

from core.run.canon import CanonError, artifact_text, canonical_bytes, digest, write_artifact

from tests.canon_corpus import FAMILIES, values


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_canonical_bytes_match_rfc8785(family):
    """Every generated value of the family gives rfc8785's bytes: 100,000 values over all families."""
    checked = mismatches = 0
    first = None
    for value in values(family):
        checked += 1
        if canonical_bytes(value) != rfc8785.dumps(value):
            mismatches += 1
            first = first if first is not None else value
    assert (checked, mismatches) == (FAMILIES[family][1], 0), f"{mismatches} mismatches, first: {first!r:.300}"


def test_the_equivalence_corpus_holds_100000_values():
    assert sum(count for _, count in FAMILIES.values()) == 100_000


# RFC 8785 appendix B: IEEE 754 bit patterns and the text ECMAScript gives each.
ECMASCRIPT_NUMBERS = [
    (0x0000000000000000, "0"), (0x8000000000000000, "0"),
    (0x0000000000000001, "5e-324"), (0x8000000000000001, "-5e-324"),
    (0x7FEFFFFFFFFFFFFF, "1.7976931348623157e+308"), (0xFFEFFFFFFFFFFFFF, "-1.7976931348623157e+308"),
    (0x4340000000000000, "9007199254740992"), (0xC340000000000000, "-9007199254740992"),
    (0x4430000000000000, "295147905179352830000"),
    (0x44B52D02C7E14AF5, "9.999999999999997e+22"), (0x44B52D02C7E14AF6, "1e+23"),
    (0x44B52D02C7E14AF7, "1.0000000000000001e+23"),
    (0x444B1AE4D6E2EF4E, "999999999999999700000"), (0x444B1AE4D6E2EF4F, "999999999999999900000"),
    (0x444B1AE4D6E2EF50, "1e+21"),
    (0x3EB0C6F7A0B5ED8C, "9.999999999999997e-7"), (0x3EB0C6F7A0B5ED8D, "0.000001"),
    (0x41B3DE4355555553, "333333333.3333332"), (0x41B3DE4355555554, "333333333.33333325"),
    (0x41B3DE4355555555, "333333333.3333333"), (0x41B3DE4355555556, "333333333.3333334"),
    (0x41B3DE4355555557, "333333333.33333343"),
    (0xBECBF647612F3696, "-0.0000033333333333333333"), (0x43143FF3C1CB0959, "1424953923781206.2"),
]


@pytest.mark.parametrize("bits, text", ECMASCRIPT_NUMBERS, ids=[text for _, text in ECMASCRIPT_NUMBERS])
def test_numbers_print_as_ecmascript_prints_them(bits, text):
    value = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    assert canonical_bytes(value) == text.encode("ascii")
    assert canonical_bytes([value, {"n": value}]) == f'[{text},{{"n":{text}}}]'.encode("ascii")


def test_keys_sort_by_utf16_code_units_not_code_points():
    value = {"\U0001F600": 1, "\uFB01": 2}  # U+1F600 is D83D DE00 in UTF-16, before FB01
    assert list(json.loads(canonical_bytes(value))) == ["\U0001F600", "\uFB01"]
    assert canonical_bytes(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "lone \ud800", {1: "x"}, 2**53, {"s": {1, 2}}])
def test_values_without_a_canonical_form_raise_a_typed_error(value):
    with pytest.raises(CanonError):
        canonical_bytes(value)


def test_digest_is_sha256_hex_of_the_canonical_bytes():
    assert digest({"b": 1, "a": 2}) == digest({"a": 2, "b": 1})
    assert digest({"a": 1}) == "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"


def test_artifacts_are_sorted_indented_utf8_with_one_trailing_newline(tmp_path):
    path = write_artifact(tmp_path / "a.json", {"é": [1, 2.5], "a": None})
    assert path.read_bytes() == '{\n  "a": null,\n  "é": [\n    1,\n    2.5\n  ]\n}\n'.encode("utf-8")
    assert artifact_text({"x": 1}).endswith("}\n") and not artifact_text({"x": 1}).endswith("\n\n")
    with pytest.raises(CanonError):
        artifact_text({"x": math.nan})
