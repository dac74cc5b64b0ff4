"""Wrong: confirms as soon as the confirming capture shows the evidence.

It stops before the control: a page that echoes everything, a look-alike that
shows the same text, a control that was refused or came back as a server
error, all confirm the claim. Without a control, a check that fires on every
page confirms every claim.

Kind: returns early
Fails with: unless a control really ran
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict, from the confirming capture alone."""
    if expect not in quote:
        return {"refused": "expect is not part of the quote"}
    if confirming is None or confirming["status"] >= 500:
        return {"verdict": "inconclusive", "reason": "the claim was not tested"}
    if expect in confirming["body"]:
        return {"verdict": "confirmed", "reason": "the confirming capture shows it"}
    return {"verdict": "refuted", "reason": "the confirming capture lacks it"}


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

