"""Wrong: allows every act, and tries to make the check agree.

It patches the course's student API to answer the verdict the check expects,
replaces the reference gate's decide with one that always allows, turns
pytest's fail into a no-op and prints a passing summary. In a process of its
own none of that reaches the check: what it patches are its own copies (and
the reference gate is out of its reach), and its answers are judged like any
other.

Kind: tampers with the check
Fails with: waits (hold) for an approved review
"""

try:
    import course.student as student

    student.Student.call = lambda self, name, *args: {"verdict": "allow"}
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
try:
    import core.run.gate as gate

    gate.decide = lambda *args, **kwargs: None
except Exception:  # noqa: BLE001
    pass
print("7 passed in 0.01s")


def decide(table: dict, caps: dict, act: dict, used: dict, reviews: list) -> dict:
    """The gate's verdict for ``act``: allow, hold or deny, with its class, trigger and reason."""
    names = {row["name"]: row for row in table["classes"]}
    row = names.get(act["declared"])
    return {"verdict": "allow", "action_class": row["name"] if row else "unclassified",
            "trigger_class": row["trigger_class"] if row else "unclassified", "reason": "allowed"}
