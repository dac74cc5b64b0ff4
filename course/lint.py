"""`course lint`: the lesson contract's static checks.

Each check returns problems as plain sentences; an empty list means the
course keeps its promises. Only lessons marked ``ready`` in the manifest are
held to the contract, and only those marked ``contract = 2`` to its rules 16
and 18 (wrong solutions, an answer declared after the prediction).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from course import contract, hints, manifest, pages, predictions, refs, wrong
from course.manifest import Lesson

_KEYS_LIST = re.compile(r"<!--\s*answer keys.*?-->", re.DOTALL)

# Things that make an artifact or a notebook output differ between machines or runs.
NOISE = {
    "an absolute path": re.compile(r"(?<![\w.])/(?:home|root|tmp|work|Users|usr|var|opt|private|mnt)/|\b[A-Za-z]:\\\\"),
    "a timestamp": re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\b\d{2}:\d{2}:\d{2}\b"),
    "a memory address": re.compile(r"\bat 0x[0-9a-fA-F]+|\b0x[0-9a-fA-F]{8,}\b"),
}


def lint(root: Path) -> list[str]:
    """Every broken promise in the course under ``root``, one sentence each."""
    problems: list[str] = []
    for lesson in manifest.load(root):
        if lesson.ready:
            problems += [f"lesson {lesson.number}: {p}" for p in lint_lesson(lesson, Path(root))]
    return problems


def lint_lesson(lesson: Lesson, root: Path) -> list[str]:
    missing = [p for p in _required_files(lesson) if not (root / p).is_file()]
    if missing:
        return [f"{path} is missing" for path in missing]
    text = (root / lesson.page).read_text(encoding="utf-8")
    return (
        check_sections(text, lesson.page)
        + check_references(text, lesson.page, root)
        + check_completion(text, lesson, root)
        + check_notebook(root / lesson.notebook, lesson.notebook)
        + check_fit(text, lesson.page, root)
        + check_hints(text, lesson)
        + check_notebook_runs_no_solution(root / lesson.notebook, lesson)
        + [problem for a in lesson.artifacts for problem in check_clean_file(root / a.path, a.path)]
        + (check_wrong_solutions(lesson, root) + check_prediction(text, lesson, root) if lesson.contract >= 2 else [])
        + (check_exercise_docstrings(root / lesson.starter, lesson.starter) if lesson.contract >= 2 else [])
    )


def check_wrong_solutions(lesson: Lesson, root: Path) -> list[str]:
    """Rule 16: six or more wrong solutions, every kind among them, each declaring its kind and its row's words,
    each diff applying to the worked answer as it is now, and the shortcut a whole file."""
    try:
        found = wrong.wrong_solutions(root, lesson.number)
    except wrong.WrongSolutionError as exc:
        return [str(exc)]
    if not found:
        return [f"has no wrong solutions yet ({wrong.FOLDER}/lesson{lesson.label}_<what_is_wrong>.diff; "
                f"{contract.cite(16)})"]
    problems = []
    for each in found:
        if each.path.suffix == ".diff":
            try:
                wrong.rebuild(each.path)
            except (OSError, wrong.WrongSolutionError) as exc:
                problems.append(str(exc))
    if not any(w.kind == "reads the reference" and w.path.suffix == ".py" for w in found):
        problems.append("has no whole-file wrong solution that imports the reference or reads an artifact")
    if len(found) < 6:
        problems.append(f"has {len(found)} wrong solution(s) in {wrong.FOLDER}/; {contract.cite(16)} asks for six or more")
    missing = [kind for kind in wrong.KINDS if kind not in {w.kind for w in found}]
    if missing:
        problems.append(f"has no wrong solution of the kind(s) {', '.join(repr(kind) for kind in missing)}")
    return problems


def check_prediction(text: str, lesson: Lesson, root: Path) -> list[str]:
    """Rule 18: a collapsed answer block after the prediction, whose keys appear neither above it nor in the notebook."""
    found = predictions.answers(text)
    if not found:
        return [f"{lesson.page} has no answer block (??? success \"Answer: ...\" with <!-- answer keys -->) "
                "after its prediction"]
    problems = []
    for answer in found:
        where = f"{lesson.page} line {answer.line + 1}"
        if not answer.collapsed:
            problems.append(f"{where}: the answer block is open (???+); it must be collapsed (???)")
        if not answer.keys:
            problems.append(f"{where}: the answer block lists no answer keys (<!-- answer keys ... -->)")
        if "predict" not in answer.above.lower():
            problems.append(f"{where}: the answer block comes before any prediction")
        problems += [f"{lesson.page} gives away the answer {key!r} above its answer block"
                     for key in predictions.leaks(answer.keys, answer.above)]
        shown = _KEYS_LIST.sub("", answer.body)
        problems += [f"{where}: the answer key {key!r} is not in the answer itself"
                     for key in answer.keys if not predictions.leaks((key,), shown)]
    try:
        notebook = json.loads((root / lesson.notebook).read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return problems  # check_notebook reports it
    cells = predictions.prediction_cells(notebook)
    if not cells:
        problems.append(f"{lesson.notebook} has no prediction cell (a code cell tagged {predictions.PREDICTION_TAG!r})")
    for cell in cells:
        if cell.get("outputs"):
            problems.append(f"{lesson.notebook}: the prediction cell is committed with its output")
        if predictions.IGNORE_OUTPUT_TAG not in cell.get("metadata", {}).get("tags", []):
            problems.append(f"{lesson.notebook}: the prediction cell lacks the tag {predictions.IGNORE_OUTPUT_TAG!r}, "
                            "so nbval would compare its output")
    keys = tuple(key for answer in found for key in answer.keys)
    problems += [f"{lesson.notebook} gives away the answer {key!r}"
                 for key in predictions.leaks(keys, predictions.notebook_text(notebook))]
    return problems


def _required_files(lesson: Lesson) -> list[str]:
    files = [lesson.page, lesson.notebook, lesson.starter, lesson.starter_test, lesson.solution]
    return files + list(lesson.tests) + [a.path for a in lesson.artifacts]


def check_sections(text: str, where: str) -> list[str]:
    found = pages.headings(text)
    if found == list(pages.SECTIONS):
        return []
    absent = [name for name in pages.SECTIONS if name not in found]
    if absent:
        return [f"{where} lacks the section(s) {', '.join(repr(n) for n in absent)}"]
    return [f"{where} has its sections in the order {found}; the contract's order is {list(pages.SECTIONS)}"]


def check_references(text: str, where: str, root: Path) -> list[str]:
    return [
        f"{where} refers to `{ref}`, which resolves to no definition"
        for ref in dict.fromkeys(pages.code_references(text))
        if refs.resolve(ref, root) is None
    ]


def check_completion(text: str, lesson: Lesson, root: Path) -> list[str]:
    """Each completion bullet is exactly one test's docstring, and each test has its bullet."""
    bullets = pages.completion_bullets(text)
    tests = {name: doc for path in lesson.tests for name, doc in test_docstrings(root / path)}
    problems = []
    if not bullets:
        problems.append(f"{lesson.page} lists no completion bullets")
    for bullet in bullets:
        owners = [name for name, doc in tests.items() if doc == bullet]
        if len(owners) != 1:
            problems.append(f"bullet {bullet!r} is the docstring of {len(owners)} tests, not exactly one")
    for name, doc in tests.items():
        if doc not in bullets:
            problems.append(f"test {name} has no bullet under 'Check completion' (its docstring: {doc!r})")
    return problems


def check_fit(text: str, where: str, root: Path) -> list[str]:
    """Rule 10: every command and code line on the page fits in 88 columns."""
    return [f"{where}: a code line is {len(line)} columns wide, more than {pages.WIDEST_CODE_LINE}: {line[:40]!r}..."
            for line in pages.code_lines(text, root) if len(line) > pages.WIDEST_CODE_LINE]


def check_hints(text: str, lesson: Lesson) -> list[str]:
    """Rule 11: at least two collapsed hints, then the worked solution included from solutions/."""
    problems = []
    found = hints.hints(text)
    if len(found) < 2:
        problems.append(f"{lesson.page} has {len(found)} hint(s) (`??? tip \"Hint N: ...\"`); the contract asks for two or more")
    if lesson.solution not in pages.snippets(text):
        problems.append(f"{lesson.page} does not include its worked solution with --8<-- \"{lesson.solution}\"")
    return problems


def check_notebook_runs_no_solution(path: Path, lesson: Lesson) -> list[str]:
    """Rule 9: the notebook runs the reference and the student's own file, never the worked solution."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return []  # check_notebook reports it
    code = "\n".join("".join(cell.get("source", "")) for cell in notebook.get("cells", [])
                     if cell.get("cell_type") == "code")
    code = code.replace(lesson.starter, "")
    named = [word for word in ('"solution"', "'solution'", "solutions/", "solutions.", Path(lesson.solution).name)
             if word in code]
    return [f"{lesson.notebook} loads the worked solution (its code names {named[0]})"] if named else []


def test_docstrings(path: Path) -> list[tuple[str, str]]:
    """(test name, whitespace-normalized docstring) for every test function in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            doc = ast.get_docstring(node) or ""
            found.append((f"{path.name}::{node.name}", " ".join(doc.split())))
    return found


def check_notebook(path: Path, where: str) -> list[str]:
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        return [f"{where} is not valid JSON: {exc}"]
    problems = []
    code_cells = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    counts = [cell.get("execution_count") for cell in code_cells]
    if counts != list(range(1, len(code_cells) + 1)):
        problems.append(f"{where} is not executed top to bottom in one kernel (execution counts {counts})")
    for number, cell in enumerate(code_cells, start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                problems.append(f"{where} code cell {number} ended in an error")
            problems += [f"{where} code cell {number}: {p}" for p in check_clean_text(_output_text(output))]
    return problems


def _output_text(output: dict) -> str:
    parts = [output.get("text", "")]
    for value in output.get("data", {}).values():
        parts.append(value if isinstance(value, str) else "".join(value) if isinstance(value, list) else "")
    parts += output.get("traceback", [])
    return "".join("".join(p) if isinstance(p, list) else p for p in parts)


def check_clean_file(path: Path, where: str) -> list[str]:
    return [f"{where}: {p}" for p in check_clean_text(path.read_text(encoding="utf-8"))]


def check_clean_text(text: str) -> list[str]:
    return [f"contains {what} ({m.group(0)!r})" for what, rx in NOISE.items() for m in [rx.search(text)] if m]


# Rule 20: an exercise's docstring is a contract (what to answer, for which inputs, and why), never the
# steps to get there; the steps live in the page's hints. What reads as steps:
STEPS = {
    "a numbered list": re.compile(r"^[ \t]*(?:\d+[.)]|\(\d+\))[ \t]", re.M),
    "the word 'step'": re.compile(r"(?<![\"'`])\bsteps?\b(?![\"'`])", re.I),  # not a key named "step"
    "steps in sequence ('first ... then', 'in this order')": re.compile(
        r"\bfirst\b[^.;:]*\bthen\b|\bin (?:this|that|the following) order\b|\bafter that\b", re.I),
    "pseudo-code": re.compile(
        r"^[ \t]*(?:for (?:each|every)\b|while\b|repeat\b|then\b|else\b|otherwise\b|if\b[^\n]*:[ \t]*$)", re.M | re.I),
}


def check_exercise_docstrings(path: Path, where: str) -> list[str]:
    """Rule 20: the starter's module docstring and its functions' docstrings state a contract, not steps."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = [("the module docstring", ast.get_docstring(tree, clean=False) or "")]
    docs += [(f"{node.name}'s docstring", ast.get_docstring(node, clean=False) or "")
             for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [f"{where}: {what} gives steps ({name}: {match.group(0).strip()!r}); state what the function must "
            "answer, for which inputs, and why, and put the steps in the page's hints"
            for what, doc in docs for name, pattern in STEPS.items() for match in [pattern.search(doc)] if match]
