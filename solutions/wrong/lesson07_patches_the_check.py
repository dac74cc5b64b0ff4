"""Wrong: counts a server error's silence as the control lacking the evidence, and patches the check.

It makes the door admit anything, replaces the reference judge with one that
always confirms, makes every call through the course's student API answer
True, turns pytest's fail into a no-op and prints a passing summary. In a
process of its own, none of that reaches the check; its own rule is judged
like any other, and a control that came back as a 503 "lacks" the evidence.

Kind: tampers with the check
Fails with: unless a control really ran
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
print("11 passed in 0.01s")

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict, with a control's server error read as a clean control."""
    if expect not in quote:
        return {"refused": "expect is not part of the quote"}
    if confirming is None or confirming["status"] >= 500:
        return {"verdict": "inconclusive", "reason": "the claim was not tested"}
    if expect not in confirming["body"]:
        return {"verdict": "refuted", "reason": "the confirming capture lacks it"}
    if control is None or expect in control["body"]:
        return {"verdict": "inconclusive", "reason": "the control cannot tell"}
    return {"verdict": "confirmed", "reason": "shown, and the control does not show it"}


def my_generator_check() -> dict:
    """Your verification plan for the generator-disclosure finding."""
    return {
        "claim": "The about page names the CMS the site runs and its version, "
                 "ExampleCMS 3.2.1, in a generator meta tag, so anyone can look up "
                 "the known weaknesses of that version.",
        "evidence": {"action": FINDING_ACT, "quote": QUOTE},
        "confirm": {"tool": "inspect_headers", "destination": "https://lab.example/about", "arguments": {}},
        "control": {"tool": "inspect_headers", "destination": "https://lab.example/contact", "arguments": {}},
        "expect": EXPECT,
    }

