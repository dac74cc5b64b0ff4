"""Demos are short scripts over the driver, and lesson 2's door knows no later lesson's state.

A demo shows what one lesson's part does; the run it shows is driven by drive.py's loop and
moves (drive.work, drive.enter, drive.go_to, drive.recorded_at_once), never by a copy of them,
so a reader who learns the driver once can read every demo. What a demo needs that the driver
lacks is a seam of the driver or of the door's assembly (doors.door_for), not a copy.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUN = REPO / "core" / "run"
DEMOS = sorted(RUN.glob("demo_*.py"))
MOST_LINES = 120

# The driver's steps (and the lesson functions they call): a loop that calls one of these drives rounds.
DRIVER_STEPS = {"work", "run", "resume", "run_through", "verify_findings", "enter", "go_to", "advance", "propose",
                "select_next", "execute", "execute_reviewed", "attempt", "carry_out", "carry_on", "observe",
                "recorded_at_once", "check_finding"}
MOVES = {"enter", "go_to"}  # the driver's moves: a function whose whole body is one of these is a copy of enter
LATER_STATE = ("stage", "closed", "final", "reviewable")  # lesson 3's stage, lesson 9's close, lesson 8's reviews


def called(node: ast.AST) -> set[str]:
    """The names of every function or method ``node`` calls, anywhere inside it."""
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            function = inner.func
            names.add(function.id if isinstance(function, ast.Name) else getattr(function, "attr", ""))
    return names


def moves_the_door_itself(function: ast.AST) -> bool:
    """Whether ``function`` writes a stage move of its own: advance, or a record of the transition kind."""
    for inner in ast.walk(function):
        if isinstance(inner, ast.Call) and getattr(inner.func, "attr", getattr(inner.func, "id", "")) == "advance":
            return True
        if (isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") in ("record", "refuse") and inner.args
                and (isinstance(inner.args[0], ast.Constant) and inner.args[0].value == "transition"
                     or isinstance(inner.args[0], ast.Name) and inner.args[0].id == "TRANSITION_KIND")):
            return True
    return False


def is_a_move_wrapper(function: ast.FunctionDef) -> bool:
    """Whether ``function``'s body (its docstring aside) only calls the driver's moves: enter under another name."""
    body = [statement for statement in function.body
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))]
    body = [statement for statement in body if not isinstance(statement, ast.Return)]
    return bool(body) and all(isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                              and called(statement) & MOVES for statement in body)


@pytest.mark.parametrize("demo", DEMOS, ids=lambda path: path.name)
def test_a_demo_is_at_most_120_lines(demo):
    """Each demo is at most 120 lines: a short script over the driver, read in one sitting."""
    lines = len(demo.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{demo.name}: {lines} lines, over {MOST_LINES}"


@pytest.mark.parametrize("demo", DEMOS, ids=lambda path: path.name)
def test_a_demo_has_no_loop_of_rounds_no_executor_and_no_enter_of_its_own(demo):
    """No ``for`` or ``while`` anywhere in a demo (module level, a function, a
    nested function or a method) calls a driver step (``DRIVER_STEPS``: the driver's loop, moves and acts, and
    the lesson functions they call) or writes a record of the transition kind: the rounds are drive.work's,
    and a walk through the stages is drive.enter's. No function is named ``enter`` or is only a call of
    drive.enter or drive.go_to under another name. A single move the demo shows the door refusing
    (stages.advance on a closed run) is the door's answer, not a copy of enter. No function but an
    adapter's own ``fetch`` (a wrapper around another adapter) asks an adapter itself: acts are carried
    out by the driver's executor (drive.execute_reviewed) or recorded at once (drive.recorded_at_once).
    """
    text = demo.read_text(encoding="utf-8")
    tree = ast.parse(text)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            steps = called(node) & DRIVER_STEPS
            if steps or moves_the_door_itself(node):
                problems.append(f"line {node.lineno}: a loop that moves the door or calls "
                                f"{', '.join(sorted(steps)) or 'record on a transition'}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == "enter" or is_a_move_wrapper(node):
                problems.append(f"line {node.lineno}: {node.name} acts as drive.enter")
            if node.name != "fetch" and "fetch" in called(node):  # an adapter's own fetch may ask the one it wraps
                problems.append(f"line {node.lineno}: {node.name} asks an adapter itself (fetch)")
    assert not problems, f"{demo.name}: " + "; ".join(problems)


SCENES = sorted((REPO / "data" / "scenes").glob("*"))


@pytest.mark.parametrize("scene", SCENES, ids=lambda path: path.name)
def test_a_demos_scene_data_is_canonical_json(scene):
    """A demo's fixed scene data under data/scenes/ is JSON in the artifacts' canonical text (canon.artifact_text):
    sorted keys, two-space indent, one newline at the end, so it reads and diffs like the artifacts it feeds."""
    from core.run.canon import artifact_text

    text = scene.read_text(encoding="utf-8")
    assert scene.suffix == ".json" and text == artifact_text(json.loads(text))


def test_the_rule_finds_a_loop_of_rounds_an_enter_and_an_executor_of_a_demos_own():
    """The demo rule is not blind: it finds each thing it forbids when a demo writes it."""
    source = '''
def walk(door, *stages):
    enter(door, *stages)

def at_verify(door):
    """Walk to verify."""
    go_to(door, "verify")
    return door

def move(door, to):
    door.record("transition", {"run_id": door.run.run_id, "to": to})

def rounds(door, model, adapter):
    while True:
        propose(door, model)
        adapter.fetch("https://lab.example/")
'''
    tree = ast.parse(source)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert is_a_move_wrapper(functions["walk"]) and is_a_move_wrapper(functions["at_verify"])
    assert moves_the_door_itself(functions["move"]) and not moves_the_door_itself(functions["walk"])
    loop = next(node for node in ast.walk(tree) if isinstance(node, ast.While))
    assert called(loop) & DRIVER_STEPS == {"propose"} and "fetch" in called(functions["rounds"])
    assert not is_a_move_wrapper(functions["rounds"]) and not is_a_move_wrapper(functions["move"])


def test_lesson_2s_recorder_names_no_later_lessons_state():
    """recorder.py (lesson 2) reads and writes no state of a later lesson: no attribute, name or argument
    called stage, closed, final or reviewable. Lesson 3's stage, lesson 8's reviewable acts and lesson 9's
    close live in their own modules, in ``door.state``; lesson 2's snapshot still shows the report's two
    fields a later lesson fills in, empty (``SHOWN_LATER``), and those two names appear there alone."""
    tree = ast.parse((RUN / "recorder.py").read_text(encoding="utf-8"))
    named = []
    for node in ast.walk(tree):
        name = (node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name)
                else node.arg if isinstance(node, ast.arg) else None)
        if name in LATER_STATE:
            named.append(f"line {node.lineno}: {name}")
    shown = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and any(isinstance(target, ast.Name) and target.id == "SHOWN_LATER" for target in node.targets)]
    allowed = {id(inner) for node in shown for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in LATER_STATE and id(node) not in allowed:
            named.append(f"line {node.lineno}: {node.value!r}")
    assert not named, "recorder.py names a later lesson's state: " + "; ".join(named)
