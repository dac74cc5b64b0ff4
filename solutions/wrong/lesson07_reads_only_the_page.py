"""Wrong: looks for the evidence in the page only, never in the headers.

It splits each capture at its blank line and searches what follows, which
feels right for markup. But a finding may quote a header (a Server or
X-Powered-By version), and the door's rule reads the whole capture: a
version disclosed in a header is then "missing" and the claim refuted.

Kind: author's own
Fails with: confirms the claim
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def page_of(capture: dict) -> str:
    return capture["body"].partition("\n\n")[2]


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict, read from the pages alone."""
    if expect not in quote:
        return {"refused": "expect is not part of the quote"}
    if confirming is None or confirming["status"] >= 500:
        return {"verdict": "inconclusive", "reason": "the claim was not tested"}
    if expect not in page_of(confirming):
        return {"verdict": "refuted", "reason": "the confirming page lacks it"}
    if control is None or control["status"] >= 500 or expect in page_of(control):
        return {"verdict": "inconclusive", "reason": "the control cannot tell"}
    return {"verdict": "confirmed", "reason": "shown, and the control's page does not show it"}


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

