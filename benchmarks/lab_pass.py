"""Time a full pass over every fixture path, in process and over loopback HTTP.

Run: .venv/bin/python benchmarks/lab_pass.py

One pass fetches every (host, path) the fixtures declare, once, through the
lab's HTTP adapter. Each mode runs one untimed warm-up pass, then REPEATS
timed passes; the median is printed, in milliseconds per pass. Timings vary
by machine and are never written into any artifact.

`make bench` takes its row from ``rows``: a pass over HTTP against a pass in
process, the two taking turns in each round.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.measure import Row, per_unit, side_by_side
from lab import DEFAULT_LAB_DIR
from lab.adapter import HttpAdapter
from lab.fixtures import fixture_paths
from lab.server import running

REPEATS = 5


def full_pass(adapter: HttpAdapter, urls: list[str]) -> float:
    """Seconds taken to fetch every URL once."""
    start = time.perf_counter()
    for url in urls:
        adapter.fetch(url)
    return time.perf_counter() - start


def median_pass(adapter: HttpAdapter, urls: list[str]) -> float:
    full_pass(adapter, urls)  # warm-up: imports, connection set-up
    return statistics.median(full_pass(adapter, urls) for _ in range(REPEATS))


def rows(rounds: int) -> list[Row]:
    urls = [f"https://{host}{path}" for host, path in fixture_paths(DEFAULT_LAB_DIR)]
    with HttpAdapter("inprocess") as local, running() as port, HttpAdapter("http", port=port) as remote:
        for adapter in (local, remote):
            full_pass(adapter, urls)  # warm-up: imports, connection set-up
        seconds = side_by_side({"http": per_unit(lambda: full_pass(remote, urls), 1),
                                "inprocess": per_unit(lambda: full_pass(local, urls), 1)}, rounds)
    return [Row(f"lab adapter, {len(urls)} fixture paths over HTTP", "the same in process", seconds["http"],
                seconds["inprocess"], "pass")]


def main() -> None:
    urls = [f"https://{host}{path}" for host, path in fixture_paths(DEFAULT_LAB_DIR)]
    with HttpAdapter("inprocess") as adapter:
        in_process = median_pass(adapter, urls)
    with running() as port, HttpAdapter("http", port=port) as adapter:
        over_http = median_pass(adapter, urls)
    for mode, seconds in (("inprocess", in_process), ("http", over_http)):
        print(f"{mode:<9}  {len(urls)} fixture paths  median of {REPEATS}: {seconds * 1000:.1f} ms per pass")


if __name__ == "__main__":
    main()
