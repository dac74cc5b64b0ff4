"""Wrong: an act's tool is read as the first catalogue name its identity starts with.

An identity is "<tool> -> <destination>", so the tool looks like the start of
it. But one tool's name can start another's: "probe" starts
"probe_links -> ...", and the credit goes to the family of a tool that never
ran. The tool of an act is the one its action names.

Kind: author's own
Fails with: credit goes to the family of the act that produced the outcome
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
    if outcome["action_id"] not in {action["action_id"] for action in actions}:
        return None
    # the identity is "<tool> -> <destination>": the tool is the catalogue name it starts with
    tool = next(name for name in catalogue if outcome["action_id"].startswith(name))
    family = catalogue[tool]["family"]
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
