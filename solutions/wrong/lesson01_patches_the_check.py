"""Wrong: copies the report's sections, and patches what the check might judge it with.

It makes every Student call answer None, makes the harness's verify say
intact, turns pytest's fail into a no-op, prints a passing summary and tries
to leave a passing report where course check could read one. In a process of
its own, with the harness unavailable, none of that reaches the check: its
two functions are judged like any other.

Kind: tampers with the check
Fails with: never copied from the report
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


try:
    import course.student as student

    student.Student.call = lambda self, name, *args: None
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
    import core.run.doors as doors

    rederive.verify = lambda report: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("10 passed in 0.01s")
try:
    with open("/tmp/report.xml", "w", encoding="utf-8") as report:
        report.write('<testsuite><testcase name="test_everything"/></testsuite>')
except OSError:
    pass


def derive_sections(report: dict) -> dict:
    """The report's own sections."""
    findings = [{field: f.get(field) for field in FINDING_FIELDS} for f in report.get("findings", [])]
    return {"closed": report.get("closed"), "counts": report.get("counts"), "findings": findings,
            "stage": report.get("stage")}


def first_disagreeing_section(report: dict) -> str | None:
    """The first of SECTIONS whose value in the report is not what its ledger derives."""
    derived = derive_sections(report)
    written = dict(report)
    written["findings"] = [{field: finding.get(field) for field in FINDING_FIELDS}
                           for finding in report.get("findings", [])]
    for section in SECTIONS:
        if written.get(section) != derived[section]:
            return section
    return None
