"""read_json answers every file it refuses with the caller's error and one line, and honours canon's depth limit.

The files that try it: one that would surface as the wrong error (a 5000-digit
integer: ValueError), one that would read as the wrong value (1e400 as
infinity), and a depth json reads (999 levels) but canonical JSON cannot digest.
Property tests then write arbitrary text, and arbitrary JSON values, to a file
and read it.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.run.canon import MAX_DEPTH, CanonError, canonical_bytes
from core.run.jsonfile import parse_json, read_json

from .conftest import examples

PROPERTY_SETTINGS = settings(max_examples=examples(2000), deadline=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class LoaderError(ValueError):
    """Stands for a caller's own error type (SealError, TaxonomyError...)."""


def read_text(tmp_path, text: str | bytes) -> object:
    path = tmp_path / "input.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return read_json(path, error=LoaderError, what="test file")


def refusal(tmp_path, text: str | bytes) -> str:
    """The one line read_json refuses ``text`` with; fails the test if it reads it or raises anything else."""
    with pytest.raises(LoaderError) as caught:
        read_text(tmp_path, text)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("input.json: ") and str(tmp_path) not in message
    return message


def nested_text(depth: int, shape: str = "list") -> str:
    opens = "".join("[" if shape == "list" or (shape == "mixed" and level % 2 == 0) else '{"k":'
                    for level in range(depth))
    closes = "".join("]" if char == "[" else "}" for char in reversed(opens.replace('{"k":', "{")))
    return opens + "1" + closes


REFUSED = {
    "an integer of 5000 digits": ("[" + "9" * 5000 + "]", "an integer too long to read (more than 4300 digits)"),
    "a negative integer of 5000 digits": ('{"seq": -' + "1" * 5000 + "}", "an integer too long to read"),
    "1e400, which reads as infinity": ('{"a": 1e400}', "the number 1e400 is too large for a JSON number"),
    "-1e400": ("[-1e400]", "the number -1e400 is too large"),
    "a long number beyond the doubles": ("1" * 400 + ".5", "is too large for a JSON number"),
    "NaN": ("[NaN]", "not JSON (NaN is not a JSON number)"),
    "-Infinity": ("[-Infinity]", "not JSON (-Infinity is not a JSON number)"),
    "one level beyond MAX_DEPTH": (nested_text(MAX_DEPTH + 1), f"nested too deeply: more than {MAX_DEPTH} levels"),
    "objects one level beyond MAX_DEPTH": (nested_text(MAX_DEPTH + 1, "object"), "nested too deeply"),
    "999 levels, which json reads": (nested_text(999, "mixed"), "nested too deeply"),
    "100,000 levels, which json cannot read": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "a repeated key": ('{"a": 1, "a": 2}', "the key 'a' appears twice in one object"),
    "not JSON": ("{", "not JSON (Expecting property name"),
    "not UTF-8": (b"\xff\xfe", "not UTF-8 text"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_hostile_file_is_refused_with_the_callers_error_and_one_line(tmp_path, case):
    text, problem = REFUSED[case]
    assert problem in refusal(tmp_path, text)


def test_the_long_number_is_shortened_in_the_message(tmp_path):
    assert len(refusal(tmp_path, "[" + "1" * 400 + "e5]")) < 150


@pytest.mark.parametrize("shape", ["list", "object", "mixed"])
def test_max_depth_is_read_and_digested(tmp_path, shape):
    """The limit is one limit: a file at MAX_DEPTH reads and its value digests; one level more is refused by both."""
    value = read_text(tmp_path, nested_text(MAX_DEPTH, shape))
    assert canonical_bytes(value) == nested_text(MAX_DEPTH, shape).encode("ascii")
    too_deep = json.loads(nested_text(MAX_DEPTH + 1, shape))
    with pytest.raises(CanonError, match="nested too deeply"):
        canonical_bytes(too_deep)
    assert "nested too deeply" in refusal(tmp_path, nested_text(MAX_DEPTH + 1, shape))


def test_what_read_json_leaves_to_canonical_bytes(tmp_path):
    """Integers beyond 2**53 - 1 and lone surrogates are JSON; the digest refuses them, naming the record."""
    value = read_text(tmp_path, '{"big": 9007199254740993, "text": "\\ud800"}')
    assert value == {"big": 2**53 + 1, "text": "\ud800"}
    for part in value.values():
        with pytest.raises(CanonError):
            canonical_bytes(part)


@pytest.mark.parametrize("case", sorted(case for case, (text, _) in REFUSED.items() if isinstance(text, str)))
def test_parse_json_refuses_the_same_text_with_the_problem_alone(tmp_path, case):
    """The text-level reader (for a model's reply) gives the same answer, without a file name."""
    text, problem = REFUSED[case]
    with pytest.raises(LoaderError) as caught:
        parse_json(text, error=LoaderError)
    assert problem in str(caught.value) and "\n" not in str(caught.value)
    assert str(caught.value) == refusal(tmp_path, text).removeprefix("input.json: ")


def test_a_missing_file_is_named_by_what_it_should_have_been(tmp_path):
    with pytest.raises(LoaderError, match="^missing.json: no such test file$"):
        read_json(tmp_path / "missing.json", error=LoaderError, what="test file")


# --- property tests: any text, any value -----------------------------------------------------

json_like_text = st.one_of(
    st.text(),
    st.text(alphabet='[]{}":,0123456789.eE+-truefalsnul \\u\n\t'),
    st.builds(lambda depth, shape: nested_text(depth, shape), st.integers(0, MAX_DEPTH + 20),
              st.sampled_from(["list", "object", "mixed"])),
    st.builds(lambda digits, exponent: f"[{digits}e{exponent}]", st.integers(0, 10**30), st.integers(-500, 500)),
    st.builds(lambda count: "[" + "7" * count + "]", st.integers(4000, 6000)),
)


@PROPERTY_SETTINGS
@given(text=json_like_text)
def test_any_text_is_read_or_refused_with_one_line(tmp_path, text):
    try:
        value = read_text(tmp_path, text)
    except LoaderError as refused:
        assert "\n" not in str(refused) and str(refused).startswith("input.json: ")
        return
    assert value == json.loads(text) or value != value  # read exactly as json reads it (NaN never reaches here)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@settings(PROPERTY_SETTINGS, max_examples=examples(1000))
@given(value=json_values)
def test_any_json_value_written_to_a_file_reads_back_or_is_refused_for_a_stated_reason(tmp_path, value):
    """Finite values read back equal; infinities are refused; a value read back is one canonical_bytes accepts
    or refuses with CanonError (never another error)."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        read = read_text(tmp_path, text)
    except LoaderError as refused:
        assert "Infinity is not a JSON number" in str(refused) or "integer too long" in str(refused)
        return
    assert read == value
    try:
        canonical_bytes(read)
    except CanonError:
        pass


@PROPERTY_SETTINGS
@given(depth=st.integers(1, MAX_DEPTH + 30), shape=st.sampled_from(["list", "object", "mixed"]))
def test_read_json_and_canonical_bytes_refuse_exactly_the_same_depths(tmp_path, depth, shape):
    text = nested_text(depth, shape)
    try:
        read_text(tmp_path, text)
        read_refused = False
    except LoaderError:
        read_refused = True
    try:
        canonical_bytes(json.loads(text))
        digest_refused = False
    except CanonError:
        digest_refused = True
    assert read_refused == digest_refused == (depth > MAX_DEPTH)


def test_a_float_that_reads_as_infinity_is_never_returned(tmp_path):
    for text in ("1e309", "-1e309", "1.8e308", "[1e999999]"):
        assert "too large for a JSON number" in refusal(tmp_path, text)
    assert read_text(tmp_path, "1.7976931348623157e308") == 1.7976931348623157e308
    assert math.isfinite(read_text(tmp_path, "1e308"))


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    """A FIFO where a file should be (a config, a pack, a report) gets one line, not a wait for a writer."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    reads = "import sys\nfrom core.run.jsonfile import read_json\nread_json(sys.argv[1], error=ValueError)\n"
    done = subprocess.run([sys.executable, "-c", reads, str(fifo)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert done.stderr.strip().endswith("ValueError: config.json: not a regular file (a FIFO, socket or device), "
                                        "so it is not read"), done.stderr
