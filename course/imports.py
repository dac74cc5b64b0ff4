"""The import gate: `core/` uses the Python standard library and itself, nothing else.

Students read `core/` as the reference harness; keeping it standard-library
only means every line of it can be read without knowing another library, and
that nothing outside it (the lab, the course tools) can leak into a decision.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ALLOWED = frozenset(sys.stdlib_module_names) | {"core", "__future__"}


def foreign_imports(package: Path) -> list[str]:
    """Every import under ``package`` of something outside the stdlib and ``core``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for name in _imported(node):
                if name.split(".")[0] not in ALLOWED:
                    found.append(f"{path.relative_to(package.parent).as_posix()}:{node.lineno} imports {name}")
    return found


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []
