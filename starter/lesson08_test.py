"""Lesson 8 completion test: your gate's decision, on the committed table, on tables made for this run, and in the door.

Your file runs in a process of its own (course/student.py), with the reference
gate and taxonomy (core.run.gate, core.run.taxonomy) unavailable to it. The
check sends decide() a table, the run's caps, an act, the run's counts and its
reviews, all as plain data, and compares your verdict, class and trigger class
with what the reference decide() says of the same situation, in the check's
own process. The situations are the committed table's classes, and tables and
acts made from a seed this run draws and prints (`COURSE_SEED=N course check 8`
makes them again). The last check builds lesson 8's real door with your
decision in place of the gate's and walks a run through it. By default the
checks run starter/lesson08.py; `course check 8` shows each.
"""

import copy
import hashlib
import json
import random
import sys
import textwrap
from types import MappingProxyType

import pytest

from core.run.demo_gating import WITHOUT
from core.run.drive import go_to
from core.run.doors import door_for
from core.run.gate import GateState, Gating, act_subject, decide, gate_state
from core.run.policy import Policy
from core.run.recorder import Refusal
from core.run.records import action_identity, make_run
from core.run.taxonomy import TAXONOMY_DIR, UNCLASSIFIED, parse_table
from course.manifest import course_root
from course.differ import Edge, Rule, compare
from course.student import Student, seed
from course.target import target_path

WORKED = "solutions/lesson08.py"  # out of reach too, unless it is the file being checked
yours = Student(8, names=("decide",), blocked=("core.run.gate", "core.run.taxonomy"),
                unreadable=() if target_path(8).resolve() == (course_root() / WORKED).resolve() else (WORKED,),
                why="it is the gate whose decision lesson 8 asks you to write yourself")
LAB = "https://lab.example:443"
COMMITTED = json.loads((TAXONOMY_DIR / "action_taxonomy.json").read_text(encoding="utf-8"))
FRESH_CASES = 84  # six of each shape

# The rules, as a failure names them.
UNKNOWN = ("an act whose class is undeclared, or unknown to the table, is consequential, counts as unclassified "
           "and has no approver role: it is denied")
ALIAS = "a legacy name is governed by the canonical row that lists it among its legacy_aliases"
WITHIN = ("a class that is not consequential runs (allow) while it has used fewer acts than its cap (a class with "
          "no cap has a cap of 0), and counts toward no trigger class")
PAST_NO_APPROVER = "past its cap, a class that is not consequential and has no approver role is denied, not held"
PAST = ("past its cap, a class that is not consequential needs an approved review of that exact act by its "
        "approver role, like a consequential act")
NO_APPROVER = "a consequential class with no approver role is denied: no review can release its acts"
WAITS = ("a consequential act waits (hold) for an approved review of that exact act by its class's approver role, "
         "and counts toward its row's trigger class")
RELEASED = ("an approved review of this exact act (its identity and the digest of its arguments) by the class's "
            "approver role releases it: allow")
REJECTED = "a rejection of this exact act by the class's approver role is a denial"
OTHER_ROLE = "only a review by the class's approver role counts: anyone else's leaves the act held"
EXACT = ("an approval covers one exact act: the same identity with other arguments is held again, and counts as "
         "CHANGE because it amends an approved act")


# --- the reference's view of a situation --------------------------------------------------------


def reference(situation: dict) -> tuple[dict, str]:
    """What the reference decide() says of ``situation``, and the rule that decides it."""
    table = parse_table(situation["table"], "the check's table")
    gating = Gating(table.version, table, MappingProxyType(dict(situation["caps"])), ())
    act, reviews = situation["act"], situation["reviews"]
    row = table.classify(act["declared"])
    subject = act_subject(act["action_id"], act["arguments"])
    state = GateState(used=dict(situation["used"]))
    for review in reviews:  # only the approver role's reviews count: its last decides, whoever reviewed after
        held = state.decided.get(review["subject_id"], ("", "", ""))
        if review["reviewer"] == row.approver_role or held[1] != row.approver_role:
            state.decided[review["subject_id"]] = (review["decision"], review["reviewer"], "review")
        if review["decision"] == "approved" and review["reviewer"] == row.approver_role:
            state.approved.setdefault(review["action_id"], set()).add(review["subject_id"])
    decision = decide(gating, act["declared"], act["action_id"], subject, state)
    expected = {"verdict": decision.verdict, "action_class": decision.action_class,
                "trigger_class": decision.trigger_class}
    return expected, rule_of(row, table, situation, subject, decision)


def rule_of(row, table, situation: dict, subject: str, decision) -> str:
    act = situation["act"]
    if row is UNCLASSIFIED:
        return UNKNOWN
    prefix = f"{ALIAS} ({act['declared']!r} is an old name of {row.name}); " if act["declared"] != row.name else ""
    mine = [r for r in situation["reviews"] if r["subject_id"] == subject]
    if not row.consequential:
        if decision.verdict == "allow" and not mine:
            return prefix + WITHIN
        if row.name not in situation["caps"]:
            prefix += f"the run configures no cap for {row.name}, and a class with no cap has a cap of 0; "
        if row.approver_role is None:
            return prefix + PAST_NO_APPROVER
        base = prefix + PAST + "; "
    else:
        if row.approver_role is None:
            return prefix + NO_APPROVER
        if decision.trigger_class == "CHANGE":
            return prefix + EXACT
        base = prefix
    if mine and mine[-1]["reviewer"] != row.approver_role:
        return base + OTHER_ROLE
    if mine and mine[-1]["decision"] == "rejected":
        return base + REJECTED
    if mine:
        return base + RELEASED
    return base + (WAITS if row.consequential else "with no review yet, it is held")


def summary(answer: dict) -> str:
    return f"{answer.get('verdict')!r} (class {answer.get('action_class')!r}, trigger {answer.get('trigger_class')!r})"


def expect(situation: dict, what: str) -> dict:
    """Your decide() of ``situation`` must agree with the gate's rule; its answer, for a check to look further."""
    got = yours.call("decide", situation["table"], situation["caps"], situation["act"], situation["used"],
                     situation["reviews"])
    expected, rule = reference(situation)
    if not isinstance(got, dict) or not isinstance(got.get("reason"), str) or not got["reason"].strip():
        pytest.fail(f"decide returned {got!r} for {what}; it returns a dict with verdict, action_class, "
                    "trigger_class and a reason that says why", pytrace=False)
    if {key: got.get(key) for key in expected} != expected:
        if got.get("trigger_class") == "CHANGE" and expected["trigger_class"] != "CHANGE":
            rule += ("; and an act counts as CHANGE only when the same identity was approved, by its class's "
                     "approver role, with other arguments: a rejection, or another role's review, amends nothing")
        pytest.fail(f"for {what}, your decide answered {summary(got)}; the gate's rule gives {summary(expected)}: "
                    f"{rule}", pytrace=False)
    return got


# --- situations: the committed table's, and made for this run ---------------------------------------


def situation(table: dict, declared, *, tool: str = "probe_reflection", path: str = "/search",
              arguments: dict | None = None, caps: dict | None = None, used: dict | None = None,
              reviews: list | None = None) -> dict:
    return {"table": table, "caps": caps if caps is not None else {"recon.passive": 10},
            "act": {"action_id": action_identity(tool, f"{LAB}{path}"), "arguments": arguments or {},
                    "declared": declared},
            "used": used or {}, "reviews": reviews or []}


def review_of(case: dict, decision: str, reviewer: str, arguments: dict | None = None) -> dict:
    """A review of the case's act (or of the same identity with ``arguments``)."""
    act = case["act"]
    return {"subject_id": act_subject(act["action_id"], act["arguments"] if arguments is None else arguments),
            "action_id": act["action_id"], "decision": decision, "reviewer": reviewer}


MARKER_1 = {"parameter": "q", "marker": "lab-probe-1"}
MARKER_2 = {"parameter": "q", "marker": "lab-probe-2"}
WORDS = ("fern", "moss", "cedar", "tern", "basil", "larch", "wren", "sorrel", "quill", "reed")
ROLES = ("engagement-lead", "client-liaison", "tester")
TRIGGERS = ("active_testing", "exploitation", "data_handling", "disclosure")
SHAPES = ("within its cap", "past its cap, no approver role", "past its cap, approved", "consequential, no review",
          "consequential, approved", "consequential, the identity approved with other arguments",
          "a legacy name", "an unknown class", "no class at all", "consequential, rejected",
          "consequential, reviewed by another role", "consequential, rejected by another role",
          "consequential, the identity rejected with other arguments",
          "consequential, the identity approved with other arguments by another role")


def made_table(rng: random.Random, number: int) -> dict:
    """A valid taxonomy table nobody wrote: passive rows with and without an approver, consequential ones likewise."""
    words = rng.sample(WORDS, 6)
    rows = [
        {"name": f"recon.{words[0]}", "consequential": False, "approver_role": None},
        {"name": f"recon.{words[1]}", "consequential": False, "approver_role": rng.choice(ROLES)},
        {"name": f"probe.{words[2]}", "consequential": True, "approver_role": rng.choice(ROLES)},
        {"name": f"probe.{words[3]}", "consequential": True, "approver_role": rng.choice(ROLES)},
        {"name": f"exploit.{words[4]}", "consequential": True, "approver_role": None},
    ]
    for index, row in enumerate(rows):
        row["trigger_class"] = rng.choice(TRIGGERS) if row["consequential"] else None
        row["fail_open_allowed"] = (not row["consequential"]) and rng.random() < 0.5
        row["legacy_aliases"] = [f"{words[5]}{number}-{index}"] if rng.random() < 0.7 else []
    rng.shuffle(rows)
    return {"about": f"A table made by lesson 8's check, number {number}.", "taxonomy_version": 7,
            "trigger_classes": list(TRIGGERS), "classes": [{key: row[key] for key in
                                                            ("name", "trigger_class", "consequential",
                                                             "fail_open_allowed", "approver_role",
                                                             "legacy_aliases")} for row in rows]}


def made_case(rng: random.Random, number: int) -> tuple[dict, str]:
    """One situation of the shape ``SHAPES[number % len(SHAPES)]``, on a table made for it."""
    shape = SHAPES[number % len(SHAPES)]
    table = made_table(rng, number)
    rows = {row["name"]: row for row in table["classes"]}
    passive = [r for r in rows.values() if not r["consequential"]]
    approvable = [r for r in rows.values() if r["consequential"] and r["approver_role"]]
    caps = {row["name"]: rng.randint(1, 4) for row in passive if rng.random() < 0.8}
    used = {row["name"]: rng.randint(0, 5) for row in rows.values()}
    arguments = {"parameter": "q", "marker": f"{rng.choice(WORDS)}-{rng.randint(1, 999)}"}
    tool = rng.choice(["probe_reflection", "submit_form", "inspect_headers"])
    path = f"/{rng.choice(WORDS)}"
    row = rng.choice(approvable)
    declared = row["name"]
    reviews: list = []
    if shape in ("within its cap", "past its cap, no approver role", "past its cap, approved"):
        row = passive[0] if shape != "past its cap, approved" else next(r for r in passive if r["approver_role"])
        row = row if shape != "within its cap" else rng.choice(passive)
        declared, cap = row["name"], rng.randint(1, 4)
        caps[declared] = cap
        used[declared] = rng.randint(0, cap - 1) if shape == "within its cap" else cap + rng.randint(0, 2)
        if shape == "past its cap, no approver role":
            row["approver_role"] = None
            row = next(r for r in table["classes"] if r["name"] == declared)
            row["approver_role"] = None
    elif shape == "a legacy name":
        chosen = rng.choice(list(rows.values()))
        chosen["legacy_aliases"] = chosen["legacy_aliases"] or [f"old{number}"]
        declared = chosen["legacy_aliases"][0]
    elif shape == "an unknown class":
        declared = f"probe.{rng.choice(WORDS)}-{number}"
    elif shape == "no class at all":
        declared = None
    case = situation(table, declared, tool=tool, path=path, arguments=arguments, caps=caps, used=used)
    role = rows.get(declared, row)["approver_role"] if declared in rows else row["approver_role"]
    other = next(r for r in ROLES if r != role)
    if shape in ("past its cap, approved", "consequential, approved"):
        reviews = [review_of(case, "approved", role)]
    elif shape == "consequential, the identity approved with other arguments":
        reviews = [review_of(case, "approved", role, {**arguments, "marker": arguments["marker"] + "-other"})]
    elif shape == "consequential, rejected":
        reviews = [review_of(case, "rejected", role)]
    elif shape == "consequential, reviewed by another role":
        reviews = [review_of(case, "approved", other)]
    elif shape == "consequential, rejected by another role":
        reviews = [review_of(case, "rejected", other)]
    elif shape == "consequential, the identity rejected with other arguments":
        reviews = [review_of(case, "rejected", role, {**arguments, "marker": arguments["marker"] + "-other"})]
    elif shape == "consequential, the identity approved with other arguments by another role":
        reviews = [review_of(case, "approved", other, {**arguments, "marker": arguments["marker"] + "-other"})]
    if rng.random() < 0.5:  # a review of some other act, which decides nothing here
        reviews.append({"subject_id": act_subject(action_identity("inspect_headers", f"{LAB}/elsewhere"), {}),
                        "action_id": action_identity("inspect_headers", f"{LAB}/elsewhere"),
                        "decision": "approved", "reviewer": rng.choice(ROLES)})
    case["reviews"] = reviews
    return case, shape


# --- the checks -----------------------------------------------------------------------------------


def test_each_class_of_the_committed_table_is_read_through_the_table():
    for row in COMMITTED["classes"]:
        cap = {"recon.passive": 10}
        expect(situation(COMMITTED, row["name"], caps=cap), f"a first act of the committed class {row['name']}")
    for row in COMMITTED["classes"]:
        for alias in row["legacy_aliases"]:
            expect(situation(COMMITTED, alias), f"a first act declared under {row['name']}'s old name {alias!r}")


def test_an_unknown_or_undeclared_class_is_denied():
    for declared, what in (("probe.fuzz", "the unknown class 'probe.fuzz'"), (None, "no declared class at all"),
                           ("Recon.Passive", "'Recon.Passive', which no row names in that letter case")):
        expect(situation(COMMITTED, declared), f"an act of {what}")


def test_a_class_that_is_not_consequential_runs_within_its_cap_and_not_past_it():
    for count in (0, 9, 10, 11):
        expect(situation(COMMITTED, "recon.passive", tool="inspect_headers", path="/", used={"recon.passive": count}),
               f"a header look when recon.passive has used {count} of its cap of 10")
    expect(situation(COMMITTED, "passive", tool="inspect_headers", used={"recon.passive": 3}),
           "a header look declared under the old name 'passive', recon.passive having used 3 of its cap of 10")
    expect(situation(COMMITTED, "recon.enumerate", tool="inspect_headers"),
           "a first act of recon.enumerate, for which the run configures no cap")
    expect(situation(COMMITTED, "recon.passive", tool="inspect_headers", caps={}),
           "a first header look in a run that configures no cap for recon.passive")


def test_a_consequential_act_waits_for_its_approvers_review_of_that_exact_act():
    probe = situation(COMMITTED, "probe.active_light", arguments=MARKER_1)
    expect(probe, "a probe with marker 1 and no review yet")
    for decision, reviewer, what in (("approved", "engagement-lead", "approved by engagement-lead"),
                                     ("approved", "client-liaison", "approved by client-liaison"),
                                     ("rejected", "engagement-lead", "rejected by engagement-lead")):
        expect({**probe, "reviews": [review_of(probe, decision, reviewer)]}, f"a probe with marker 1 {what}")
    # A cap is for a class that is not consequential: one configured for a probe releases nothing.
    expect({**probe, "caps": {"recon.passive": 10, "probe.active_light": 5}, "used": {"probe.active_light": 1}},
           "a probe with marker 1 in a run that configures probe.active_light a cap of 5, 1 used")
    # A role is a name, compared exactly: another spelling of the approver's is another role.
    for spelt in ("Engagement-Lead", "ENGAGEMENT-LEAD", "engagement-lead "):
        expect({**probe, "reviews": [review_of(probe, "approved", spelt)]},
               f"a probe with marker 1 approved by {spelt!r}, the approver role in another spelling")


def test_an_approval_covers_one_exact_act():
    probe = situation(COMMITTED, "probe.active_light", arguments=MARKER_2)
    approved_first = review_of(probe, "approved", "engagement-lead", MARKER_1)
    expect({**probe, "reviews": [approved_first]},
           "a probe with marker 2, after engagement-lead approved the same probe with marker 1")
    elsewhere = situation(COMMITTED, "probe.active_light", path="/debug", arguments=MARKER_1)
    expect({**elsewhere, "reviews": [approved_first]},
           "a probe of /debug with marker 1, after engagement-lead approved a probe of /search with marker 1")


def test_your_decision_on_tables_and_acts_made_for_this_run():
    rng = random.Random(seed())
    for number in range(FRESH_CASES):
        case, shape = made_case(rng, number)
        expect(case, f"case {number + 1} of {FRESH_CASES} ({shape}), made from seed {seed()} "
                     f"(COURSE_SEED={seed()} course check 8 makes it again)")


# --- the edge classes of decide's contract, each asked in every run ---------------------------------------------
#
# Each class is a kind of situation the rules above judge, listed as data: situations every run asks, and more
# that Hypothesis draws from this run's seed. Your verdict, class and trigger class are compared with the gate's
# rule (the reason's words are the other checks' business), and every argument must come back as it was sent.

EDGE_WORDS = {  # the rules of the classes, in fixed words (never the situation's names)
    "unknown": UNKNOWN,
    "within": WITHIN,
    "past, no approver": PAST_NO_APPROVER,
    "past": PAST,
    "no approver": NO_APPROVER,
    "waits": WAITS,
    "released": RELEASED,
    "rejected": REJECTED,
    "other role": OTHER_ROLE,
    "exact": EXACT,
}


def edge_rule(case: dict) -> Rule:
    """The gate's answer for ``case`` (verdict, class, trigger), and the rule that decides it in fixed words."""
    expected, _ = reference(case)
    table = parse_table(case["table"], "the check's table")
    row, act = table.classify(case["act"]["declared"]), case["act"]
    subject = act_subject(act["action_id"], act["arguments"])
    mine = [r for r in case["reviews"] if r["subject_id"] == subject]
    counted = [r for r in mine if r["reviewer"] == row.approver_role]
    if row is UNCLASSIFIED:
        key = "unknown"
    elif not row.consequential and expected["verdict"] == "allow" and not counted:
        key = "within"
    elif not row.consequential and row.approver_role is None:
        key = "past, no approver"
    elif row.approver_role is None:
        key = "no approver"
    elif expected["trigger_class"] == CHANGE_NAME and not counted:
        key = "exact"
    elif counted:
        key = "released" if counted[-1]["decision"] == "approved" else "rejected"
    else:
        key = "other role" if mine else ("waits" if row.consequential else "past")
    return Rule((expected["verdict"], expected["action_class"], expected["trigger_class"]), EDGE_WORDS[key])


CHANGE_NAME = "CHANGE"


def edge_answered(found) -> object:
    if isinstance(found, dict) and isinstance(found.get("reason"), str) and found["reason"].strip():
        return (found.get("verdict"), found.get("action_class"), found.get("trigger_class"))
    return (f"no answer (it returned {str(found)[:60]!r}, not a dict with verdict, action_class, trigger_class and "
            "a reason)")


def edge_arguments(case: dict) -> tuple:
    return (copy.deepcopy(case["table"]), copy.deepcopy(case["caps"]), copy.deepcopy(case["act"]),
            copy.deepcopy(case["used"]), copy.deepcopy(case["reviews"]))


def edge_in_words(case: dict) -> str:
    act = case["act"]
    subject = act_subject(act["action_id"], act["arguments"])
    reviews = [f"{r['decision']} by {r['reviewer']!r} of " + ("this exact act" if r["subject_id"] == subject else
                                                              "its identity with other arguments"
                                                              if r["action_id"] == act["action_id"] else "another act")
               for r in case["reviews"]]
    table = "the committed table" if case["table"] is COMMITTED else "a table made for this run"
    return (f"the act {act['action_id']!r} with arguments {act['arguments']} declaring {act['declared']!r}, caps "
            f"{case['caps']}, used {case['used']}, reviews {reviews or 'none'}, on {table}")


def probe_of(arguments: dict | None = None, path: str = "/search", **given) -> dict:
    chosen = MARKER_1 if arguments is None else arguments
    return situation(COMMITTED, "probe.active_light", path=path, arguments=chosen, **given)


def reviewed(case: dict, *reviews: tuple) -> dict:
    """``case`` with reviews of its act: each (decision, reviewer) or (decision, reviewer, other arguments)."""
    return {**case, "reviews": [review_of(case, *review) for review in reviews]}


def again_questions() -> list[list[dict]]:
    probe = probe_of()
    passive = situation(COMMITTED, "recon.passive", tool="inspect_headers", path="/")
    return [[probe, reviewed(probe, ("approved", "engagement-lead")), reviewed(probe, ("rejected", "engagement-lead")),
             probe, reviewed(probe, ("approved", "engagement-lead", MARKER_2)),
             {**passive, "used": {"recon.passive": 0}}, {**passive, "used": {"recon.passive": 10}},
             {**passive, "used": {"recon.passive": 3}}, {**passive, "caps": {}}, passive]]


LOOK_ALIKES = ("Recon.Passive", "RECON.PASSIVE", "recon.passive ", " recon.passive", "recon.p\u0430ssive",
               "recon.passive\u200b", "recon_passive", "Passive", "passive ", "PROBE.ACTIVE_LIGHT",
               "probe.active-light", "Active", "report.Publish")


def spelling_questions() -> list[list[dict]]:
    names = ("recon.passive", "passive", "probe.active_light", "active", "publish")
    return [[situation(COMMITTED, declared, tool="inspect_headers", used={"recon.passive": 1})
             for declared in LOOK_ALIKES], [situation(COMMITTED, name, tool="inspect_headers") for name in names]]


def unknown_questions() -> list[list[dict]]:
    return [[situation(COMMITTED, declared, caps={"recon.passive": 10, "unclassified": 5}, used={"unclassified": 0})
             for declared in (None, "", "unclassified", "probe", "probe.active_light.x", "recon", "0")]]


HUGE = 2**62


def cap_questions() -> list[list[dict]]:
    asked = []
    for name in ("recon.passive", "recon.enumerate"):
        for cap, used in ((1, 0), (1, 1), (1, 2), (10, 9), (10, 10), (10, 11), (0, 0), (0, 1), (HUGE, HUGE - 1),
                          (HUGE, HUGE), (3, HUGE), (None, 0), (None, 3)):
            caps = {"recon.passive": 10, name: cap} if cap is not None else \
                {key: value for key, value in {"recon.passive": 10}.items() if key != name}
            asked.append(situation(COMMITTED, name, tool="inspect_headers", caps=caps, used={name: used}))
        for cap in (1, 2, 0, None):  # a class the run has not counted yet has used none of its cap
            caps = {"recon.passive": 10, name: cap} if cap is not None else {}
            asked.append(situation(COMMITTED, name, tool="inspect_headers", caps=caps, used={"other.class": 3}))
    return [asked]


def capped_consequential_questions() -> list[list[dict]]:
    capped = {"recon.passive": 10, "probe.active_light": 5, "exploit.attempt": 5, "report.publish": HUGE}
    asked = [probe_of(caps=capped, used={"probe.active_light": used}) for used in (0, 1, 4, 5, 6)]
    asked.append(reviewed(probe_of(caps=capped), ("approved", "engagement-lead")))
    asked.append(reviewed(probe_of(caps=capped), ("rejected", "engagement-lead")))
    asked += [situation(COMMITTED, name, caps=capped) for name in ("exploit.attempt", "report.publish", "exploit")]
    return [asked]


ROLE_SPELLINGS = ("Engagement-Lead", "ENGAGEMENT-LEAD", "engagement-lead ", " engagement-lead", "engagement_lead",
                  "engagement\u2010lead", "engagement-l\u0435ad", "engagementlead", "client-liaison")


def role_questions() -> list[list[dict]]:
    probe = probe_of()
    return [[reviewed(probe, (decision, spelt)) for spelt in ROLE_SPELLINGS for decision in ("approved", "rejected")],
            [reviewed(probe, ("approved", spelt, MARKER_2)) for spelt in ROLE_SPELLINGS[:3]]]


def order_questions() -> list[list[dict]]:
    probe, lead, liaison = probe_of(), "engagement-lead", "client-liaison"
    elsewhere = {"subject_id": act_subject(action_identity("inspect_headers", f"{LAB}/elsewhere"), {}),
                 "action_id": action_identity("inspect_headers", f"{LAB}/elsewhere"), "decision": "rejected",
                 "reviewer": lead}
    asked = [reviewed(probe, ("approved", lead), ("rejected", lead)),
             reviewed(probe, ("rejected", lead), ("approved", lead)),
             reviewed(probe, ("approved", lead), ("approved", lead)),
             reviewed(probe, ("rejected", lead), ("rejected", lead)),
             reviewed(probe, ("rejected", liaison), ("approved", lead)),
             reviewed(probe, ("approved", lead), ("rejected", lead, MARKER_2)),
             reviewed(probe, ("rejected", lead, MARKER_2), ("approved", lead, MARKER_2)),
             reviewed(probe, ("approved", lead, MARKER_2), ("approved", lead))]
    asked += [{**case, "reviews": [elsewhere, *case["reviews"], elsewhere]} for case in asked[:3]]
    return [asked]


def arguments_questions() -> list[list[dict]]:
    lead = "engagement-lead"
    reordered = {"marker": MARKER_1["marker"], "parameter": MARKER_1["parameter"]}
    return [[reviewed(probe_of(reordered), ("approved", lead, MARKER_1)),
             reviewed(probe_of({**MARKER_1, "marker": MARKER_1["marker"] + " "}), ("approved", lead, MARKER_1)),
             reviewed(probe_of({**MARKER_1, "marker": MARKER_1["marker"][:-1] + "2"}), ("approved", lead, MARKER_1)),
             reviewed(probe_of({**MARKER_1, "marker": MARKER_1["marker"].upper()}), ("approved", lead, MARKER_1)),
             reviewed(probe_of({}), ("approved", lead, {})), reviewed(probe_of({}), ("approved", lead, MARKER_1)),
             reviewed(probe_of({**MARKER_1, "extra": ""}), ("approved", lead, MARKER_1)),
             reviewed(probe_of(MARKER_2), ("approved", "client-liaison", MARKER_1)),
             reviewed(probe_of(MARKER_2), ("rejected", lead, MARKER_1))]]


def drawn_cases(shapes: tuple[int, ...] = tuple(range(len(SHAPES)))):
    """Hypothesis: a situation of one of ``shapes`` on a table made for it, then changed as the class says."""
    from hypothesis import strategies as st

    return st.builds(lambda number, shape: [made_case(random.Random(seed() * 53 + number), shape)[0]],
                     st.integers(0, 2**16), st.sampled_from(shapes))


def drawn_spelled():
    from hypothesis import strategies as st

    def spelt(case, how):
        declared = case["act"]["declared"] or "recon.x"
        changed = (declared.upper(), declared.title(), declared + " ", declared.replace(".", "_"),
                   declared.replace("o", "\u043e", 1))[how]
        return [{**case, "act": {**case["act"], "declared": changed}}]

    return st.builds(lambda cases, how: spelt(cases[0], how), drawn_cases(), st.integers(0, 4))


def drawn_capped():
    from hypothesis import strategies as st

    def capped(cases, cap, used):
        case = cases[0]
        name = case["act"]["declared"]
        rows = {row["name"]: row for row in case["table"]["classes"]}
        name = name if name in rows else next(iter(rows))
        return [{**case, "act": {**case["act"], "declared": name}, "caps": {**case["caps"], name: cap},
                 "used": {**case["used"], name: used}}]

    return st.builds(capped, drawn_cases(), st.integers(0, HUGE), st.integers(0, HUGE)) | \
        st.builds(capped, drawn_cases(), st.integers(0, 3), st.integers(0, 4))


def drawn_roles():
    from hypothesis import strategies as st

    def respelt(cases, how):
        case = cases[0]
        def role(who: str) -> str:
            return (who.upper(), who.title(), who + " ", who.replace("-", "_"), who.replace("e", "\u0435", 1))[how]

        return [{**case, "reviews": [{**r, "reviewer": role(r["reviewer"])} for r in case["reviews"]]}]

    return st.builds(respelt, drawn_cases(tuple(range(len(SHAPES)))[2:]), st.integers(0, 4))


def drawn_orders():
    from hypothesis import strategies as st

    def ordered(cases, decisions):
        case = cases[0]
        table = parse_table(case["table"], "the check's table")
        role = table.classify(case["act"]["declared"]).approver_role or "engagement-lead"
        return [reviewed(case, *[(decision, role) for decision in decisions])]

    return st.builds(ordered, drawn_cases((3, 4, 9)), st.lists(st.sampled_from(("approved", "rejected")), min_size=1,
                                                                 max_size=4))


EDGE_CLASSES = (
    Edge("the same act asked again, with other reviews or counts", fixed=again_questions,
         drawn=lambda: drawn_cases().map(lambda cases: [*cases, {**cases[0], "reviews": []}, *cases]),
         draws=5),
    Edge("a declared class in other letter case, with a space, or a look-alike character", fixed=spelling_questions,
         drawn=drawn_spelled, draws=8),
    Edge("an act undeclared, of an empty name, of the reserved name unclassified, or of a class no row knows",
         fixed=unknown_questions, drawn=lambda: drawn_cases((7, 8)), draws=5),
    Edge("a cap at its boundary: none used, one below, at or past it; a cap of 0, of 1, huge, or none",
         fixed=cap_questions, drawn=drawn_capped, draws=8),
    Edge("a cap configured for a consequential class", fixed=capped_consequential_questions, drawn=drawn_capped,
         draws=8),
    Edge("a reviewer's role in other letter case, with a space, or a look-alike character", fixed=role_questions,
         drawn=drawn_roles, draws=8),
    Edge("several reviews of the act, repeated or reordered: the approver's last decision counts",
         fixed=order_questions, drawn=drawn_orders, draws=8),
    Edge("arguments that differ only at one value's end, only in letter case, or only in key order",
         fixed=arguments_questions, drawn=lambda: drawn_cases((5, 12, 13)), draws=5),
)


def test_every_edge_class_of_the_contract_gets_the_rules_answer():
    compare(yours, "decide", EDGE_CLASSES, rule=edge_rule, judged=edge_answered, shown=edge_in_words,
            arguments=edge_arguments, unchanged=True)


# --- your decision, in lesson 8's door ------------------------------------------------------------

FORM_ROW = {"name": "probe.form_submit", "trigger_class": "active_testing", "consequential": True,
            "fail_open_allowed": False, "approver_role": "engagement-lead", "legacy_aliases": []}
METADATA_ROW = {"name": "recon.metadata", "trigger_class": None, "consequential": False,
                "fail_open_allowed": False, "approver_role": None, "legacy_aliases": []}
DOOR_TABLE = {**COMMITTED, "taxonomy_version": 3, "classes": COMMITTED["classes"] + [FORM_ROW, METADATA_ROW],
              "about": "Version 2 of the action classes, with lesson 8's form probe and metadata read."}
TOOLS = [{"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
          "weight": 2.0, "cost": 1.0},
         {"tool_id": "inspect_metadata", "activity": "recon.metadata", "requires": {}, "family": "fam-recon",
          "weight": 3.0, "cost": 1.0},
         {"tool_id": "submit_form", "activity": "probe.form_submit", "requires": {}, "family": "fam-probe",
          "weight": 3.0, "cost": 2.0, "arguments": {"field": "string", "marker": "string"}}]
FORM_1 = {"field": "message", "marker": "lab-form-<b>1</b>"}
FORM_2 = {"field": "message", "marker": "lab-form-<b>2</b>"}


def your_gate(door, request) -> None:
    """The gate's guard, asking your decide() instead of the reference's."""
    if request.kind != "action":
        return
    action, state = request.record, gate_state(door)
    subject = act_subject(action.action_id, action.arguments)
    reviews = [{"subject_id": held, "action_id": state.held[held][1], "decision": decision, "reviewer": reviewer}
               for held, (decision, reviewer, _) in state.decided.items()]
    act = {"action_id": action.action_id, "arguments": dict(action.arguments),
           "declared": door.policy.tool_named(action.tool).activity}
    answer = yours.call("decide", DOOR_TABLE, dict(door.parts["gating"].caps), act, dict(state.used), reviews)
    verdict = answer.get("verdict") if isinstance(answer, dict) else None
    if verdict == "allow":
        return
    reason = str(answer.get("reason", "")) if isinstance(answer, dict) else ""
    if verdict == "hold":
        state.held[subject] = (str(answer.get("action_class")), action.action_id)
        raise Refusal("held_for_review", f"your gate holds it: {reason}")
    raise Refusal("denied", f"your gate denies it: {reason}" if verdict == "deny" else
                  f"your gate answered {answer!r}, which is no verdict")


def your_door():
    """Lesson 8's door under the door table, with your decision in place of the gate's, at the verify stage."""
    table = parse_table(DOOR_TABLE, "the door's table")
    gating = Gating(3, table, MappingProxyType({"recon.passive": 10, "recon.metadata": 3}), ())
    policy = Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [LAB], "tools": TOOLS,
                               "max_actions": 16, "max_model_calls": 4})
    run = make_run(policy.snapshot(), {"world": f"lesson08-door-{seed()}"})
    # lesson 7's plan guard left out, as the demo's; your gate in the place of the_gate
    door = door_for(8, run, policy, gating, without=WITHOUT, replace={"the_gate": your_gate})
    go_to(door, "verify")
    return door


def send(door, tool: str, path: str, arguments: dict | None = None) -> dict:
    answer = door.record("action", {"run_id": door.run.run_id, "tool": tool, "destination": f"{LAB}{path}",
                                    "arguments": arguments or {}})
    if answer["recorded"]:
        door.record("outcome", {"run_id": door.run.run_id, "action_id": answer["id"], "status": "succeeded"})
    return answer


def approve(door, path: str, arguments: dict) -> dict:
    subject = act_subject(action_identity("submit_form", f"{LAB}{path}"), arguments)
    return door.record("review", {"run_id": door.run.run_id, "subject_id": subject, "decision": "approved",
                                  "reviewer": "engagement-lead", "reason": "one harmless marker in the form"})


def walk(door) -> list[tuple[str, dict]]:
    """The run the door check walks: four metadata reads, then the form probe held, approved, changed, re-sent."""
    steps = [(f"metadata read {n} ({path})", send(door, "inspect_metadata", path))
             for n, path in enumerate(("/about", "/contact", "/news", "/search"), start=1)]
    steps.append(("submit_form with marker 1", send(door, "submit_form", "/contact", FORM_1)))
    steps.append(("  the engagement lead's approval of it", approve(door, "/contact", FORM_1)))
    steps.append(("submit_form with marker 2", send(door, "submit_form", "/contact", FORM_2)))
    steps.append(("submit_form with marker 1 again", send(door, "submit_form", "/contact", FORM_1)))
    return steps


def test_your_gate_governs_lesson_8s_door():
    door = your_door()
    steps = walk(door)
    wanted = [True, True, True, False, False, True, False, True]
    rules = [WITHIN, WITHIN, WITHIN, PAST_NO_APPROVER, WAITS, "a review is admitted only of an act the gate holds",
             EXACT, RELEASED]
    for (what, answer), admitted, rule in zip(steps, wanted, rules):
        if answer["recorded"] is not admitted:
            said = "admitted it" if answer["recorded"] else f"refused it ({answer['reason']})"
            pytest.fail(f"in lesson 8's door with your decision, {what.strip()}: the door {said}: {rule}",
                        pytrace=False)
    counts = gate_state(door).triggers
    if counts.get("CHANGE", 0) != 0 or counts.get("active_testing", 0) != 1:
        pytest.fail(f"the door counted the admitted acts' trigger classes as {counts}", pytrace=False)


# --- python3 starter/lesson08_test.py: the door's answers with your decision -----------------------


def show() -> None:
    lines = []
    for what, answer in walk(your_door()):
        said = "admitted" if answer["recorded"] else f"refused: {answer['reason']}"
        lines.append(textwrap.fill(f"{what}: {said}", 79, subsequent_indent="    "))
    print("\n".join(lines))


if __name__ == "__main__":
    try:
        show()
    except pytest.fail.Exception as exc:
        sys.exit(textwrap.fill(f"lesson08: {exc}", 79, subsequent_indent="    "))
