"""Generated JSON values for the canonical-JSON equivalence test and its benchmark.

Each family is a function ``(rng) -> value``; ``values(family, count)`` draws
``count`` of them from a generator seeded by the family's name, so every run
checks (and times) the same values. The families cover the ledger's own shapes
(events with seq/kind/status/id/reason/payload, captures holding HTTP-like
bodies, model replies) as well as every corner of RFC 8785: float layouts,
integer bounds, every kind of character, key order by UTF-16 code units.
"""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Callable, Iterator

MAX_SAFE_INTEGER = 2**53 - 1

# Code point ranges, from plain ASCII to the astral planes (never a lone surrogate).
POOLS = [(0x20, 0x7E), (0x00, 0x1F), (0x7F, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF)]
# Characters at or near an escaping decision: the ones JSON escapes and their neighbours.
TRICKY = '"\\/\b\f\n\r\t\x00\x01\x1f\x7f\x80\u2028\u2029\ufeff\ufffd\uffff\U0001F600 aZ'
HOSTS = ("lab.example", "other.example", "lab.example:443", "xn--caf-dma.example", "127.0.0.1")
KINDS = ("observation", "action", "capture", "outcome", "finding", "review", "transition", "model_call",
         "proposal", "close")


def random_float(rng: random.Random) -> float:
    """Any finite double: random bit patterns reach subnormals, huge exponents and every digit count."""
    while True:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(value):
            return value


def boundary_float(rng: random.Random) -> float:
    """A double near a place where the printed layout changes: powers of ten, 2**53, whole numbers."""
    choice = rng.randrange(6)
    if choice == 0:  # a power of ten from 1e-9 to 1e23, nudged by a few units in the last place
        value = 10.0 ** rng.randint(-9, 23)
        for _ in range(rng.randint(0, 3)):
            value = math.nextafter(value, math.inf if rng.random() < 0.5 else 0.0)
    elif choice == 1:  # a whole number around 2**53 and up to 1e22
        value = float(rng.randint(2**52, 10**22))
    elif choice == 2:  # a whole number a double holds exactly
        value = float(rng.randint(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER))
    elif choice == 3:  # a fraction with few digits, the kind a weight or a cost has
        value = rng.randint(-10**6, 10**6) / 10 ** rng.randint(0, 8)
    elif choice == 4:  # subnormals and the ends of the range
        value = rng.choice([5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]) * rng.randint(1, 9)
        value = value if math.isfinite(value) else 1.7976931348623157e308
    else:  # a random mantissa at a random exponent between 1e-8 and 1e22
        value = rng.random() * 10.0 ** rng.randint(-8, 22)
    return -value if rng.random() < 0.3 else value


def random_integer(rng: random.Random) -> int:
    choice = rng.randrange(3)
    if choice == 0:
        return rng.choice([0, 1, -1, MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, 2**31, -(2**31), 2**32, 10**15])
    if choice == 1:
        return rng.randint(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    return rng.randint(-(10 ** rng.randint(1, 15)), 10 ** rng.randint(1, 15))


def random_text(rng: random.Random, longest: int = 12) -> str:
    chars = []
    for _ in range(rng.randrange(0, longest)):
        low, high = rng.choice(POOLS)
        chars.append(chr(rng.randint(low, high)))
    return "".join(chars)


def tricky_text(rng: random.Random) -> str:
    return "".join(rng.choice(TRICKY) if rng.random() < 0.7 else random_text(rng, 3) for _ in range(rng.randrange(12)))


def unicode_string(rng: random.Random) -> str:
    """A string of up to 80 characters from every range, as a model reply or a page might hold."""
    return random_text(rng, 80)


def key_order(rng: random.Random) -> dict:
    """An object whose keys differ where UTF-16 order and code point order disagree (U+E000-FFFF vs astral)."""
    pools = [(0x41, 0x5A), (0x61, 0x7A), (0xE000, 0xFFFF), (0x10000, 0x10FFFF), (0x80, 0x7FF)]
    stem = random_text(rng, 3)
    keys = set()
    for _ in range(rng.randrange(1, 8)):
        tail = "".join(chr(rng.randint(*rng.choice(pools))) for _ in range(rng.randint(1, 3)))
        keys.add(stem + tail)
    return {key: rng.randrange(100) for key in keys}


def random_value(rng: random.Random, depth: int = 0) -> object:
    choice = rng.randrange(9 if depth < 4 else 7)
    if choice == 0:
        return None
    if choice == 1:
        return rng.random() < 0.5
    if choice == 2:
        return random_integer(rng)
    if choice == 3:
        return random_float(rng) if rng.random() < 0.5 else boundary_float(rng)
    if choice in (4, 5, 6):
        return random_text(rng) if rng.random() < 0.7 else tricky_text(rng)
    if choice == 7:
        items = [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
        return tuple(items) if rng.random() < 0.1 else items
    return {random_text(rng, 6): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _hex(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


def _url(rng: random.Random) -> str:
    path = rng.choice(["", "about", "news", "search?q=" + random_text(rng, 5), "caf\u00e9", "%7Euser", "a/../b"])
    return f"https://{rng.choice(HOSTS)}/{path}"


def http_body(rng: random.Random) -> str:
    """An HTTP response as a capture keeps it: status line, headers, a blank line, an HTML body."""
    status = rng.choice(["200 OK", "404 Not Found", "302 Found", "500 Internal Server Error"])
    headers = ["content-type: text/html; charset=utf-8", f"server: Apache/2.4.{rng.randrange(60)}"]
    if rng.random() < 0.3:
        headers.append(f"x-note: {tricky_text(rng)}")
    paragraphs = "".join(f"  <p class=\"p{index}\">{random_text(rng, 40) if rng.random() < 0.3 else 'Seeds & tools'}"
                         f"</p>\n" for index in range(rng.randrange(1, 12)))
    body = f"<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>{random_text(rng, 10)}</title>\n</head>\n" \
           f"<body>\n{paragraphs}\t<!-- {tricky_text(rng)} -->\n</body>\n</html>\n"
    line_end = "\r\n" if rng.random() < 0.3 else "\n"
    return f"HTTP/1.1 {status}{line_end}" + line_end.join(headers) + line_end * 2 + body


def _payload(rng: random.Random, kind: str, run_id: str) -> dict:
    if kind == "observation":
        return {"run_id": run_id, "field": rng.choice(["has_meta", "server", "title"]),
                "value": rng.choice([True, False, random_text(rng), random_integer(rng)]), "capture_id": _hex(rng)}
    if kind in ("action", "proposal"):
        payload = {"run_id": run_id, "tool": rng.choice(["inspect_headers", "inspect_metadata", "probe_xss"]),
                   "destination": _url(rng), "arguments": {"q": tricky_text(rng)} if rng.random() < 0.3 else {}}
        if kind == "proposal":
            weight = rng.choice([1.0, 2.0, 0.5, 1.25, 3]) if rng.random() < 0.9 else boundary_float(rng)
            payload.update(why=random_text(rng, 60), model_call_id=_hex(rng), weight=weight)
        return payload
    if kind == "capture":
        return {"run_id": run_id, "action_id": f"inspect_headers -> {_url(rng)}",
                "status": rng.choice([200, 302, 404, 500]), "body": http_body(rng), "capture_id": _hex(rng)}
    if kind == "outcome":
        return {"run_id": run_id, "action_id": _hex(rng), "status": rng.choice(["settled", "unresolved"]),
                "capture_id": rng.choice(["", _hex(rng)]), "detail": random_text(rng, 30)}
    if kind == "finding":
        return {"run_id": run_id, "capture_id": _hex(rng), "quote": tricky_text(rng), "claim": random_text(rng, 40),
                "finding_id": _hex(rng)}
    if kind == "review":
        return {"run_id": run_id, "subject_id": _hex(rng), "decision": rng.choice(["approved", "denied"]),
                "reviewer": random_text(rng, 8), "reason": random_text(rng, 30), "review_id": _hex(rng)}
    if kind == "transition":
        return {"to": rng.choice(["observe", "propose", "select", "execute", "verify", "report"])}
    if kind == "model_call":
        return {"run_id": run_id, "prompt_digest": _hex(rng), "capture_ids": [_hex(rng) for _ in range(rng.randrange(4))]}
    return {"how": rng.choice(["finished", "aborted"]), "reason": random_text(rng, 20)}


def ledger_event(rng: random.Random) -> dict:
    """One ledger event as the door writes it (and, a third of the time, sealed with its chain hash)."""
    kind = rng.choice(KINDS)
    status = rng.choice(["admitted", "admitted", "refused"])
    event = {"seq": rng.randint(1, 10**6), "kind": kind, "status": status,
             "id": _hex(rng) if status == "admitted" else "",
             "reason": "" if status == "admitted" else f"destination {_url(rng)} is outside the origins: "
                                                       f"{tricky_text(rng)}",
             "payload": _payload(rng, kind, _hex(rng))}
    if rng.random() < 0.3:
        event["chain"] = _hex(rng)
    return event


def capture_event(rng: random.Random) -> dict:
    """A capture event: the largest thing a ledger holds, an HTTP response body in a string."""
    return {"seq": rng.randint(1, 10**6), "kind": "capture", "status": "admitted", "id": _hex(rng), "reason": "",
            "payload": _payload(rng, "capture", _hex(rng))}


def model_reply(rng: random.Random) -> dict:
    """A model reply's parsed proposals, with unicode and escapes where a model might put them."""
    return {"proposals": [{"tool": rng.choice(["inspect_headers", "inspect_metadata", tricky_text(rng)]),
                           "destination": _url(rng), "why": unicode_string(rng),
                           "arguments": random_value(rng, 2) if rng.random() < 0.3 else {}}
                          for _ in range(rng.randrange(4))]}


# Family name -> (generator, how many values the equivalence test checks): 100,000 in all.
FAMILIES: dict[str, tuple[Callable[[random.Random], object], int]] = {
    "floats from random bits": (random_float, 10_000),
    "floats at layout boundaries": (boundary_float, 10_000),
    "integers": (random_integer, 5_000),
    "strings from every range": (lambda rng: random_text(rng, 24), 10_000),
    "strings of escapes": (tricky_text, 5_000),
    "keys in UTF-16 order": (key_order, 10_000),
    "nested values": (random_value, 15_000),
    "ledger events": (ledger_event, 20_000),
    "captures with HTTP bodies": (capture_event, 7_500),
    "model replies": (model_reply, 7_500),
}


def values(family: str, count: int | None = None) -> Iterator[object]:
    """``count`` values of ``family`` (by default as many as the equivalence test checks), the same every run."""
    make, default = FAMILIES[family]
    rng = random.Random(f"canon-corpus-{family}")
    for _ in range(default if count is None else count):
        yield make(rng)
