"""Lesson 5, worked answer: the choice, and inspect_metadata scored to the plan.

The ranking sorts by the key ``(-score, action_id)``: highest score first, and
among equal scores the smaller identity, compared as a string. Identities are
unique, so that is a total order, and arrival order can never decide anything.

Credit is read off the outcome: the outcome names the act that produced it,
and the catalogue names that act's family. Whatever ran last, and however
late an outcome settles, the point goes where it was earned.

The choice rebuilds the door's state from the history alone: what was stored,
what was executed or turned away (both closed for good), what each family
earned, how many acts the budget has spent (executed ones only).

In the same family as ``inspect_headers`` (fam-recon) the metadata read shares
its credit, so the two scores keep the ratio (weight / (1 + cost)) / (2.0 / 2.0).
To lose to every open header look the ratio must be at most 1 (a tie goes to
``inspect_headers``, the smaller identity); to beat the probe at selection 4,
when fam-recon has earned 3.0 and fam-probe nothing, weight * 4 / (1 + cost)
must be at least 1.0. Weight 1.5 and cost 1.0 fit both, with room on each side.
"""

# student writes: begin
# What a settled outcome earns; an unresolved one earns nothing yet.
CREDIT_FOR = {"succeeded": 1.0, "failed": 0.0}


def rank(proposals: list[dict], catalogue: dict, credit: dict) -> list[dict]:
    """Every proposal with its score, highest first; equal scores by action identity."""
    ranked = []
    for proposal in proposals:
        entry = catalogue[proposal["tool"]]
        earned = credit.get(entry["family"], 0.0)
        score = entry["weight"] * (1 + earned) / (1 + entry["cost"])
        ranked.append({"action_id": proposal["action_id"], "score": score})
    return sorted(ranked, key=lambda row: (-row["score"], row["action_id"]))


def feedback(outcome: dict, actions: list[dict], catalogue: dict) -> dict | None:
    """What ``outcome`` earns, for the act that produced it and its family; or None."""
    if outcome["status"] not in CREDIT_FOR:
        return None
    tools = {action["action_id"]: action["tool"] for action in actions}
    if outcome["action_id"] not in tools:
        return None
    family = catalogue[tools[outcome["action_id"]]]["family"]
    return {"action_id": outcome["action_id"], "family": family,
            "credit": CREDIT_FOR[outcome["status"]]}


def choose(history: list[dict], catalogue: dict, max_actions: int) -> dict | None:
    """The best open proposal after ``history``; None: budget spent or nothing open."""
    proposals, executed, closed, credit = [], [], set(), {}
    for step in history:
        if step["step"] == "proposed":
            proposals.append(step)
        elif step["step"] == "executed":
            executed.append(step)
            closed.add(step["action_id"])
        elif step["step"] == "turned away":
            closed.add(step["action_id"])
        elif step["step"] == "settled":
            earned = feedback(step, executed, catalogue)
            if earned is not None:
                family = earned["family"]
                credit[family] = credit.get(family, 0.0) + earned["credit"]
    if len(executed) >= max_actions:
        return None
    still_open = [p for p in proposals if p["action_id"] not in closed]
    ranking = rank(still_open, catalogue, credit)
    return ranking[0] if ranking else None


def my_inspect_metadata() -> dict:
    """Your catalogue entry for inspect_metadata, as in a policy's ``tools`` list."""
    return {
        "tool_id": "inspect_metadata",
        "activity": "passive",
        "requires": {"has_meta": True},
        "family": "fam-recon",
        "weight": 1.5,
        "cost": 1.0,
    }
# student writes: end
