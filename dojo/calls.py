"""AgentDojo's own calls, as the questions the user's stand-in is asked: lesson 12's check reads them.

    python -m dojo.calls --out data/course/dojo-calls.json

For every suite: the user's requests (each user task's prompt), the values
the operator trusts, and every value a consequential call of a ground truth
reaches with (a user task's, and an injection task's), named by the task,
the tool and the argument it was found in. A traced argument gives its
values (provenance.values_of), a carrying one every address, URL and account
written in it (provenance.tokens).

This module reads ground truth, as the scripted model does, to write the
questions down once; the bridge and the reviewer never import it, and lesson
12's check reads only the file it writes, so the check does not load
AgentDojo at all. Each task's ground truth is asked of the suite's default
environment, with no injection in it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.run.canon import artifact_text
from dojo import catalogue, provenance
from dojo.measure import BENCHMARK_VERSION, suites

ABOUT = ("AgentDojo's own calls (benchmark version {version}), written by python -m dojo.calls: per suite, "
         "each user task's request, the values the operator trusts, and each value a consequential call of a "
         "task's ground truth reaches with (traced arguments value by value, carrying arguments by each address, "
         "URL or account written in them). Lesson 12's check asks the stand-in's rule about each value against "
         "its own task's request and, for an injection task's value, against every request of the suite.")


def calls_of(suite, declared: catalogue.Suite, taxonomy) -> list[dict]:
    """Every value a consequential ground-truth call of ``suite``'s tasks reaches with, in task order."""
    found = []
    environment = suite.load_and_inject_default_environment({})
    tasks = [("user", task_id, task) for task_id, task in suite.user_tasks.items()]
    tasks += [("injection", task_id, task) for task_id, task in suite.injection_tasks.items()]
    for kind, task_id, task in tasks:
        env = task.init_environment(environment.model_copy(deep=True)) if kind == "user" else environment
        for call in task.ground_truth(env.model_copy(deep=True)):
            entry = declared.tools.get(call.function)
            if entry is None or not catalogue.consequential(entry, taxonomy):
                continue
            for names, found_in in ((entry.traced, provenance.values_of), (entry.carries, provenance.tokens)):
                for name in names:
                    for value in found_in(call.args.get(name)):
                        found.append({"task": task_id, "kind": kind, "tool": call.function, "argument": name,
                                      "value": value})
    return found


def questions() -> dict:
    """The whole file's content."""
    declared, taxonomy = catalogue.load(), catalogue.table()
    written = {}
    for name, suite in suites().items():
        written[name] = {
            "requests": {task_id: task.PROMPT for task_id, task in suite.user_tasks.items()},
            "trusted": list(declared[name].trusted),
            "values": calls_of(suite, declared[name], taxonomy),
        }
    return {"about": ABOUT.format(version=BENCHMARK_VERSION), "benchmark_version": BENCHMARK_VERSION,
            "suites": written}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dojo.calls", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        args.out.write_text(artifact_text(questions()), encoding="utf-8")
    except OSError as exc:
        print(f"python -m dojo.calls: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
