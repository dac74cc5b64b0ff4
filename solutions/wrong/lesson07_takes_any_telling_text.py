"""Wrong: takes any text that tells the two pages apart as the evidence, "About us" included.

Its plan looks for "About us", which the about page shows and the contact
page does not, so before lesson 7 was rebuilt the door confirmed the
generator finding with it. But "About us" is not in the finding's quote: the
check tested a heading, not the generator tag. Its verdict_for never asks
whether the expected text comes from the quote either.

Kind: accepts everything
Fails with: tests something the finding never showed
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = "About us"


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict for whatever text the plan chose."""
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

