"""Lesson 12's figures: AgentDojo's 949 pairs with no door and with the course's door (about ten minutes here).

    python3 -m benchmarks.agentdojo_pairs

Not a ratio like bench.py's other rows: utility, utility under attack and
targeted attack success, per suite and in all, scored by AgentDojo's own
functions (dojo/measure.py). Needs the optional extra: pip install -e '.[agentdojo]'.
"""

from __future__ import annotations

import importlib.util
import time


def lines() -> list[str]:
    """The table, or one line saying why it was not measured."""
    if importlib.util.find_spec("agentdojo") is None:
        return ["AgentDojo pairs: not measured (the agentdojo extra is not installed: pip install -e '.[agentdojo]')"]
    import warnings

    warnings.filterwarnings("ignore")  # AgentDojo's own dependencies warn on import; nothing of ours
    from dojo import measure
    from dojo.__main__ import table

    start = time.perf_counter()
    rows, _ = table(measure.suites(), measure.ATTACK)
    return [f"AgentDojo {measure.BENCHMARK_VERSION}, attack {measure.ATTACK}, scripted model:", *rows,
            f"({time.perf_counter() - start:.0f} s)"]


if __name__ == "__main__":
    print("\n".join(lines()))
