"""Wrong: types in the reference run's whole catalogue, the probe included, as "the tools the course uses".

The reference run's configuration (data/policy/) declares three tools. A
student who copies all of them, with the activity words of lesson 2's demo,
keeps inspect_headers and inspect_metadata exactly right, and also hands the
model an active probe that takes input, which this exercise never asked for.

Kind: hard-codes the demo
Fails with: the catalogue is the whole list of what may run
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
             "family": "fam-recon", "weight": 3.0, "cost": 1.0},
            {"tool_id": "probe_reflection", "activity": "active", "requires": {}, "family": "fam-probe",
             "weight": 3.0, "cost": 2.0, "arguments": {"marker": "string", "parameter": "string"}},
        ],
        "max_actions": 12,
        "max_model_calls": 10,
    })
