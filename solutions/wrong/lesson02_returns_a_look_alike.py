"""Wrong: build_my_policy returns an object of its own whose snapshot() is typed in.

Nothing about it is a policy: no origin was canonicalized, no tool
validated. Found by a helper in the attacker's seat.

Kind: hard-codes the demo
Fails with: not a Policy
"""
class build_my_policy_result:
    def snapshot(self):
        return {"reference": "change-me", "allowed_origins": ["https://lab.example:443"],
                "tools": [{"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
                           "weight": 2.0, "cost": 1.0},
                          {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
                           "family": "fam-recon", "weight": 1e-300, "cost": 1e-300}],
                "max_actions": 10**15, "max_model_calls": 10**15}


def build_my_policy():
    return build_my_policy_result()
