"""Wrong: lets everything through, and patches what the check might judge it with.

It makes every Student call answer None, makes the stage guard and the move
check admit everything, turns pytest's fail into a no-op, prints a passing
summary and tries to leave a passing report where course check could read
one. In a process of its own, none of that reaches the check: the modules it
patches are its own copies (or unavailable), and its two functions are
judged like any other.

Kind: tampers with the check
Fails with: only in the stages its table lists for it
Passed the check before lesson 3 was rebuilt: yes (it read only the recon-only table, kept here)
"""

# A recon-only engagement's table: no verify stage, findings go straight to review,
# and nothing waits in execute for a person's approval (lesson 3's page).
STAGES = ("authorize", "observe", "propose", "select", "execute", "review", "report")

TRANSITIONS = (
    ("authorize", "observe"),
    ("observe", "propose"),
    ("propose", "select"),
    ("select", "execute"),
    ("execute", "observe"),
    ("select", "review"),
    ("review", "report"),
)

ADMITTED_IN = {
    "observation": ("authorize", "observe"),
    "action": ("execute",),
    "capture": ("execute",),
    "outcome": ("execute",),
    "finding": ("review",),
    "review": ("review",),
}


try:
    import course.student as student

    student.Student.call = lambda self, name, *args: None
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
    import core.run.stages as stages

    stages.in_its_stage = lambda door, request: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("8 passed in 0.01s")
try:
    with open("/tmp/report.xml", "w", encoding="utf-8") as report:
        report.write('<testsuite><testcase name="test_everything"/></testsuite>')
except OSError:
    pass


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None: every record is let through."""
    return None


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None: every move is let through."""
    return None
