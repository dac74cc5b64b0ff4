"""Wrong: every verdict is right, and every reason is a word that says nothing.

A reader of the report cannot see what was tested. Found by a helper in the
attacker's seat.

Kind: returns early
Fails with: does not name the expected text
"""

SERVER_ERROR = 500

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


def verdict_for(quote, expect, confirming, control):
    if expect not in quote:
        return {"refused": "no"}
    if confirming is None or confirming["status"] >= 500:
        return verdict("inconclusive", "x")
    if expect not in confirming["body"]:
        return verdict("refuted", "x")
    if control is None or control["status"] >= 500 or expect in control["body"]:
        return verdict("inconclusive", "x")
    return verdict("confirmed", "x")


def verdict(name, reason):
    return {"verdict": name, "reason": reason}


def my_generator_check() -> dict:
    """Your verification plan for the generator-disclosure finding."""
    return {
        "claim": "The about page names the CMS the site runs and its version, "
                 "ExampleCMS 3.2.1, in a generator meta tag, so anyone can look up "
                 "the known weaknesses of that version.",
        "evidence": {"action": FINDING_ACT, "quote": QUOTE},
        "confirm": {
            "tool": "inspect_headers",
            "destination": "https://lab.example/about",
            "arguments": {},
        },
        "control": {
            "tool": "inspect_headers",
            "destination": "https://lab.example/contact",
            "arguments": {},
        },
        "expect": 'name="generator"',
    }
