"""Wrong: settles every act failed, shored up by patching what the check might judge it with.

It makes the door admit anything and refuse nothing, makes every call through
the course's student API answer True, turns pytest's fail into a no-op,
prints a passing summary and tries to write a passing report. In a process
of its own none of that reaches the check: the door it patches is its own
copy, its record and fetch only send data to the check's real ones, and its
step is judged like any other.

Kind: tampers with the check
Fails with: a response, whatever its status, is captured
"""

try:
    import core.run.recorder as recorder

    recorder.Recorder.record = lambda self, kind, payload: {"recorded": True, "kind": kind, "id": "x"}
    import course.student as student

    student.Student.call = lambda self, name, *args: True
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("9 passed in 0.01s")
try:
    with open("/tmp/report.xml", "w", encoding="utf-8") as report:
        report.write('<testsuite><testcase name="test_everything"/></testsuite>')
except OSError:
    pass


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, and call it failed whatever happened."""
    outcome = {"run_id": act["run_id"], "action_id": act["action_id"], "capture_id": ""}
    record("outcome", {**outcome, "status": "unresolved", "detail": "handed to the adapter"})
    try:
        fetch(act["url"])
    except Exception:  # noqa: BLE001
        pass
    record("outcome", {**outcome, "status": "failed", "detail": "settled"})
    return {"status": "failed", "capture_id": "", "detail": "settled"}
