"""The harness's shape: the door is data, core/ imports in lesson order, every refusal carries a code.

These hold the harness's structure, so that a later change cannot quietly undo it:
each lesson's door is assembled from its parts alone, no row's builder or hook is another
lesson's replacement, core/ has no import circle and no lesson module imports a later
lesson's, and every refused event of the reference report names who refused it and a code
from the one table.
"""

from __future__ import annotations

import ast
import graphlib
import inspect
import json
from pathlib import Path

import pytest

from core.run import doors
from core.run.gate import Gating
from core.run.policy import reference_policy
from core.run.recorder import BY_CALLER, BY_DOOR, named
from core.run.records import make_run
from course import manifest

REPO = Path(__file__).resolve().parent.parent
CORE = REPO / "core"
GATING = {"taxonomy_version": 2, "caps": {"recon.passive": 10}, "fail_open_classes": []}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def static_imports(path: Path) -> set[str]:
    """The core modules ``path`` imports, outside an ``if __name__ == "__main__":`` block.

    A command's entry point may hand over to the whole harness (seal.py's command verifies a
    whole report); that is the command's dependency, not the module's, and no import of the
    module runs it.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    modules = {module_name(p) for p in CORE.rglob("*.py")}
    return {name for name in found if name in modules}


CORE_FILES = sorted(CORE.rglob("*.py"))
GRAPH = {module_name(path): static_imports(path) - {module_name(path)} for path in CORE_FILES}


def test_core_has_no_import_circle():
    """No module of core/ imports, directly or through others, a module that imports it back."""
    try:
        tuple(graphlib.TopologicalSorter(GRAPH).static_order())
    except graphlib.CycleError as cycle:
        pytest.fail(f"an import circle in core/: {' -> '.join(cycle.args[1])}")


def lesson_of() -> dict[str, int]:
    """Each reference module and the lesson the manifest says builds it."""
    found = {}
    for lesson in manifest.load(REPO):
        for path in lesson.modules:
            found[module_name(REPO / path)] = lesson.number
    return found


def test_every_core_module_belongs_to_one_lesson():
    """The manifest names, for every module of core/, the one lesson that builds it."""
    owners = lesson_of()
    unowned = sorted(name for name in GRAPH if name not in owners and not name.endswith(("core", "core.run")))
    assert unowned == [], f"core modules no lesson's `modules` lists: {unowned}"


def test_no_lesson_module_imports_a_later_lessons_module():
    """A module of lesson N imports no module of a later lesson; lesson 1's assembly (the doors, the driver, the main job) reads the whole harness."""
    owners = lesson_of()
    later = [(module, imported) for module, imports in GRAPH.items() for imported in imports
             if owners.get(module, 1) > 1 and owners.get(imported, 0) > owners[module]]
    assert later == [], f"lesson modules importing a later lesson's: {later}"


def door(lesson: int):
    policy = reference_policy()
    gating = Gating.from_dict(GATING) if lesson >= 8 else None
    return doors.door_for(lesson, make_run(policy.snapshot(), {"world": "shape"}), policy, gating)


@pytest.mark.parametrize("lesson", range(2, doors.LAST_LESSON + 1))
def test_each_row_of_each_lessons_door_is_its_own_lessons(lesson):
    """In every lesson's door, each row's builder comes from the part that added the row, and each hook from a part of that lesson or an earlier one."""
    built = door(lesson)
    parts = [part for part in doors.PARTS if part.lesson <= lesson]
    added_by = {row.name: part for part in parts for row in part.kinds}
    for name, row in built.kinds.items():
        own = next(r for r in added_by[name].kinds if r.name == name)
        assert row.build is own.build, f"lesson {lesson}: the {name} row's builder was replaced"
        declared = list(own.hooks) + [hook for part in parts for hook in part.hooks.get(name, ())]
        assert list(row.hooks) == declared, f"lesson {lesson}: the {name} row's hooks are not its parts' own"
    guards = [guard for added, guard in doors.GUARDS if added <= lesson]
    assert list(built.guards) == guards


def test_door_for_holds_no_lesson_number_condition():
    """The door of a lesson is computed from the tables of parts and guards alone: door_for tests no lesson number."""
    tree = ast.parse(inspect.getsource(doors.door_for))
    tests = [ast.unparse(node.test) for node in ast.walk(tree) if isinstance(node, (ast.If, ast.IfExp))]
    assert not [test for test in tests if "lesson" in test and "LAST_LESSON" not in test], tests


def test_printing_a_door_shows_every_row_with_its_builder_and_hooks_and_every_guard():
    """print(door) names every row's builder and hooks and every guard, each with its module, in order."""
    built = door(doors.LAST_LESSON)
    text = str(built)
    for row in built.kinds.values():
        assert f"  {row.name} -> " in text and named(row.build) in text
        for hook in row.hooks:
            assert f"then {named(hook)}" in text
    listed = [line.split(". ", 1)[1] for line in text.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert listed == [named(guard) for guard in built.guards]


def test_every_refusal_of_the_reference_report_names_who_refused_and_a_code():
    """Every refused event of the reference report records which guard, builder or caller refused it, and a code from the one table of codes."""
    report = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    refused = [event for event in report["events"] if event["status"] == "refused"]
    assert refused
    for event in refused:
        assert event["code"] in doors.CODES, event
        assert event["by"].startswith((BY_DOOR, BY_CALLER)), event
    admitted = [event for event in report["events"] if event["status"] == "admitted"]
    assert all(event["code"] == "" and event["by"] == "" for event in admitted)
    assert {event["code"] for event in refused} >= {"out_of_scope", "unknown_tool", "held_for_review", "denied"}
