"""canonical_bytes answers every value it cannot encode with CanonError, and nothing else.

The values that try it would otherwise surface as the wrong error or as wrong
bytes: a 5000-digit integer (ValueError from int's own printing), about 250
levels of nesting (RecursionError), an IntEnum with its own __str__ (invalid
JSON). Each is a typed refusal, and a property test throws arbitrary values,
hostile ones included, at it.
"""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict

import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.run.canon import MAX_DEPTH, MAX_SAFE_INTEGER, CanonError, artifact_text, canonical_bytes, digest

from .conftest import examples

PROPERTY_SETTINGS = settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Level(enum.IntEnum):
    LOW = 1

    def __str__(self) -> str:
        return self.name  # the text is not the value: json would write 1, str() says LOW


class Ratio(float):
    def __repr__(self) -> str:
        return "one half"


def nested(depth: int, shape: str = "list") -> object:
    """A value with ``depth`` levels of arrays (or objects, or both in turn) around a 1."""
    value: object = 1
    for level in range(depth):
        use_list = shape == "list" or (shape == "mixed" and level % 2 == 0)
        value = [value] if use_list else {"k": value}
    return value


@pytest.mark.parametrize("shape", ["list", "object", "mixed"])
def test_nesting_up_to_max_depth_is_encoded_and_one_level_more_is_refused(shape):
    assert canonical_bytes(nested(MAX_DEPTH, shape)).count(b"1") == 1
    with pytest.raises(CanonError, match=f"nested too deeply \\(more than {MAX_DEPTH} levels"):
        canonical_bytes(nested(MAX_DEPTH + 1, shape))


@pytest.mark.parametrize("depth", [250, 999, 5000, 100_000])
def test_deep_values_are_a_typed_refusal_not_a_recursion_error(depth):
    with pytest.raises(CanonError, match="nested too deeply"):
        canonical_bytes(nested(depth, "mixed"))


def test_tuples_count_as_arrays_for_depth():
    value: object = 1
    for _ in range(MAX_DEPTH + 1):
        value = (value,)
    with pytest.raises(CanonError, match="nested too deeply"):
        canonical_bytes(value)


def cycles() -> dict[str, object]:
    in_list: list = []
    in_list.append(in_list)
    in_dict: dict = {}
    in_dict["self"] = in_dict
    through_tuple: list = []
    through_tuple.append(("x", {"back": through_tuple}))
    deep_down: object = in_list
    for _ in range(MAX_DEPTH - 3):
        deep_down = [deep_down]
    return {"list": in_list, "dict": in_dict, "tuple": through_tuple, "below many levels": deep_down}


@pytest.mark.parametrize("name", sorted(cycles()))
def test_a_value_that_contains_itself_is_named_as_a_cycle(name):
    with pytest.raises(CanonError, match="contains itself \\(a cycle\\)"):
        canonical_bytes(cycles()[name])


def test_a_shared_but_acyclic_value_is_not_called_a_cycle_and_is_answered_quickly():
    shared: object = [1]
    for _ in range(MAX_DEPTH + 10):
        shared = [shared, shared]  # 2**138 paths, one object per level
    with pytest.raises(CanonError, match="nested too deeply"):
        canonical_bytes(shared)
    fine = [[1]] * 3
    assert canonical_bytes([fine, fine]) == b"[[[1],[1],[1]],[[1],[1],[1]]]"


@pytest.mark.parametrize("value", [10**5000, -(10**5000), 10**4300, 2**53, -(2**53), 2**64],
                         ids=["10**5000", "-10**5000", "10**4300", "2**53", "-2**53", "2**64"])
def test_integers_a_double_cannot_hold_are_refused_without_printing_them(value):
    with pytest.raises(CanonError) as caught:
        canonical_bytes(value)
    assert f"{value.bit_length()} bits" in str(caught.value) and len(str(caught.value)) < 200


def test_the_largest_exact_integers_are_encoded():
    assert canonical_bytes([MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]) == b"[9007199254740991,-9007199254740991]"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, float("1e400"), float("-1e400")])
def test_non_finite_numbers_are_refused(value):
    with pytest.raises(CanonError, match="has no JSON form"):
        canonical_bytes({"x": [value]})


@pytest.mark.parametrize("value", [Level.LOW, Ratio(0.5), {"level": Level.LOW}, [Ratio(2.0)]])
def test_subclasses_of_int_and_float_are_refused(value):
    """Before, an IntEnum with its own __str__ came out as invalid JSON; now it is refused by name."""
    with pytest.raises(CanonError, match="is a subclass of (int|float)"):
        canonical_bytes(value)


def test_bool_is_not_taken_for_an_int_subclass():
    assert canonical_bytes([True, False, None]) == b"[true,false,null]"


def test_subclasses_of_str_dict_and_list_are_encoded_as_what_they_hold():
    class Name(str):
        def __str__(self) -> str:
            return "something else"

    class Items(list):
        pass

    value = OrderedDict([("b", Items([Name("x")])), ("a", Name("y"))])
    assert canonical_bytes(value) == b'{"a":"y","b":["x"]}' == rfc8785.dumps({"a": "y", "b": ["x"]})


def test_keys_must_be_plain_strings():
    class Key(str):
        def __lt__(self, other: object) -> bool:  # would sort the keys in its own order
            return False

    with pytest.raises(CanonError, match="keys must be plain strings, got a Key"):
        canonical_bytes({Key("b"): 1, Key("a"): 2})
    for key in (1, None, 1.5, ("a",)):
        with pytest.raises(CanonError, match="keys must be strings"):
            canonical_bytes({key: 1})


@pytest.mark.parametrize("value", [{1, 2}, b"bytes", object(), Level, print, 1j, range(3)])
def test_other_types_are_refused_by_type_name(value):
    with pytest.raises(CanonError, match="has no JSON form"):
        canonical_bytes([value])


def test_digest_and_artifact_text_refuse_what_canonical_bytes_refuses():
    for value in (nested(MAX_DEPTH + 1), Level.LOW, 10**5000, {"x": math.inf}):
        with pytest.raises(CanonError):
            digest(value)
        with pytest.raises(CanonError):
            artifact_text(value)


# --- anything at all ------------------------------------------------------------------------

def huge_integer() -> int:
    return 10**5000  # built on demand: Hypothesis could not print it as a constant


hostile_leaves = (st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(max_size=4)
                  | st.sampled_from([Level.LOW, Ratio(1.5), object(), {1, 2}, "\ud800", 2**53]) | st.builds(huge_integer))
hostile_keys = st.text() | st.integers() | st.sampled_from([None, 1.5, "\udfff", Level.LOW])
hostile_values = st.recursive(
    hostile_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(hostile_keys, inner, max_size=4),
    max_leaves=25)


@PROPERTY_SETTINGS
@given(hostile_values)
def test_any_value_is_encoded_as_rfc8785_encodes_it_or_refused_with_canon_error(value):
    """Never another exception; when bytes come out they are rfc8785's, and they read back to the same bytes."""
    try:
        encoded = canonical_bytes(value)
    except CanonError:
        return
    assert encoded == rfc8785.dumps(value)
    # Read back as doubles, as RFC 8785 reads every number (a whole float from 2**53 up prints
    # as digits that an int reading would take for an integer beyond the exact range).
    assert canonical_bytes(json.loads(encoded, parse_int=float)) == encoded


@PROPERTY_SETTINGS
@given(st.integers(1, MAX_DEPTH + 40), st.sampled_from(["list", "object", "mixed"]))
def test_depth_is_refused_exactly_beyond_max_depth(depth, shape):
    try:
        canonical_bytes(nested(depth, shape))
    except CanonError:
        assert depth > MAX_DEPTH
    else:
        assert depth <= MAX_DEPTH
