"""Canonical JSON: the one byte form every digest in the harness is taken over.

Two parties that hash "the same" record must hash the same bytes, whatever
language, dictionary order or float printer they use. RFC 8785 (the JSON
Canonicalization Scheme, JCS) fixes those bytes: object keys sorted by their
UTF-16 code units, no insignificant whitespace, strings escaped minimally,
numbers printed the way ECMAScript prints a double.

Artifacts on disk use a second, human-friendly form (sorted keys, two-space
indent, one trailing newline). It is deterministic too, but it is for reading
and diffing; digests are always taken over ``canonical_bytes``.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

__all__ = ["CanonError", "canonical_bytes", "digest", "artifact_text", "write_artifact"]

# JSON numbers are IEEE doubles; integers beyond this are not exactly representable.
MAX_SAFE_INTEGER = 2**53 - 1

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


class CanonError(ValueError):
    """A value has no canonical JSON form (NaN, infinity, lone surrogate, bad key...)."""


def canonical_bytes(value: object) -> bytes:
    """The RFC 8785 bytes of ``value``: the input to every digest."""
    return _encode(value).encode("utf-8")


def digest(value: object) -> str:
    """SHA-256, in hex, of the canonical bytes of ``value``."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def artifact_text(value: object) -> str:
    """The on-disk form of an artifact: sorted keys, two-space indent, one newline."""
    canonical_bytes(value)  # refuse anything that has no canonical form
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_artifact(path: str | Path, value: object) -> Path:
    """Write ``value`` as an artifact, as UTF-8 bytes, whatever the locale says."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(artifact_text(value).encode("utf-8"))
    return path


def _encode(value: object) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return _encode_int(value)
    if isinstance(value, float):
        return _encode_float(value)
    if isinstance(value, str):
        return _encode_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(item) for item in value) + "]"
    if isinstance(value, dict):
        return _encode_object(value)
    raise CanonError(f"{type(value).__name__} has no JSON form")


def _encode_object(value: dict) -> str:
    for key in value:
        if not isinstance(key, str):
            raise CanonError(f"object keys must be strings, got {type(key).__name__}")
    # RFC 8785 section 3.2.3: sort by UTF-16 code units, not by code points.
    keys = sorted(value, key=lambda k: _check_text(k).encode("utf-16-be"))
    return "{" + ",".join(_encode_string(k) + ":" + _encode(value[k]) for k in keys) + "}"


def _encode_int(value: int) -> str:
    if abs(value) > MAX_SAFE_INTEGER:
        raise CanonError(f"integer {value} is outside the exactly representable range of a JSON number")
    return str(value)


def _encode_float(value: float) -> str:
    """ECMAScript Number.prototype.toString, which RFC 8785 adopts for numbers."""
    if math.isnan(value) or math.isinf(value):
        raise CanonError(f"{value!r} has no JSON form")
    if value == 0:
        return "0"  # also for -0.0
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest_digits(abs(value))
    k = len(digits)
    n = exponent + k  # the value is 0.<digits> * 10**n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        text = f"{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return sign + text


def _shortest_digits(value: float) -> tuple[str, int]:
    """The shortest round-tripping decimal digits of ``value`` and their exponent.

    ``repr`` already finds the shortest digits (as ECMAScript requires);
    this only takes its notation apart: value == int(digits) * 10**exponent.
    """
    mantissa, _, exp = repr(value).partition("e")
    whole, _, fraction = mantissa.partition(".")
    fraction = fraction.rstrip("0") if fraction != "0" else ""
    digits = (whole + fraction).lstrip("0")
    exponent = int(exp or 0) - len(fraction)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    return stripped, exponent


def _encode_string(value: str) -> str:
    out = ['"']
    for char in _check_text(value):
        if char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _check_text(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CanonError(f"string holds a lone surrogate at index {exc.start}") from None
    return value
