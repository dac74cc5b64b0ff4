"""One clear line about a student's file that breaks: which file, which line, what went wrong.

A starter that does not import, or whose function raises, would otherwise fail
every check with the same long message. ``describe`` turns the exception into
one line that names the file and the line in it; ``misspelled_keys`` reads the
file's dictionary literals and finds a key that is one typo away from a key the
lesson expects, so the answer names the tool and the key instead of a field the
policy found missing.

    python -m course.diagnose N     exit 0 if lesson N's selected file imports, else one line and exit 1
"""

from __future__ import annotations

import ast
import difflib
import sys
import traceback
from pathlib import Path

from course.manifest import course_root


def shown_path(path: Path, root: Path | None = None) -> str:
    """``path`` as the student names it: relative to the course root when it is inside it."""
    root = (root or course_root()).resolve()
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def line_in(exc: BaseException, path: Path) -> int | None:
    """The line of ``path`` where ``exc`` happened (the deepest frame in that file), if any."""
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename).resolve() == Path(path).resolve():
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).resolve() == Path(path).resolve()]
    return frames[-1].lineno if frames else None


def describe(exc: BaseException, path: Path, root: Path | None = None) -> str:
    """One line: ``starter/lesson02.py, line 31: SyntaxError: '(' was never closed``."""
    where = shown_path(path, root)
    missing = _missing_name(exc, path)
    if missing:
        return f"{where}{missing}"
    line = line_in(exc, path)
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    what = f"{type(exc).__name__}: {' '.join(str(message).split())}" if str(message).strip() else type(exc).__name__
    return f"{where}, line {line}: {what}" if line else f"{where}: {what}"


def _missing_name(exc: BaseException, path: Path) -> str:
    """For "the file lacks a name": where a near spelling of it is defined, if anywhere."""
    module = getattr(exc, "obj", None)
    if not isinstance(exc, AttributeError) or not getattr(exc, "name", None) \
            or Path(getattr(module, "__file__", "") or "").resolve() != Path(path).resolve():
        return ""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ""
    defined = {node.name: node.lineno for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    close = difflib.get_close_matches(exc.name, list(defined), n=1, cutoff=0.6)
    if close:
        return f", line {defined[close[0]]}: AttributeError: the file defines {close[0]!r}, not {exc.name!r}"
    return f": AttributeError: the file defines no {exc.name!r}"


def misspelled_keys(path: Path, expected: dict[str, tuple[str, ...]]) -> list[tuple[int, str, str, str]]:
    """Keys missing from the dictionary literals in ``path``, and the typos that stand in for them.

    ``expected`` maps a marker key to the keys a dictionary holding that marker
    must have, for example ``{"tool_id": ("tool_id", "activity", ...)}``. Returns
    (line, the dictionary's marker value, the key written or "", the key expected)
    for each dictionary that lacks an expected key.
    """
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        keys = {k.value: (k, v) for k, v in zip(node.keys, node.values)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        for marker, wanted in expected.items():
            missing = [w for w in wanted if w not in keys]
            if marker not in keys or not missing:
                continue
            value = keys[marker][1]
            name = value.value if isinstance(value, ast.Constant) else marker
            typos = [(key_node.lineno, str(name), written, close[0])
                     for written, (key_node, _) in keys.items() if written not in wanted
                     for close in [difflib.get_close_matches(written, missing, n=1, cutoff=0.6)] if close]
            found += typos or [(node.lineno, str(name), "", key) for key in missing[:1]]
    return sorted(found)


def explain(exc: BaseException, path: Path, expected: dict[str, tuple[str, ...]] | None = None) -> str:
    """The one line a completion test reports when the student's code raises ``exc``."""
    for line, name, written, meant in misspelled_keys(path, expected or {}):
        if written:
            return (f"{shown_path(path)}, line {line}: {name!r} has the key {written!r}, "
                    f"which it does not know; did you mean {meant!r}?")
        return f"{shown_path(path)}, line {line}: {name!r} lacks the key {meant!r}"
    return describe(exc, path)


def main(argv: list[str] | None = None) -> int:
    """Import lesson N's selected file; print one line and return 1 if it cannot be imported."""
    from course.target import load_lesson, target_path

    args = sys.argv[1:] if argv is None else argv
    number = int(args[0])
    try:
        load_lesson(number)
    except FileNotFoundError as exc:
        print(str(exc))
        return 2
    except (Exception, SystemExit) as exc:  # noqa: BLE001  the student's code may raise anything, or exit
        print(f"\n{describe(exc, target_path(number))}")  # the last line, after anything the file printed
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
