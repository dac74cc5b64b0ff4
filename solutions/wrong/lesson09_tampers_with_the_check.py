"""Wrong: says every report is intact, and tries to make the check agree.

It patches the course's student API so every call answers None, turns
pytest's fail into a no-op, replaces the reference's verify_chain with one
that always says intact, prints a passing summary, and tries to write a
passing report where course check could read one. In a process of its own
none of that reaches the check: what it patches are its own copies, and its
answers are judged like any other.

Kind: tampers with the check
Fails with: is the first altered one
"""

try:
    import course.student as student

    student.Student.call = lambda self, name, *args: None
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
    import core.run.seal as seal

    seal.verify_chain = lambda report: type("Intact", (), {"ok": True, "seq": None})()
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("10 passed in 0.01s")
try:
    with open("/tmp/report.xml", "w", encoding="utf-8") as report:
        report.write('<testsuite><testcase name="test_everything"/></testsuite>')
except OSError:
    pass


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    return None


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    return True
