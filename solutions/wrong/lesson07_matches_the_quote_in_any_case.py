"""Wrong: accepts an expected text that matches the quote whatever its letter case.

'NAME="GENERATOR"' is not in the quote; it is another text that happens to
spell the same words. Lower-casing both sides turns the door's tie into a
fuzzy one, and a check written against the wrong text passes for one
written against the finding's.

Kind: author's own
Fails with: letter for letter
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict, with the tie to the quote read case-insensitively."""
    if expect.lower() not in quote.lower():
        return {"refused": "expect is not part of the quote"}
    if confirming is None or confirming["status"] >= 500:
        return {"verdict": "inconclusive", "reason": "the claim was not tested"}
    if expect not in confirming["body"]:
        return {"verdict": "refuted", "reason": "the confirming capture lacks it"}
    if control is None or control["status"] >= 500 or expect in control["body"]:
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

