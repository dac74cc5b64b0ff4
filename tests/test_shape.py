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
import textwrap
from pathlib import Path

import pytest

from core.run import decisions, doors
from core.run.gate import Gating
from core.run.policy import ACTION_CHECKS, reference_policy
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
    """The core modules ``path`` imports anywhere in it: at the top, inside a function, in its ``__main__`` block.

    A command that hands over to the whole harness is a module of its own (core/run/seal/__main__.py),
    so the lesson's module never imports it back.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
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
    """No module of core/ imports, directly or through others, a module that imports it back: imports inside a function or a __main__ block count, and none is hidden behind importlib but the plug-in seam's own."""
    hidden = [path for path in CORE_FILES if "importlib" in path.read_text(encoding="utf-8")]
    assert [str(path.relative_to(REPO)) for path in hidden] == ["core/run/plugins.py"]
    mains = [module_name(path) for path in CORE_FILES
             if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8") or path.name == "__main__.py"]
    assert {"core.run.seal.__main__", "core.run.report.__main__", "core.run.main"} <= set(mains)
    assert {"core.run.main"} <= GRAPH["core.run.seal.__main__"] and {"core.run.main"} <= GRAPH["core.run.report.__main__"]
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


def test_only_the_assembly_is_lesson_ones_so_every_other_module_is_held_to_lesson_order():
    """Lesson 1's modules, which may read every lesson's, are the assembly alone (doors, rederive, drive, main): every other core module, the journal too, is listed under the lesson that builds it and held to importing no later lesson's."""
    ones = sorted(name for name, lesson in lesson_of().items() if lesson == 1 and name.startswith("core."))
    assert ones == ["core.run.doors", "core.run.drive", "core.run.main", "core.run.rederive"]
    assert lesson_of()["core.run.journal"] >= lesson_of()["core.run.seal"]  # it chains its lines with lesson 9's chain


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


def test_printing_a_door_shows_the_policys_checks_and_the_start_steps():
    """print(door) lists, under each row whose builder asks the policy (the action and the proposal), the policy's ordered checks with their module, and the steps run when the door is built (lesson 3's stage, lesson 8's gate), in order."""
    built = door(doors.LAST_LESSON)
    lines = str(built).splitlines()
    for kind in ("action", "proposal"):
        start = lines.index(next(line for line in lines if line.startswith(f"  {kind} -> ")))
        asked = [line.removeprefix("      asks ") for line in lines[start + 1:start + 1 + len(ACTION_CHECKS)]]
        assert asked == [named(check) for check in ACTION_CHECKS] == [
            "policy.tool_is_declared", "policy.destination_is_authorized", "policy.arguments_fit",
            "policy.requirements_observed", "policy.budget_left"]
    starts = lines[lines.index("at its start, in order:") + 1:lines.index("the ledger takes refusals while:")]
    assert starts == ["  stages.start", "  gate.start"]
    assert "at its start" not in str(door(2)) and "asks policy.budget_left" in str(door(2))


def test_printing_a_door_shows_what_later_lessons_add_to_lesson_2s_rows_and_ledger():
    """print(door) shows what a later lesson's part adds to lesson 2's door besides rows, hooks and guards: what a review may name besides the run's records (lesson 8's held acts), and when the ledger stops taking refusals (lesson 9's close); lesson 2's own door shows neither."""
    lines = str(door(doors.LAST_LESSON)).splitlines()
    review = lines.index(next(line for line in lines if line.startswith("  review -> ")))
    assert "      may name what gate.holds_for_review holds" in lines[review + 1:review + 4]
    keeps = lines[lines.index("the ledger takes refusals while:") + 1:lines.index("guards, in order:")]
    assert keeps == ["  seal.is_open"]
    assert "may name" not in str(door(7)) and "the ledger takes" not in str(door(8))


def anything_goes(policy, asked):
    """A stand-in for the policy's origin check that lets every destination through."""


def test_a_replaced_part_prints_as_what_it_is_and_takes_the_place_of_the_part():
    """door_for(replace=...) puts a stand-in where a guard or a policy check stood, and print(door) names the stand-in by its own module, never the part it replaced; a name no part of the door has is refused."""
    policy = reference_policy()
    run = make_run(policy.snapshot(), {"world": "shape"})

    def the_gate(door, request):
        """Lets every act through: a student's gate that forgot to decide."""

    built = doors.door_for(doors.LAST_LESSON, run, policy, Gating.from_dict(GATING),
                           replace={"the_gate": the_gate, "destination_is_authorized": anything_goes})
    text = str(built)
    assert built.guards[-1] is the_gate and "gate.the_gate" not in text and f"{named(the_gate)}" in text
    assert named(the_gate) == "test_shape.the_gate" and "asks test_shape.anything_goes" in text
    assert "policy.destination_is_authorized" not in text
    outside = {"tool": "inspect_headers", "destination": "https://elsewhere.example/", "arguments": {}}
    stock = door(doors.LAST_LESSON)
    assert built.policy.allows_action(**outside, checks=built.kinds["action"].asks).allowed
    assert not stock.policy.allows_action(**outside, checks=stock.kinds["action"].asks).allowed
    with pytest.raises(ValueError, match="has no guard, builder, hook, policy check or start step the_gaet"):
        doors.door_for(doors.LAST_LESSON, run, policy, Gating.from_dict(GATING), replace={"the_gaet": the_gate})
    with pytest.raises(TypeError, match="must be a function"):
        doors.door_for(2, run, policy, replace={"the_gate": "the_gate"})


def test_a_policy_asked_with_no_checks_decides_nothing():
    """A row that asks the policy no checks at all is not taken to mean every act is authorized: the policy raises, so the door refuses the act as malformed."""
    policy = reference_policy()
    with pytest.raises(ValueError, match="no checks"):
        policy.allows_action("fetch_page", "https://lab.example/", checks=())


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


# The calls that write a code held in a variable, each with the codes it may write: a new one must be added here.
CODES_IN_A_VARIABLE = {
    ("recorder", "decision.code"): "the policy's",  # build_action passes on the policy's Decision
    ("propose", "decision.code"): "the policy's",  # build_proposal, likewise
    ("propose", "error.code"): "ReplyError's",  # build_reply refuses a reply whole under its ReplyError's code
    ("drive", "code"): ("journal_torn_line", "journal_not_trusted"),  # resume's two notes
    ("drive", "decision.code"): "decisions'",  # resume writes each signed decision it refuses under its code
    ("rederive", "code"): "copied",  # ask_again copies a caller's refusal as it stands
}


def written_codes() -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """Every code core/ writes, read from its source: code -> its writers, and the calls whose code is a variable."""
    writers: dict[str, set[str]] = {}
    variables: set[tuple[str, str]] = set()

    def literal(node):
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    for path in CORE_FILES:
        module = path.parent.name if path.stem == "__init__" else path.stem
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name, keywords = ast.unparse(node.func), {k.arg: k.value for k in node.keywords}
            if name.endswith("Refusal") or name == "ReplyError":  # build_reply refuses a reply under its ReplyError
                code, writer = node.args[0], f"door: {module if name.endswith('Refusal') else 'propose'}"
            elif name == "Decision" and len(node.args) >= 3:
                code, writer = node.args[2], f"door: {module}"
            elif name.endswith(".refuse"):
                code, writer = keywords["code"], f"caller: {literal(keywords['by']) or '?'}"
            else:
                continue
            if literal(code) is None:
                variables.add((module, ast.unparse(code)))
            else:
                writers.setdefault(literal(code), set()).add(writer)
    return writers, variables


def test_every_code_a_door_or_a_caller_writes_is_in_the_one_table_with_who_writes_it():
    """Every refusal code core/ writes (a guard's, a builder's, a policy check's, or a caller's through door.refuse, not_redecided too) is in doors.CODES with a meaning and each of its writers; the table names no writer the code does not have."""
    writers, variables = written_codes()
    assert variables == set(CODES_IN_A_VARIABLE), "a call writes a code held in a variable: say which codes it writes"
    for code in (*CODES_IN_A_VARIABLE[("drive", "code")], *decisions.CODES):
        writers.setdefault(code, set()).add("caller: drive.resume")
    assert {"not_redecided", "nothing_to_quote", "in_doubt_for_a_person", "reply_not_json"} <= set(writers)
    missing = sorted(set(writers) - set(doors.CODES))
    assert missing == [], f"codes written but not in doors.CODES: {missing}"
    for code, entry in doors.CODES.items():
        assert entry.meaning.strip() and entry.by, code
        assert set(entry.by) == writers.get(code, set()), (code, entry.by, writers.get(code))


OUTSIDE_CORE = ("tests", "course", "lab", "tlog", "dojo", "mutation", "site_build", "printout", "signoff", "benchmarks", "solutions",
                "starter", "conftest.py")
WRONG_SOLUTIONS = REPO / "solutions" / "wrong"  # plausible wrong answers, read by the check, not tools
# Calls whose text argument is a hostile file, not a tool: a student's file that tries to patch the check from its
# own process (tests/test_student.py's write), and this finder's own examples.
HOSTILE_FILES = ("write", "patches_of_core")


def core_names(tree: ast.AST) -> set[str]:
    """The names a file binds to a module of core/ or to something it imports from one."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                         if alias.name.split(".")[0] == "core")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "core":
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def patches_of_core(source: str) -> list[str]:
    """Each place ``source`` assigns to an attribute of a core module (or of a class or object it imports from one):
    ``x.attr = ...``, ``setattr(x, ...)``, ``monkeypatch.setattr(x, ...)`` or ``monkeypatch.setattr("core...", ...)``;
    a loop over core modules counts its variable as one, and code in a string (a script a test runs) is read too."""
    tree = ast.parse(source)
    bound = core_names(tree)
    hostile = {id(argument) for node in ast.walk(tree) if isinstance(node, ast.Call)
               and ast.unparse(node.func).split(".")[-1] in HOSTILE_FILES for argument in node.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, (ast.Tuple, ast.List)):
            if any(isinstance(item, ast.Name) and item.id in bound for item in node.iter.elts):
                bound.add(node.target.id)

    def of_core(node: ast.AST) -> bool:
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in bound

    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            targets = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
            found += [f"line {node.lineno}: {ast.unparse(t)} =" for t in targets
                      if isinstance(t, ast.Attribute) and of_core(t.value)]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in ("setattr", "delattr"):
            first = node.args[0] if node.args else None
            named_core = isinstance(first, ast.Constant) and str(first.value).startswith("core.")
            if first is not None and (of_core(first) or named_core):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "core" in node.value \
                and id(node) not in hostile:
            try:
                inner = ast.parse(textwrap.dedent(node.value))
            except SyntaxError:
                continue
            found += [f"line {node.lineno} (in a string): {place}" for place in patches_of_core(ast.unparse(inner))]
    return sorted(found, key=lambda place: int(place.split()[1].rstrip(":")))


def test_the_patch_finder_finds_every_spelling():
    """The finder below catches an assignment, a tuple assignment, setattr, monkeypatch.setattr by object and by dotted name, an attribute of a class imported from core, a loop over core modules and a script in a string; it leaves a local object alone."""
    found = patches_of_core('''
from core.run import decisions, doors
from core.run.policy import Policy
import core.run.seal as sealing
doors.GUARDS = ()
doors.verify, x = f, g
setattr(doors, "against", f)
monkeypatch.setattr(Policy, "allows_destination", f)
monkeypatch.setattr("core.run.drive.run", f)
sealing.against_kept_head = f
doors.SECTIONS += ()
for module in (doors, sealing):
    monkeypatch.setattr(module, "printable", f)
run("""
    from core.run import journal
    journal.restart_point = lambda events: 0
""")
class Mine: pass
mine = Mine()
mine.value = 1
monkeypatch.setattr(mine, "value", 2)
''')
    assert [line.split(":")[0] for line in found] == [
        *(f"line {n}" for n in (5, 6, 7, 8, 9, 10, 11, 13)), "line 14 (in a string)"]


def test_nothing_outside_core_assigns_to_an_attribute_of_a_core_module():
    """No test, tool, lab module, lesson file or benchmark assigns to an attribute of a core module (=, setattr, monkeypatch.setattr): a variant of the harness is assembled through its seams (door_for's without and replace, the driver's door, the suite's Harness), never patched in."""
    found = {}
    for place in OUTSIDE_CORE:
        for path in sorted((REPO / place).rglob("*.py")) if (REPO / place).is_dir() else [REPO / place]:
            if path.is_relative_to(WRONG_SOLUTIONS):
                continue
            patches = patches_of_core(path.read_text(encoding="utf-8"))
            if patches:
                found[str(path.relative_to(REPO))] = patches
    assert found == {}, found
