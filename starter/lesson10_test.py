"""Lesson 10 completion test: your first_broken_link beside the rule's, on packs, reports and runs made for this check.

Your file runs in a process of its own (course/student.py), with the
reference (core.safety, and what asks it: core.audit, core.run.rederive)
unavailable, and the committed packs and reports out of reach. The check
asks your function about the committed pack, its ratification report and the
reference run, and about packs it makes from a seed and then breaks, link by
link, across the edge classes listed below as data; each answer is compared
with the rule's (core/safety/pack.py:first_broken_link, in this process).
A failing row shows the question, your answer, the rule's, and the seed that
asks it again (`COURSE_SEED=N course check 10`). By default the checks run
starter/lesson10.py; `course check 10` shows each.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import sys
import textwrap

from core.run.canon import digest
from core.safety.pack import (
    DEFAULT_SAFETY_PACK,
    LINKS,
    PACK_DIR,
    RATIFIED,
    UNRATIFIED,
    first_broken_link,
    pack_digest,
    pack_path,
    report_path,
    seal_of,
)
from core.safety.ratify import STATEMENT, ratification_report
from course.differ import Edge, Rule, compare
from course.manifest import course_root
from course.student import Student, seed
from course.target import load_lesson

yours = Student(10, names=("first_broken_link",), blocked=("core.safety", "core.audit", "core.run.rederive"),
                unreadable=("data/course", "data/packs"),
                why="it is the reference of the check lesson 10 asks you to write yourself")

# Read now, in the check's process: the student's file never sees these files, only what is asked of it.
COMMITTED = json.loads(pack_path(PACK_DIR, DEFAULT_SAFETY_PACK).read_text(encoding="utf-8"))
COMMITTED_REPORT = json.loads(report_path(PACK_DIR, DEFAULT_SAFETY_PACK).read_text(encoding="utf-8"))
REFERENCE_RUN = json.loads((course_root() / "data" / "course" / "report.json").read_text(encoding="utf-8"))[
    "safety_pack"]

# The contract's rule for each answer, in fixed words: a failing row says the one its expected answer stands on.
RULES = {
    "seal": "a ratification report breaks the link 'seal' unless it is exactly what ratify writes: the five fields "
            "and no others, its seal the digest of the rest (a report with no canonical JSON form has none)",
    "pack": "a report breaks the link 'pack' unless it ratifies this very pack: the pack's pack_id, and the digest "
            "of the pack without its ratification_digest",
    "report": "a pack breaks the link 'report' unless its ratification_digest is, character for character, the "
              "digest of this whole report",
    "run": "a run's safety_pack section breaks the link 'run' unless it is exactly the pack's id, the pack's digest "
           "and 'ratified', with no other field",
    "": "when every link holds, the pack, its ratification report and the run belong together: the answer is ''",
}


# --- packs, reports and runs: the committed ones, and ones made from the seed ---------------------------------

WORDS = ("quote", "scope", "refusal", "review", "adapter", "policy", "secret", "budget", "capture", "origin")


@functools.cache
def _made(salt: int) -> tuple[dict, dict]:
    rng = random.Random(seed() * 131 + salt)
    pack_id = rng.choice(("harness_safety_v1", "harness_safety_v2", "lab_safety", "harness-safety-v10"))
    boundaries = {f"no_{word}_{rng.randrange(100)}": f"No {word} crosses line {rng.getrandbits(32):08x}."
                  for word in rng.sample(WORDS, rng.randint(1, 5))}
    document = {"pack_id": pack_id, "schema_version": 1, "description": f"A pack made for check {salt}.",
                "boundaries": boundaries, "ratification_digest": ""}
    report = ratification_report(document)
    return {**document, "ratification_digest": digest(report)}, report


def made(salt: int) -> tuple[dict, dict, dict]:
    """A pack made from the seed and ``salt`` (salt 0: the committed one), its report, and a run under it."""
    pack, report = (COMMITTED, COMMITTED_REPORT) if salt == 0 else _made(salt)
    return copy.deepcopy(pack), copy.deepcopy(report), run_under(pack)


def run_under(pack: dict, ratification: str = RATIFIED) -> dict:
    return {"pack_id": pack["pack_id"], "digest": pack_digest(pack), "ratification": ratification}


def resealed(report: dict) -> dict:
    return {**report, "seal": seal_of(report)}


def pointed(pack: dict, report: dict) -> dict:
    """``pack`` naming ``report``: what ratify would write into it, had it ratified that report."""
    return {**pack, "ratification_digest": digest(report)}


def edited(pack: dict) -> dict:
    """Another version of ``pack``: one boundary's sentence weakened, as the page's Break it does."""
    first = sorted(pack["boundaries"])[0]
    return {**pack, "boundaries": {**pack["boundaries"], first: "Quotes may be paraphrased."}}


def near(text: str, up: bool = False) -> str:
    """``text`` with only its last character changed: to a lower hex digit, or with ``up`` a higher one."""
    if up:
        return text[:-1] + ("f" if text[-1] != "f" else "e")
    return text[:-1] + ("0" if text[-1] != "0" else "1")


# Each break: a consistent pack, report and run in, one question out. Named so that a row can say what it did.

def last_character(where: str):
    place, _, direction = where.partition(", ")
    up = direction == "up"  # a higher last character too: a comparison must be equality, not an order

    def breaking(pack, report, run):
        if place == "seal":
            return pack, {**report, "seal": near(report["seal"], up)}, run
        if place == "pack_digest":
            other = resealed({**report, "pack_digest": near(report["pack_digest"], up)})
            return pointed(pack, other), other, run
        if place == "ratification_digest":
            return {**pack, "ratification_digest": near(pack["ratification_digest"], up)}, report, run
        return pack, report, {**run, "digest": near(run["digest"], up)}
    return breaking


def upper_case(place: str):
    def breaking(pack, report, run):
        if place == "seal":
            return pack, {**report, "seal": report["seal"].upper()}, run
        if place == "pack_digest":
            other = resealed({**report, "pack_digest": report["pack_digest"].upper()})
            return pointed(pack, other), other, run
        if place == "ratification_digest":
            return {**pack, "ratification_digest": pack["ratification_digest"].upper()}, report, run
        return pack, report, {**run, "digest": run["digest"].upper()}
    return breaking


def padded(where: str):
    place, _, pad = where.partition(", ")
    spaced = {"newline after": lambda text: text + "\n", "space before": lambda text: " " + text}[pad]

    def breaking(pack, report, run):
        if place == "seal":
            return pack, {**report, "seal": spaced(report["seal"])}, run
        if place == "pack_digest":
            other = resealed({**report, "pack_digest": spaced(report["pack_digest"])})
            return pointed(pack, other), other, run
        if place == "ratification_digest":
            return {**pack, "ratification_digest": spaced(pack["ratification_digest"])}, report, run
        return pack, report, {**run, "digest": spaced(run["digest"])}
    return breaking


PLACES = ("seal", "pack_digest", "ratification_digest", "run digest")
PADDED = tuple(f"{place}, {pad}" for place in PLACES for pad in ("newline after", "space before"))
LAST = tuple(f"{place}, {direction}" for place in PLACES for direction in ("down", "up"))


def another_packs_report(how: str):
    def breaking(pack, report, run):
        other = ratification_report(edited(pack)) if how.startswith("version") else _made(997)[1]
        if how.endswith("renamed"):
            other = resealed({**other, "pack_id": pack["pack_id"]})
        if how.startswith("renamed pack_id"):
            renamed = report["pack_id"] + "_v2" if how.endswith("longer") else report["pack_id"][:-1]
            other = resealed({**report, "pack_id": renamed})
        named = pointed(pack, other) if how != "version, not named" else pack
        return named, other, run
    return breaking


ANOTHER_REPORT = ("version, named", "version, not named", "another pack, named", "another pack renamed",
                  "renamed pack_id, longer", "renamed pack_id, shorter")


def another_run(how: str):
    def breaking(pack, report, run):
        changed = {"another version": {**run, "digest": pack_digest(edited(pack))},
                   "another pack": {**run, "pack_id": run["pack_id"] + "_v2"},
                   "the override": run_under(pack, UNRATIFIED),
                   "capitalised": run_under(pack, "Ratified"),
                   "free text": run_under(pack, "ratified (by the board, signed)"),
                   "a space": run_under(pack, RATIFIED + " ")}[how]
        return pack, report, changed
    return breaking


ANOTHER_RUN = ("another version", "another pack", "the override", "capitalised", "free text", "a space")


def fields(how: str):
    def breaking(pack, report, run):
        if how.startswith("report without "):
            lacking = {k: v for k, v in report.items() if k != how.removeprefix("report without ")}
            return pointed(pack, lacking), lacking, run
        if how.startswith("resealed without "):
            lacking = resealed({k: v for k, v in report.items() if k not in ("seal", how.split()[-1])})
            return pointed(pack, lacking), lacking, run
        extra = {"report with an extra field": resealed({**report, "signed_by": "the board"}),
                 "an empty report": {}, "a report that is a list": [], "a report that is null": None,
                 "a report that is a string": report["seal"]}
        if how in extra:
            return (pointed(pack, extra[how]) if isinstance(extra[how], dict) else pack), extra[how], run
        if how in ("empty pack_digest", "empty pack_id"):
            other = resealed({**report, how.split()[-1]: ""})
            return pointed(pack, other), other, run
        if how == "empty ratification_digest":
            return {**pack, "ratification_digest": ""}, report, run
        runs = {"run without its digest": {k: v for k, v in run.items() if k != "digest"},
                "run without its ratification": {k: v for k, v in run.items() if k != "ratification"},
                "run with an extra field": {**run, "ratified_by": "the board"}, "an empty run": {},
                "a run that is a string": RATIFIED, "a run that is a list": [run]}
        return pack, report, runs[how]
    return breaking


FIELDS = tuple([f"report without {key}" for key in ("seal", "pack_id", "pack_digest", "boundary_ids", "statement")]
               + [f"resealed without {key}" for key in ("pack_id", "pack_digest", "boundary_ids", "statement")]
               + ["report with an extra field", "an empty report", "a report that is a list", "a report that is null",
                  "a report that is a string", "empty pack_digest", "empty pack_id", "empty ratification_digest",
                  "run without its digest", "run without its ratification", "run with an extra field",
                  "an empty run", "a run that is a string", "a run that is a list"])


def several(which: str):
    def breaking(pack, report, run):
        other_run = {**run, "digest": near(run["digest"])}
        if which == "seal and pack":  # the report edited and left unsealed
            return pack, {**report, "pack_digest": near(report["pack_digest"])}, run
        if which == "seal and run":
            return pack, {**report, "seal": near(report["seal"])}, other_run
        if which == "pack and report":  # another version's report, not named by the pack
            return pack, ratification_report(edited(pack)), run
        if which == "pack and run":
            other = ratification_report(edited(pack))
            return pointed(pack, other), other, other_run
        if which == "report and run":
            return {**pack, "ratification_digest": near(pack["ratification_digest"])}, report, other_run
        other = ratification_report(edited(pack))  # every link broken at once
        return pack, {**other, "seal": near(other["seal"])}, other_run
    return breaking


SEVERAL = ("seal and pack", "seal and run", "pack and report", "pack and run", "report and run", "all four")


def no_canonical_form(where: str):
    def breaking(pack, report, run):
        value = {"lone surrogate in the statement": ("statement", "Read and accepted \ud800."),
                 "lone surrogate in a boundary id": ("boundary_ids", [*report["boundary_ids"], "no_\udfff"]),
                 "an integer past 2**53": ("statement", 2**60),
                 "lone surrogate in the seal": ("seal", report["seal"][:-1] + "\udc00")}[where]
        broken = {**report, value[0]: value[1]}
        return pack, broken, run
    return breaking


NO_FORM = ("lone surrogate in the statement", "lone surrogate in a boundary id", "an integer past 2**53",
           "lone surrogate in the seal")


def asked(salt: int, breaking=None, sealed: bool = True) -> tuple:
    """One question: the pack made from ``salt``, broken by ``breaking``, with its run (or None at start-up)."""
    pack, report, run = made(salt)
    if breaking is not None:
        pack, report, run = breaking(pack, report, run)
    return pack, report, (run if sealed else None)


def each(breaks, how, salts=(0, 1), sealed: bool = True) -> list[list[tuple]]:
    return [[asked(salt, how(name), sealed)] for salt in salts for name in breaks]


def drawn(breaks, how, sealed_too: bool = True):
    """Hypothesis: a pack made from a drawn salt, broken one of the class's ways, with a run or at start-up."""
    from hypothesis import strategies as st

    return st.builds(lambda salt, name, sealed: [asked(salt, how(name), sealed)], st.integers(0, 40),
                     st.sampled_from(breaks), st.booleans() if sealed_too else st.just(True))


def twice() -> list[list[tuple]]:
    """The same question asked again of one file, with others in between: no answer may lean on an earlier one."""
    good, other = asked(0), asked(0, another_packs_report("version, named"))
    made_good, made_broken = asked(2), asked(2, last_character("ratification_digest, down"))
    return [[good, other, good, other], [made_broken, made_good, made_broken],
            [asked(3, sealed=False), asked(3), asked(3, another_run("the override"))]]


def drawn_twice():
    from hypothesis import strategies as st

    breaks = [last_character(p) for p in LAST] + [another_packs_report(h) for h in ANOTHER_REPORT]
    return st.builds(lambda salt, broken: [asked(salt), asked(salt, broken), asked(salt)], st.integers(0, 40),
                     st.sampled_from(breaks))


HOLDING = ("with a run", "at start-up")

EDGE_CLASSES = (
    Edge("every link holding: the committed pack, its report and the reference run, and packs made from the seed",
         fixed=lambda: [[(copy.deepcopy(COMMITTED), copy.deepcopy(COMMITTED_REPORT), dict(REFERENCE_RUN))]]
         + [[asked(salt, sealed=sealed)] for salt in (0, 1, 2, 3) for sealed in (True, False)],
         drawn=lambda: drawn(("",), lambda name: None)),
    Edge("start-up: no run in question (sealed is None), with each ratification link broken in turn",
         fixed=lambda: [[asked(0, last_character(place), sealed=False)] for place in LAST[:6]]
         + [[asked(1, another_packs_report(how), sealed=False)] for how in ANOTHER_REPORT[:2]],
         drawn=lambda: drawn(LAST[:6], last_character, sealed_too=False).map(
             lambda questions: [(pack, report, None) for pack, report, _ in questions])),
    Edge("a digest that differs from the right one only in its last character",
         fixed=lambda: each(LAST, last_character), drawn=lambda: drawn(LAST, last_character)),
    Edge("a digest in upper-case hex (another letter case is another digest)",
         fixed=lambda: each(PLACES, upper_case), drawn=lambda: drawn(PLACES, upper_case)),
    Edge("a digest with white space before or after it (a digest is compared character for character)",
         fixed=lambda: each(PADDED, padded), drawn=lambda: drawn(PADDED, padded)),
    Edge("a ratification report of another pack or another version, well sealed, even one the pack names",
         fixed=lambda: each(ANOTHER_REPORT, another_packs_report),
         drawn=lambda: drawn(ANOTHER_REPORT, another_packs_report)),
    Edge("a sealed report of another pack version, of another pack, or with another word for its ratification",
         fixed=lambda: each(ANOTHER_RUN, another_run), drawn=lambda: drawn(ANOTHER_RUN, another_run, False)),
    Edge("missing, empty and extra fields, and a report or a run that is no object",
         fixed=lambda: each(FIELDS, fields, salts=(0,)), drawn=lambda: drawn(FIELDS, fields, False)),
    Edge("several links broken at once: the first of LINKS is the answer",
         fixed=lambda: each(SEVERAL, several), drawn=lambda: drawn(SEVERAL, several, False)),
    Edge("a ratification report with no canonical JSON form (core.run.canon.CanonError: never raised, 'seal')",
         fixed=lambda: each(NO_FORM, no_canonical_form), drawn=lambda: drawn(NO_FORM, no_canonical_form)),
    Edge("the same question asked twice, with other questions in between", fixed=twice, drawn=drawn_twice),
)


# --- the rule, and how a question and an answer are shown -----------------------------------------------------


def rule(question: tuple) -> Rule:
    answer = first_broken_link(*question)
    return Rule(answer, RULES[answer])


def answered(found) -> object:
    if isinstance(found, str) and (found in LINKS or found == ""):
        return found
    return f"no answer (it returned {str(found)[:40]!r}, not one of {', '.join(map(repr, LINKS))} or '')"


WRITTEN = {"statement": STATEMENT}  # shown in a few words: the row is about what differs


def _value(value) -> str:
    if isinstance(value, str) and len(value) == 64:
        return f"{value[:8]}...{value[-6:]}"  # the ends show: a last character, a letter case
    if isinstance(value, (dict, list)):
        return f"{type(value).__name__} of {len(value)}"
    return ascii(value) if len(ascii(value)) <= 40 else ascii(value)[:36] + "..."


def _object(value, keys: tuple[str, ...]) -> str:
    if not isinstance(value, dict):
        return f"{ascii(value)[:48]} (no object)"
    shown = ", ".join(f"{key}={'(as ratify writes it)' if value[key] == WRITTEN.get(key) else _value(value[key])}"
                      for key in keys if key in value)
    extra = sorted(set(value) - set(keys))
    return "{" + shown + (f", and {', '.join(extra)}" if extra else "") + (
        f"; no {', '.join(k for k in keys if k not in value)}" if any(k not in value for k in keys) else "") + "}"


def shown(question: tuple) -> str:
    pack, report, run = question
    said = _object(report, ("pack_id", "pack_digest", "seal", "statement", "boundary_ids"))
    return (f"the pack {pack['pack_id']!r} (digest {_value(pack_digest(pack))}, ratification_digest "
            f"{_value(pack['ratification_digest'])}), the report {said} (its digest "
            f"{_value(_digest_or_none(report))}) and the run "
            f"{'None (start-up)' if run is None else _object(run, ('pack_id', 'digest', 'ratification'))}")


def _digest_or_none(value) -> str:
    try:
        return digest(value)
    except ValueError:
        return "none: no canonical JSON form"


# --- the checks --------------------------------------------------------------------------------------------------


def test_packs_that_belong_together_and_start_ups_question():
    compare(yours, "first_broken_link", EDGE_CLASSES[:2], rule=rule, judged=answered, shown=shown, unchanged=True)


def test_every_edge_class_of_the_contract_gets_the_rules_answer():
    compare(yours, "first_broken_link", EDGE_CLASSES[2:], rule=rule, judged=answered, shown=shown, unchanged=True)


# --- python3 starter/lesson10_test.py: what your function says of the committed pack --------------------------


def show() -> None:
    mine = load_lesson(10)
    weakened = edited(COMMITTED)
    questions = (("the committed pack, its report, the reference run", (COMMITTED, COMMITTED_REPORT, REFERENCE_RUN)),
                 ("the same at start-up (no run)", (COMMITTED, COMMITTED_REPORT, None)),
                 ("the pack with a boundary weakened", (weakened, COMMITTED_REPORT, None)),
                 ("the weakened pack, ratified again", (pointed(weakened, ratification_report(weakened)),
                                                        ratification_report(weakened), None)),
                 ("the same, with the reference run", (pointed(weakened, ratification_report(weakened)),
                                                       ratification_report(weakened), REFERENCE_RUN)))
    for what, question in questions:
        try:
            said = repr(mine.first_broken_link(*copy.deepcopy(question)))
        except Exception as exc:  # noqa: BLE001  what the student's function raised is its answer here
            said = f"raised {type(exc).__name__}: {' '.join(str(exc).split())}"
        print(textwrap.fill(f"{what}: {said}", 79, subsequent_indent="    "))


if __name__ == "__main__":
    show()
    sys.exit(0)
