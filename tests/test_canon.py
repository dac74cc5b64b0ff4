"""Canonical JSON agrees with a maintained RFC 8785 implementation, and refuses what has no form."""

from __future__ import annotations

import json
import math
import random
import struct

import pytest
import rfc8785

from core.run.canon import CanonError, artifact_text, canonical_bytes, digest, write_artifact

CASES = 4000  # per family below: 12,000 generated values in all


def random_float(rng: random.Random) -> float:
    """Any finite double: random bit patterns reach subnormals, huge exponents and every digit count."""
    while True:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            return value


def random_text(rng: random.Random) -> str:
    pools = [(0x00, 0x7F), (0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF)]
    chars = []
    for _ in range(rng.randrange(0, 12)):
        low, high = rng.choice(pools)
        chars.append(chr(rng.randint(low, high)))
    return "".join(chars)


def random_value(rng: random.Random, depth: int = 0) -> object:
    choice = rng.randrange(8 if depth < 3 else 6)
    if choice == 0:
        return None
    if choice == 1:
        return rng.random() < 0.5
    if choice == 2:
        return rng.randint(-(2**53) + 1, 2**53 - 1)
    if choice == 3:
        return random_float(rng)
    if choice in (4, 5):
        return random_text(rng)
    if choice == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_text(rng): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


@pytest.mark.parametrize("family", ["floats", "strings", "nested"])
def test_canonical_bytes_match_rfc8785(family):
    rng = random.Random(f"canon-{family}")
    make = {"floats": random_float, "strings": random_text, "nested": random_value}[family]
    for _ in range(CASES):
        value = make(rng)
        assert canonical_bytes(value) == rfc8785.dumps(value), value


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
