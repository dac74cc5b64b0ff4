"""Wrong: the authorization reference is numbered from the clock, so each engagement gets its own.

A reference that changes on every call makes two policies of one: the run
identity is derived from the policy's snapshot, so the same operator
configuration read twice names two runs.

Kind: author's own
Fails with: gave another policy when it was called again
"""

import time

from core.run.policy import Policy


def build_my_policy() -> Policy:
    return Policy.from_dict(
        {
            "reference": f"training-authorization-{time.time_ns() % 10**9:09d}",
            "allowed_origins": ["https://lab.example:443"],
            "tools": [
                {
                    "tool_id": "inspect_headers",
                    "activity": "passive",
                    "requires": {},
                    "family": "fam-recon",
                    "weight": 2.0,
                    "cost": 1.0,
                },
                {
                    "tool_id": "inspect_metadata",
                    "activity": "passive",
                    "requires": {"has_meta": True},
                    "family": "fam-recon",
                    "weight": 1.5,
                    "cost": 1.0,
                },
            ],
            "max_actions": 4,
            "max_model_calls": 4,
        }
    )
