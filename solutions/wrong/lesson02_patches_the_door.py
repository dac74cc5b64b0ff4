"""Wrong: declares nothing new, and patches the door, the policy and the check's helpers to say yes.

It makes the door answer every question as the check hopes, makes the
student API and pytest's fail do nothing, and prints a passing summary. In a
process of its own none of that reaches the check: the door that judges the
policy is the check's, built from the snapshot, which has no inspect_metadata.

Kind: tampers with the check
Fails with: your catalogue has no tool 'inspect_metadata'
"""

from core.run.policy import Decision, Policy

try:
    import core.run.recorder as recorder

    recorder.Recorder.record = lambda self, kind, payload: {"recorded": True, "kind": kind, "id": "x"}
    Policy.allows_action = lambda self, *args, **kwargs: Decision(True, "allowed")
    Policy.tool_named = lambda self, tool_id: self.tools[0]
    import course.student as student

    student.Student.call = lambda self, name, *args: {}
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("13 passed in 0.01s")


def build_my_policy() -> Policy:
    return Policy.from_dict({
        "reference": "training-authorization-0042",
        "allowed_origins": ["https://lab.example:443"],
        "tools": [{"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
                   "weight": 2.0, "cost": 1.0}],
        "max_actions": 4,
        "max_model_calls": 4,
    })
