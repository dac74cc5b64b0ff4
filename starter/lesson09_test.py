"""Lesson 9 completion test: your chain walk and your kept-head comparison, on reports sealed for this run.

Your file runs in a process of its own (course/student.py). While it runs, the
reference's sealing and verifying code (core.run.seal, core.run.report,
core.run.doors, core.run.rederive, core.audit), the committed reports
(data/course/) and the worked answers are unavailable to it: the check sends
it each report as plain data and judges the answer here, against what the
reference's verify_chain says of the same report.

The reports are the tamper lab's seven files and reports this check seals
itself from a seed it draws and prints: runs of lesson 9's demo under other
worlds, and runs it makes up with other events, each altered at a position
drawn from the seed (`COURSE_SEED=N course check 9` makes the same reports
again). The kept-head checks come in pairs: the genuine report matches its own
head, and a report that lies about its head, or a head that differs in one
digit, does not. By default they check starter/lesson09.py; `course check 9`
shows each.
"""

import copy
import functools
import hashlib
import json
import random
import sys
import textwrap

import pytest

from core.run.canon import canonical_bytes
from core.run.demo_seal import finished_run, sealed
from core.run.seal import (ALGORITHM, SealError, body_digest, chain_link, head_of, reseal, seal, unchained,
                           verify_chain)
from course.differ import Edge, Rule, compare
from course.manifest import course_root
from course.student import Student, seed
from course.target import target_path

WORKED = "solutions/lesson09.py"  # out of reach too, unless it is the file being checked
yours = Student(9, names=("first_altered_event", "matches_kept_head"),
                blocked=("core.run.seal", "core.run.report", "core.run.doors", "core.run.rederive", "core.audit"),
                unreadable=("data/course",) + (() if target_path(9).resolve() == (course_root() / WORKED).resolve()
                                               else (WORKED,)),
                why="it is the sealing and verifying code whose check lesson 9 asks you to write yourself")

LAB = "data/course/tamper"
LAB_FILES = ("intact", "flipped-byte", "deleted-event", "swapped-events", "spliced-run", "truncated",
             "resealed-section")
REAL_RUNS, MADE_UP_RUNS = 2, 4

# What the chain says, rule by rule, as a failure names it.
INTACT = "a report nobody altered has no altered event: every seq is its position, every chain is h_i, and the ends agree with the seal"
EDITED = ("the first event whose chain is not h_i (recomputed from h_(i-1) and the event without its chain) is the "
          "first altered one")
MOVED = "the first event whose seq is not its position was moved, inserted or removed, and is named at that position"
OTHER_RUN = ('h_0 is the hash of {"run_id": the report\'s own run.run_id}, so events copied in from another run '
             "break the chain at the first one copied")
FEWER = "a ledger shorter than seal.events names its first missing event, the number of events + 1"
MORE = "a ledger longer than seal.events names the first event the seal does not cover, seal.events + 1"
LAST_LINK = ("when the count agrees but the walk's last link is not seal.chain, the seal was edited, and the last "
             "event is named")
RESEALED = ("a resealed report's chain holds (it was recomputed over the edit), so the chain names no event: "
            "such an edit shows only elsewhere")
# What the kept head says.
GENUINE = "the genuine report, compared with its own head kept elsewhere, matches"
DIGITS = "a kept head matches only when every one of its 64 digits is the head the report hashes to"
CLAIMS = ("what a report's seal says its head is proves nothing: recompute the head from the report's own chain, "
          "body and count")
FORGED = "a report rewritten and sealed again agrees with itself, but hashes to another head than the one kept"
BODY = ("the head commits to the body (everything but the events and the seal): a body edited after sealing hashes "
        "to another head")
BROKEN = "a report whose chain does not hold is not the report that was sealed, whatever head it shows"

WORDS = ("fern", "moss", "cedar", "café", "naïve", "Ångström", "✓ done", "tern", "basil", "€ 3", "larch", "wren")
KINDS = ("transition", "model_call", "proposal", "selection", "action", "capture", "outcome", "finding", "review")


# --- reports: the tamper lab's, and reports sealed for this run --------------------------------


def lab_file(name: str) -> dict:
    path = course_root() / LAB / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        pytest.fail(f"the tamper lab's {LAB}/{name}.json cannot be read ({exc}); write it again with: "
                    f"python3 -m core.run.demo_seal --tamper {name} --out {LAB}/{name}.json", pytrace=False)


def made_up_run(rng: random.Random, number: int) -> dict:
    """A sealed report of a run nobody ran: events of every kind, numbers and words JSON writes more than one way."""
    run_id = hashlib.sha256(f"lesson09-{seed()}-{number}".encode()).hexdigest()
    events = []
    for seq in range(1, rng.randint(6, 30) + 1):
        kind, refused = rng.choice(KINDS), rng.random() < 0.25
        payload = {"run_id": run_id, "note": rng.choice(WORDS), "weight": rng.choice([1.0, 2.0, 0.5, 1e-07, 3]),
                   "tags": rng.sample(WORDS, rng.randint(0, 3)), "depth": {"level": rng.randint(0, 9)}}
        events.append({"seq": seq, "kind": kind, "id": f"{kind}-{seq}" if not refused else "",
                       "status": "refused" if refused else "admitted", "code": "denied" if refused else "",
                       "by": "door: gate.the_gate" if refused else "", "reason": "held" if refused else "",
                       "payload": payload})
    body = {"counts": {"events": len(events), "refusals": sum(e["status"] == "refused" for e in events)},
            "policy": {"reference": f"training-authorization-{number:04d}", "weights": [2.0, 1.5]},
            "closed": {"how": "finished", "reason": rng.choice(WORDS), "seq": len(events)}}
    return seal({"run": {"run_id": run_id}, "events": events, **body})


@pytest.fixture(scope="module")
def fresh() -> list[dict]:
    """The reports sealed for this run: two of lesson 9's demo under other worlds, four made up."""
    rng = random.Random(seed())
    reports = [sealed(finished_run(f"lesson09-check-{seed()}-{number}")) for number in range(REAL_RUNS)]
    return reports + [made_up_run(rng, number) for number in range(MADE_UP_RUNS)]


def where(number: int) -> str:
    return f"fresh report {number + 1} (COURSE_SEED={seed()} course check 9 makes it again)"


def rng_for(test: str) -> random.Random:
    return random.Random(f"{seed()}-{test}")


def relinked(report: dict, events: list[dict]) -> dict:
    """``report`` with ``events`` carrying the chain links they would have, the seal left as it was."""
    prev = hashlib.sha256(canonical_bytes({"run_id": report["run"]["run_id"]})).hexdigest()
    linked = []
    for event in events:
        prev = chain_link(prev, canonical_bytes(unchained(event)))
        linked.append({**unchained(event), "chain": prev})
    return {**report, "events": linked}


# --- asking your functions ------------------------------------------------------------------


def said(value) -> str:
    return "None (nothing altered)" if value is None else f"event {value!r}"


def expect_event(report: dict, what: str, rule: str) -> None:
    """Your first_altered_event of ``report`` must be the event the reference's chain walk names."""
    got = yours.call("first_altered_event", report)
    expected = verify_chain(report).seq
    if got == expected and type(got) is type(expected):
        return
    pytest.fail(f"{what}: your first_altered_event says {said(got)}; the chain names {said(expected)}: {rule}",
                pytrace=False)


def expect_match(report: dict, kept: str, expected: bool, what: str, rule: str) -> None:
    got = yours.call("matches_kept_head", report, kept)
    if got is expected:
        return
    answer = f"returned {got!r}" if isinstance(got, bool) or got is None else f"returned {got!r}, not True or False"
    pytest.fail(f"{what}: your matches_kept_head {answer}; it must say {expected}: {rule}", pytrace=False)


def at(rng: random.Random, report: dict, first: int = 1, last_from_end: int = 0) -> int:
    """A position (a seq) drawn between ``first`` and the number of events less ``last_from_end``."""
    return rng.randint(first, len(report["events"]) - last_from_end)


# --- the checks: the chain walk -----------------------------------------------------------------


def test_an_intact_report_has_no_altered_event(fresh):
    expect_event(lab_file("intact"), f"{LAB}/intact.json", INTACT)
    for number, report in enumerate(fresh):
        expect_event(report, where(number), INTACT)


def test_an_edited_event_is_named_where_its_link_breaks(fresh):
    expect_event(lab_file("flipped-byte"), f"{LAB}/flipped-byte.json (one bit of a capture flipped)", EDITED)
    rng = rng_for("edited")
    for number, report in enumerate(fresh):
        for _ in range(3):
            altered, seq = copy.deepcopy(report), at(rng, report)
            event = altered["events"][seq - 1]
            field = rng.choice(["status", "reason", "payload"])
            if field == "status":
                event["status"] = "admitted" if event["status"] == "refused" else "refused"
            elif field == "reason":
                event["reason"] = event["reason"] + " (edited)"
            else:
                event["payload"] = {**event["payload"], "edited": True}
            expect_event(altered, f"{where(number)}, with the {field} of event {seq} edited", EDITED)


def test_a_moved_or_missing_event_is_named_at_its_position(fresh):
    expect_event(lab_file("deleted-event"), f"{LAB}/deleted-event.json", MOVED)
    expect_event(lab_file("swapped-events"), f"{LAB}/swapped-events.json", MOVED)
    rng = rng_for("moved")
    for number, report in enumerate(fresh):
        deleted, seq = copy.deepcopy(report), at(rng, report, last_from_end=1)
        del deleted["events"][seq - 1]
        expect_event(deleted, f"{where(number)}, with event {seq} deleted", MOVED)
        swapped, seq = copy.deepcopy(report), at(rng, report, last_from_end=1)
        events = swapped["events"]
        events[seq - 1], events[seq] = events[seq], events[seq - 1]
        expect_event(swapped, f"{where(number)}, with events {seq} and {seq + 1} swapped", MOVED)
        inserted, seq = copy.deepcopy(report), at(rng, report, first=2)
        inserted["events"].insert(seq - 1, copy.deepcopy(report["events"][rng.randrange(seq - 1)]))
        expect_event(inserted, f"{where(number)}, with an earlier event copied in before event {seq}", MOVED)
        renumbered, seq = copy.deepcopy(report), at(rng, report)
        claimed = seq + rng.randint(1, 50)
        renumbered["events"][seq - 1]["seq"] = claimed
        expect_event(reseal(renumbered), f"{where(number)}, with event {seq}'s seq changed to {claimed} and the "
                                         "report resealed (its chain holds)", MOVED)


def test_events_from_another_run_are_named_where_they_start(fresh):
    expect_event(lab_file("spliced-run"), f"{LAB}/spliced-run.json", OTHER_RUN)
    rng = rng_for("spliced")
    real = fresh[:REAL_RUNS]
    for number, report in enumerate(real):
        other = real[(number + 1) % len(real)]
        spliced, seq = copy.deepcopy(report), at(rng, report)
        spliced["events"] = report["events"][:seq - 1] + copy.deepcopy(other["events"][seq - 1:])
        expect_event(spliced, f"{where(number)}, with events {seq} to the end copied from another run", OTHER_RUN)
        whole = {**copy.deepcopy(report), "events": copy.deepcopy(other["events"])}
        expect_event(whole, f"{where(number)}, with every event copied from another run of the same length",
                     OTHER_RUN)


def test_the_ends_of_the_walk_are_compared_with_the_seal(fresh):
    expect_event(lab_file("truncated"), f"{LAB}/truncated.json", FEWER)
    rng = rng_for("ends")
    for number, report in enumerate(fresh):
        count = len(report["events"])
        cut = rng.randint(1, min(5, count - 1))
        expect_event({**report, "events": report["events"][:-cut]},
                     f"{where(number)}, with its last {cut} events cut off", FEWER)
        extra = copy.deepcopy(report["events"][rng.randrange(count)])
        extended = relinked(report, [*report["events"], {**extra, "seq": count + 1}])
        expect_event(extended, f"{where(number)}, with an event added at the end and chained, the seal left "
                               "as it was", MORE)
        lowered = copy.deepcopy(report)
        lowered["seal"]["events"] = count - rng.randint(1, min(4, count - 1))
        expect_event(lowered, f"{where(number)}, with nothing changed but seal.events, lowered to "
                              f"{lowered['seal']['events']}", MORE)
        raised = copy.deepcopy(report)
        raised["seal"]["events"] = count + rng.randint(1, 4)
        expect_event(raised, f"{where(number)}, with nothing changed but seal.events, raised to "
                             f"{raised['seal']['events']}", FEWER)
        relinked_seal = copy.deepcopy(report)
        relinked_seal["seal"]["chain"] = hashlib.sha256(f"another {number}".encode()).hexdigest()
        expect_event(relinked_seal, f"{where(number)}, with nothing changed but seal.chain", LAST_LINK)


def test_a_resealed_report_passes_the_chain(fresh):
    expect_event(lab_file("resealed-section"), f"{LAB}/resealed-section.json", RESEALED)
    rng = rng_for("resealed")
    for number, report in enumerate(fresh):
        edited = copy.deepcopy(report)
        edited["counts"] = {**edited["counts"], "refusals": rng.randint(50, 99)}
        expect_event(reseal(edited), f"{where(number)}, with its counts edited and the report resealed", RESEALED)


# --- the checks: the kept head ---------------------------------------------------------------------


def test_the_genuine_report_matches_its_own_kept_head(fresh):
    intact = lab_file("intact")
    expect_match(intact, intact["seal"]["head"], True, f"{LAB}/intact.json with its own head", GENUINE)
    for number, report in enumerate(fresh):
        expect_match(report, report["seal"]["head"], True, f"{where(number)}, with its own head", GENUINE)


def test_a_head_that_differs_in_any_digit_does_not_match(fresh):
    rng = rng_for("digits")
    for number, report in enumerate(fresh):
        head = report["seal"]["head"]
        for digit in (rng.randrange(12, 63), 63):  # past the twelve an older seal verify printed, and the last
            other = head[:digit] + ("0" if head[digit] != "0" else "1") + head[digit + 1:]
            expect_match(report, other, False, f"{where(number)}, with a kept head that differs from its own in "
                                               f"digit {digit + 1} of 64 only", DIGITS)
        another = fresh[(number + 1) % len(fresh)]["seal"]["head"]
        expect_match(report, another, False, f"{where(number)}, with the head kept for another run", DIGITS)


def test_a_report_that_claims_the_kept_head_must_hash_to_it(fresh):
    rng = rng_for("claims")
    for number, report in enumerate(fresh):
        kept = report["seal"]["head"]
        edited = copy.deepcopy(report)
        edited["counts"] = {**edited["counts"], "refusals": rng.randint(50, 99)}
        expect_match(edited, kept, False, f"{where(number)}, with its counts edited and its seal left as it was",
                     BODY)
        relied = copy.deepcopy(report)
        seq = at(rng, report)
        relied["events"][seq - 1]["reason"] = "nothing to see"
        expect_match(relied, kept, False, f"{where(number)}, with event {seq} edited and its seal left as it was",
                     BROKEN)
        forged = reseal(edited)
        expect_match(forged, kept, False, f"{where(number)}, with its counts edited and the report resealed",
                     FORGED)
        claiming = copy.deepcopy(forged)
        claiming["seal"]["head"] = kept
        expect_match(claiming, kept, False, f"{where(number)}, edited, resealed, and its seal's head then set to "
                                            "the kept head", CLAIMS)


def test_a_ledger_rewritten_and_resealed_does_not_match_the_kept_head(fresh):
    rng = rng_for("rewritten")
    for number, report in enumerate(fresh):
        kept = report["seal"]["head"]
        dropped = sorted(rng.sample(range(len(report["events"])), rng.randint(1, 3)))
        kept_events = [unchained(e) for i, e in enumerate(report["events"]) if i not in dropped]
        for position, event in enumerate(kept_events, start=1):
            event["seq"] = position
        bare = {key: value for key, value in report.items() if key != "seal"}
        lie = seal({**bare, "events": kept_events})
        expect_event(lie, f"{where(number)}, with events {[i + 1 for i in dropped]} dropped, the rest numbered "
                          "again and the report sealed again", RESEALED)
        expect_match(lie, kept, False, f"{where(number)}, with events {[i + 1 for i in dropped]} dropped, the rest "
                                       "numbered again and the report sealed again", FORGED)


# --- the edge classes of the two contracts, each asked in every run ----------------------------------------
#
# Listed as data: questions every run asks, and more that Hypothesis draws from the seed. Every question also
# asks that each argument come back as it was sent: your file hands back, with its answer, the report and the
# head as they stand after the call, and the check compares them with what it sent.

MATCHES = "the report whose own chain, body and count hash to the kept head, every one of its 64 digits, matches it"
ONE_ALGORITHM = ("this course seals under one algorithm, sha256-jcs-chain/2, the only chain it knows how to walk: a "
                 "seal that names any other is not one its check can vouch for (seal verify refuses it), so no kept "
                 "head matches it")


@functools.cache
def pool() -> tuple[dict, ...]:
    """Three made-up reports sealed for this run (their own seed), the questions' material."""
    rng = random.Random(f"{seed()}-edges")
    return tuple(made_up_run(rng, 50 + number) for number in range(3))


def hashed_head(report: dict) -> str:
    """The head ``report`` hashes to: its seal's algorithm, its own count, chain and body."""
    return head_of({"algorithm": report["seal"]["algorithm"], "events": len(report["events"]),
                    "chain": report["seal"]["chain"], "body": body_digest(report)})


def head_rule(question: tuple) -> Rule:
    """The reference's answer: its verify refuses a seal naming another algorithm before anything else, then walks
    the chain; then the head the report's own content hashes to is compared, whole, with the kept one."""
    report, kept = question
    try:
        walked = verify_chain(report)
    except SealError:
        return Rule(False, ONE_ALGORITHM)
    if walked.seq is not None:
        return Rule(False, BROKEN)
    if hashed_head(report) != kept:
        return Rule(False, DIGITS)
    return Rule(True, MATCHES)


def head_answered(found) -> object:
    return found if type(found) is bool else f"no answer (it returned {str(found)[:40]!r}, not True or False)"


def head_question(question: tuple) -> str:
    report, kept = question
    return (f"the report of run {report['run']['run_id'][:12]}... ({len(report['events'])} events, its seal naming "
            f"{report['seal']['algorithm']!r}, its content hashing to {hashed_head(report)} under that name) and the "
            f"kept head {kept!r}")


def near_heads(head: str) -> list[str]:
    """Heads that are the true one shortened, cut to twelve digits, off in one last digit, or in capitals."""
    last = "0" if head[-1] != "0" else "1"
    return [head[:-1], head[:12], head[:-1] + last, last + head[1:], head.upper(), head + "0", ""]


def renamed(report: dict, algorithm: str) -> dict:
    """``report`` with its seal naming ``algorithm``, and the head that seal commits to written in it."""
    again = copy.deepcopy(report)
    again["seal"]["algorithm"] = algorithm
    again["seal"]["head"] = hashed_head(again)
    return again


def drawn_head_questions():
    """Hypothesis: a report of the pool, its seal's algorithm kept or renamed, and a head, true, near or old."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        report = draw(st.sampled_from(pool()))
        if draw(st.booleans()):
            report = renamed(report, draw(st.sampled_from(("sha256-jcs-chain/1", "sha256-jcs-chain/3", "sha512",
                                                           ALGORITHM.upper(), ALGORITHM + " "))))
        old = report is pool()[0] or draw(st.booleans())
        true = hashed_head(report) if not old else report["seal"]["head"]
        kept = draw(st.sampled_from((true, true, *near_heads(true))))
        return [(report, kept)]

    return question()


HEAD_EDGE_CLASSES = (
    Edge("a kept head shortened, cut to its first twelve digits, or off in one digit at either end",
         fixed=lambda: [[(report, kept) for kept in (report["seal"]["head"], *near_heads(report["seal"]["head"]))]
                        for report in pool()],
         drawn=drawn_head_questions),
    Edge("a seal that names another algorithm than this course's",
         fixed=lambda: [[(report, report["seal"]["head"]),
                         (renamed(report, name), renamed(report, name)["seal"]["head"]),
                         (renamed(report, name), report["seal"]["head"])]
                        for report in pool()[:2] for name in ("sha256-jcs-chain/1", "sha512", ALGORITHM.upper())],
         drawn=drawn_head_questions),
    Edge("the same report and head asked again, after another report",
         fixed=lambda: [[(pool()[0], pool()[0]["seal"]["head"]), (pool()[1], pool()[0]["seal"]["head"]),
                         (pool()[0], pool()[1]["seal"]["head"]), (pool()[0], pool()[0]["seal"]["head"])]],
         drawn=drawn_head_questions, draws=5),
)

CHAIN_RULE = "the first event the chain walk names, or None when every link holds and the ends agree with the seal"


def event_rule(question: tuple) -> Rule:
    (report,) = question
    return Rule(verify_chain(report).seq, CHAIN_RULE)


def event_answered(found) -> object:
    return found if found is None or type(found) is int else f"no answer (it returned {str(found)[:40]!r})"


def event_question(question: tuple) -> str:
    (report,) = question
    return f"the report of run {report['run']['run_id'][:12]}... with {len(report['events'])} events"


def altered_at_the_ends() -> list[list[tuple]]:
    questions = []
    for report in pool():
        questions.append([(report,)])
        for seq in (1, len(report["events"])):
            edited = copy.deepcopy(report)
            edited["events"][seq - 1]["reason"] += "!"
            questions.append([(edited,)])
    return questions


def drawn_event_questions():
    """Hypothesis: a report of the pool with one event edited, dropped or its seq changed, or none."""
    from hypothesis import strategies as st

    @st.composite
    def question(draw):
        report = copy.deepcopy(draw(st.sampled_from(pool())))
        seq = draw(st.integers(1, len(report["events"])))
        change = draw(st.sampled_from(("none", "edited", "dropped", "renumbered")))
        if change == "edited":
            report["events"][seq - 1]["reason"] += "!"
        elif change == "dropped":
            del report["events"][seq - 1]
        elif change == "renumbered":
            report["events"][seq - 1]["seq"] += 1
        return [(report,)]

    return question()


@functools.cache
def long_run() -> dict:
    """A sealed report of 300 events (the pool's first, its events repeated and numbered again)."""
    report = pool()[0]
    events = [{**unchained(report["events"][n % len(report["events"])]), "seq": n + 1} for n in range(300)]
    bare = {key: value for key, value in report.items() if key not in ("seal", "events")}
    return seal({**bare, "events": events})


def long_questions() -> list[list[tuple]]:
    report = long_run()
    edited, dropped = copy.deepcopy(report), copy.deepcopy(report)
    edited["events"][280]["reason"] += "!"
    del dropped["events"][-1]
    return [[(report,)], [(edited,)], [(dropped,)]]


def out_of_place_questions() -> list[list[tuple]]:
    """Ledgers whose chain was recomputed over an event whose seq is not its place (the seal left as it was)."""
    questions = []
    for report in pool():
        middle = len(report["events"]) // 2
        for seq in (middle - 1, middle, middle + 2):  # a seq repeated, kept, or skipped ahead
            events = copy.deepcopy(report["events"])
            events[middle]["seq"] = seq
            if seq != middle + 1:
                questions.append([(relinked(report, events),)])
    return questions


EVENT_EDGE_CLASSES = (
    Edge("a report altered at its first or its last event, or not at all", fixed=altered_at_the_ends,
         drawn=drawn_event_questions),
    Edge("a ledger of more than 256 events", fixed=long_questions, drawn=drawn_event_questions, draws=5),
    Edge("a ledger whose chain was recomputed over an event out of its place", fixed=out_of_place_questions,
         drawn=drawn_event_questions, draws=5),
)
EDGE_CLASSES = HEAD_EDGE_CLASSES + EVENT_EDGE_CLASSES


def test_every_edge_class_of_the_two_contracts_gets_the_rules_answer_and_its_arguments_back():
    compare(yours, "first_altered_event", EVENT_EDGE_CLASSES, rule=event_rule, judged=event_answered,
            shown=event_question, unchanged=True)
    compare(yours, "matches_kept_head", HEAD_EDGE_CLASSES, rule=head_rule, judged=head_answered,
            shown=head_question, unchanged=True)


# --- python3 starter/lesson09_test.py: what your functions say of the tamper lab ---------------------


def show() -> None:
    intact = lab_file("intact")
    kept = intact["seal"]["head"]
    rows = []
    for name in LAB_FILES:
        report = lab_file(name)
        mine = said(yours.call("first_altered_event", report))
        matched = yours.call("matches_kept_head", report, kept)
        rows.append(f"{name + '.json':22} {mine:22} {said(verify_chain(report).seq):22} {matched!r}")
    print(f"{'file':22} {'first_altered_event':22} {'the chain names':22} matches intact's head")
    print("\n".join(rows))


if __name__ == "__main__":
    try:
        show()
    except pytest.fail.Exception as exc:
        sys.exit(textwrap.fill(f"lesson09: {exc}", 79, subsequent_indent="    "))
