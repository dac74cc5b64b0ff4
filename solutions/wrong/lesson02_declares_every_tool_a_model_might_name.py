"""Wrong: declares every tool name a model might write, so that no proposal is ever turned away as unknown.

Kind: accepts everything
Fails with: a tool the operator did not declare is refused
Passed the check before lesson 2 was rebuilt: yes
"""

from core.run.policy import Policy

ALSO = ("shell", "probe_reflection", "run_command", "INSPECT_HEADERS", "Inspect_Metadata",
        "inspect_metadata_v2", "inspect-headers")


def build_my_policy() -> Policy:
    tools = [
        {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 1.5, "cost": 1.0},
    ]
    tools += [{"tool_id": name, "activity": "passive", "requires": {}, "family": "fam-other",
               "weight": 1.0, "cost": 1.0} for name in ALSO]
    return Policy.from_dict({"reference": "training-authorization-0042",
                             "allowed_origins": ["https://lab.example:443"], "tools": tools,
                             "max_actions": 4, "max_model_calls": 4})
