"""Canonical JSON: the one byte form every digest in the harness is taken over.

Two parties that hash "the same" record must hash the same bytes, whatever
language, dictionary order or float printer they use. RFC 8785 (the JSON
Canonicalization Scheme, JCS) fixes those bytes: object keys sorted by their
UTF-16 code units, no insignificant whitespace, strings escaped minimally,
numbers printed the way ECMAScript prints a double.

Artifacts on disk use a second, human-friendly form (sorted keys, two-space
indent, one trailing newline). It is deterministic too, but it is for reading
and diffing; digests are always taken over ``canonical_bytes``.

How the bytes are made, and why they are RFC 8785's
----------------------------------------------------
Every record the harness keeps is digested, so this runs on every event. It
works in two steps. ``_plain`` walks the value once, in Python: it refuses
anything with no canonical form and returns a plain copy in which each
object's keys are already in RFC 8785 order. Then the standard library's C
JSON encoder writes that copy, compactly, with ``ensure_ascii=False``. Its
output is RFC 8785's, part by part:

- null, true, false: the same words.
- Strings. json escapes exactly ``"``, ``\\`` and U+0000 to U+001F, using
  ``\\b \\t \\n \\f \\r`` where they exist and ``\\u00xx`` in lower-case hex
  for the rest, and writes every other character as itself. That is RFC 8785
  section 3.2.2.2 to the letter. The one difference: json writes a lone
  surrogate (U+D800 to U+DFFF) as it is, where RFC 8785 has no form for it;
  the final UTF-8 encoding refuses it. tests/test_canon_fast.py checks this
  for every code point.
- Objects. json writes members in the dict's own order, and ``_plain`` built
  each dict in UTF-16 order. For keys that are all ASCII that is plain
  ``sorted`` (code points and UTF-16 code units agree below U+10000).
- Integers. json writes the digits; ``_plain`` has checked that the integer
  is one a double holds exactly, which ECMAScript prints as those digits.
- Other numbers. json writes ``repr(float)``. repr and ECMAScript both print
  the shortest digits that read back as the same double; they differ only in
  layout: repr writes ``2.0`` where ECMAScript writes ``2``, and switches to
  an exponent outside 1e-4 <= |x| < 1e16, ECMAScript outside 1e-6 <= |x| <
  1e21. So ``_plain`` turns a whole float up to 2**53 - 1 into an int (the
  same digits), keeps a fraction whose repr has no exponent (there the two
  layouts agree), and wraps every other float in a ``_Number`` holding its
  ECMAScript text (``_encode_float``).
  json cannot write a ``_Number``, so a value holding one is written by the
  short ``_written`` instead. Such numbers (1e-7, 1e21, 5e-324) are rare in a
  ledger.

What has no canonical form raises CanonError: NaN and infinities, integers a
double cannot hold exactly, lone surrogates, keys that are not strings,
subclasses of int or float (an IntEnum can print itself as a name, so its
text is not its value), other types, nesting deeper than MAX_DEPTH, and a
value that contains itself. jsonfile.read_json honours the same MAX_DEPTH.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = ["CanonError", "MAX_DEPTH", "MAX_SAFE_INTEGER", "canonical_bytes", "canonical_object",
           "canonical_array", "digest", "artifact_text", "write_artifact"]

# JSON numbers are IEEE doubles; integers beyond this are not exactly representable.
MAX_SAFE_INTEGER = 2**53 - 1

# The deepest nesting of objects and arrays the harness reads or digests: [] is 1 level,
# [[]] is 2. Far beyond any record, and well inside Python's recursion limit.
MAX_DEPTH = 128


class CanonError(ValueError):
    """A value has no canonical JSON form (NaN, infinity, lone surrogate, bad key...)."""


def canonical_bytes(value: object) -> bytes:
    """The RFC 8785 bytes of ``value``: the input to every digest."""
    try:
        plain = _plain(value, 0)
    except _TooDeep:
        raise CanonError(_depth_problem(value)) from None
    try:
        text = _compact_json(plain)
    except _NotJsonReady:  # it holds a number that json would write in another layout
        text = _written(plain)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CanonError(f"a string holds a lone surrogate (U+{ord(exc.object[exc.start]):04X}), "
                         "which has no UTF-8 form") from None


def digest(value: object) -> str:
    """SHA-256, in hex, of the canonical bytes of ``value``."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def canonical_object(members: Mapping[str, bytes]) -> bytes:
    """The canonical bytes of an object whose member values are already canonical bytes.

    So a record encoded once can be embedded in a larger one without being
    encoded again: ``canonical_object({k: canonical_bytes(v)})`` equals
    ``canonical_bytes({k: v})``.
    """
    problem = _key_problem(members)
    if problem:
        raise CanonError(problem)
    keys = sorted(members) if "".join(members).isascii() else sorted(members, key=_utf16_code_units)
    if not keys:
        return b"{}"
    parts = []
    for key in keys:  # one join copies each member's bytes once: a member may be a whole capture
        parts += (b",", _key_bytes(key), b":", members[key])
    parts[0] = b"{"  # in place of the first comma
    parts.append(b"}")
    return b"".join(parts)


def canonical_array(items: Iterable[bytes]) -> bytes:
    """The canonical bytes of an array whose items are already canonical bytes."""
    return b"[" + b",".join(items) + b"]"


def artifact_text(value: object) -> str:
    """The on-disk form of an artifact: sorted keys, two-space indent, one newline."""
    canonical_bytes(value)  # refuse anything that has no canonical form
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_artifact(path: str | Path, value: object) -> Path:
    """Write ``value`` as an artifact, as UTF-8 bytes, whatever the locale says.

    The file is opened without waiting: a FIFO that no one reads is an
    OSError at once (ENXIO), not a write that waits for ever.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = artifact_text(value).encode("utf-8")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    with open(descriptor, "wb") as file:
        os.set_blocking(descriptor, True)  # opened; from here a write waits as writes do
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            file.truncate(0)
        file.write(data)
    return path


# --- step 1: check the value and make a plain copy in canonical order -------------------


_STR_ONLY = frozenset([str])


class _TooDeep(Exception):
    """Nesting went past MAX_DEPTH; canonical_bytes finds out whether a cycle is why."""


class _Number:
    """A float whose ECMAScript text json would lay out differently (1e-7, 1e+21)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _plain(value: object, depth: int) -> object:
    """A copy of ``value`` that json writes as its RFC 8785 text; CanonError if it has none.

    ``depth`` counts the objects and arrays around ``value``. The common
    types are tested by exact type first: this runs for every node of
    every record.
    """
    kind = type(value)
    if kind is str:
        return value
    if kind is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return value
        raise CanonError(f"an integer of {value.bit_length()} bits is outside +-(2**53 - 1), "
                         "the integers a JSON number holds exactly")
    if kind is dict:
        if depth >= MAX_DEPTH:
            raise _TooDeep
        keys = list(value)
        if not _STR_ONLY.issuperset(map(type, keys)):  # every key's type is exactly str
            raise CanonError(_key_problem(keys))
        if "".join(keys).isascii():
            keys.sort()  # for ASCII, code point order is UTF-16 order
        else:
            keys.sort(key=_utf16_code_units)
        inner = depth + 1
        return {key: _plain(value[key], inner) for key in keys}
    if kind is list or kind is tuple:
        if depth >= MAX_DEPTH:
            raise _TooDeep
        inner = depth + 1
        return [_plain(item, inner) for item in value]
    if value is None or kind is bool:
        return value
    if kind is float:
        return _plain_float(value)
    return _plain_subclass(value, depth)


def _plain_float(value: float) -> int | float | _Number:
    """A float as json should see it: an int, itself, or its ECMAScript text (see the module docstring)."""
    if not math.isfinite(value):
        raise CanonError(f"{value!r} has no JSON form")
    if value.is_integer() and abs(value) <= MAX_SAFE_INTEGER:
        return int(value)  # 2.0 -> 2, and -0.0 -> 0, as ECMAScript prints them
    text = repr(value)
    if "e" not in text and not text.endswith(".0"):
        return value  # a fraction with 1e-4 <= |value| < 1e16: repr's layout is ECMAScript's
    return _Number(_encode_float(value))


def _plain_subclass(value: object, depth: int) -> object:
    """Subclasses of the JSON types: containers and strings are read as what they hold; numbers are refused."""
    if isinstance(value, (int, float)):
        base = "int" if isinstance(value, int) else "float"
        raise CanonError(f"{type(value).__name__} is a subclass of {base}, whose text need not be its "
                         "value; pass a plain number")
    if isinstance(value, str):
        return str.__str__(value)  # its characters, whatever its own __str__ says
    if isinstance(value, dict):
        return _plain(dict(value), depth)
    if isinstance(value, (list, tuple)):
        return _plain(list(value), depth)
    raise CanonError(f"{type(value).__name__} has no JSON form")


@functools.lru_cache(maxsize=1024)
def _key_bytes(key: str) -> bytes:
    """A key's canonical bytes, remembered: the same few field names open every event of a ledger."""
    return canonical_bytes(key)


def _utf16_code_units(key: str) -> bytes:
    """RFC 8785 section 3.2.3 sorts keys by UTF-16 code units, not by code points."""
    return key.encode("utf-16-be", "surrogatepass")


def _key_problem(keys: Iterable[object]) -> str:
    """Why these object keys are refused, or "" if they are all plain strings."""
    bad = [key for key in keys if type(key) is not str]
    if not bad:
        return ""
    if isinstance(bad[0], str):  # a subclass could sort itself in its own order
        return f"object keys must be plain strings, got a {type(bad[0]).__name__} (a subclass of str)"
    return f"object keys must be strings, got {type(bad[0]).__name__}"


def _depth_problem(value: object) -> str:
    if _contains_itself(value):
        return "the value contains itself (a cycle), so it has no JSON form"
    return f"nested too deeply (more than {MAX_DEPTH} levels of objects and arrays)"


def _contains_itself(value: object) -> bool:
    """Whether an object or array holds itself: a depth-first search of the first MAX_DEPTH + 1 levels."""
    on_path: set[int] = set()
    searched: set[int] = set()  # shared parts are searched once

    def search(node: object, depth: int) -> bool:
        if not isinstance(node, (dict, list, tuple)) or depth > MAX_DEPTH or id(node) in searched:
            return False
        if id(node) in on_path:
            return True
        on_path.add(id(node))
        children = node.values() if isinstance(node, dict) else node
        found = any(search(child, depth + 1) for child in children)
        on_path.discard(id(node))
        searched.add(id(node))
        return found

    return search(value, 0)


# --- step 2: write the plain copy ---------------------------------------------------------


class _NotJsonReady(Exception):
    """The plain copy holds a _Number, which json cannot write."""


def _refuse_number(value: object) -> object:
    raise _NotJsonReady


# Compact, characters as themselves, and no cycle check (a plain copy is a tree).
_compact_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                                 check_circular=False, default=_refuse_number).encode


def _written(value: object) -> str:
    """The RFC 8785 text of a plain copy that holds a _Number: json's text, with the numbers spliced in."""
    if type(value) is dict:
        return "{" + ",".join(_compact_json(key) + ":" + _written(item) for key, item in value.items()) + "}"
    if type(value) is list:
        return "[" + ",".join(_written(item) for item in value) + "]"
    if type(value) is _Number:
        return value.text
    return _compact_json(value)


# --- ECMAScript numbers -------------------------------------------------------------------


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
