"""Enumerate the mutants of each worked answer's marked lines, judge each with ``course check``, print the table.

    python -m mutation                 every lesson
    python -m mutation 7 11            those lessons
    python -m mutation 7 --list        the mutants, not judged
    python -m mutation 7 --survivors   the table, then each survivor's diff

The mutants come from cosmic-ray: its operators and ``mutation.operators``,
applied by its ``MutationVisitor`` one occurrence at a time, judged by its
``run_tests`` (a failing command, or one that runs past the timeout, kills
the mutant). A mutant that does not compile is no mutant, two operators
that write the same code make one mutant, and a function's annotations are
left alone. Nothing is written inside the
course: each mutant is a file in a temporary folder, which the check loads
as ``COURSE_TARGET``.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import os
import sys
import tempfile
import tomllib
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cosmic_ray.plugins
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code
from cosmic_ray.testing import run_tests
from cosmic_ray.work_item import TestOutcome

from mutation.operators import OPERATORS

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "# student writes: begin", "# student writes: end"
EQUIVALENT = ROOT / "solutions" / "equivalent_mutants.toml"
LESSONS = tuple(range(1, 13))
TIMEOUT = 60.0  # seconds; a check that runs longer than this has been stopped by the mutant
# cosmic-ray's operators that need arguments naming variables, and its no-op.
LEFT_OUT = ("core/VariableReplacer", "core/VariableInserter", "core/NoOp")


@dataclass(frozen=True)
class Mutant:
    lesson: int
    operator: str
    line: int
    before: str  # the marked line as written
    after: str  # the same line in the mutant (several lines joined by " / " when the mutant spans more)
    code: str

    @property
    def key(self) -> tuple[int, int, str, str]:
        """What names this mutant in the equivalent list: its lesson, its line's number, and the line before and after.

        The number tells two lines of the same text apart (two tools' costs);
        a listed mutant whose line moved is no longer made, which a test tells.
        """
        return self.lesson, self.line, self.before.strip(), self.after.strip()


def solution(lesson: int) -> Path:
    return ROOT / "solutions" / f"lesson{lesson:02d}.py"


def marked_lines(source: str) -> set[int]:
    """The numbers of the lines between each ``BEGIN`` and ``END`` comment (the marks themselves excluded)."""
    marked, inside = set(), False
    for number, line in enumerate(source.splitlines(), start=1):
        if line.strip() == BEGIN:
            if inside:
                raise ValueError(f"line {number}: a second '{BEGIN}' before '{END}'")
            inside = True
        elif line.strip() == END:
            if not inside:
                raise ValueError(f"line {number}: '{END}' with no '{BEGIN}' before it")
            inside = False
        elif inside:
            marked.add(number)
    if inside:
        raise ValueError(f"'{BEGIN}' is never closed by '{END}'")
    return marked


def annotations(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where each annotation of a function stands ((line, column) to (line, column)): types, not the student's logic.

    A mutated annotation (``dict | None`` made ``dict + None``) only breaks the
    file's import, which every check kills at once; it says nothing of a check.
    """
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            notes = [arg.annotation for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                                                node.args.vararg, node.args.kwarg) if arg is not None]
            for note in [*notes, node.returns]:
                if note is not None:
                    spans.append(((note.lineno, note.col_offset), (note.end_lineno, note.end_col_offset)))
    return spans


def operators():
    """Every operator used, by name, as (name, instance): cosmic-ray's, then this package's."""
    for name in cosmic_ray.plugins.operator_names():
        if not name.startswith(LEFT_OUT):
            yield name, cosmic_ray.plugins.get_operator(name)()
    for name, kind in OPERATORS.items():
        yield f"course/{name}", kind()


def mutants(lesson: int) -> list[Mutant]:
    """Every distinct mutant of the marked lines of lesson ``lesson``'s worked answer, in a fixed order."""
    source = solution(lesson).read_text(encoding="utf-8")
    marked, lines = marked_lines(source), source.splitlines()
    found, seen = [], {source}
    nodes = list(ast_nodes(get_ast(source)))  # an operator only looks at a node here; it mutates a fresh parse
    typed = annotations(source)
    for name, operator in operators():
        positions = [start for node in nodes for start, _ in operator.mutation_positions(node)]
        for occurrence, (line, column) in enumerate(positions):
            if line not in marked or any(begin <= (line, column) < end for begin, end in typed):
                continue
            code = mutate_code(source, operator, occurrence)
            if code is None or code in seen:
                continue
            seen.add(code)
            try:
                with warnings.catch_warnings():  # ``x is "a"``: a warning, and still a mutant
                    warnings.simplefilter("ignore")
                    compile(code, "mutant.py", "exec")
            except SyntaxError:
                continue
            changed = [new for new in difflib.ndiff(lines, code.splitlines()) if new.startswith("+ ")]
            found.append(Mutant(lesson, name, line, lines[line - 1], " / ".join(new[2:] for new in changed), code))
    return found


def equivalents(path: Path = EQUIVALENT) -> dict[tuple[int, int, str, str], str]:
    """The listed mutants the check is right to pass: their key (``Mutant.key``) and the reason.

    Both kinds: ``mutant`` (equivalent: no input the contract allows tells it
    apart) and ``permitted`` (another answer the contract lets the student choose).
    """
    if not path.exists():
        return {}
    listed = {}
    found = tomllib.loads(path.read_text(encoding="utf-8"))
    for entry in [*found.get("mutant", []), *found.get("permitted", [])]:
        key = (int(entry["lesson"]), int(entry["at"]), entry["line"].strip(), entry["mutant"].strip())
        if not entry.get("reason", "").strip():
            raise ValueError(f"{path.name}: the mutant {key} is listed with no reason")
        listed[key] = entry["reason"]
    return listed


def killed(mutant: Mutant, folder: Path, timeout: float = TIMEOUT) -> bool:
    """Whether ``course check N`` fails on ``mutant`` (written to a file of its own in ``folder``)."""
    digest = hashlib.sha256(mutant.code.encode()).hexdigest()[:16]
    target = folder / digest / f"lesson{mutant.lesson:02d}.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(mutant.code, encoding="utf-8")
    course = Path(sys.executable).with_name("course")
    command = f"env COURSE_TARGET={target} {course} check {mutant.lesson}"
    outcome, _output = run_tests(command, timeout)
    if outcome == TestOutcome.INCOMPETENT:
        raise RuntimeError(f"the check could not be started for {mutant.key}: {_output}")
    return outcome == TestOutcome.KILLED


@dataclass
class Row:
    lesson: int
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0

    @property
    def score(self) -> str:
        judged = self.mutants - self.equivalent
        return f"{100 * self.killed / judged:.1f} %" if judged else "-"


def judge(lessons, jobs: int = 1, out=sys.stdout) -> tuple[list[Row], list[Mutant], list[Mutant]]:
    """The table's rows, the survivors that are not listed equivalent, and listed ones that were killed."""
    listed = equivalents()
    rows, survivors, not_equivalent = [], [], []
    with tempfile.TemporaryDirectory(prefix="course-mutants-") as folder, ThreadPoolExecutor(jobs) as pool:
        for lesson in lessons:
            found = mutants(lesson)
            verdicts = list(pool.map(lambda mutant: killed(mutant, Path(folder)), found))
            row = Row(lesson, mutants=len(found))
            for mutant, dead in zip(found, verdicts):
                if mutant.key in listed:
                    row.equivalent += 1
                    if dead:
                        not_equivalent.append(mutant)
                elif dead:
                    row.killed += 1
                else:
                    row.survived += 1
                    survivors.append(mutant)
            rows.append(row)
            print(f"lesson {lesson}: {row.mutants} mutants judged", file=sys.stderr, flush=True)
    return rows, survivors, not_equivalent


def table(rows: list[Row]) -> str:
    lines = [f"{'lesson':>6}  {'mutants':>7}  {'killed':>6}  {'survived':>8}  {'equivalent':>10}  {'score':>7}"]
    for row in rows:
        lines.append(f"{row.lesson:>6}  {row.mutants:>7}  {row.killed:>6}  {row.survived:>8}  {row.equivalent:>10}  "
                     f"{row.score:>7}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", type=int, help="the lessons to measure (default: all)")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("MUTATE_JOBS", "1")),
                        help="checks run at once (each check is two processes)")
    parser.add_argument("--list", action="store_true", help="list the mutants without judging them")
    parser.add_argument("--survivors", action="store_true", help="print each survivor's line and mutant")
    options = parser.parse_args(argv)
    lessons = options.lessons or LESSONS
    if any(lesson not in LESSONS for lesson in lessons):
        parser.error(f"a lesson is one of {LESSONS[0]} to {LESSONS[-1]}")
    if options.list:
        for lesson in lessons:
            for mutant in mutants(lesson):
                print(f"lesson {lesson} line {mutant.line} {mutant.operator}: {mutant.after.strip()}")
        return 0
    rows, survivors, not_equivalent = judge(lessons, options.jobs)
    print(table(rows))
    for mutant in not_equivalent:
        print(f"listed as equivalent but killed (remove it from {EQUIVALENT.name}): lesson {mutant.lesson}, "
              f"line {mutant.line}: {mutant.after.strip()}")
    if options.survivors:
        for mutant in survivors:
            print(f"survived: lesson {mutant.lesson} line {mutant.line} {mutant.operator}\n"
                  f"  - {mutant.before.strip()}\n  + {mutant.after.strip()}")
    return 1 if survivors or not_equivalent else 0
