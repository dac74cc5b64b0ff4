"""Wrong: the reference is the course's own with an invisible character added.

It reads as training-authorization-0001 to every person who sees it. Found
by a helper in the attacker's seat.

Kind: author's own
Fails with: holds characters a reader cannot see
"""
from core.run.policy import Policy
import importlib.util, os
def build_my_policy():
    return Policy.from_dict({"reference": "training-authorization-0001\u200b", "allowed_origins": ["HTTPS://LAB.EXAMPLE."],
        "tools": [{"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon", "weight": 2.0, "cost": 1.0},
                  {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True}, "family": "fam-recon", "weight": 1.5, "cost": 1.0}],
        "max_actions": 4, "max_model_calls": 4})
