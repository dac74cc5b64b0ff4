"""The mutation operators cosmic-ray 8.7 lacks, written as cosmic-ray operators.

cosmic-ray mutates arithmetic, comparisons (``==`` to ``is not``), booleans,
numbers, ``break``/``continue``, exceptions and loops. The course's mistakes are
often elsewhere: a membership test turned round, a string constant that is
almost right, a function that returns nothing, arguments in the wrong order,
a keyword argument left at its default, a slice that keeps too much. Each class
here is a ``cosmic_ray.operators.operator.Operator`` over parso's tree, and
``Provider`` is an operator provider in cosmic-ray's plugin form (entry point
group ``cosmic_ray.operator_providers``), so ``cosmic-ray init`` finds them
once the entry point is declared; ``mutation.run`` uses them directly.

A mutated node is replaced by one leaf whose text is the new code: cosmic-ray
only ever writes the tree back out as text.
"""

from __future__ import annotations

import ast

import parso.python.tree
from cosmic_ray.operators.operator import Example, Operator


def _leaf(node, code: str):
    """A leaf standing for ``node``, written as ``code`` after the node's own prefix."""
    prefix = node.get_first_leaf().prefix
    return parso.python.tree.Name(code, node.start_pos, prefix)


def _bare(node) -> str:
    """``node``'s code without the whitespace or comment in front of it."""
    return node.get_code(include_prefix=False)


class ReplaceInWithNotIn(Operator):
    """``a in b`` becomes ``a not in b``."""

    FROM, TO = "in", "not in"

    def _points(self, node):
        if node.type == "comparison":
            for index, op in enumerate(node.children[1::2]):
                if " ".join(op.get_code().split()) == self.FROM:
                    yield 2 * index + 1, op

    def mutation_positions(self, node):
        for _, op in self._points(node):
            yield op.start_pos, op.end_pos

    def mutate(self, node, index):
        child, op = list(self._points(node))[index]
        node.children[child] = _leaf(op, self.TO)
        return node

    @classmethod
    def examples(cls):
        return (Example(f"x = a {cls.FROM} b", f"x = a {cls.TO} b"),)


class ReplaceNotInWithIn(ReplaceInWithNotIn):
    """``a not in b`` becomes ``a in b``."""

    FROM, TO = "not in", "in"


def _constant(node):
    """The value of a plain string or bytes literal (not an f-string), else None."""
    if node.type != "string":
        return None
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, (str, bytes)) else None


def _is_docstring(node) -> bool:
    statement = node.parent
    return statement is not None and statement.type == "simple_stmt" and len(statement.children) == 2 \
        and statement.children[0] is node


def _prose(node) -> bool:
    """Whether ``node`` is (a piece of) a string with whitespace in it: the whole of an implicit concatenation."""
    pieces = node.parent.children if node.parent is not None and node.parent.type == "strings" else [node]
    for piece in pieces:
        text = piece.get_code(include_prefix=False)  # an f-string piece counts by its written text
        if any(char.isspace() for char in text):
            return True
    return False


class ReplaceStringConstant(Operator):
    """A string constant that is a name, a key or a marker, not prose, loses its last character.

    ``"status"`` becomes ``"statu"``, ``"<"`` becomes ``""`` and ``""``
    becomes ``"x"``: a string that differs only at its end. A string with
    whitespace in it is prose (a reason, a message), which no contract fixes,
    and so is each piece of a concatenation that has whitespace somewhere; a
    docstring is not code. None of them is mutated.
    """

    def mutation_positions(self, node):
        value = _constant(node)
        if value is None or _is_docstring(node):
            return
        if _prose(node):
            return
        yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        value = _constant(node)
        mutated = value[:-1] if value else type(value)(b"x" if isinstance(value, bytes) else "x")
        return _leaf(node, repr(mutated))

    @classmethod
    def examples(cls):
        return (Example('x = d["status"]', 'x = d[\'statu\']'), Example('x = ""', "x = 'x'"),
                Example("x = b'\\x01'", "x = b''"))


class ReplaceReturnValue(Operator):
    """``return value`` becomes ``return None`` (a value that is already ``None`` is left alone)."""

    def mutation_positions(self, node):
        if node.type == "return_stmt" and len(node.children) == 2:
            value = node.children[1]
            if not (value.type == "keyword" and value.value == "None"):
                yield value.start_pos, value.end_pos

    def mutate(self, node, index):
        node.children[1] = _leaf(node.children[1], "None")
        return node

    @classmethod
    def examples(cls):
        return (Example("def f():\n    return x\n", "def f():\n    return None\n"),)


def _arguments(trailer):
    """The arguments of a call's ``(...)`` trailer, as nodes (none for ``f()``)."""
    if trailer.type != "trailer" or trailer.children[0].value != "(" or len(trailer.children) != 3:
        return []
    inner = trailer.children[1]
    if inner.type == "arglist":
        return [child for child in inner.children if not (child.type == "operator" and child.value == ",")]
    return [inner]


def _positional(argument) -> bool:
    """A plain positional argument: not ``k=v``, ``*args`` or ``**kwargs``."""
    return argument.type not in ("argument", "star_expr") and not _bare(argument).startswith("*")


def _call_text(trailer, arguments) -> str:
    return "(" + ", ".join(_bare(argument) for argument in arguments) + ")"


class SwapCallArguments(Operator):
    """Two neighbouring positional arguments of a call change places: ``f(a, b)`` becomes ``f(b, a)``."""

    def _pairs(self, node):
        arguments = _arguments(node)
        for index in range(len(arguments) - 1):
            first, second = arguments[index], arguments[index + 1]
            if _positional(first) and _positional(second) and _bare(first) != _bare(second):
                yield index

    def mutation_positions(self, node):
        for _ in self._pairs(node):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        at = list(self._pairs(node))[index]
        arguments = list(_arguments(node))
        arguments[at], arguments[at + 1] = arguments[at + 1], arguments[at]
        return _leaf(node, _call_text(node, arguments))

    @classmethod
    def examples(cls):
        return (Example("x = f(a, b)", "x = f(b, a)"), Example("x = f(a, b, c)", "x = f(a, c, b)", occurrence=1))


def _keyword(argument) -> bool:
    return argument.type == "argument" and len(argument.children) == 3 and argument.children[1].type == "operator" \
        and argument.children[1].value == "="


class DropKeywordArgument(Operator):
    """A keyword argument is left out, so the callee's default decides: ``f(a, k=1)`` becomes ``f(a)``."""

    def _keywords(self, node):
        return [index for index, argument in enumerate(_arguments(node)) if _keyword(argument)]

    def mutation_positions(self, node):
        for _ in self._keywords(node):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        arguments = list(_arguments(node))
        del arguments[self._keywords(node)[index]]
        return _leaf(node, _call_text(node, arguments))

    @classmethod
    def examples(cls):
        return (Example("x = f(a, k=1)", "x = f(a)"),)


class DropSliceBound(Operator):
    """One bound of a slice is left out: ``s[1:-1]`` becomes ``s[:-1]`` or ``s[1:]``."""

    def _bounds(self, node):
        if node.type != "subscript":
            return []
        colon = next((i for i, child in enumerate(node.children) if child.type == "operator" and child.value == ":"),
                     None)
        if colon is None:
            return []
        return [i for i, child in enumerate(node.children[:colon + 2])
                if i != colon and not (child.type == "operator" and child.value == ":")]

    def mutation_positions(self, node):
        for _ in self._bounds(node):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        drop = self._bounds(node)[index]
        kept = [child for i, child in enumerate(node.children) if i != drop]
        return _leaf(node, "".join(_bare(child) if i == 0 else child.get_code() for i, child in enumerate(kept)))

    @classmethod
    def examples(cls):
        return (Example("x = s[1:-1]", "x = s[:-1]"), Example("x = s[1:-1]", "x = s[1:]", occurrence=1))


OPERATORS = {kind.__name__: kind for kind in (ReplaceInWithNotIn, ReplaceNotInWithIn, ReplaceStringConstant,
                                              ReplaceReturnValue, SwapCallArguments, DropKeywordArgument,
                                              DropSliceBound)}


class Provider:
    """These operators as a cosmic-ray operator provider (``cosmic_ray.operator_providers``)."""

    def __iter__(self):
        return iter(OPERATORS)

    def __getitem__(self, name):
        return OPERATORS[name]
