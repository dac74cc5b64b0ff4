"""Origins: one spelling for "where an action goes".

An authorization lists origins: a scheme, a host and a port. The same origin
can be written many ways (`HTTPS://LAB.EXAMPLE`, `https://lab.example.`,
`https://lab.example:443/`). If the harness compared raw text, an alias could
slip past the allow-list, or one act could earn two identities. So every
destination is reduced to a single canonical form before anything compares
it, and text that cannot be reduced with certainty is refused with a
category, never guessed at.

A destination is an origin plus a path and a query, and those have aliases
too: `/about`, `/./about`, `/a/../about` and `/%61bout` are one request. If
each spelling earned its own identity, one act could run, and be credited,
once per spelling. So the path and query are normalized as RFC 3986 section
6.2.2 says (escapes in upper case, unreserved characters decoded, dot segments
removed, non-ASCII text as UTF-8 escapes), and further, to the one spelling
for everything the fixture lab reads as the same request:

- Path. The lab's server decodes every escape before the application sees
  the path (WSGI's PATH_INFO), so `%2F` is a `/` and `%21` a `!`. The path is
  decoded the same way, its dot segments are removed, a run of leading
  slashes becomes one (the server does that too), and each segment is
  written back with letters, digits, `-._~` and `!$&'()*+,;=:@` as
  themselves and every other byte as an upper-case escape. In a path, `+`
  is a plus sign.
- Query. The lab reads a query as form fields (`parse_qs`): fields split at
  `&`, a name from its value at the first `=`, and `+` and `%20` are both a
  space. Each name and value is decoded that way and written back with
  letters, digits, `-._~` and `!$'()*,/:;@?` as themselves and every other
  byte as an upper-case escape, so a space is `%20`, a plus sign `%2B`, and
  `<b>` is `%3Cb%3E`. Fields keep their order; an empty query is dropped.
- A `%` that starts no escape is a percent sign, written `%25`, which is how
  the lab's server reads it too.

So a destination never needs refusing for its path or query: whatever has
an origin has a canonical destination. One difference from the lab is
deliberate: a dot segment hidden behind an escape (`/%2E%2E/about`,
`/a%2F..%2Fabout`) is removed like any other, so a canonical destination
never asks for a traversal, where the same text sent as written meets the
lab's traversal guard and gets a 400. Bytes that are not UTF-8 keep their
escapes, although the lab's query parser would read them all as U+FFFD.

This module restates the fixture lab's canonicalizer (`lab/origins.py`) on
purpose. The harness decides what is in scope, so it must not take that rule
from the system it tests (a harness pointed at another target would inherit
that target's parser, and its bugs), and two implementations written apart
catch each other's mistakes: tests/test_run_policy_equivalence.py holds the
twins to one shared case table, data/cases/origins.json, and any case on
which they disagree is a bug in one of them. (The import gate would forbid
the import anyway: core/ depends on nothing outside itself and the standard
library.)
"""

from __future__ import annotations

import functools
import ipaddress
import unicodedata
from urllib.parse import quote, unquote_to_bytes

# Every way a text can fail to be an origin; the lab's twin uses the same words.
CATEGORIES = ("empty", "malformed", "unsupported-scheme", "userinfo", "invalid-host", "invalid-port")
DEFAULT_PORTS = {"http": 80, "https": 443}
DIGITS = frozenset("0123456789")
LABEL_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
MAX_HOST_LENGTH = 253
# The most characters a canonical destination may have (it is ASCII, so bytes too): a destination names an
# act (its identity is "<tool> -> <canonical destination>"), and a name must stay a name. The policy and
# records.action_identity refuse a longer one; the canonical form itself is defined for any length.
DESTINATION_LIMIT = 2048
MAX_LABEL_LENGTH = 63
# Besides letters, digits and -._~, the characters a canonical path segment,
# and a canonical query name or value, write as themselves.
PATH_KEEPS = "!$&'()*+,;=:@"
QUERY_KEEPS = "!$'()*,/:;@?"


class OriginError(ValueError):
    """A text is not an origin; ``category`` says which rule it broke."""

    def __init__(self, category: str, detail: str) -> None:
        super().__init__(f"{category}: {detail}")
        self.category = category


def canonical_origin(text: str) -> str:
    """The origin of ``text`` as ``scheme://host:port``, or an OriginError.

    Path, query and fragment never change an origin, so they are dropped.
    """
    return _parse(text)[0]


def canonical_destination(text: str) -> str:
    """The canonical origin plus the canonical path and query (see above).

    The fragment is dropped because it never leaves the client. The policy
    authorizes origins; the path and query only tell two acts at one origin
    apart, so they are brought to one spelling and never refused.
    """
    origin, rest = _parse(text)
    path, _, query = rest.partition("#")[0].partition("?")
    query = "&".join(_canonical_field(field) for field in query.split("&")) if query else ""
    return origin + _canonical_path(path) + (f"?{query}" if query else "")


def _canonical_path(path: str) -> str:
    """Decode as the lab's server does, remove dot segments, write back one way."""
    segments = _remove_dot_segments(unquote_to_bytes(path).split(b"/")[1:])
    while segments and segments[0] == b"":
        segments.pop(0)  # `//about` is `/about` to the server
    return "/" + "/".join(quote(segment, safe=PATH_KEEPS) for segment in segments)


def _remove_dot_segments(segments: list[bytes]) -> list[bytes]:
    """RFC 3986 section 5.2.4 over a path's segments: `.` goes, `..` takes one back.

    A dot segment at the end leaves the path ending in `/`, and `..` never
    climbs above the root.
    """
    kept: list[bytes] = []
    for segment in segments:
        if segment == b"..":
            kept = kept[:-1]
        elif segment != b".":
            kept.append(segment)
    if segments and segments[-1] in (b".", b".."):
        kept.append(b"")
    return kept


def _canonical_field(field: str) -> str:
    """One query field, ``name`` or ``name=value``, as the lab's form parser reads it."""
    name, equals, value = field.partition("=")
    return _form_text(name) + equals + _form_text(value)


def _form_text(text: str) -> str:
    """A query name or value: `+` is a space, every escape is decoded, then one encoding."""
    return quote(unquote_to_bytes(text.replace("+", " ")), safe=QUERY_KEEPS)


def _parse(text: object) -> tuple[str, str]:
    """Split ``text`` into its canonical origin and the rest (path, query, fragment).

    A run asks about the same few destinations again and again (the policy,
    the identity of the act, the plan each read its origin), so the answer for
    an exact ``str`` is remembered; a subclass of str, which could compare
    equal to text it is not, is always read afresh.
    """
    return _parsed(text) if type(text) is str else _parse_afresh(text)


@functools.lru_cache(maxsize=1024)
def _parsed(text: str) -> tuple[str, str]:
    return _parse_afresh(text)


def _parse_afresh(text: object) -> tuple[str, str]:
    scheme, authority, rest = _split(text)
    if "\\" in authority:
        raise OriginError("malformed", "a backslash in the authority")
    if not authority:
        raise OriginError("invalid-host", "the authority is empty")
    if "@" in authority:
        # `https://lab.example@attacker.test` goes to attacker.test: refuse, never strip.
        raise OriginError("userinfo", "the authority carries user information")
    host_text, port_text = _host_and_port_text(authority)
    port = _port(port_text, scheme)
    host = _ipv6_host(host_text) if host_text.startswith("[") else _hostname(host_text)
    return f"{scheme}://{host}:{port}", rest


def _split(text: object) -> tuple[str, str, str]:
    """Scheme, authority, and whatever follows the authority."""
    if not isinstance(text, str) or not text:
        raise OriginError("empty", "no text to read an origin from")
    plain = text.isascii() and text.isprintable() and " " not in text  # the common case, read at C speed
    if not plain and any(char.isspace() or unicodedata.category(char) in ("Cc", "Cs") for char in text):
        # A lone surrogate (Cs) has no UTF-8 form, so no path could be written with it.
        raise OriginError("malformed", "whitespace, a control character or a lone surrogate")
    scheme, colon, rest = text.partition(":")
    scheme = _ascii_lower(scheme)
    if not colon or scheme not in DEFAULT_PORTS:
        raise OriginError("unsupported-scheme", "the scheme must be http or https")
    if not rest.startswith("//"):
        raise OriginError("malformed", "the scheme must be followed by //")
    rest = rest[2:]
    end = len(rest)
    for stop in "/?#":
        found = rest.find(stop)
        if found != -1:
            end = min(end, found)
    return scheme, rest[:end], rest[end:]


def _host_and_port_text(authority: str) -> tuple[str, str | None]:
    """Split the authority at the port colon; None when no port is written.

    A bracketed IPv6 literal holds colons of its own, so its port colon is the
    one right after the closing bracket.
    """
    if authority.startswith("["):
        close = authority.find("]")
        if close == -1:
            raise OriginError("invalid-host", "an IPv6 literal without its closing bracket")
        host, after = authority[: close + 1], authority[close + 1 :]
        if after and not after.startswith(":"):
            raise OriginError("invalid-host", "text after the IPv6 literal")
        return host, (after[1:] if after else None)
    host, colon, port = authority.rpartition(":")
    return (host, port) if colon else (authority, None)


def _ipv6_host(bracketed: str) -> str:
    """A bracketed IPv6 literal in its compressed lower-case form."""
    literal = bracketed[1:-1]
    if "%" in literal:
        raise OriginError("invalid-host", "an IPv6 zone id")
    try:
        return f"[{ipaddress.IPv6Address(literal).compressed}]"
    except ValueError:
        raise OriginError("invalid-host", "not an IPv6 address") from None


def _port(text: str | None, scheme: str) -> int:
    """The explicit port, or the scheme's default; an origin always carries one."""
    if text is None:
        return DEFAULT_PORTS[scheme]
    if not 1 <= len(text) <= 5 or not set(text) <= DIGITS or text.startswith("0"):
        raise OriginError("invalid-port", "the port must be 1 to 65535 without leading zeros")
    if int(text) > 65535:
        raise OriginError("invalid-port", "the port must be 1 to 65535 without leading zeros")
    return int(text)


def _hostname(text: str) -> str:
    """An ASCII DNS name or dotted-quad IPv4 address, lower-cased, one trailing dot removed."""
    host = _ascii_lower(text)
    if host.endswith("."):
        host = host[:-1]
    if not host or len(host) > MAX_HOST_LENGTH or not host.isascii():
        raise OriginError("invalid-host", "the host must be 1 to 253 ASCII characters")
    labels = host.split(".")
    for label in labels:
        if not _is_label(label):
            raise OriginError("invalid-host", "each label must be 1 to 63 of a-z, 0-9 and inner hyphens")
    if set(labels[-1]) <= DIGITS and not _is_dotted_quad(labels):
        # 127.1, 2130706433 and 0x7f.0.0.1 all reach 127.0.0.1 in some parsers.
        raise OriginError("invalid-host", "a numeric host must be a dotted-quad IPv4 address")
    return host


def _is_label(label: str) -> bool:
    return (
        1 <= len(label) <= MAX_LABEL_LENGTH
        and set(label) <= LABEL_CHARACTERS
        and not label.startswith("-")
        and not label.endswith("-")
    )


def _is_dotted_quad(labels: list[str]) -> bool:
    """Exactly four decimal parts 0..255, none with a leading zero."""
    return len(labels) == 4 and all(
        set(part) <= DIGITS and (part == "0" or not part.startswith("0")) and int(part) <= 255 for part in labels
    )


def _ascii_lower(text: str) -> str:
    """Lower-case A-Z only: str.lower() would turn the Kelvin sign into a plain 'k'."""
    if text.isascii():
        return text.lower()  # on ASCII text, str.lower changes A-Z and nothing else
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
