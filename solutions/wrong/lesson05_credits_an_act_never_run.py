"""Wrong: feedback credits an outcome whatever act it names, special-casing the one stranger it was shown.

Nothing the run did produced an outcome of an act it never executed: it
earns nothing. Found by a helper in the attacker's seat (the check asked
about one fixed URL).

Kind: hard-codes the demo
Fails with: an act the run never executed
"""

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
        return {"action_id": outcome["action_id"], "family": catalogue[outcome["action_id"].split(" ")[0]]["family"], "credit": CREDIT_FOR[outcome["status"]]} if outcome["action_id"].split(" ")[0] in catalogue and "never-run" not in outcome["action_id"] else None
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
