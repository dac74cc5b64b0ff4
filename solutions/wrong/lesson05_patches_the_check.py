"""Wrong: writes nothing, and patches the reference, the door and the check's helpers to agree with it.

It makes the reference's rank and the student API answer as it does, makes
pytest's fail a no-op and prints a passing summary. In a process of its own
none of that reaches the check, which compares its answers with a door in
another process: the reference is not even importable here.

Kind: tampers with the check
Fails with: rank returned None
"""

try:
    import course.student as student

    student.Student.call = lambda self, name, *args: None
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
    import core.run.select as select

    select.rank = lambda door: []
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("12 passed in 0.01s")


def rank(proposals, catalogue, credit):
    return None


def feedback(outcome, actions, catalogue):
    return None


def choose(history, catalogue, max_actions):
    return None


def my_inspect_metadata() -> dict:
    return {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
            "family": "fam-recon", "weight": 1.5, "cost": 1.0}
