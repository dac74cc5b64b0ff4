"""Side-by-side timing, and the one table `make bench` prints.

A machine shared with other work runs faster and slower from one second to the
next, so two figures measured a minute apart do not compare. Here every
contender of a row is timed in each round, one after the other (A B A B ...),
and the ratio is taken round by round. The table shows the median ratio and its
spread (the lowest and highest round), then each side's median on its own.

Timings are wall clock (time.perf_counter) and machine-dependent: for comparing
changes on one machine, never for an artifact or a test.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parent.parent

# A contender is a function that does its work once and returns the seconds it took per unit
# of work (per event, per pass, per run): it times itself, so its setup is not counted.
Contender = Callable[[], float]


@dataclass(frozen=True)
class Row:
    """One line of the table: ``what`` against ``against``, with the per-round seconds of each."""

    what: str
    against: str
    this: Sequence[float]
    base: Sequence[float]
    unit: str  # what one figure is per: "event", "run", ...

    @property
    def ratios(self) -> list[float]:
        return [this / base for this, base in zip(self.this, self.base)]


def side_by_side(contenders: dict[str, Contender], rounds: int) -> dict[str, list[float]]:
    """Each contender's seconds in each of ``rounds`` rounds, taking turns within a round.

    One round first is not counted: it pays for imports, caches and connections.
    """
    seconds: dict[str, list[float]] = {name: [] for name in contenders}
    for contender in contenders.values():
        contender()
    for _ in range(rounds):
        for name, contender in contenders.items():
            seconds[name].append(contender())
    return seconds


def per_unit(work: Callable[[], object], units: int) -> Contender:
    """A contender that runs ``work`` once and reports seconds per unit."""
    def timed() -> float:
        start = time.perf_counter()
        work()
        return (time.perf_counter() - start) / units
    return timed


def command(*args: str) -> Contender:
    """A contender that runs a command of this interpreter (``python -m ...``) and reports its wall time."""
    def timed() -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=REPO, check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - start
    return timed


def constant(seconds: float) -> Contender:
    """A fixed baseline, such as a stated goal (0.5 s)."""
    return lambda: seconds


def shown(seconds: float) -> str:
    """Seconds in the unit that reads best: s, ms or us."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} us"


def table(rows: Sequence[Row], rounds: int) -> Table:
    grid = Table(title=f"make bench: ratios measured side by side, {rounds} rounds each", title_justify="left")
    grid.add_column("measured")
    grid.add_column("against")
    grid.add_column("ratio", justify="right")
    grid.add_column("spread", justify="right")
    grid.add_column("measured (median)", justify="right")
    grid.add_column("against (median)", justify="right")
    for row in rows:
        ratios = row.ratios
        grid.add_row(row.what, row.against, f"{statistics.median(ratios):.2f}x",
                     f"{min(ratios):.2f}-{max(ratios):.2f}",
                     f"{shown(statistics.median(row.this))}/{row.unit}",
                     f"{shown(statistics.median(row.base))}/{row.unit}")
    return grid


def print_table(rows: Sequence[Row], rounds: int) -> None:
    Console(width=160, highlight=False).print(table(rows, rounds))
