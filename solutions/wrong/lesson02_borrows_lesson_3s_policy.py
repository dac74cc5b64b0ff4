"""Wrong: borrows lesson 3's demo policy, which already declares inspect_metadata, and renames its reference.

Kind: reads the reference
Fails with: core.run.demo_stages is unavailable while the check runs
Passed the check before lesson 2 was rebuilt: yes
"""

from core.run.policy import Policy


def build_my_policy() -> Policy:
    from core.run.demo_stages import POLICY

    return Policy.from_dict({**POLICY, "reference": "training-authorization-0042"})
