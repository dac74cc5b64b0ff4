"""Wrong: edits a copy of the demo's policy, then returns the demo's policy instead of the edit.

Kind: returns early
Fails with: give it your own authorization reference
"""

from core.run.demo_records import build_policy
from core.run.policy import Policy


def build_my_policy() -> Policy:
    policy = build_policy()
    edited = policy.snapshot()
    edited["reference"] = "training-authorization-0042"
    edited["tools"].append({"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
                            "family": "fam-recon", "weight": 1.5, "cost": 1.0})
    Policy.from_dict(edited)  # it builds, so it must be right
    return policy
