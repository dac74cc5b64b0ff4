"""Wrong: reads a server error as an answer, so a 503 refutes the claim.

It is the rule the door used before lesson 7 was rebuilt: a confirming
capture without the evidence refutes, whatever kind of response it is. But a
503 says the server did not answer the question at all; the claim was never
tested, so nothing is disproved. The same goes for a control that is a server
error: it never really ran.

Kind: skips the edge
Fails with: a claim nobody tested is not disproved
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict, with every response taken at its word."""
    if expect not in quote:
        return {"refused": "expect is not part of the quote"}
    if confirming is None:
        return {"verdict": "inconclusive", "reason": "no confirming capture"}
    if expect not in confirming["body"]:
        return {"verdict": "refuted", "reason": f"HTTP {confirming['status']} does not show it"}
    if control is None or expect in control["body"]:
        return {"verdict": "inconclusive", "reason": "no telling control"}
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

