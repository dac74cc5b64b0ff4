"""Lesson 5 completion test: your choice, compared with the door's on the demo's run and on runs made fresh.

Your file runs in a process of its own (course/student.py), with the reference
(core.run.select), data/ and solutions/ unavailable to it. This process drives
lesson 5's door through the one work loop (core/run/drive.py:work): the demo's
run, and runs it makes from a seed this run draws (random tools, weights, costs
and families, outcomes that fail or settle late, acts the door turns away). At
each selection it sends your functions the run so far, as plain data, and
compares what they return with what the door decides next. A failing row
prints the seed: `COURSE_SEED=N course check 5` makes the same runs again.

The last rows drive the operator's fixed plan (starter/lesson05.py) with your
inspect_metadata entry in the catalogue. Two of them are a pair: one asks the
metadata read to wait while a header look is open, its mirror asks it to beat
the probe. A score that wins everything fails the first; one that never wins
fails the second. The edge-class check asks rank, feedback and choose about
inputs on each edge class of their contracts, listed as data
(``EDGE_CLASSES``), and compares your answers with the rule's. By default
they check starter/lesson05.py; `course check 5` shows each result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from core.run.demo_selection import REPLIES as DEMO_REPLIES, build_policy as demo_policy, fixed_pages
from core.run.demo_selection import proposal, scripted, slipping, steps_of
from core.run.doors import door_for
from core.run.drive import work
from core.run.execute import AdapterResult, NotSent, execute
from core.run.policy import Policy, PolicyError
from core.run.records import action_identity, make_run
from core.run.select import rank as door_rank
from core.run.select import score, selection_state, selections
from course.differ import Edge, Rule, compare
from course.student import Student, seed
from course.target import load_lesson

yours = Student(5, names=("rank", "feedback", "choose", "my_inspect_metadata"),
                blocked=("core.run.select", "solutions"), unreadable=("data",))

LAB = "https://lab.example:443"
FRESH_RUNS = 12
FRESH_SETS = 20

# --- the runs: the demo's, and runs made from the seed ------------------------------------------------

VERBS = ("inspect", "probe", "fetch", "read", "scan")
NOUNS = ("headers", "meta", "cookies", "robots", "forms", "links")
FAMILIES = ("fam-recon", "fam-probe", "fam-crawl", "fam-audit")
WEIGHTS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
COSTS = (0.0, 1.0, 3.0)  # 1 + cost is a power of two: every score is exact, however it is computed
COURSE_TOOLS = ["inspect_headers", "inspect_metadata", "probe_reflection"]
PATHS = ("/debug", "/about", "/About", "/news", "/News", "/item9", "/item10", "/a-b", "/a_b", "/a.b", "/a/b", "/zeta",
         "/Zeta", "/~x", "/contact", "/search")
FATES = ("succeeded",) * 5 + ("failed", "failed", "in doubt", "in doubt", "turned away", "turned away")


def made_from_seed(number: int) -> str:
    chosen = seed()
    if number == 0:
        return "the demo's run (core/run/demo_selection.py)"
    return (f"run {number} of the {FRESH_RUNS} made from seed {chosen} "
            f"(COURSE_SEED={chosen} course check 5 makes them again)")


def fresh_run(rng: random.Random, number: int) -> dict:
    """One run to drive: a policy, the model's replies, and what becomes of each act."""
    names = sorted({f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}" for _ in range(rng.randint(2, 4))})
    if rng.random() < 0.4:
        names.append(names[0].split("_")[0])  # a tool whose name starts another's: 'probe' and 'probe_links'
    if rng.random() < 0.6:
        names += COURSE_TOOLS  # the course's tool names, with numbers and families of this run's own
    families = rng.sample(FAMILIES, rng.randint(2, 3))
    tools = [{"tool_id": name, "activity": "passive", "requires": {}, "family": rng.choice(families),
              "weight": rng.choice(WEIGHTS), "cost": rng.choice(COSTS)} for name in sorted(set(names))]
    acts = [(tool["tool_id"], path) for tool in tools for path in PATHS]
    replies = []
    for _ in range(rng.randint(2, 4)):
        chosen = rng.sample(acts, rng.randint(2, 6))
        replies.append([proposal(tool, path, "fresh") for tool, path in chosen])
    fates = [rng.choice(FATES) for _ in range(12)]
    late = [(rng.randint(1, 3), rng.choice(["succeeded", "failed"])) for _ in range(12)]
    policy = {"reference": "training-authorization-0042", "allowed_origins": [LAB], "tools": tools,
              "max_actions": rng.randint(3, 7), "max_model_calls": len(replies) + 12}
    return {"number": number, "policy": Policy.from_dict(policy), "replies": replies, "fates": fates, "late": late}


def demo_run() -> dict:
    return {"number": 0, "policy": demo_policy(), "replies": list(DEMO_REPLIES), "fates": None, "late": None}


def late_credit_run() -> dict:
    """A run made so that credit lands where it was earned only if it follows the outcome's own act.

    The first act (family fam-a) is left in doubt; the second (fam-b) fails; then the first settles
    succeeded, after the second ran. Its point is fam-a's, so fam-a's open proposal ranks first; a
    choice that credits whatever ran last would give it to fam-b and choose fam-b's.
    """
    tools = [{"tool_id": tool, "activity": "passive", "requires": {}, "family": family, "weight": 2.0, "cost": 1.0}
             for tool, family in (("a_look", "fam-a"), ("b_look", "fam-b"), ("c_look", "fam-a"))]
    policy = {"reference": "training-authorization-0042", "allowed_origins": [LAB], "tools": tools,
              "max_actions": 4, "max_model_calls": 12}
    replies = [[proposal("a_look", "/news", "first, left in doubt"), proposal("b_look", "/about", "second, fails"),
                proposal("c_look", "/zeta", "fam-a's, earned"), proposal("b_look", "/debug", "fam-b's, not earned")]]
    return {"number": FRESH_RUNS + 1, "label": "a run made so that an act in doubt settles after the next act ran",
            "policy": Policy.from_dict(policy), "replies": replies, "fates": ["in doubt", "failed"],
            "late": [(1, "succeeded")]}


def prefix_run() -> dict:
    """A run made so that one tool's name starts another's, in every run of the check, not by chance of seed.

    ``probe_links`` (fam-b) runs first and succeeds; its point is fam-b's, so fam-b's open proposal ranks
    first. A tool read off the identity as the first catalogue name it starts with is ``probe`` (fam-a), and
    the point, and the next choice, would go to fam-a.
    """
    tools = [{"tool_id": tool, "activity": "passive", "requires": {}, "family": family, "weight": weight,
              "cost": 1.0} for tool, family, weight in (("probe", "fam-a", 2.0), ("probe_links", "fam-b", 3.0),
                                                        ("scan_b", "fam-b", 2.0))]
    policy = {"reference": "training-authorization-0042", "allowed_origins": [LAB], "tools": tools,
              "max_actions": 3, "max_model_calls": 12}
    replies = [[proposal("probe_links", "/news", "first, succeeds"), proposal("probe", "/about", "fam-a's"),
                proposal("scan_b", "/zeta", "fam-b's, earned")]]
    return {"number": FRESH_RUNS + 2, "label": "a run made so that one tool's name starts another's (probe and "
                                                "probe_links)",
            "policy": Policy.from_dict(policy), "replies": replies, "fates": ["succeeded"] * 3, "late": []}


def runs() -> list[dict]:
    rng = random.Random(seed())
    return ([demo_run()] + [fresh_run(rng, number) for number in range(1, FRESH_RUNS + 1)] + [late_credit_run()]
            + [prefix_run()])


def catalogue_of(policy: Policy) -> dict:
    return {tool.tool_id: {"family": tool.family, "weight": tool.weight, "cost": tool.cost} for tool in policy.tools}


def history_of(door) -> list[dict]:
    """The door's ledger so far, as the steps starter/lesson05.py's docstring names."""
    steps = []
    for event in door.ledger:
        kind, status, payload = event["kind"], event["status"], event["payload"]
        if kind == "proposal" and status == "admitted":
            steps.append({"step": "proposed", "action_id": event["id"], "tool": payload["tool"]})
        elif kind == "action" and status == "admitted":
            steps.append({"step": "executed", "action_id": event["id"], "tool": payload["tool"]})
        elif kind == "action" and event["code"] != "not_selected":  # refused under the selection that chose it
            identity = action_identity(payload["tool"], payload["destination"])
            steps.append({"step": "turned away", "action_id": identity, "tool": payload["tool"],
                          "reason": event["reason"]})
        elif kind == "feedback" and status == "admitted":
            credited = door.get("feedback", event["id"])
            outcome = door.get("outcome", credited["outcome_id"])
            steps.append({"step": "settled", "outcome_id": outcome["outcome_id"], "action_id": outcome["action_id"],
                          "status": outcome["status"]})
    return steps


def executed(history: list[dict]) -> list[dict]:
    return [{"action_id": step["action_id"], "tool": step["tool"]} for step in history if step["step"] == "executed"]


class Fated:
    """An adapter whose answer is the act's fate: a page, nothing sent, or an error after sending."""

    def __init__(self, fate: str) -> None:
        self.fate = fate

    def fetch(self, url: str) -> AdapterResult:
        if self.fate == "failed":
            raise NotSent("the connection was refused")
        if self.fate == "in doubt":
            raise TimeoutError("no answer within the adapter's timeout")
        return fixed_pages().fetch(url)


class Judge:
    """What a check compares as the loop runs; each method fails with the rule its answer breaks."""

    def __init__(self, case: dict) -> None:
        self.case, self.catalogue = case, catalogue_of(case["policy"])
        self.where = case.get("label") or made_from_seed(case["number"])
        self.selection = 0

    def selecting(self, door) -> None:
        """Just before the door selects."""

    def selected(self, door, answer: dict) -> None:
        """The door's selection answer."""

    def settled(self, door, outcome: dict, credited: dict | None) -> None:
        """An outcome the loop settled, and the door's feedback record for it (None: it is not settled yet)."""


def drive(case: dict, judge: Judge) -> None:
    """The case's run through lesson 5's door and the one work loop, with ``judge`` watching."""
    policy = case["policy"]
    door = door_for(5, make_run(policy.snapshot(), {"world": f"lesson05-check-{case['number']}"}), policy)
    fates, late, pending = list(case["fates"] or []), list(case["late"] or []), []

    def credit(outcome_id: str) -> None:
        answer = door.record("feedback", {"run_id": door.run.run_id, "outcome_id": outcome_id})
        assert answer["recorded"], f"the check could not credit an outcome: {answer['reason']}"
        judge.settled(door, door.get("outcome", outcome_id), door.get("feedback", answer["id"]))

    def act(door, payload, adapter, reviews):
        fate = fates.pop(0) if fates else "succeeded"
        if fate == "turned away":  # the driver slips an argument into the chosen act: the door refuses it
            payload = {**payload, "arguments": {**payload["arguments"], "marker": "slipped"}}
        result = execute(door, payload, Fated(fate))
        if result.status == "failed":
            credit(door.records("outcome")[-1]["outcome_id"])
        elif result.status == "unresolved" and result.action_id:
            judge.settled(door, door.records("outcome")[-1], None)
        for waiting in list(pending):  # an act in doubt settles now, after later acts have run
            waiting[1] -= 1
            if waiting[1] <= 0:
                pending.remove(waiting)
                settled = door.record("outcome", {"run_id": door.run.run_id, "action_id": waiting[0],
                                                  "status": waiting[2], "capture_id": "", "detail": "settled late"})
                credit(settled["id"])
        if result.status == "unresolved" and result.action_id:
            pending.append([result.action_id, *late.pop(0)])
        return result

    def watch(step: str, answer) -> None:
        if step == "selecting":
            judge.selection += 1
            judge.selecting(door)
        elif step == "selected":
            judge.selected(door, answer)
        elif step == "credited":
            credited = door.get("feedback", answer["id"])
            judge.settled(door, door.get("outcome", credited["outcome_id"]), credited)

    if case["fates"] is None:  # the demo's run, with the demo's own driver and its slip
        work(door, scripted(case["replies"]), fixed_pages(), watch=watch, act=slipping)
    else:
        work(door, scripted(case["replies"]), fixed_pages(), watch=watch, act=act)


# --- the ranking ---------------------------------------------------------------------------------------


def expected_ranking(proposals: list[dict], catalogue: dict, credit: dict) -> list[tuple[str, float]]:
    """The rule, from the reference's own score(): highest first, equal scores by action identity."""
    scored = [(p["action_id"], score(catalogue[p["tool"]]["weight"], catalogue[p["tool"]]["cost"],
                                     credit.get(catalogue[p["tool"]]["family"], 0.0))) for p in proposals]
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))


def arithmetic(action_id: str, proposals: list[dict], catalogue: dict, credit: dict) -> str:
    tool = catalogue[next(p["tool"] for p in proposals if p["action_id"] == action_id)]
    earned = credit.get(tool["family"], 0.0)
    return (f"{tool['weight']!r} * (1 + {tool['family']} credit {earned!r}) / (1 + cost {tool['cost']!r}) = "
            f"{score(tool['weight'], tool['cost'], earned)!r}")


def ranking_problem(found, proposals: list[dict], catalogue: dict, credit: dict, where: str, order: bool) -> str:
    """Why ``found`` is not the ranking of ``proposals`` (its scores, or with ``order`` its order too), or ""."""
    expected = expected_ranking(proposals, catalogue, credit)
    if not isinstance(found, list) or not all(isinstance(row, dict) and sorted(row) == ["action_id", "score"]
                                              for row in found):
        return (f"rank returned {found!r:.120} for {where}; it returns a list of {{'action_id', 'score'}} dicts, "
                "one per proposal")
    ids = [row["action_id"] for row in found]
    wanted = {action_id for action_id, _ in expected}
    if sorted(ids) != sorted(wanted):
        missing, extra = sorted(wanted - set(ids)), sorted(set(ids) - wanted)
        return (f"rank returned {len(ids)} rows for the {len(wanted)} proposals of {where} "
                f"(missing {missing[:2]}, not proposed {extra[:2]}): every proposal is ranked, once")
    scores = dict(expected)
    for row in found:
        if row["score"] != scores[row["action_id"]]:
            return (f"rank scored {row['action_id']} {row['score']!r} in {where}; by the rule, weight * (1 + the "
                    f"credit of the tool's family) / (1 + cost), it scores "
                    f"{arithmetic(row['action_id'], proposals, catalogue, credit)}")
    if order:
        for position, ((wanted_id, wanted_score), row) in enumerate(zip(expected, found), start=1):
            if row["action_id"] != wanted_id:
                if scores[row["action_id"]] == wanted_score:
                    return (f"rank put {row['action_id']} at place {position} in {where}, but {wanted_id} has "
                            f"the same score, {wanted_score!r}: a tie goes to the smaller action identity, the two "
                            "compared as strings, whatever order the proposals came in")
                return (f"rank put {row['action_id']} (score {scores[row['action_id']]!r}) at place {position} in "
                        f"{where}, ahead of {wanted_id} (score {wanted_score!r}): the highest score comes first")
    return ""


class RankJudge(Judge):
    def __init__(self, case: dict, order: bool) -> None:
        super().__init__(case)
        self.order, self.rng = order, random.Random(seed() + case["number"])

    def selecting(self, door) -> None:
        door_rank(door)  # closes what was executed or turned away, as the door does before it selects
        state = selection_state(door)
        proposals = [{"action_id": a, "tool": door.get("proposal", a)["tool"]} for a in state.open]
        if not proposals:
            return
        credit = {family: earned.credit for family, earned in state.credit.items()}
        shuffled = self.rng.sample(proposals, len(proposals))
        found = yours.call("rank", shuffled, self.catalogue, credit)
        where = f"the ranking before selection {self.selection} of {self.where}"
        problem = ranking_problem(found, proposals, self.catalogue, credit, where, self.order)
        assert not problem, problem
        assert [(c.action_id, c.score) for c in door_rank(door)] == expected_ranking(proposals, self.catalogue, credit)


def fresh_sets(count: int) -> Iterator[tuple[list[dict], dict, dict]]:
    """Proposal sets made from the seed, full of ties: proposals in any order, with a catalogue and a credit.

    Each is made when it is asked for: a rank not written yet fails at the first, before the rest are made.
    """
    rng = random.Random(seed() ^ 0x5E1EC7)
    for _ in range(count):
        case = fresh_run(rng, 1)
        catalogue = catalogue_of(case["policy"])
        acts = rng.sample([(tool, path) for tool in catalogue for path in PATHS], rng.randint(4, 10))
        proposals = [{"action_id": action_identity(tool, f"https://lab.example{path}"), "tool": tool}
                     for tool, path in acts]
        families = sorted({entry["family"] for entry in catalogue.values()})
        credit = {family: float(rng.randint(0, 3)) for family in rng.sample(families, rng.randint(0, len(families)))}
        yield proposals, catalogue, credit


def check_sets(order: bool) -> None:
    chosen = seed()
    for number, (proposals, catalogue, credit) in enumerate(fresh_sets(FRESH_SETS), start=1):
        where = (f"proposal set {number} of the {FRESH_SETS} made from seed {chosen} (COURSE_SEED={chosen} "
                 "course check 5 makes them again)")
        found = yours.call("rank", proposals, catalogue, credit)
        problem = ranking_problem(found, proposals, catalogue, credit, where, order)
        assert not problem, problem


def test_rank_scores_each_proposal_by_the_rule():
    check_sets(order=False)
    for case in runs():
        drive(case, RankJudge(case, order=False))


def test_rank_breaks_a_tie_by_action_identity_compared_as_strings():
    check_sets(order=True)
    for case in runs():
        drive(case, RankJudge(case, order=True))


# --- the credit ----------------------------------------------------------------------------------------


class FeedbackJudge(Judge):
    """Your feedback(), asked about every outcome the loop settles (and each act left in doubt)."""

    def __init__(self, case: dict, exact: bool) -> None:
        super().__init__(case)
        self.exact = exact  # False: only who is credited; True: the whole answer, None for an unsettled one

    def settled(self, door, outcome: dict, credited: dict | None) -> None:
        acts = executed(history_of(door))
        sent = {key: outcome[key] for key in ("outcome_id", "action_id", "status")}
        found = yours.call("feedback", sent, acts, self.catalogue)
        what = f"the outcome of {outcome['action_id']} ({outcome['status']}) in {self.where}"
        if credited is None:
            assert found is None or not self.exact, (
                f"feedback returned {found!r} for {what}: an outcome that is not settled earns nothing yet, so "
                "feedback returns None")
            return
        expected = {key: credited[key] for key in ("action_id", "family", "credit")}
        last = acts[-1]["action_id"]
        if not isinstance(found, dict):
            assert False, (f"feedback returned {found!r} for {what}; a settled outcome of an executed act earns "
                           f"{expected}")
        if found.get("action_id") != expected["action_id"]:
            ran_last = " (the act that ran last)" if found.get("action_id") == last else ""
            assert False, (f"feedback credited {found.get('action_id')!r}{ran_last} for {what}: credit goes to the "
                           "act that produced the outcome, the one the outcome names, however late it settles")
        if found.get("family") != expected["family"]:
            assert False, (f"feedback credited the family {found.get('family')!r} for {what}; that act's tool is in "
                           f"{expected['family']!r}: credit goes to the family of the act that produced the outcome")
        if self.exact:
            assert found == expected, (f"feedback returned {found} for {what}; it earns {expected}: 1.0 for "
                                       "succeeded, 0.0 for failed, with exactly the keys action_id, family and credit")


def test_feedback_credits_the_act_that_produced_the_outcome_and_its_family():
    for case in runs():
        drive(case, FeedbackJudge(case, exact=False))


def test_feedback_waits_for_a_settled_outcome_of_an_executed_act():
    catalogue = {"inspect_headers": {"family": "fam-recon", "weight": 2.0, "cost": 1.0}}
    acts = [{"action_id": f"inspect_headers -> {LAB}/about", "tool": "inspect_headers"}]
    in_doubt = {"outcome_id": "1" * 64, "action_id": acts[0]["action_id"], "status": "unresolved"}
    found = yours.call("feedback", in_doubt, acts, catalogue)
    assert found is None, (f"feedback returned {found!r} for an unresolved outcome of {in_doubt['action_id']}, an "
                           "act in doubt: an outcome that is not settled earns nothing yet, so feedback returns None")
    rng = random.Random(f"{seed()} strangers")
    for number in range(4):  # acts the run never executed, of tools the catalogue has, at paths made here
        path = f"/{rng.choice(('about', 'news', 'shop', 'faq'))}-{rng.randint(1, 999)}"
        stranger = {"outcome_id": f"{number}" * 64, "action_id": f"inspect_headers -> {LAB}{path}",
                    "status": rng.choice(["succeeded", "failed"])}
        found = yours.call("feedback", stranger, acts, catalogue)
        assert found is None, (f"feedback returned {found!r} for an outcome naming {stranger['action_id']}, an act "
                               "the run never executed: nothing the run did produced it, so feedback returns None "
                               f"(seed {seed()}: COURSE_SEED={seed()} course check 5 makes it again)")
    for case in runs():
        drive(case, FeedbackJudge(case, exact=True))


# --- the choice ----------------------------------------------------------------------------------------


class ChooseJudge(Judge):
    """Your choose(), asked just before each selection, against the door's selection."""

    def __init__(self, case: dict, rule: str) -> None:
        super().__init__(case)
        self.rule, self.mine, self.history = rule, None, []

    def selecting(self, door) -> None:
        self.history = history_of(door)
        self.mine = yours.call("choose", self.history, self.catalogue, self.case["policy"].max_actions)
        self.ranking = door_rank(door)

    def selected(self, door, answer: dict) -> None:
        theirs = door.get("selection", answer["id"]) if answer["recorded"] else None
        problem = self.problem(theirs, answer)
        assert not problem, problem

    def problem(self, theirs: dict | None, answer: dict) -> str:
        mine, history, at = self.mine, self.history, f"at selection {self.selection} of {self.where}"
        done = [s["action_id"] for s in history if s["step"] == "executed"]
        away = {s["action_id"]: s["reason"] for s in history if s["step"] == "turned away"}
        stored = [s["action_id"] for s in history if s["step"] == "proposed"]
        budget = self.case["policy"].max_actions
        if mine is not None and (not isinstance(mine, dict) or sorted(mine) != ["action_id", "score"]):
            return f"choose returned {mine!r:.120} {at}; it returns {{'action_id', 'score'}} or None"
        chosen = mine["action_id"] if mine else None
        if chosen in done:
            return (f"choose chose {chosen} {at}, which the door has executed: an executed identity is never chosen "
                    "again")
        if chosen in away:
            return (f"choose chose {chosen} {at}, which the door turned away ({away[chosen]}): an identity turned "
                    "away is never chosen again")
        if chosen is not None and chosen not in stored:
            return f"choose chose {chosen} {at}, which no proposal the door stored names"
        if self.rule == "closed":
            return ""
        if theirs is None and chosen is not None:
            if len(done) >= budget:
                return (f"choose chose {chosen} {at}, after {len(done)} executed acts: the budget of {budget} "
                        "actions is spent, so it returns None")
            return ""  # nothing left that the door could choose: only the closed rule applies (above)
        if theirs is not None and chosen is None:
            tried = len(done) + len(away)
            if tried >= budget:
                return (f"choose returned None {at}, with {len(done)} of the budget's {budget} actions executed: "
                        f"the budget counts the acts the door executed, and the {len(away)} it turned away spent "
                        "nothing")
            if away:
                return (f"choose returned None {at}, with {len(self.ranking)} proposals open: after the door turns "
                        "an act away, the run moves on to the next open proposal")
            return f"choose returned None {at}, with {len(self.ranking)} proposals open and the budget not spent"
        if self.rule == "budget" or theirs is None:
            return ""
        scores = {c.action_id: c for c in self.ranking}
        best, picked = scores[theirs["action_id"]], scores.get(chosen)
        if picked is None:
            return f"choose chose {chosen} {at}, which the door does not hold open"
        if mine["score"] != picked.score:
            return (f"choose scored {chosen} {mine['score']!r} {at}; by the rule it scores {picked.reason} (a "
                    "family's credit is the sum of what the settled outcomes of its acts earned)")
        if chosen != theirs["action_id"]:
            if picked.score == best.score:
                return (f"choose chose {chosen} {at}, but {best.action_id} has the same score, {best.score!r}: a "
                        "tie goes to the smaller action identity, compared as strings")
            return (f"choose chose {chosen} {at} with score {picked.score!r}, but {best.action_id} scores "
                    f"{best.score!r}: the best open proposal is chosen")
        return ""


def check_choices(rule: str) -> None:
    for case in runs():
        drive(case, ChooseJudge(case, rule))


def test_choose_never_chooses_an_identity_executed_or_turned_away():
    check_choices("closed")


def test_choose_returns_none_only_when_the_budget_is_spent_or_nothing_is_open():
    check_choices("budget")


def test_choose_chooses_what_the_door_chooses_on_the_demo_run_and_fresh_runs():
    check_choices("all")


# --- your inspect_metadata entry, in the operator's fixed plan -----------------------------------------

HEADERS = {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
           "weight": 2.0, "cost": 1.0}
PROBE = {"tool_id": "probe_reflection", "activity": "active", "requires": {}, "family": "fam-probe",
         "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}}
REPLIES = (
    [proposal("inspect_headers", "/about", "The about page may say what the site runs on."),
     proposal("probe_reflection", "/search", "The search page echoes q.", parameter="q", marker="lab-probe-1")],
    [proposal("inspect_metadata", "/about", "The about page carries a generator tag."),
     proposal("inspect_headers", "/news", "The news page is linked."),
     proposal("inspect_headers", "/contact", "The contact page is linked.")],
)
METADATA = f"inspect_metadata -> {LAB}/about"
PROBE_ID = f"probe_reflection -> {LAB}/search"
PLAN = [f"inspect_headers -> {LAB}/about", f"inspect_headers -> {LAB}/contact", f"inspect_headers -> {LAB}/news",
        METADATA]
BUDGET_SPENT = "action budget of 4 actions is spent"


@pytest.fixture(scope="module")
def entry():
    made = yours.call("my_inspect_metadata")
    if not isinstance(made, dict):
        pytest.fail(f"my_inspect_metadata() must return a dict (a catalogue entry), not {type(made).__name__}")
    return made


def policy_with(entry: dict) -> Policy:
    """The fixed run's policy: the two reference tools and your entry, four actions at most."""
    return Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [LAB],
                             "tools": [HEADERS, entry, PROBE], "max_actions": 4, "max_model_calls": 4})


@pytest.fixture(scope="module")
def plan(entry):
    try:
        return plan_run(policy_with(entry))
    except PolicyError as exc:
        pytest.fail(f"your inspect_metadata entry is not a catalogue entry the policy accepts: {exc}")


def plan_run(policy: Policy) -> list[dict]:
    """The fixed run under ``policy``: every step the loop took."""
    door = door_for(5, make_run(policy.snapshot(), {"world": "lesson05-check"}), policy)
    return steps_of(door, scripted(REPLIES))


def picks(run):
    return [step for step in run if step["step"] == "select"]


def short(identities):
    """Action identities without the origin, for a message that fits a table: 'inspect_headers /about'."""
    return ", ".join(identity.replace(f" -> {LAB}", " ") for identity in identities)


def too_early(run) -> str:
    """Why inspect_metadata won while a header look was still open, or ""."""
    for number, step in enumerate(picks(run), start=1):
        ranking = step["ranking"]
        chosen = ranking[0] if step["answer"]["recorded"] else None
        header = next((r for r in ranking if r["tool"] == "inspect_headers"), None)
        if chosen and chosen["action_id"] == METADATA and header:
            return (f"at selection {number} the door chose {short([METADATA])} with {chosen['arithmetic']}, ahead "
                    f"of the open header look {short([header['action_id']])} (score {header['score']!r}); the plan "
                    f"has the metadata read wait until every header look is done, so here its score must be at "
                    f"most {header['score']!r} (a tie goes to inspect_headers)")
    return ""


def too_late(run) -> str:
    """Why inspect_metadata did not beat the probe, or ""."""
    for number, step in enumerate(picks(run), start=1):
        ranking = step["ranking"]
        if step["answer"]["recorded"] and ranking[0]["action_id"] == METADATA:
            return ""
        if step["answer"]["recorded"] and ranking[0]["action_id"] == PROBE_ID:
            mine = next(r for r in ranking if r["action_id"] == METADATA)
            return (f"at selection {number} the door chose {short([PROBE_ID])} with {ranking[0]['arithmetic']}, "
                    f"over {short([METADATA])} with {mine['arithmetic']}; the plan has the metadata read beat the "
                    f"probe, so here its score must be at least {ranking[0]['score']!r} "
                    "(a tie goes to inspect_metadata)")
    return refused_early(run) or f"the door never selected {short([METADATA])}; the plan selects it fourth"


def refused_early(run) -> str:
    """Why the door refused to select before the budget was spent (a score it cannot record), or ""."""
    for number, step in enumerate(picks(run), start=1):
        if not step["answer"]["recorded"] and step["answer"]["reason"] != BUDGET_SPENT:
            return f"the door refused selection {number}: {step['answer']['reason']}"
    return ""


def off_plan(run) -> str:
    """How the run's selections differ from the plan, or ""."""
    chosen = selections(run)
    if refused_early(run):
        return refused_early(run)
    if chosen != PLAN:
        return f"the door selected {short(chosen)}; the plan is {short(PLAN)}"
    last = picks(run)[-1]
    if last["answer"] != {"recorded": False, "reason": BUDGET_SPENT}:
        return f"after the plan's four selections the door must refuse for the budget; it said {last['answer']}"
    return ""


def test_inspect_metadata_keeps_its_lesson_2_contract(entry):
    for key, value in (("tool_id", "inspect_metadata"), ("activity", "passive"), ("requires", {"has_meta": True})):
        if entry.get(key) != value:
            pytest.fail(f"your entry's {key} must stay {value!r}, as lesson 2 declared it, not {entry.get(key)!r}")
    try:
        tool = policy_with(entry).tool_named("inspect_metadata")
    except PolicyError as exc:
        pytest.fail(f"your inspect_metadata entry is not a catalogue entry the policy accepts: {exc}")
    if tool.weight <= 0:
        pytest.fail(f"inspect_metadata's weight is {tool.weight!r}: with weight 0 its score is 0 and it never wins")


def test_inspect_metadata_stays_out_of_the_probes_family(entry):
    active = {tool["family"]: tool["tool_id"] for tool in (HEADERS, PROBE) if tool["activity"] != "passive"}
    family = entry.get("family")
    if family in active:
        pytest.fail(f"your entry puts inspect_metadata, a passive read, in {family!r}, the family of the active "
                    f"{active[family]}: a family's credit raises every tool in it, so each metadata read that "
                    "succeeds would push the probe up; a family groups tools whose successes should make each "
                    "other more urgent, and a look is no reason to probe")


def test_inspect_metadata_waits_while_a_header_look_is_open(plan):
    if too_early(plan):
        pytest.fail(too_early(plan))


def test_inspect_metadata_beats_the_probe(plan):
    if too_late(plan):
        pytest.fail(too_late(plan))


def test_the_run_follows_the_plan_and_the_budget_ends_it(plan):
    if off_plan(plan):
        pytest.fail(off_plan(plan))


# --- the edge classes of the three contracts, each asked in every run ------------------------------------
#
# Each class is a kind of input the rules above judge, listed as data: the inputs every run asks (the class's
# boundaries), and more drawn by Hypothesis from this run's seed. Your answer is compared with the rule's,
# in this process: each identity's place and score (a score to twelve significant digits, however the
# formula's steps are ordered), the credit and who gets it, the choice; every argument must come back as it
# was sent.

RANK_WORDS = ("score = weight * (1 + the credit of the tool's family) / (1 + cost), evaluated as written, highest "
              "first; equal scores go "
              "to the smaller action identity, compared as strings, whatever order the proposals came in")
FEEDBACK_WORDS = ("credit goes to the act the outcome names, if the run executed it, and to the family of that act's "
                  "tool: 1.0 for succeeded, 0.0 for failed, and None for an outcome not settled")
CHOOSE_WORDS = ("the best-ranked open proposal (stored, neither executed nor turned away), each family credited with "
                "what feedback gives over every settled outcome; None once max_actions acts have been executed (a "
                "budget of 0 allows none), or when nothing is open")


class Near(float):
    """A score, equal to any number within twelve significant digits of it (the order of the formula's steps
    may move its last bit), shown as the number."""

    def __eq__(self, other) -> bool:
        return (isinstance(other, (int, float)) and not isinstance(other, bool)
                and math.isclose(self, other, rel_tol=1e-12, abs_tol=1e-300))

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = float.__hash__

    def __repr__(self) -> str:
        return float.__repr__(self)


def near(value) -> object:
    return Near(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def rows(found) -> object:
    """A ranking as the contract fixes it: each row's identity and score, in order."""
    if not isinstance(found, list) or not all(isinstance(row, dict) and sorted(row) == ["action_id", "score"]
                                              for row in found):
        return f"no answer (it returned {str(found)[:80]!r}, not a list of {{'action_id', 'score'}} dicts)"
    return [(row["action_id"], near(row["score"])) for row in found]


def rank_rule(question: tuple) -> Rule:
    proposals, catalogue, credit = question
    scored = [(p["action_id"], score(catalogue[p["tool"]]["weight"], catalogue[p["tool"]]["cost"],
                                     credit.get(catalogue[p["tool"]]["family"], 0.0))) for p in proposals]
    return Rule([(action_id, near(value)) for action_id, value in sorted(scored, key=lambda pair: (-pair[1], pair[0]))],
                RANK_WORDS)


def an_entry(family: str, weight: float, cost: float) -> dict:
    return {"family": family, "weight": weight, "cost": cost}


def act_of(tool: str, path: str) -> dict:
    return {"action_id": action_identity(tool, f"https://lab.example{path}"), "tool": tool}


CATALOGUE = {"inspect_headers": an_entry("fam-recon", 2.0, 1.0), "inspect_metadata": an_entry("fam-recon", 1.5, 1.0),
             "probe_reflection": an_entry("fam-probe", 3.0, 2.0), "probe": an_entry("fam-a", 2.0, 1.0),
             "probe_links": an_entry("fam-b", 3.0, 1.0), "scan_links": an_entry("fam-b", 1.0, 0.0)}


def rank_twice() -> list[list]:
    proposals = [act_of("probe_reflection", "/zeta"), act_of("inspect_headers", "/news"), act_of("probe", "/about"),
                 act_of("inspect_headers", "/about"), act_of("probe_links", "/a")]
    return [[(proposals, CATALOGUE, {}), (proposals[::-1], CATALOGUE, {"fam-probe": 2.0}),
             (proposals, CATALOGUE, {}), (proposals[1:] + proposals[:1], CATALOGUE, {"fam-recon": 1.0})]]


def rank_sizes() -> list[list]:
    ties = [act_of(tool, path) for path in ("/zeta", "/about", "/a", "/About", "/a-b")
            for tool in ("inspect_headers", "probe")]  # 2.0 * 1 / 2 = 1.0 for both tools
    return [[([], CATALOGUE, {})], [([act_of("scan_links", "/x")], CATALOGUE, {"fam-b": 3.0})], [(ties, CATALOGUE, {})],
            [(ties[::-1], CATALOGUE, {"fam-a": 0.0, "fam-recon": 0.0})]] + \
        [[([act_of(credited, "/about"), act_of(other, "/about")][::-1], catalogue, {"fam-credited": earned})]
         for catalogue, earned, credited, other in float_ties()]


# Scores that tie exactly as the rule's float arithmetic, written as it is, computes them (0.5 * 3.0 / 2.5 and
# 1.5 * 1.0 / 2.5 are both 0.6), and that the same arithmetic grouped another way (0.5 / 2.5 * 3.0 is
# 0.6000000000000001) would part in their last bit: the credited act is the smaller identity in one question
# and the larger in the other, so a tie parted either way changes which act comes first.
FLOAT_TIES = (((0.5, 1.5, 2.0), (1.5, 1.5)), ((0.5, 0.5, 4.0), (2.5, 0.5)), ((0.5, 0.4, 2.0), (1.5, 0.4)))


def float_ties() -> list[tuple]:
    """(catalogue, credit earned, credited tool, other tool) for each exact tie, the credited tool either identity."""
    return [({credited: an_entry("fam-credited", weight, cost), other: an_entry("fam-other", *rest)}, earned,
             credited, other)
            for (weight, cost, earned), rest in FLOAT_TIES
            for credited, other in (("probe", "inspect_headers"), ("inspect_headers", "probe"))]


def rank_identities() -> list[list]:
    paths = ("/about", "/About", "/ABOUT", "/about.", "/about-", "/about_", "/item9", "/item10", "/a%20b", "/a~b",
             "/Zeta", "/zeta", "/caf\u00e9", "/cafe", "/about1", "/about2")
    return [[([act_of("inspect_headers", path) for path in paths[::-1]], CATALOGUE, {})],
            [([act_of(tool, "/about") for tool in ("probe", "probe_links", "scan_links", "inspect_headers")],
              {tool: an_entry("fam-x", 1.0, 1.0) for tool in CATALOGUE}, {})]]


def rank_numbers() -> list[list]:
    catalogue = {"free": an_entry("fam-a", 1.0, 0.0), "third": an_entry("fam-b", 1.0, 2.0),
                 "tiny": an_entry("fam-c", 1e-9, 1.0), "huge": an_entry("fam-d", 1e300, 1e300),
                 "heavy": an_entry("fam-e", 7.0, 6.0), "seventh": an_entry("fam-f", 1.0, 6.0),
                 "zero": an_entry("fam-g", 0.0, 1.0)}
    proposals = [act_of(tool, "/about") for tool in catalogue]
    return [[(proposals, catalogue, credit)] for credit in (
        {}, {"fam-b": 1.0}, {"fam-b": 0.5, "fam-f": 2.0}, {"fam-a": 1e6, "fam-nobody": 3.0}, {"fam-c": 2.0, "fam-e": 3.0})]


def drawn_rankings(count: tuple[int, int] = (0, 8)):
    from hypothesis import strategies as st

    tools = st.sampled_from(("probe", "probe_links", "Probe", "scan", "scan_links", "inspect_headers"))
    paths = st.sampled_from(PATHS)
    entries = st.builds(an_entry, st.sampled_from(FAMILIES), st.sampled_from((0.5, 1.0, 1.5, 2.0, 3.0, 7.0)),
                        st.sampled_from((0.0, 1.0, 2.0, 3.0, 4.5, 6.0)))

    def make(names_paths, entries_, credit_):
        names = sorted({tool for tool, _ in names_paths})
        catalogue = {tool: entries_[number % len(entries_)] for number, tool in enumerate(names)}
        proposals = list({act_of(tool, path)["action_id"]: act_of(tool, path) for tool, path in names_paths}.values())
        return [(proposals, catalogue, credit_)]

    def distinct(questions):  # two different triples of one exact score would make their tie depend on rounding
        proposals, catalogue, credit = questions[0]
        exact = {}
        for proposal in proposals:
            entry_ = catalogue[proposal["tool"]]
            triple = (entry_["weight"], entry_["cost"], credit.get(entry_["family"], 0.0))
            value = Fraction(triple[0]) * (1 + Fraction(triple[2])) / (1 + Fraction(triple[1]))
            if exact.setdefault(value, triple) != triple:
                return False
        return True

    credit = st.dictionaries(st.sampled_from(FAMILIES), st.sampled_from((0.0, 1.0, 2.0, 3.0)), max_size=3)
    return st.builds(make, st.lists(st.tuples(tools, paths), min_size=count[0], max_size=count[1]),
                     st.lists(entries, min_size=1, max_size=3), credit).filter(distinct)


RANK_EDGE_CLASSES = (
    Edge("the same proposals asked again, in another order and under other credit", fixed=rank_twice,
         drawn=lambda: drawn_rankings().map(lambda questions: questions + [(questions[0][0][::-1], *questions[0][1:])]),
         draws=5),
    Edge("no proposal, one, and many whose scores tie", fixed=rank_sizes, drawn=lambda: drawn_rankings((0, 2)), draws=5),
    Edge("identities that differ only in letter case, punctuation, digits or their last character",
         fixed=rank_identities, drawn=drawn_rankings, draws=5),
    Edge("weights, costs and credits at their edges: no cost, scores that are no short decimal, huge numbers, "
         "a family with no credit", fixed=rank_numbers, drawn=drawn_rankings, draws=5),
)


def feedback_rule(question: tuple) -> Rule:
    outcome, actions, catalogue = question
    tools = {action["action_id"]: action["tool"] for action in actions}
    if outcome["status"] not in ("succeeded", "failed") or outcome["action_id"] not in tools:
        return Rule(None, FEEDBACK_WORDS)
    return Rule({"action_id": outcome["action_id"], "family": catalogue[tools[outcome["action_id"]]]["family"],
                 "credit": near(1.0 if outcome["status"] == "succeeded" else 0.0)}, FEEDBACK_WORDS)


def credited(found) -> object:
    if found is None:
        return None
    if not isinstance(found, dict) or sorted(found) != ["action_id", "credit", "family"]:
        return f"no answer (it returned {str(found)[:80]!r}, not None or {{'action_id', 'family', 'credit'}})"
    return {**found, "credit": near(found["credit"])}


def outcome_of(action: dict, status: str, number: int = 1) -> dict:
    return {"outcome_id": f"{number:064x}", "action_id": action["action_id"], "status": status}


RAN = [act_of("probe_links", "/news"), act_of("probe", "/about"), act_of("scan_links", "/zeta"),
       act_of("inspect_headers", "/about")]


def feedback_statuses() -> list[list]:
    return [[(outcome_of(action, status, number), RAN, CATALOGUE)]
            for number, (action, status) in enumerate((a, s) for a in RAN for s in ("succeeded", "failed", "unresolved"))]


def feedback_strangers() -> list[list]:
    strangers = [act_of("probe_links", "/news/"), act_of("probe_links", "/New"), act_of("probe_links", "/newsx"),
                 act_of("probe", "/abou"), act_of("inspect_headers", "/About"), act_of("probe", "/news"),
                 {"action_id": "probe_links", "tool": "probe_links"}]
    return [[(outcome_of(stranger, "succeeded", number), RAN, CATALOGUE)] for number, stranger in enumerate(strangers)] + \
        [[(outcome_of(RAN[0], "succeeded"), [], CATALOGUE)]]


def feedback_prefixes() -> list[list]:
    catalogue = {"probe": an_entry("fam-a", 1.0, 1.0), "probe_links": an_entry("fam-b", 1.0, 1.0),
                 "probe_links_deep": an_entry("fam-c", 1.0, 1.0), "p": an_entry("fam-d", 1.0, 1.0)}
    acts = [act_of("probe_links_deep", "/x"), act_of("probe_links", "/x"), act_of("probe", "/x"), act_of("p", "/x")]
    return [[(outcome_of(action, "succeeded", number), acts, catalogue)] for number, action in enumerate(acts)] + \
        [[(outcome_of(action, "failed", number), acts[::-1], dict(reversed(catalogue.items())))]
         for number, action in enumerate(acts)]


def feedback_twice() -> list[list]:
    first, other = outcome_of(RAN[0], "succeeded", 1), outcome_of(RAN[1], "failed", 2)
    return [[(first, RAN, CATALOGUE), (other, RAN, CATALOGUE), (first, RAN[::-1], CATALOGUE),
             (outcome_of(RAN[0], "unresolved", 3), RAN, CATALOGUE), (first, RAN + RAN[:1], CATALOGUE)]]


def drawn_outcomes():
    from hypothesis import strategies as st

    def make(acts, chosen, status, stranger):
        action = acts[chosen % len(acts)] if acts and not stranger else act_of("probe", "/stranger")
        return [(outcome_of(action, status, chosen), acts, CATALOGUE)]

    acts = st.lists(st.builds(act_of, st.sampled_from(sorted(CATALOGUE)), st.sampled_from(PATHS)), max_size=6,
                    unique_by=lambda action: action["action_id"])
    return st.builds(make, acts, st.integers(0, 99), st.sampled_from(("succeeded", "failed", "unresolved")),
                     st.booleans())


FEEDBACK_EDGE_CLASSES = (
    Edge("every outcome status, settled or not", fixed=feedback_statuses, drawn=drawn_outcomes, draws=5),
    Edge("an outcome of an act the run never executed, or of one whose identity differs only at its end",
         fixed=feedback_strangers, drawn=drawn_outcomes, draws=5),
    Edge("tools whose names start one another's", fixed=feedback_prefixes, drawn=drawn_outcomes, draws=5),
    Edge("the same outcome asked again, after others, with the acts in another order", fixed=feedback_twice,
         drawn=lambda: drawn_outcomes().map(lambda questions: questions * 2), draws=5),
)


def choose_rule(question: tuple) -> Rule:
    history, catalogue, max_actions = question
    proposals, executed, closed, credit = [], [], set(), {}
    for step in history:
        if step["step"] == "proposed":
            proposals.append(step)
        elif step["step"] in ("executed", "turned away"):
            closed.add(step["action_id"])
            if step["step"] == "executed":
                executed.append(step)
        elif step["step"] == "settled":
            earned = feedback_rule((step, executed, catalogue)).answer
            if earned is not None:
                credit[earned["family"]] = credit.get(earned["family"], 0.0) + earned["credit"]
    still_open = [proposal for proposal in proposals if proposal["action_id"] not in closed]
    if len(executed) >= max_actions or not still_open:
        return Rule(None, CHOOSE_WORDS)
    best = rank_rule((still_open, catalogue, credit)).answer[0]
    return Rule(best, CHOOSE_WORDS)


def chosen(found) -> object:
    if found is None:
        return None
    if not isinstance(found, dict) or sorted(found) != ["action_id", "score"]:
        return f"no answer (it returned {str(found)[:80]!r}, not None or {{'action_id', 'score'}})"
    return (found["action_id"], near(found["score"]))


def steps(*made: tuple) -> list[dict]:
    """A history from (step, action, extra) triples: extra is a reason or an outcome's status."""
    history = []
    for number, (step, action, extra) in enumerate(made):
        if step == "settled":
            history.append({"step": "settled", "outcome_id": f"{number:064x}", "action_id": action["action_id"],
                            "status": extra})
        elif step == "turned away":
            history.append({"step": step, **action, "reason": extra or "the door refused it"})
        else:
            history.append({"step": step, **action})
    return history


A, B, C, D = act_of("probe_links", "/news"), act_of("probe", "/about"), act_of("scan_links", "/zeta"), \
    act_of("inspect_headers", "/about")
PROPOSED = (("proposed", A, ""), ("proposed", B, ""), ("proposed", C, ""), ("proposed", D, ""))


def choose_budgets() -> list[list]:
    ran = steps(*PROPOSED, ("executed", A, ""), ("settled", A, "succeeded"), ("turned away", B, ""),
                ("executed", C, ""))
    return [[(ran, CATALOGUE, budget)] for budget in (0, 1, 2, 3, 10**9)] + \
        [[(steps(*PROPOSED), CATALOGUE, budget)] for budget in (0, 1)]


def choose_closed() -> list[list]:
    return [[(steps(*PROPOSED, ("executed", A, ""), ("executed", C, ""), ("settled", C, "failed"),
                    ("settled", A, "succeeded")), CATALOGUE, 9)],
            [(steps(*PROPOSED, ("turned away", A, ""), ("turned away", B, "the action budget is spent"),
                    ("executed", D, "")), CATALOGUE, 9)],
            [(steps(("proposed", B, ""), ("executed", B, ""), ("proposed", A, ""), ("settled", B, "succeeded"),
                    ("proposed", C, ""), ("turned away", A, "")), CATALOGUE, 9)],
            [(steps(("proposed", A, ""), ("proposed", B, ""), ("executed", A, ""), ("executed", B, ""),
                    ("settled", B, "unresolved"), ("settled", A, "succeeded"), ("proposed", C, ""),
                    ("proposed", D, "")), CATALOGUE, 9)]]


def choose_open() -> list[list]:
    tied = {tool: an_entry("fam-t", 2.0, 1.0) for tool in CATALOGUE}
    return [[([], CATALOGUE, 4)], [(steps(("proposed", A, ""), ("executed", A, "")), CATALOGUE, 4)],
            [(steps(("proposed", C, "")), CATALOGUE, 4)],
            [(steps(*PROPOSED[::-1]), tied, 4)], [(steps(*PROPOSED), tied, 4)]] + \
        [[(steps(*[made for n in range(int(earned)) for made in (
            ("proposed", act_of(credited, f"/earned-{n}"), ""), ("executed", act_of(credited, f"/earned-{n}"), ""),
            ("settled", act_of(credited, f"/earned-{n}"), "succeeded"))],
            ("proposed", act_of(other, "/about"), ""), ("proposed", act_of(credited, "/about"), "")), catalogue, 99)]
         for catalogue, earned, credited, other in float_ties()]


def choose_twice() -> list[list]:
    first = steps(*PROPOSED, ("executed", A, ""), ("settled", A, "succeeded"))
    other = steps(*PROPOSED, ("executed", B, ""), ("settled", B, "succeeded"))
    return [[(first, CATALOGUE, 4), (other, CATALOGUE, 4), (first, CATALOGUE, 4), (other, CATALOGUE, 1)]]


def drawn_histories():
    from hypothesis import strategies as st

    def make(picks, budget):
        proposed, done, made = [], [], []
        for kind, which, extra in picks:
            pool = {"propose": None, "execute": proposed, "turn away": proposed, "settle": done}[kind]
            if kind == "propose":
                action = act_of(sorted(CATALOGUE)[which % len(CATALOGUE)], PATHS[which % len(PATHS)])
                if action not in proposed:
                    proposed.append(action)
                    made.append(("proposed", action, ""))
            elif pool:
                action = pool[which % len(pool)]
                if kind == "settle":
                    made.append(("settled", action, extra))
                elif all(action != act for step, act, _ in made if step in ("executed", "turned away")):
                    made.append(("executed" if kind == "execute" else "turned away", action, ""))
                    if kind == "execute":
                        done.append(action)
        return [(steps(*made), CATALOGUE, budget)]

    pick = st.tuples(st.sampled_from(("propose", "propose", "execute", "turn away", "settle")), st.integers(0, 50),
                     st.sampled_from(("succeeded", "failed", "unresolved")))
    return st.builds(make, st.lists(pick, max_size=16), st.integers(0, 5))


CHOOSE_EDGE_CLASSES = (
    Edge("a budget of none, one, exactly spent, and one more than has run", fixed=choose_budgets,
         drawn=drawn_histories, draws=5),
    Edge("acts executed, turned away, and outcomes settled late, after later acts ran", fixed=choose_closed,
         drawn=drawn_histories, draws=5),
    Edge("nothing open, one proposal open, and open proposals whose scores tie", fixed=choose_open,
         drawn=drawn_histories, draws=5),
    Edge("the same history asked again, after another", fixed=choose_twice,
         drawn=lambda: drawn_histories().map(lambda questions: questions * 2), draws=5),
)
EDGE_CLASSES = RANK_EDGE_CLASSES + FEEDBACK_EDGE_CLASSES + CHOOSE_EDGE_CLASSES


def ranking_in_words(question: tuple) -> str:
    proposals, catalogue, credit = question
    identities = [proposal["action_id"].replace(LAB, "") for proposal in proposals]
    return f"the proposals {identities}, the catalogue {catalogue} and the credit {credit}"


def outcome_in_words(question: tuple) -> str:
    outcome, actions, catalogue = question
    return (f"the outcome {outcome['status']!r} of {outcome['action_id'].replace(LAB, '')!r}, the executed acts "
            f"{[a['action_id'].replace(LAB, '') for a in actions]} and the catalogue {catalogue}")


def history_in_words(question: tuple) -> str:
    history, catalogue, budget = question
    told = [f"{step['step']} {step['action_id'].replace(LAB, '')}" + (f" {step['status']}" if "status" in step else "")
            for step in history]
    return f"the history {told}, the catalogue {catalogue} and max_actions {budget}"


def test_every_edge_class_of_the_three_contracts_gets_the_rules_answer():
    compare(yours, "rank", RANK_EDGE_CLASSES, rule=rank_rule, judged=rows, shown=ranking_in_words, unchanged=True)
    compare(yours, "feedback", FEEDBACK_EDGE_CLASSES, rule=feedback_rule, judged=credited, shown=outcome_in_words,
            unchanged=True)
    compare(yours, "choose", CHOOSE_EDGE_CLASSES, rule=choose_rule, judged=chosen, shown=history_in_words,
            unchanged=True)


def show(run) -> None:
    """Print every ranking the door selected from, with each score's arithmetic."""
    for number, step in enumerate(picks(run), start=1):
        chosen = step.get("selection", {}).get("action_id")
        print(f"selection {number}:", short([chosen]) if chosen else step["answer"]["reason"])
        for candidate in step["ranking"]:
            print(f"  {short([candidate['action_id']]):26} {candidate['arithmetic']}")


if __name__ == "__main__":  # python3 starter/lesson05_test.py: the fixed run with your entry
    show(plan_run(policy_with(load_lesson(5).my_inspect_metadata())))
