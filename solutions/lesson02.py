"""Lesson 2, worked answer: an operator policy with a second, gated tool.

``inspect_metadata`` is declared with ``requires: {"has_meta": True}``: the policy
itself says the tool only makes sense once an observation has shown that the page
carries a generator meta tag. The door asks the policy on every action, so the
requirement is enforced where state changes, not left to the model's judgment.
"""

from core.run.policy import Policy


# student writes: begin
def build_my_policy() -> Policy:
    return Policy.from_dict(
        {
            "reference": "training-authorization-0042",
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
# student writes: end
