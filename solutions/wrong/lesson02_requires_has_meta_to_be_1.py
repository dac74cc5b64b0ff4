"""Wrong: gates inspect_metadata on has_meta being 1, as if 1 and True were the same value.

In Python ``1 == True``; in the JSON a policy is written in, 1 and true are
different values, and the door compares them that way: an observer that
records has_meta as true never unlocks a tool that waits for 1.

Kind: author's own
Fails with: where 1 is not true
"""

from core.run.policy import Policy


def build_my_policy() -> Policy:
    return Policy.from_dict({
        "reference": "training-authorization-0042",
        "allowed_origins": ["https://lab.example:443"],
        "tools": [
            {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
             "weight": 2.0, "cost": 1.0},
            {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": 1},
             "family": "fam-recon", "weight": 1.5, "cost": 1.0},
        ],
        "max_actions": 4,
        "max_model_calls": 4,
    })
