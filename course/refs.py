"""Resolving a page's `file.py:Symbol` code references to real definitions.

`run/records.py:Run` means: the file ``core/run/records.py`` (paths are tried
under ``core/`` first, then from the repository root), and in it a class,
function or assigned name ``Run``. A dotted symbol (``Recorder.record``)
walks into a class; a bare name may also be a method, found anywhere in the
file. Lint reports a reference that resolves to nothing; the site hook turns
each one into a link to the line that defines it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SEARCH_ROOTS = ("core", ".")


@dataclass(frozen=True)
class Definition:
    path: str  # relative to the repository root, with forward slashes
    line: int


def resolve(reference: str, root: Path) -> Definition | None:
    """Where ``reference`` is defined under ``root``, or None."""
    file_part, _, symbol = reference.partition(":")
    for base in SEARCH_ROOTS:
        candidate = (Path(root) / base / file_part).resolve()
        if candidate.is_file() and Path(root).resolve() in candidate.parents:
            line = _find(candidate, symbol)
            if line is not None:
                return Definition(candidate.relative_to(Path(root).resolve()).as_posix(), line)
    return None


def _find(path: Path, symbol: str) -> int | None:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return None
    names = symbol.split(".")
    if len(names) > 1:
        return _walk_dotted(tree.body, names)
    for node in ast.walk(tree):
        if _defines(node, names[0]):
            return node.lineno
    return None


def _walk_dotted(body: list[ast.stmt], names: list[str]) -> int | None:
    for node in body:
        if _defines(node, names[0]):
            if len(names) == 1:
                return node.lineno
            if isinstance(node, ast.ClassDef):
                return _walk_dotted(node.body, names[1:])
    return None


def _defines(node: ast.AST, name: str) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    if isinstance(node, ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return False
