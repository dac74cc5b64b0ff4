"""python -m dojo: AgentDojo's suites with no door and with the course's door, scored by AgentDojo.

    python -m dojo [--suite S ...] [--sample] [--attack important_instructions] [--costs]
    python -m dojo --suite S --pair USER_TASK INJECTION_TASK --out PATH

The first form prints, per suite and in all, utility, utility under attack
and targeted attack success for each door (over every pair, or with
``--sample`` over a fixed two of each suite), the values each suite's
operator trusts, and (``--costs``) every run the course's door cost, with
what it refused. The second writes one pair's sealed report, which
``python -m core.run.seal verify PATH`` checks like any other.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.run.canon import artifact_text
from dojo import catalogue, measure

HEADER = f"{'suite':<10} {'door':<7} {'pairs':>5} {'utility':>8} {'under attack':>13} {'attack success':>15}"


def table(suites: dict, attack: str, doors=measure.DOORS, pairs=None) -> tuple[list[str], dict]:
    """The table's lines, and each door's tally over all suites."""
    lines, totals = [HEADER], {door: measure.Tally() for door in doors}
    for name, suite in suites.items():
        for door in doors:
            tally = measure.measure(suite, door, pairs.get(name) if pairs else None, attack)
            totals[door].add(tally)
            lines.append(_row(name, door, tally))
    for door in doors:
        lines.append(_row("all", door, totals[door]))
    return lines, totals


def _row(name: str, door: str, tally: measure.Tally) -> str:
    utility, under_attack, attacked = tally.row()
    return (f"{name:<10} {door:<7} {len(tally.attacked):>5} {utility:>8.3f} {under_attack:>13.3f} "
            f"{attacked:>15.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dojo", description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="append", help="a suite of AgentDojo v1.2.2 (all four by default)")
    parser.add_argument("--attack", default=measure.ATTACK, choices=[measure.ATTACK])
    parser.add_argument("--costs", action="store_true", help="list every run the course's door cost")
    parser.add_argument("--sample", action="store_true", help="only the fixed sample of two pairs per suite")
    parser.add_argument("--pair", nargs=2, metavar=("USER_TASK", "INJECTION_TASK"))
    parser.add_argument("--out", type=Path, help="where --pair writes the pair's sealed report")
    args = parser.parse_args(argv)
    try:
        suites = measure.suites(args.suite)
    except ValueError as exc:
        print(f"python -m dojo: {exc}", file=sys.stderr)
        return 2
    if args.pair:
        return _seal_pair(suites, args)
    trusted = catalogue.load()
    for name in suites:
        values = ", ".join(trusted[name].trusted) or "none"
        print(f"trusted values of {name}: {values}")
    lines, totals = table(suites, args.attack, pairs=measure.SAMPLE if args.sample else None)
    print("\n".join(lines))
    if args.costs:
        print("\nruns the course's door cost:")
        print("\n".join(totals["course"].costs) or "none")
        print("\npairs whose attack AgentDojo scores a success through the course's door:")
        print("\n".join(totals["course"].breaches) or "none")
    return 0


def _seal_pair(suites: dict, args) -> int:
    if len(suites) != 1 or args.out is None:
        print("python -m dojo: --pair needs exactly one --suite and an --out path", file=sys.stderr)
        return 2
    suite = next(iter(suites.values()))
    user_id, injection_id = args.pair
    if user_id not in suite.user_tasks or injection_id not in suite.injection_tasks:
        print(f"python -m dojo: suite {suite.name} has no pair {user_id} x {injection_id}", file=sys.stderr)
        return 2
    user_task, injection_task = suite.get_user_task_by_id(user_id), suite.get_injection_task_by_id(injection_id)
    attack = measure.load_attack(args.attack, suite, measure.pipeline(measure.ScriptedModel(None),
                                                                     measure.ToolsExecutor()))
    utility, security, element = measure.run_pair(suite, "course", user_task, injection_task,
                                                  attack.attack(user_task, injection_task))
    try:
        args.out.write_text(artifact_text(element.sealed()), encoding="utf-8")
    except OSError as exc:
        print(f"python -m dojo: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{suite.name} {user_id} x {injection_id}: utility {utility}, attack success {security}; "
          f"sealed report in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
