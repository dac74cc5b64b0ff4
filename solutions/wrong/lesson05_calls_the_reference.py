"""Wrong: hands the arithmetic to the reference's own score() instead of writing it.

Kind: reads the reference
Fails with: core.run.select is unavailable while the check runs
Passed the check before lesson 5 was rebuilt: yes
"""

CREDIT_FOR = {"succeeded": 1.0, "failed": 0.0}  # an unresolved outcome earns nothing yet


def rank(proposals: list[dict], catalogue: dict, credit: dict) -> list[dict]:
    """Every proposal with its score, highest first; equal scores by action identity."""
    ranked = []
    for proposal in proposals:
        entry = catalogue[proposal["tool"]]
        earned = credit.get(entry["family"], 0.0)
        from core.run.select import score as reference_score

        score = reference_score(entry["weight"], entry["cost"], earned)
        ranked.append({"action_id": proposal["action_id"], "score": score})
    return sorted(ranked, key=lambda row: (-row["score"], row["action_id"]))


def feedback(outcome: dict, actions: list[dict], catalogue: dict) -> dict | None:
    """The credit ``outcome`` earns, for the act that produced it and that act's family; or None."""
    if outcome["status"] not in CREDIT_FOR:
        return None
    tools = {action["action_id"]: action["tool"] for action in actions}
    if outcome["action_id"] not in tools:
        return None
    family = catalogue[tools[outcome["action_id"]]]["family"]
    return {"action_id": outcome["action_id"], "family": family, "credit": CREDIT_FOR[outcome["status"]]}


def choose(history: list[dict], catalogue: dict, max_actions: int) -> dict | None:
    """The best open proposal after ``history``, or None when the budget is spent or nothing is open."""
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
                credit[earned["family"]] = credit.get(earned["family"], 0.0) + earned["credit"]
    if len(executed) >= max_actions:
        return None
    ranking = rank([p for p in proposals if p["action_id"] not in closed], catalogue, credit)
    return ranking[0] if ranking else None


def my_inspect_metadata() -> dict:
    """Your catalogue entry for inspect_metadata, as in a policy's ``tools`` list."""
    return dict(tool_id="inspect_metadata", activity="passive", requires={"has_meta": True}, family="fam-recon",
                weight=1.5, cost=1.0)
