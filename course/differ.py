"""Differential checks: the student's answers beside the rule's, on inputs drawn across a contract's edge classes.

A lesson's completion test lists the edge classes its contract has, as data
(``Edge``): the class in words, the inputs every run asks whatever the seed
(its boundaries, say), and how more are drawn (a Hypothesis strategy). For
each class ``compare`` asks the student's file every fixed input, then the
drawn ones, and compares what the contract fixes (a verdict, a position, a
boolean) with what the rule gives. At the first disagreement Hypothesis
shrinks the input, and the check fails with one row: the class, the rule in
its fixed words, the shrunk input, both answers, and the seed that draws it
again (``COURSE_SEED``). The rule's code is never shown.

Hypothesis runs in the check's process, from the course seed, with no example
database and its caches in ``.course/hypothesis`` (git-ignored, beside the
student's progress), and is imported only
when a class is drawn: a fresh starter fails at its first question without
paying for it. Each question that reaches the student's file is noted in the
check's trace (``course.student.asked``), so a test can show that every
listed class was asked in a run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from course.manifest import course_root
from course.progress import FOLDER
from course.student import Callback, Raised, Student, asked, on_the_wire, seed

DRAWN = 15  # inputs Hypothesis draws per class, beyond the fixed ones
UNCHANGED = "a function that answers a question changes nothing it was handed: every argument comes back as it was sent"


@dataclass(frozen=True)
class Edge:
    """One edge class of a contract: its name in words, the inputs always asked, and how more are drawn.

    An input is a list of questions, asked in order of one file (so a class
    can ask the same question twice in two contexts). ``fixed`` returns the
    inputs every run asks; ``drawn`` returns a Hypothesis strategy of more.
    """

    name: str
    fixed: Callable[[], list] = field(default=lambda: [])
    drawn: Callable[[], object] | None = None
    draws: int = DRAWN  # how many inputs Hypothesis draws, beyond the fixed ones


@dataclass(frozen=True)
class Rule:
    """What the rule answers for one question, and the contract's words for why (fixed, never the input)."""

    answer: object
    words: str


class Disagreement(Exception):
    """The student's answer to one question is not the rule's (raised inside Hypothesis, so it shrinks)."""

    def __init__(self, question, found, rule: Rule) -> None:
        super().__init__(rule.words)
        self.question, self.found, self.rule = question, found, rule


def compare(yours: Student, name: str, edges: tuple[Edge, ...], *, rule: Callable[[object], Rule],
            judged: Callable[[object], object], shown: Callable[[object], str],
            arguments: Callable[[object], tuple] = tuple, allowed: type[Exception] | None = None,
            unchanged: bool = False) -> None:
    """Fail with one row unless ``name`` in the student's file answers every question of ``edges`` as ``rule`` does.

    Every class's fixed inputs are asked first, in the order listed, then
    each class's drawn ones: a mistake meets the class that names it at that
    class's own boundary, before a drawn input of another class stumbles on
    it. ``arguments(question)`` is what the call is sent, ``judged(answer)``
    the part of the student's answer the contract fixes, and ``shown`` says
    the question in words for the row; ``allowed`` is an exception the
    function may raise as its answer (``Student.call``). With ``unchanged``
    each argument must also come back as it was sent (``Student.call``'s
    ``echo``): a function that answers a question changes nothing it was
    handed, which a fresh copy per call would hide.
    """
    edge = edges[0]

    def ask(questions) -> None:
        for question in questions:
            expected = rule(question)
            sent = arguments(question)
            try:
                answer = asked(yours, edge.name, name, *sent, allowed=allowed, echo=unchanged)
                if unchanged and not isinstance(answer, Raised):
                    plain = [None if isinstance(item, Callback) else item for item in sent]  # a callback stays out
                    # Equal as they stand is equal on the wire; only a difference needs the wire's form to say where.
                    changed = plain != answer.arguments and _changed(on_the_wire(plain), on_the_wire(answer.arguments))
                    if changed:
                        raise Disagreement(question, f"its argument back with {changed}",
                                           Rule("every argument back as it was sent", UNCHANGED))
                    answer = answer.value
                found = judged(answer)
            except pytest.fail.Exception as failure:  # it raised, or answered what is not data: that is its answer
                found = f"no answer ({' '.join(str(failure).split())})"
            if found != expected.answer:
                raise Disagreement(question, found, expected)

    first = next((questions[0] for questions in edge.fixed() if questions), None)
    if first is not None:  # a file not written yet, or one that does not load, gets its own one line here
        asked(yours, edge.name, name, *arguments(first), allowed=allowed)
    try:
        for edge in edges:
            for questions in edge.fixed():
                ask(questions)
        for edge in edges:
            if edge.drawn is not None:
                _drawn(edge.drawn(), ask, edge.draws)
    except Disagreement as wrong:
        chosen = seed()
        Student.fail(f"{edge.name}: {wrong.rule.words}. For {shown(wrong.question)}, your {name} gives "
                     f"{_said(wrong.found)} where the rule gives {_said(wrong.rule.answer)} (COURSE_SEED={chosen} "
                     f"course check {yours.number} asks it again)")


def _changed(sent, back, where: str = "") -> str:
    """The first place where ``back`` differs from ``sent`` (JSON data), in words; "" when they are equal."""
    if sent == back:
        return ""
    if isinstance(sent, dict) and isinstance(back, dict):
        for key in sent:
            if key not in back:
                return f"{where}[{key!r}] gone"
            if sent[key] != back[key]:
                return _changed(sent[key], back[key], f"{where}[{key!r}]")
        return f"{where}[{next(key for key in back if key not in sent)!r}] added"
    if isinstance(sent, list) and isinstance(back, list) and len(sent) == len(back):
        at = next(index for index, (a, b) in enumerate(zip(sent, back)) if a != b)
        return _changed(sent[at], back[at], f"{where}[{at}]")
    return f"{where or 'it'} changed from {str(sent)[:40]!r} to {str(back)[:40]!r}"


def _said(answer) -> str:
    return answer if isinstance(answer, str) and answer.startswith("no answer (") else repr(answer)


def _drawn(strategy, ask: Callable[[list], None], draws: int = DRAWN) -> None:
    """Ask ``ask`` the inputs ``strategy`` draws from this run's seed; a Disagreement comes out shrunk."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.configuration import set_hypothesis_home_dir

    # Hypothesis keeps caches of its own even with no example database: in the course's folder, not the tree.
    set_hypothesis_home_dir(course_root() / FOLDER / "hypothesis")

    @hypothesis_seed(seed())
    @settings(database=None, max_examples=draws, deadline=None, derandomize=False, report_multiple_bugs=False,
              phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy)
    def questions(drawn) -> None:
        ask(drawn)

    try:
        questions()
    except Disagreement:
        raise
    except Exception as exc:  # Hypothesis's Flaky: asked again, the file answered otherwise (it keeps state)
        found = _disagreement_in(exc)
        if found is None:
            raise
        raise found from None


def _disagreement_in(exc: BaseException) -> Disagreement | None:
    """The first Disagreement inside what Hypothesis raised (an exception group, or its cause)."""
    if isinstance(exc, Disagreement):
        return exc
    for inner in (*getattr(exc, "exceptions", ()), exc.__cause__, exc.__context__):
        if inner is not None and inner is not exc:
            found = _disagreement_in(inner)
            if found is not None:
                return found
    return None
