"""Wrong solutions (rule 16): plausible wrong answers each lesson's check must reject, and why.

Each ``solutions/wrong/lessonNN_<what_is_wrong>.py`` is a whole student file
whose docstring says, in two lines of its own, which kind of mistake it is and
the words the row that rejects it must contain (the idea it gets wrong):

    \"\"\"Wrong: counts a generator tag written inside <title> as markup.

    Kind: skips the edge
    Fails with: which a browser reads as text
    \"\"\"

``tests/test_wrong_solutions.py`` runs each through ``course check N`` and
requires a failing row with those words that is not a crash (the student's
code raising, not written yet, or a file that does not load); ``course lint``
requires every kind below for each lesson held to rules 15 to 19.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

FOLDER = "solutions/wrong"
KINDS = (
    "hard-codes the demo",      # the demo's own answer, typed in
    "skips the edge",           # the case the page stresses, left out
    "accepts everything",       # says yes (or passes) whatever it is given
    "returns early",            # stops before the work is done
    "reads the reference",      # imports the reference or reads a committed artifact
    "tampers with the check",   # patches the check's helpers or the modules it imports
    "author's own",             # a mistake the lesson's author has seen or made
)
# The rows of a check that say the student's code broke, rather than what it got wrong.
CRASH_ROWS = re.compile(r"^\S+ raised: | is not written yet: |^\S+\.py(, line \d+)?: \w+(Error|Exit|Exception)\b"
                        r"| ended the check's process | did not (return|finish loading) within ")


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    lesson: int
    what: str   # the first line of its docstring
    kind: str
    words: str  # what its failing row must say


class WrongSolutionError(ValueError):
    """A wrong solution's file does not declare itself as the convention asks."""


def wrong_solutions(root: Path, number: int) -> list[WrongSolution]:
    """Every wrong solution of lesson ``number`` under ``root``, in name order."""
    return [read(path, number) for path in sorted((Path(root) / FOLDER).glob(f"lesson{number:02d}_*.py"))]


def read(path: Path, number: int) -> WrongSolution:
    """The declaration in ``path``'s docstring, or a WrongSolutionError naming what is missing."""
    where = f"{FOLDER}/{path.name}"
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except SyntaxError as exc:
        raise WrongSolutionError(f"{where} does not parse: {exc.msg}") from None
    fields = dict(re.findall(r"^(Kind|Fails with): *(.+?) *$", doc, flags=re.MULTILINE))
    if not doc.startswith("Wrong: "):
        raise WrongSolutionError(f"{where}'s docstring does not start with 'Wrong: ' and what is wrong")
    for field in ("Kind", "Fails with"):
        if not fields.get(field):
            raise WrongSolutionError(f"{where}'s docstring has no '{field}:' line")
    if fields["Kind"] not in KINDS:
        raise WrongSolutionError(f"{where} declares the kind {fields['Kind']!r}; the kinds are {', '.join(KINDS)}")
    return WrongSolution(path, number, doc.splitlines()[0].removeprefix("Wrong: "), fields["Kind"],
                         fields["Fails with"])


def is_crash(message: str) -> bool:
    """Whether a row's message says the student's code broke (a crash), rather than naming what it got wrong."""
    return bool(CRASH_ROWS.search(message))


def names_the_idea(message: str, words: str) -> bool:
    """Whether ``message`` contains ``words``, whatever the spacing and letter case."""
    return " ".join(words.split()).lower() in " ".join(message.split()).lower()
