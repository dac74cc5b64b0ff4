"""The lab's origin canonicalizer: one spelling for every way to write an origin.

An authorization names origins (``https://lab.example:443``); a model names
destinations in whatever spelling it likes (``HTTPS://Lab.Example/about?x``).
Scope is only decidable when both are reduced to the same canonical form, and
when every spelling that could fool a reader (``lab.example@attacker.test``,
``lab.example.attacker.test``, ``127.1``, percent-encoded hosts) is either
shown for what it is or refused outright.

A destination adds a path and a query, and ``canonical_destination`` gives
each request one spelling: RFC 3986 section 6.2.2 normalization (escapes in
upper case, unreserved characters decoded, dot segments removed, non-ASCII
as UTF-8 escapes), widened to everything this lab serves as the same request.
What the lab serves the same was read from ``lab/app.py`` and its server:

* Path: waitress percent-decodes the whole path before the app sees it
  (PATH_INFO), so ``/a%2Fb`` *is* ``/a/b`` here, and it strips a run of
  leading slashes to one. The rule: decode every escape, remove dot
  segments, drop extra leading slashes, and write each segment back with
  letters, digits, ``-._~`` and ``!$&'()*+,;=:@`` literal and every other
  byte as an upper-case escape. ``+`` in a path stays a plus sign.
* Query: the app reads it with ``parse_qs``, which splits fields at ``&``
  and names from values at the first ``=``, and reads ``+`` and ``%20``
  alike as a space. The rule: decode each name and value that way, and write
  it back with letters, digits, ``-._~`` and ``!$'()*,/:;@?`` literal and
  every other byte (space, ``+``, ``&``, ``=``, ``<`` ...) as an upper-case
  escape. Field order is kept; an empty query is dropped.
* A ``%`` that starts no escape is a percent sign (``%25``), as waitress and
  ``parse_qs`` both read it, so no path or query is ever refused.

Deliberate difference: an escaped dot segment (``/%2E%2E/x``,
``/a%2F..%2Fx``) is resolved like a literal one, so a canonical destination
never carries a traversal; sent as written, ``app.py``'s traversal guard
answers it 400. Bytes that are not UTF-8 keep their escapes, though
``parse_qs`` would read each of them as U+FFFD.

``core`` restates these rules in its own twin, on purpose: the harness must not
take its scope rule from the target it tests, and two implementations written
apart catch each other's mistakes. ``data/cases/origins.json`` holds the cases
both must agree on.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata

__all__ = ["CATEGORIES", "DEFAULT_PORTS", "OriginError", "canonical_destination", "canonical_origin"]

CATEGORIES = ("empty", "malformed", "unsupported-scheme", "userinfo", "invalid-host", "invalid-port")
DEFAULT_PORTS = {"http": 80, "https": 443}

_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_PORT = re.compile(r"[1-9][0-9]{0,4}")
_OCTET = re.compile(r"0|[1-9][0-9]{0,2}")
_ASCII_UPPER_TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_ESCAPE = re.compile(rb"%([0-9A-Fa-f]{2})")
_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_PATH_LITERAL = frozenset(_UNRESERVED + b"!$&'()*+,;=:@")
_QUERY_LITERAL = frozenset(_UNRESERVED + b"!$'()*,/:;@?")


class OriginError(ValueError):
    """Text that is not an origin; ``category`` says which rule it broke."""

    def __init__(self, category: str, detail: str):
        super().__init__(f"{category}: {detail}")
        self.category = category


def canonical_origin(text: str) -> str:
    """Return ``scheme://host:port`` for ``text``, or raise ``OriginError``.

    Path, query and fragment never change an origin, so they are dropped.
    """
    return _origin_and_tail(text)[0]


def canonical_destination(text: str) -> str:
    """Return the canonical origin plus one spelling of the path and query.

    The fragment never leaves the client, so it is dropped; the rules for the
    path and the query are in the module docstring.
    """
    origin, tail = _origin_and_tail(text)
    path, _, query = tail.split("#", 1)[0].partition("?")
    query = "&".join(_query_field(field) for field in query.split("&")) if query else ""
    return origin + _path(path) + ("?" + query if query else "")


def _origin_and_tail(text: str) -> tuple[str, str]:
    """The canonical origin, and the raw text after the authority."""
    if not isinstance(text, str) or text == "":
        raise OriginError("empty", "an origin must be a non-empty string")
    # A lone surrogate (Cs) has no UTF-8 form: no request could carry it.
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        raise OriginError("malformed", "whitespace, a control character or a lone surrogate")
    scheme, rest = _split_scheme(text)
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    if "\\" in authority:
        raise OriginError("malformed", "a backslash in the authority")
    if authority == "":
        raise OriginError("invalid-host", "no host")
    if "@" in authority:
        # Refused, never stripped: "https://lab.example@attacker.test" is attacker.test.
        raise OriginError("userinfo", "credentials or '@' in the authority")
    host_text, port_text = _split_host_port(authority)
    port = DEFAULT_PORTS[scheme] if port_text is None else _port(port_text)
    host = _ipv6_host(host_text) if host_text.startswith("[") else _name_host(host_text)
    return f"{scheme}://{host}:{port}", rest[len(authority) :]


def _path(path: str) -> str:
    """Decode like waitress, resolve dot segments, one leading slash, one encoding."""
    segments = _without_dot_segments(_decode(path).split(b"/")[1:])
    while segments[:1] == [b""]:
        del segments[0]
    return "/" + "/".join(_encode(segment, _PATH_LITERAL) for segment in segments)


def _without_dot_segments(segments: list[bytes]) -> list[bytes]:
    """RFC 3986 section 5.2.4 on segments; a final ``.`` or ``..`` leaves a trailing slash."""
    out: list[bytes] = []
    for segment in segments:
        if segment == b"..":
            del out[-1:]
        elif segment != b".":
            out.append(segment)
    return out + [b""] if segments[-1:] in ([b"."], [b".."]) else out


def _query_field(field: str) -> str:
    """``name`` or ``name=value``, each part read as ``parse_qs`` reads it."""
    name, equals, value = field.partition("=")
    return _form_part(name) + equals + _form_part(value)


def _form_part(text: str) -> str:
    return _encode(_decode(text.replace("+", " ")), _QUERY_LITERAL)


def _decode(text: str) -> bytes:
    """UTF-8 bytes with every ``%XX`` decoded; a ``%`` that starts no escape stays."""
    return _ESCAPE.sub(lambda match: bytes([int(match.group(1), 16)]), text.encode("utf-8"))


def _encode(raw: bytes, literal: frozenset[int]) -> str:
    """Literal bytes as themselves, every other byte as an upper-case ``%XX``."""
    return "".join(chr(byte) if byte in literal else f"%{byte:02X}" for byte in raw)


def _split_scheme(text: str) -> tuple[str, str]:
    """Split ``scheme://rest``; only http and https are origins the lab knows."""
    scheme, colon, rest = text.partition(":")
    scheme = scheme.translate(_ASCII_UPPER_TO_LOWER)
    if not colon or scheme not in DEFAULT_PORTS:
        raise OriginError("unsupported-scheme", "the scheme must be http or https")
    if not rest.startswith("//"):
        raise OriginError("malformed", "the scheme must be followed by '//'")
    return scheme, rest[2:]


def _split_host_port(authority: str) -> tuple[str, str | None]:
    """Separate the host from an optional port; an IPv6 literal keeps its brackets."""
    if authority.startswith("["):
        end = authority.find("]")
        if end == -1:
            raise OriginError("invalid-host", "an IPv6 literal without its closing ']'")
        literal, after = authority[: end + 1], authority[end + 1 :]
        if after == "":
            return literal, None
        if not after.startswith(":"):
            raise OriginError("invalid-host", "text after an IPv6 literal")
        return literal, after[1:]
    host, colon, port = authority.rpartition(":")
    return (host, port) if colon else (authority, None)


def _port(text: str) -> int:
    """A port is 1 to 5 ASCII digits without a leading zero, from 1 to 65535."""
    if not _PORT.fullmatch(text) or not 1 <= int(text) <= 65535:
        raise OriginError("invalid-port", "the port must be a number from 1 to 65535")
    return int(text)


def _ipv6_host(literal: str) -> str:
    """``[address]`` in the stdlib's compressed lower-case form; zone ids are refused."""
    address = literal[1:-1]
    if "%" in address:
        raise OriginError("invalid-host", "an IPv6 zone id")
    try:
        parsed = ipaddress.IPv6Address(address)
    except ValueError:
        raise OriginError("invalid-host", "not an IPv6 address") from None
    return f"[{parsed.compressed}]"


def _name_host(host: str) -> str:
    """A lower-case ASCII DNS name, or a strict dotted-quad IPv4 address."""
    # ASCII-only lower-casing: str.lower() would turn the Kelvin sign into "k".
    host = host.translate(_ASCII_UPPER_TO_LOWER)
    if host.endswith("."):
        host = host[:-1]
    if host == "" or len(host) > 253 or not host.isascii():
        raise OriginError("invalid-host", "the host must be 1 to 253 ASCII characters")
    labels = host.split(".")
    if not all(_LABEL.fullmatch(label) for label in labels):
        raise OriginError("invalid-host", "each label must be letters, digits and inner hyphens")
    if labels[-1].isdigit() and not _is_dotted_quad(labels):
        # 127.1, 2130706433 and 0x7f.0.0.1 all reach 127.0.0.1 in some resolver.
        raise OriginError("invalid-host", "a numeric host must be a dotted-quad IPv4 address")
    return host


def _is_dotted_quad(labels: list[str]) -> bool:
    """Exactly four decimal parts, each 0 to 255, with no leading zeros."""
    return len(labels) == 4 and all(_OCTET.fullmatch(part) and int(part) <= 255 for part in labels)
