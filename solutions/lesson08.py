"""Lesson 8, worked answer: the gate's decision, from the table, caps and reviews.

The class comes first, and it fails closed: a name no row knows, or no name
at all, is consequential and nobody may approve it. A class that is not
consequential runs freely within its cap and is counted nowhere. Everything
else needs a review of that exact act, identity and arguments together, by
the one role its class names; an approval of the same identity with other
arguments releases nothing, and makes this act an amendment, counted as
CHANGE.
"""

from core.run.canon import digest

UNCLASSIFIED = "unclassified"
CHANGE = "CHANGE"
# student writes: begin
UNCLASSIFIED_ROW = {"name": UNCLASSIFIED, "trigger_class": UNCLASSIFIED,
                    "consequential": True, "fail_open_allowed": False,
                    "approver_role": None, "legacy_aliases": []}
# student writes: end


def act_subject(action_id: str, arguments: dict) -> str:
    """What a review of one exact act names: its identity and its arguments' digest."""
    return f"{action_id} with arguments {digest(arguments)}"


# student writes: begin
def row_of(table: dict, declared) -> dict:
    """The row governing ``declared``: by name, then by old name; else UNCLASSIFIED."""
    for row in table["classes"]:
        if declared == row["name"]:
            return row
    for row in table["classes"]:
        if declared is not None and declared in row["legacy_aliases"]:
            return row
    return UNCLASSIFIED_ROW


def decide(table: dict, caps: dict, act: dict, used: dict, reviews: list) -> dict:
    """The gate's verdict for ``act`` (allow, hold or deny), its class and trigger."""
    row = row_of(table, act["declared"])
    name, role = row["name"], row["approver_role"]
    subject = act_subject(act["action_id"], act["arguments"])

    def verdict(word: str, trigger, why: str) -> dict:
        return {"verdict": word, "action_class": name, "trigger_class": trigger,
                "reason": why}

    if not row["consequential"]:
        count, cap = used.get(name, 0), caps.get(name, 0)  # no cap: a cap of 0
        if count < cap:
            return verdict("allow", None, f"{name}: {count} of its cap of {cap} used")
        trigger, why = None, f"{name} has used its cap of {cap}"
    else:
        amends = any(r["action_id"] == act["action_id"] and r["subject_id"] != subject
                     and r["decision"] == "approved" and r["reviewer"] == role
                     for r in reviews)
        trigger = CHANGE if amends else row["trigger_class"]
        why = f"{name} is consequential" + (", amending an approval" if amends else "")
    if role is None:
        return verdict("deny", trigger, f"{why}; no approver role may release it")
    mine = [r for r in reviews if r["subject_id"] == subject and r["reviewer"] == role]
    if mine and mine[-1]["decision"] == "rejected":
        return verdict("deny", trigger, f"{why}; {role} rejected this exact act")
    if mine and mine[-1]["decision"] == "approved":
        return verdict("allow", trigger, f"{why}; {role} approved this exact act")
    return verdict("hold", trigger, f"{why}; it waits for {role}'s review of this act")
# student writes: end
