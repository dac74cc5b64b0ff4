"""`course attack`: the attack suite, run with the student's own parts in the harness's place.

    course attack [N ...] [--results FILE]

Where a lesson's starter implements a piece of the harness, the suite
(lab/attacks.py) is run with the student's piece standing in for the
reference's, on the rows that piece is there to stop (each row names the
lessons whose part stops it). The answer is a table of the attacks the
student's parts let through, lesson by lesson, and a results file in the
exercism test-runner format (version 3: a status per test, its message, and
its task id, which is the lesson).

The student's file runs as ``course check`` runs it (course/student.py): in
a process of its own, behind the wall, with the reference it re-implements
unavailable; only JSON crosses. The harness, the lab and the judge stay in
this process, out of the student's reach: the student's code is asked one
question at a time (the gate's decision for one act, the first altered event
of one report) and its answer is data this process acts on.

``ADAPTERS`` is the table of lessons with a piece to plug in. Each row names
the functions the lesson's starter must expose, the modules its check
blocks, the suite's kinds its piece is tried on and the harness it is put
in place with (lab/judging.Harness: assembled, never patched in).
A lesson whose exercise changes its function names changes its row here,
nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.run import doors, gate, seal
from core.run.jsonfile import read_json
from core.run.recorder import Refusal
from core.run.seal import Verification
from core.run.taxonomy import CURRENT_FILE, TAXONOMY_DIR
from lab.judging import Harness

RESULTS_FILE = ".course/attack-results.json"


class PartProblem(Exception):
    """The student's part could not answer (not written yet, raised, a wrong shape); the message is one line."""


@dataclass
class Part:
    """One lesson's piece, as the student wrote it, asked through its Student (a child process)."""

    student: object
    problem: str = ""  # the first thing that went wrong, said once

    def ask(self, name: str, *args):
        """``name(*args)`` in the student's file, or PartProblem with the one line that says why not."""
        try:
            return self.student.call(name, *args)
        except BaseException as exc:  # noqa: BLE001  course.student fails a call the way a check fails (pytest)
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            message = " ".join(str(getattr(exc, "msg", "") or exc).split()) or type(exc).__name__
            self.problem = self.problem or message
            raise PartProblem(message) from None


@dataclass(frozen=True)
class Adapter:
    """One row: lesson N's piece of the harness, and how it takes the reference's place."""

    lesson: int
    names: tuple[str, ...]  # what starter/lessonNN.py must expose
    blocked: tuple[str, ...]  # the reference its check makes unavailable, here too
    kinds: tuple[str, ...]  # the suite's kinds this piece is tried on (rows of other lessons' kinds are not its)
    harness: Callable[[Part], Harness]  # the suite's harness assembled with the piece in the reference's place
    defenses: tuple[str, ...] = ("configuration", "kept head", "log")  # what else judges a forgery meanwhile
    what: str = ""


# --- lesson 8: the gate's decision ------------------------------------------------------------


def taxonomy_json(version: int) -> dict:
    """The taxonomy table the run is gated under, as the JSON lesson 8's decide() reads."""
    current = read_json(TAXONOMY_DIR / CURRENT_FILE, error=ValueError, what="taxonomy file")
    if current.get("taxonomy_version") == version:
        return current
    return read_json(TAXONOMY_DIR / f"action_taxonomy_v{version}.json", error=ValueError, what="taxonomy file")


def gate_of(part: Part):
    """The door's gate guard, asking the student's decide() for each act (the reference decides a stale view)."""
    tables: dict[int, dict] = {}

    def the_gate(door, request) -> None:
        if request.kind != "action":
            return
        gating, state, action = door.parts["gating"], gate.gate_state(door), request.record
        subject = gate.act_subject(action.action_id, action.arguments)
        if gate.view_is_stale(door):  # lesson 8's exercise leaves the stale view out: the reference's rule
            return gate.the_gate(door, request)
        table = tables.setdefault(gating.taxonomy_version, taxonomy_json(gating.taxonomy_version))
        reviews = [{"subject_id": held, "action_id": state.held[held][1], "decision": decision, "reviewer": who}
                   for held, (decision, who, _) in state.decided.items()]
        act = {"action_id": action.action_id, "arguments": dict(action.arguments),
               "declared": door.policy.tool_named(action.tool).activity}
        try:
            answer = part.ask("decide", table, dict(gating.caps), act, dict(state.used), reviews)
        except PartProblem as problem:
            raise Refusal("denied", f"your gate could not answer: {problem}") from None
        verdict = answer.get("verdict") if isinstance(answer, dict) else None
        if verdict == "allow":
            return
        if verdict == "hold":
            state.held[subject] = (str(answer.get("action_class")), action.action_id)
            raise Refusal("held_for_review", f"your gate holds it: {str(answer.get('reason', ''))[:120]}")
        raise Refusal("denied", f"your gate denies it: {str(answer.get('reason', ''))[:120]}" if verdict == "deny"
                      else f"your gate answered {str(answer)[:80]}, which is no verdict")

    return the_gate


def gate_in_place(part: Part) -> Harness:
    """The harness with the student's gate standing where the reference's is: it prints as attack.the_gate."""
    return Harness(door=doors.final_door_with(replace={"the_gate": gate_of(part)}))


# --- lesson 9: the chain walk and the kept-head comparison --------------------------------------


def chain_in_place(part: Part) -> Harness:
    """The student's chain walk in verify's place, and their kept-head comparison in seal verify --head's."""

    def verify_chain(sealed: dict) -> Verification:
        try:
            altered = part.ask("first_altered_event", sealed)
        except PartProblem as problem:
            return Verification(False, None, f"your chain walk could not answer: {problem}", "events")
        if altered is not None:
            return Verification(False, altered if isinstance(altered, int) else None,
                                f"altered: event {altered} (your chain walk)", "events")
        if seal.body_digest(sealed) != sealed["seal"].get("body"):  # the body is not the walk's: the reference's
            return Verification(False, None, "altered: the report's body was altered outside the ledger", "body")
        return Verification(True, None, f"intact: {len(sealed['events'])} events (your chain walk)")

    def against_kept_head(verification: Verification, sealed: dict, head: str) -> Verification:
        if not verification.ok:
            return verification
        try:
            same = part.ask("matches_kept_head", sealed, head)
        except PartProblem as problem:
            return Verification(False, None, f"your kept-head comparison could not answer: {problem}", "seal")
        if same is True:
            return Verification(True, None, f"{verification.message}, and your comparison finds the kept head")
        return Verification(False, None, "altered: your comparison finds another head than the one kept", "seal")

    return Harness(chain=verify_chain, kept_head=against_kept_head)


ADAPTERS: tuple[Adapter, ...] = (
    Adapter(8, ("decide",), ("core.run.gate", "core.run.taxonomy"), ("reply",), gate_in_place,
            what="decide(table, caps, act, used, reviews) -> {verdict, action_class, trigger_class, reason}: "
                 "the gate's decision for each act the policy authorized"),
    Adapter(9, ("first_altered_event", "matches_kept_head"),
            ("core.run.seal", "core.run.report", "core.run.doors", "core.run.rederive", "core.audit"),
            ("tamper", "forgery"),
            chain_in_place, defenses=("kept head",),
            what="first_altered_event(report) -> seq or None, in verify's chain walk (the head's own check left to "
                 "the next); matches_kept_head(report, head) -> bool, in seal verify --head: verify with its "
                 "sections re-derived judges a tampered report, and the kept head alone a forgery"),
)


# --- running -------------------------------------------------------------------------------------


@dataclass
class LessonRun:
    """What one lesson's part let through: every verdict of its rows, or the problem that stopped it."""

    adapter: Adapter
    shown: str  # the student's file, as the student names it
    verdicts: list = field(default_factory=list)
    problem: str = ""

    @property
    def through(self) -> list:
        return [verdict for verdict in self.verdicts if verdict.succeeded]


def student_for(adapter: Adapter):
    from course.student import Student

    return Student(adapter.lesson, names=adapter.names, blocked=adapter.blocked, timeout=20.0,
                   why=f"it is the reference of what lesson {adapter.lesson} asks you to write yourself")


def rows_for(adapter: Adapter) -> tuple:
    from lab import attacks

    return tuple(attack for attack in attacks.ATTACKS if adapter.lesson in attack.lessons and attack.kind in adapter.kinds)


def run_lesson(adapter: Adapter) -> LessonRun:
    """The suite's rows for ``adapter``'s lesson, run with the student's part in place."""
    from lab import attacks

    yours = student_for(adapter)
    part = Part(yours)
    done = LessonRun(adapter, yours.shown)
    try:
        results = attacks.run_suite(rows_for(adapter), defenses=adapter.defenses, utility=False,
                                    harness=adapter.harness(part))
    except PartProblem as problem:
        done.problem = str(problem)
        return done
    except BaseException as exc:  # noqa: BLE001  a file that does not load is course.student's one line
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        done.problem = " ".join(str(getattr(exc, "msg", "") or exc).split()) or type(exc).__name__
        return done
    done.verdicts = results.verdicts
    if part.problem and not done.through:
        done.problem = part.problem  # it answered nothing useful: say why, instead of "0 through"
    return done


def results_json(runs: list[LessonRun]) -> dict:
    """The exercism test-runner results (version 3): one test per row, pass when held; task id = the lesson."""
    tests = []
    for run in runs:
        rows = rows_for(run.adapter)
        verdicts = {verdict.attack.name: verdict for verdict in run.verdicts}
        for attack in rows:
            test = {"name": f"lesson {run.adapter.lesson}: {attack.name}: {attack.tried}",
                    "test_code": f"python -m lab.attacks (row {attack.name}, kind {attack.kind}), with your "
                                 f"{', '.join(run.adapter.names)} from {run.shown}",
                    "task_id": run.adapter.lesson}
            verdict = verdicts.get(attack.name)
            if run.problem or verdict is None:
                test.update(status="error", message=run.problem or "the row did not run")
            elif verdict.succeeded:
                test.update(status="fail", message=f"your part let it through: {verdict.evidence}")
            else:
                test.update(status="pass", message=None)
            tests.append(test)
    statuses = {test["status"] for test in tests}
    if not tests or statuses == {"error"}:
        problems = "; ".join(f"lesson {run.adapter.lesson}: {run.problem}" for run in runs if run.problem)
        return {"version": 3, "status": "error", "message": problems or "no lesson's part was run", "tests": tests}
    return {"version": 3, "status": "pass" if statuses == {"pass"} else "fail", "message": None, "tests": tests}


def write_results(path: Path, runs: list[LessonRun]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results_json(runs), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
