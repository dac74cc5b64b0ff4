"""Lesson 10 completion test: your boundary, ratified in a copy of the pack, and judged on runs made for this check.

Your file runs in a process of its own (course/student.py) and is reached
through the two helpers at the bottom of the starter, with snapshots as plain
data; what comes back is judged here. The pack is ratified in a copy the
check makes inside that process's own folder, and loaded back in the check's
process with the development override (HARNESS_ALLOW_UNRATIFIED_SAFETY)
unset: an override set in your file's process is not set in the check's.

The predicate is judged on the reference run (data/course/report.json), on
copies of it tampered at positions drawn from a seed, and on runs made up
from the same seed (`COURSE_SEED=N course check 10` makes them again). A
crossing can be anywhere, the last selection included, and the evidence must
be exactly the selections that cross: a predicate that always says "upheld"
fails as surely as one that blames every selection. A snapshot that lacks
the selections or the proposals must be not judged. By default the checks
run starter/lesson10.py; `course check 10` shows each.
"""

import ast
import copy
import functools
import hashlib
import json
import os
import random
import re
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from core.safety import OVERRIDE_ENV, SafetyCheck, SafetyContext, SafetyPackError, load_safety_pack
from core.safety.pack import DEFAULT_SAFETY_PACK, PACK_DIR, report_path
from course.manifest import course_root
from course.student import Student, seed
from course.target import target_path

REPORT = course_root() / "data" / "course" / "report.json"
WORKED = "solutions/lesson10.py"  # out of reach too, unless it is the file being checked
yours = Student(10, names=("MY_BOUNDARY_ID", "MY_BOUNDARY_TEXT", "my_predicate", "add_my_boundary", "named",
                           "judged"),
                unreadable=("data/course",) + (() if target_path(10).resolve() == (course_root() / WORKED).resolve()
                                               else (WORKED,)),
                why="it is the worked answer to the exercise")
LAB = "https://lab.example:443"
MADE_UP_RUNS = 24

UPHELD = "when no selection crosses the boundary it is upheld, and its evidence is every selection's id, in order"
CROSSING = ("a selection crosses the boundary when no held proposal names the act it chose (tool and destination, "
            "exactly): then it is violated, and its evidence is exactly the crossing selections' ids, in order, "
            "wherever they are")
NO_EVIDENCE = ("with no selections or no proposals (or a malformed list) nobody can say whether the boundary held: "
               "the honest answer is not_judged(reason), never upheld or violated")


# --- snapshots: the reference run's, and runs made for this check ---------------------------


def reference() -> dict:
    return json.loads(REPORT.read_text(encoding="utf-8"))


def selection_id(number: int, position: int) -> str:
    return hashlib.sha256(f"lesson10-{seed()}-{number}-{position}".encode()).hexdigest()


def made_up_run(rng: random.Random, number: int) -> dict:
    """A snapshot of a run nobody ran: proposals, and selections some of which cross the boundary."""
    paths = rng.sample(["/", "/about", "/contact", "/news", "/search", "/debug", "/robots.txt", "/shed"],
                       rng.randint(1, 6))
    tools = ("inspect_headers", "inspect_metadata", "probe_reflection")
    held = [f"{rng.choice(tools)} -> {LAB}{path}" for path in paths]
    unheld = [f"{tool} -> {LAB}{path}" for tool in tools for path in paths if f"{tool} -> {LAB}{path}" not in held]
    unheld += [f"inspect_headers -> {LAB}/never-proposed-{number}", f"inspect_headers -> {LAB}{paths[0]}/"]
    count = rng.randint(1, 9)
    crossing = set()
    shape = number % 4  # none cross, the last crosses, some cross anywhere, all cross
    if shape == 1:
        crossing = {count - 1}
    elif shape == 2:
        crossing = set(rng.sample(range(count), rng.randint(1, count)))
    elif shape == 3:
        crossing = set(range(count))
    selections = [{"selection_id": selection_id(number, position),
                   "action_id": rng.choice(unheld) if position in crossing else rng.choice(held)}
                  for position in range(count)]
    return {"run": {"run_id": selection_id(number, -1)}, "selections": selections,
            "proposals": [{"action_id": action_id, "status": "eligible"} for action_id in held]}


def tampered_reference(rng: random.Random, number: int) -> tuple[dict, str]:
    """The reference run with one to three selections pointed at acts no proposal names (or at another spelling
    of a proposed one: an identity is compared exactly), or a proposal deleted."""
    snapshot = reference()
    selections = snapshot["selections"]
    if number % 3 == 0:
        for position in rng.sample(range(len(selections)), rng.randint(1, 3)):
            selections[position]["action_id"] = f"inspect_headers -> {LAB}/never-proposed-{position}"
        return snapshot, "with selections pointed at acts no proposal names"
    if number % 3 == 2:
        respell = rng.choice([str.upper, lambda act: act.replace(":443", "", 1), lambda act: act.replace("s", "S", 1)])
        for position in rng.sample(range(len(selections)), rng.randint(1, 3)):
            selections[position]["action_id"] = respell(selections[position]["action_id"])
        return snapshot, "with selections pointed at another spelling of a proposed act (letter case, or the port)"
    chosen = rng.choice(selections)["action_id"]
    snapshot["proposals"] = [p for p in snapshot["proposals"] if p["action_id"] != chosen]
    return snapshot, "with the proposal one of its selections chose deleted"


def crossing_ids(snapshot: dict) -> list[str]:
    held = {proposal["action_id"] for proposal in snapshot["proposals"]}
    return [s["selection_id"] for s in snapshot["selections"] if s["action_id"] not in held]


def from_seed(what: str) -> str:
    return f"{what} (COURSE_SEED={seed()} course check 10 makes it again)"


# --- asking your file ------------------------------------------------------------------------

# The two helpers at the bottom of the starter, as written for you: the check reaches your predicate
# through them, so they must be these (a judged() that answers on its own would judge nothing of yours).
HELPERS = '''
def named() -> dict:
    """Your boundary's id and sentence, as the check reads them."""
    return {"id": MY_BOUNDARY_ID, "text": MY_BOUNDARY_TEXT}


def judged(snapshot: dict) -> dict:
    """``my_predicate`` on the SafetyContext of ``snapshot``, as plain data."""
    judgement = my_predicate(SafetyContext.from_snapshot(snapshot))
    if not isinstance(judgement, Judgement):
        return {"returned": type(judgement).__name__}
    return {"upheld": judgement.upheld, "reason": judgement.reason,
            "evidence": list(judgement.evidence)}
'''


def _functions(source: str) -> dict[str, str]:
    return {node.name: ast.dump(node) for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}


@functools.cache
def helpers_changed() -> str:
    """The helper of the two that your file changed (or does not define the way the starter does), or ""."""
    try:
        yours_now = _functions(Path(target_path(10)).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return ""  # a file that cannot be read or parsed gets its own one line from the student's loader
    for name, written in _functions(HELPERS).items():
        if yours_now.get(name) != written:
            return name
    return ""


def judged(snapshot: dict, what: str) -> dict:
    """Your judgement of ``snapshot`` as data, or a one-line failure naming what came back instead."""
    changed = helpers_changed()
    if changed:
        pytest.fail(f"{changed}() is not the helper the starter wrote for you: the check reaches my_predicate through "
                    "it, so leave the helpers at the bottom of the starter as they are and judge in my_predicate",
                    pytrace=False)
    answer = yours.call("judged", snapshot)
    if isinstance(answer, dict) and "returned" in answer:
        pytest.fail(f"my_predicate returned {answer['returned']} on {what}; return upheld(...), violated(...) or "
                    "not_judged(...)", pytrace=False)
    if not isinstance(answer, dict) or answer.get("upheld") not in (True, False, None) \
            or not isinstance(answer.get("reason"), str) or not isinstance(answer.get("evidence"), list):
        pytest.fail(f"judged() returned {answer!r} on {what}; leave the helper at the bottom of the starter as it is",
                    pytrace=False)
    if not answer["reason"].strip():
        pytest.fail(f"my_predicate gave no reason on {what}: every judgement says why", pytrace=False)
    return answer


def said(answer: dict) -> str:
    word = {True: "upheld", False: "violated", None: "not judged"}[answer["upheld"]]
    return f"{word} ({answer['reason']!r})"


def positions(ids: list[str], snapshot: dict) -> str:
    order = {s["selection_id"]: index + 1 for index, s in enumerate(snapshot["selections"])}
    return ", ".join(str(order.get(i, "?")) for i in ids) or "none"


def expect(snapshot: dict, what: str) -> None:
    """Your judgement of ``snapshot`` must be what the boundary says of it, with exactly its evidence."""
    answer = judged(snapshot, what)
    crossing = crossing_ids(snapshot)
    every = [s["selection_id"] for s in snapshot["selections"]]
    expected, evidence = (False, crossing) if crossing else (True, every)
    if answer["upheld"] is not expected:
        where = f" (the selection(s) at position(s) {positions(crossing, snapshot)} cross it)" if crossing else ""
        pytest.fail(f"on {what}, my_predicate said {said(answer)}{where}: {CROSSING if crossing else UPHELD}",
                    pytrace=False)
    got = answer["evidence"]
    if got == evidence:
        return
    extra = [i for i in got if i not in evidence]
    left_out = [i for i in evidence if i not in got]
    if left_out:
        problem = f"its evidence leaves out the selection(s) at position(s) {positions(left_out, snapshot)}"
    elif extra:
        problem = (f"its evidence names position(s) {positions(extra, snapshot)}, which "
                   + ("choose a held proposal" if crossing else "are not selection ids of this snapshot"))
    else:
        problem = "its evidence lists them in another order, or more than once"
    pytest.fail(f"on {what}, my_predicate said {said(answer)}, but {problem}: {CROSSING if crossing else UPHELD}",
                pytrace=False)


# --- the checks ------------------------------------------------------------------------------


def test_your_boundary_has_a_name_and_a_sentence():
    boundary = yours.call("named")
    boundary_id, text = (boundary or {}).get("id"), (boundary or {}).get("text")
    if not isinstance(boundary_id, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", boundary_id):
        pytest.fail(f"MY_BOUNDARY_ID is {boundary_id!r}: name your boundary in snake_case "
                    "(a-z, 0-9 and '_', starting with a letter)", pytrace=False)
    if boundary_id in load_safety_pack().boundaries:
        pytest.fail(f"MY_BOUNDARY_ID {boundary_id!r} is already one of the pack's boundaries; yours is new",
                    pytrace=False)
    if not isinstance(text, str) or len(text.split()) < 4:
        pytest.fail(f"MY_BOUNDARY_TEXT is {text!r}: write one sentence saying what the harness never does",
                    pytrace=False)


def test_a_copy_of_the_pack_loads_ratified_with_your_boundary():
    committed = {path.name: path.read_bytes() for path in PACK_DIR.iterdir()}
    folder = yours.workspace(f"safety-{seed()}")
    shutil.rmtree(folder)
    shutil.copytree(PACK_DIR, folder)
    returned = yours.call("add_my_boundary", str(folder))
    yours.plain_files_in(folder, "add_my_boundary()")
    if {path.name: path.read_bytes() for path in PACK_DIR.iterdir()} != committed:
        pytest.fail("add_my_boundary() changed the committed data/packs/safety; write only the folder it is given",
                    pytrace=False)
    boundary = yours.call("named")
    before = os.environ.pop(OVERRIDE_ENV, None)  # ratified for real: the override waves nothing through here
    try:
        pack = load_safety_pack(folder)
    except SafetyPackError as exc:
        pytest.fail(f"after add_my_boundary() the copy does not load ratified with {OVERRIDE_ENV} unset: {exc}",
                    pytrace=False)
    finally:
        if before is not None:
            os.environ[OVERRIDE_ENV] = before
    if not pack.ratified:
        pytest.fail(f"the copy loads, but {pack.ratification}: ratify it", pytrace=False)
    report = json.loads(report_path(folder, DEFAULT_SAFETY_PACK).read_text(encoding="utf-8"))
    if returned != pack.ratification_digest:
        pytest.fail(f"add_my_boundary() returned {returned!r}; it returns what ratify returns, the digest of the "
                    "new ratification report", pytrace=False)
    if pack.boundaries.get(boundary["id"]) != boundary["text"]:
        pytest.fail(f"the ratified copy has no boundary {boundary['id']!r} saying MY_BOUNDARY_TEXT", pytrace=False)
    kept = {key: value for key, value in pack.boundaries.items() if key != boundary["id"]}
    if kept != dict(load_safety_pack().boundaries):
        pytest.fail("the copy's other boundaries must stay exactly as the pack declares them", pytrace=False)
    if boundary["id"] not in report["boundary_ids"]:
        pytest.fail("the copy's ratification report does not list your boundary: ratify after adding it",
                    pytrace=False)
    answer = judged(reference(), "the reference run")
    if answer["upheld"] is not True:
        pytest.fail(f"in the ratified copy's verdict on the reference run your boundary is {said(answer)}; it must "
                    "be checked at runtime and upheld", pytrace=False)


def test_your_predicate_upholds_the_reference_run():
    expect(reference(), "the reference run (data/course/report.json)")


def test_your_predicate_names_exactly_the_selections_that_cross_in_the_reference_run():
    rng = random.Random(f"{seed()}-tampered")
    for number in range(6):
        snapshot, how = tampered_reference(rng, number)
        expect(snapshot, from_seed(f"the reference run {how}"))


def test_your_predicate_on_runs_made_for_this_check():
    rng = random.Random(f"{seed()}-made-up")
    for number in range(MADE_UP_RUNS):
        snapshot = made_up_run(rng, number)
        expect(snapshot, from_seed(f"made-up run {number + 1} of {MADE_UP_RUNS}, with "
                                   f"{len(snapshot['selections'])} selections and {len(snapshot['proposals'])} "
                                   "proposals"))
    made = made_up_run(rng, MADE_UP_RUNS)  # an empty list is evidence: nothing was proposed, or nothing chosen
    for what, empty in (("an empty proposals list", {**made, "proposals": []}),
                        ("an empty selections list", {**made, "selections": []}),
                        ("empty proposals and selections lists", {**made, "proposals": [], "selections": []})):
        expect(empty, from_seed(f"a made-up run with {what}"))


def test_your_predicate_does_not_judge_without_its_evidence():
    rng = random.Random(f"{seed()}-missing")
    snapshot = reference()
    bare_runs = {
        "no selections list": {k: v for k, v in snapshot.items() if k != "selections"},
        "no proposals list": {k: v for k, v in snapshot.items() if k != "proposals"},
        "a proposals list whose entries name no act": {**snapshot, "proposals": [{"status": "eligible"}]},
        "a selections list that is not a list": {**snapshot, "selections": "every one of them"},
    }
    made = made_up_run(rng, 2)
    bare_runs["a made-up run with no proposals list"] = {k: v for k, v in made.items() if k != "proposals"}
    for what, bare in bare_runs.items():
        answer = judged(bare, f"a snapshot with {what}")
        if answer["upheld"] is not None:
            pytest.fail(f"on a snapshot with {what} my_predicate said {said(answer)}: {NO_EVIDENCE}", pytrace=False)


# --- python3 starter/lesson10_test.py: the reference run's verdict with your boundary ---------------


def show() -> None:
    boundary = yours.call("named")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(boundary.get("id"))):
        sys.exit(f"lesson10: name your boundary first (MY_BOUNDARY_ID is {boundary.get('id')!r})")
    mine = judged(reference(), "the reference run")
    pack = load_safety_pack()
    context = SafetyContext.from_snapshot(reference(), {t["tool_id"]: t["activity"]
                                                       for t in reference()["policy"]["tools"]})
    check = SafetyCheck()
    upheld_as = {True: "upheld", False: "VIOLATED", None: "not judged"}
    results = {r.boundary_id: (r.upheld, len(r.evidence)) for r in check.check(context, pack).results}
    results[boundary["id"]] = (mine["upheld"], len(mine["evidence"]))
    checked = sum(1 for state, _ in results.values() if state is not None)
    violated = sum(1 for state, _ in results.values() if state is False)
    print(f"{checked} of {len(results)} boundaries checked at runtime, "
          f"{f'{violated} violated' if violated else 'none violated'}; "
          f"{len(results) - checked} declared only, not judged")
    for boundary_id, (state, evidence) in sorted(results.items()):
        print(f"  {boundary_id:36} {upheld_as[state]:10} {evidence:2} evidence")


if __name__ == "__main__":
    try:
        show()
    except pytest.fail.Exception as exc:
        sys.exit(textwrap.fill(f"lesson10: {exc}", 79, subsequent_indent="    "))
