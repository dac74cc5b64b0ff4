"""How fast canonical JSON is: core/run/canon.py against the rfc8785 package and json.dumps.

    python3 -m benchmarks.canon_speed                 # 10,000 values per corpus, 7 rounds
    python3 -m benchmarks.canon_speed --values 2000 --rounds 3

Two corpora, from the same generators as the equivalence test (tests/canon_corpus.py),
so what is timed here is what was checked byte for byte there: ledger events (every
kind of payload, HTTP bodies, refusal reasons) and unicode strings of up to 80
characters from every range. Each value is encoded on its own, as the door and the
seal do. json.dumps (sorted keys, compact, characters as themselves) is the floor:
the standard library's C encoder with no checks and no RFC 8785 number layout.
"""

from __future__ import annotations

import argparse
import json
import random

import rfc8785

from benchmarks.measure import Row, per_unit, print_table, side_by_side
from core.run.canon import canonical_bytes
from tests.canon_corpus import unicode_string, values


def plain_json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def corpora(count: int) -> dict[str, list]:
    rng = random.Random("canon-speed-strings")
    return {"ledger events": list(values("ledger events", count)),
            "unicode strings": [unicode_string(rng) for _ in range(count)]}


def rows(rounds: int, count: int = 10_000) -> list[Row]:
    found = []
    for name, corpus in corpora(count).items():
        mismatches = sum(canonical_bytes(value) != rfc8785.dumps(value) for value in corpus)
        if mismatches:
            raise SystemExit(f"canon_speed: {mismatches} of {len(corpus)} {name} differ from rfc8785")
        seconds = side_by_side({
            "canon": per_unit(lambda corpus=corpus: [canonical_bytes(value) for value in corpus], len(corpus)),
            "rfc8785": per_unit(lambda corpus=corpus: [rfc8785.dumps(value) for value in corpus], len(corpus)),
            "json": per_unit(lambda corpus=corpus: [plain_json(value) for value in corpus], len(corpus)),
        }, rounds)
        what = f"canonical_bytes, {count:,} {name}"
        found.append(Row(what, "rfc8785.dumps", seconds["canon"], seconds["rfc8785"], "value"))
        found.append(Row(what, "json.dumps (no checks)", seconds["canon"], seconds["json"], "value"))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.canon_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=10_000, help="values per corpus (default 10000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, each timing every contender once")
    args = parser.parse_args(argv)
    print_table(rows(args.rounds, args.values), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
