"""Wrong: scores the course's tools with the numbers the page prints, whatever catalogue it is given.

The demo's catalogue is on the page (data/policy/), so a hurried student types
it in: the demo's run comes out right, and any run whose operator chose other
numbers for the same tools is scored by the wrong ones.

Kind: hard-codes the demo
Fails with: made from seed
Passed the check before lesson 5 was rebuilt: yes
"""

DEMO_CATALOGUE = {
    "inspect_headers": {"family": "fam-recon", "weight": 2.0, "cost": 1.0},
    "inspect_metadata": {"family": "fam-recon", "weight": 3.0, "cost": 1.0},
    "probe_reflection": {"family": "fam-probe", "weight": 3.0, "cost": 2.0},
}
CREDIT_FOR = {"succeeded": 1.0, "failed": 0.0}  # an unresolved outcome earns nothing yet


def rank(proposals: list[dict], catalogue: dict, credit: dict) -> list[dict]:
    """Every proposal with its score, highest first; equal scores by action identity."""
    ranked = []
    for proposal in proposals:
        entry = DEMO_CATALOGUE.get(proposal["tool"]) or catalogue[proposal["tool"]]
        earned = credit.get(entry["family"], 0.0)
        score = entry["weight"] * (1 + earned) / (1 + entry["cost"])
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
    return {
        "tool_id": "inspect_metadata",
        "activity": "passive",
        "requires": {"has_meta": True},
        "family": "fam-recon",
        "weight": 1.5,
        "cost": 1.0,
    }
