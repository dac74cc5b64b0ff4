"""One clear line for a typo in a student's dictionary: the key one typo away from a key the lesson expects.

A starter that builds data (lesson 2's policy) fails deep inside the reference
when a key is misspelled, with a message about a field the policy found
missing. ``misspelled_keys`` reads the file's dictionary literals instead, and
``typo_line`` names the tool and the key; when there is no typo, the check
keeps the line ``course/student.py`` gave (where the exception came from).
"""

from __future__ import annotations

import ast
import difflib
from pathlib import Path


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


def typo_line(student, expected: dict[str, tuple[str, ...]]) -> str:
    """The one line naming the first typo'd or missing key in the file of ``student`` (a ``course.student.Student``), or ""."""
    for line, name, written, meant in misspelled_keys(student.path, expected):
        if written:
            return (f"{student.shown}, line {line}: {name!r} has the key {written!r}, "
                    f"which it does not know; did you mean {meant!r}?")
        return f"{student.shown}, line {line}: {name!r} lacks the key {meant!r}"
    return ""
