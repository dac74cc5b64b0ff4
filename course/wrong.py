"""Wrong solutions (rule 16): plausible wrong answers each lesson's check must reject, stored as their mistake.

A wrong solution is the worked answer with one mistake in it, so it is kept as
that mistake: ``solutions/wrong/lessonNN_<what_is_wrong>.diff``, a header, then
a unified diff against ``solutions/lessonNN.py`` (``diff -u`` or ``git diff``
output; ``patch -p0`` applies it too, since it skips the header)::

    Wrong: counts a generator tag written inside <title> as markup.

    html.parser reports anything shaped like a tag outside comments, script and
    style; a browser reads the content of <title> as text.

    Kind: skips the edge
    Fails with: which a browser reads as text

    --- solutions/lesson04.py
    +++ solutions/wrong/lesson04_counts_title_tags.py
    @@ -20,3 +20,3 @@
     ...

The header is every line before the first ``--- ``: its first line says what
is wrong after ``Wrong: ``, the lines between say why, and two lines of their
own give the kind of mistake (``KINDS``) and the words the row that rejects it
must contain. ``rebuild`` applies the diff to the worked answer as it is now
and raises ``WrongSolutionError`` where the worked answer has moved under a
hunk, so a fix to a worked answer is made once and a diff it breaks is named.
``course check N`` with ``COURSE_TARGET`` naming a ``.diff`` checks the file it
rebuilds (``course/target.py``).

A wrong answer that is not a change to the worked answer (the shortcut that
imports the reference or reads a committed artifact) is a whole
``lessonNN_<what>.py`` whose docstring carries the same header.

``tests/test_wrong_solutions.py`` runs each through ``course check N`` and
requires a failing row with those words that is not a crash (the student's
code raising, not written yet, or a file that does not load); ``course lint``
requires every kind below for each lesson held to rules 15 to 19.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

FOLDER = "solutions/wrong"
KINDS = (
    "hard-codes the demo",      # the demo's own answer, typed in
    "skips the edge",           # the case the page stresses, left out
    "accepts everything",       # says yes (or passes) whatever it is given
    "returns early",            # stops before the work is done
    "reads the reference",      # imports the reference or reads a committed artifact (a whole file)
    "author's own",             # a mistake the lesson's author has seen or made
)
# The rows of a check that say the student's code broke, rather than what it got wrong.
CRASH_ROWS = re.compile(r"^\S+ raised: | is not written yet: |^\S+\.py(, line \d+)?: \w+(Error|Exit|Exception)\b"
                        r"| ended the check's process | did not (return|finish loading) within ")
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    lesson: int
    what: str   # the header's first line, after "Wrong: "
    kind: str
    words: str  # what its failing row must say


class WrongSolutionError(ValueError):
    """A wrong solution does not declare itself as the convention asks, or its diff no longer applies."""


def wrong_solutions(root: Path, number: int) -> list[WrongSolution]:
    """Every wrong solution of lesson ``number`` under ``root`` (diffs and whole files), in name order."""
    found = (Path(root) / FOLDER).glob(f"lesson{number:02d}_*")
    return [read(path, number) for path in sorted(found) if path.suffix in (".diff", ".py")]


def header(path: Path) -> str:
    """A wrong solution's header: a diff's lines before its first ``--- ``, a whole file's docstring."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".diff":
        return text.split("\n--- ", 1)[0] if not text.startswith("--- ") else ""
    try:
        return ast.get_docstring(ast.parse(text)) or ""
    except SyntaxError as exc:
        raise WrongSolutionError(f"{FOLDER}/{path.name} does not parse: {exc.msg}") from None


def read(path: Path, number: int) -> WrongSolution:
    """The declaration in ``path``'s header, or a WrongSolutionError naming what is missing."""
    where = f"{FOLDER}/{path.name}"
    doc = header(path)
    fields = dict(re.findall(r"^(Kind|Fails with): *(.+?) *$", doc, flags=re.MULTILINE))
    if not doc.startswith("Wrong: "):
        raise WrongSolutionError(f"{where}'s header does not start with 'Wrong: ' and what is wrong")
    for field in ("Kind", "Fails with"):
        if not fields.get(field):
            raise WrongSolutionError(f"{where}'s header has no '{field}:' line")
    if fields["Kind"] not in KINDS:
        raise WrongSolutionError(f"{where} declares the kind {fields['Kind']!r}; the kinds are {', '.join(KINDS)}")
    return WrongSolution(path, number, doc.splitlines()[0].removeprefix("Wrong: "), fields["Kind"],
                         fields["Fails with"])


def worked_answer(path: Path) -> Path:
    """The worked answer a diff named ``lessonNN_<what>.diff`` changes: ``solutions/lessonNN.py``."""
    found = re.match(r"lesson(\d\d)_", path.name)
    if not found:
        raise WrongSolutionError(f"{path.name} is not named lessonNN_<what_is_wrong>.diff")
    return path.resolve().parent.parent / f"lesson{found.group(1)}.py"


def rebuild(path: Path) -> str:
    """The whole wrong file: the worked answer as it is now, with ``path``'s diff applied."""
    return apply(worked_answer(path).read_text(encoding="utf-8"), path.read_text(encoding="utf-8"), path.name)


def rebuilt_copy(path: Path) -> Path:
    """``rebuild(path)`` written to a temporary folder of its own, named as the diff is but ``.py``."""
    text = rebuild(path)
    folder = Path(tempfile.gettempdir()) / f"course-wrong-{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    folder.mkdir(exist_ok=True)
    copy = folder / f"{path.stem}.py"
    # Two test processes may rebuild the same wrong solution at once: each writes a file of its own
    # and renames it into place, so a check never loads a copy that another process is half-way writing.
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".part", delete=False) as part:
        part.write(text)
    os.replace(part.name, copy)
    return copy


def apply(original: str, diff: str, name: str = "the diff") -> str:
    """``original`` with the unified ``diff`` applied; a WrongSolutionError where a hunk does not match it."""
    lines = original.splitlines(keepends=True)
    body = diff.splitlines(keepends=True)
    start = next((i for i, line in enumerate(body) if line.startswith("--- ")), None)
    if start is None or start + 1 >= len(body) or not body[start + 1].startswith("+++ "):
        raise WrongSolutionError(f"{name} holds no unified diff (a '--- ' line, then a '+++ ' line)")
    out, at, i = [], 0, start + 2  # at: the next line of the original not yet copied
    while i < len(body):
        found = HUNK.match(body[i])
        if not found:
            raise WrongSolutionError(f"{name}, line {i + 1}: expected a hunk ('@@ -a,b +c,d @@')")
        begin = int(found.group(1)) - (0 if found.group(2) == "0" else 1)
        if begin < at:
            raise WrongSolutionError(f"{name}, line {i + 1}: hunks overlap or are out of order")
        out += lines[at:begin]
        at, i = begin, i + 1
        while i < len(body) and not body[i].startswith("@@"):
            line, mark = body[i], body[i][:1]
            if line.startswith("\\"):  # "\ No newline at end of file", after the line it speaks of
                if body[i - 1][:1] != "-" and out:
                    out[-1] = out[-1].rstrip("\n")
            elif mark in (" ", "-"):
                if at >= len(lines) or lines[at].rstrip("\n") != line[1:].rstrip("\n"):
                    raise WrongSolutionError(f"{name}, line {i + 1}: the worked answer no longer reads "
                                             f"{line[1:].rstrip()!r} at line {at + 1}; make the diff again")
                if mark == " ":
                    out.append(lines[at])
                at += 1
            elif mark == "+":
                out.append(line[1:] if line.endswith("\n") else line[1:] + "\n")
            elif line.strip():
                raise WrongSolutionError(f"{name}, line {i + 1}: not a line of a hunk")
            i += 1
    return "".join(out + lines[at:])


def is_crash(message: str) -> bool:
    """Whether a row's message says the student's code broke (a crash), rather than naming what it got wrong."""
    return bool(CRASH_ROWS.search(message))


def names_the_idea(message: str, words: str) -> bool:
    """Whether ``message`` contains ``words``, whatever the spacing and letter case."""
    return " ".join(words.split()).lower() in " ".join(message.split()).lower()
