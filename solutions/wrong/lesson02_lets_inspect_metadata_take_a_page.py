"""Wrong: gives inspect_metadata an argument naming the page to read, so a passive tool takes input.

It looks harmless: the tool "needs to know which page". But a tool that
declares an argument also accepts a query in its destination, and that is
exactly the input an active probe sends.

Kind: skips the edge
Fails with: a passive tool takes no input
Passed the check before lesson 2 was rebuilt: yes
"""

from core.run.policy import Policy


def build_my_policy() -> Policy:
    return Policy.from_dict({
        "reference": "training-authorization-0042",
        "allowed_origins": ["https://lab.example:443"],
        "tools": [
            {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
             "weight": 2.0, "cost": 1.0},
            {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
             "family": "fam-recon", "weight": 1.5, "cost": 1.0, "arguments": {"page": "string"}},
        ],
        "max_actions": 4,
        "max_model_calls": 4,
    })
