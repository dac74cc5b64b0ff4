"""Wrong: answers the reference run's two checks from memory.

The reflection marker is confirmed and the staging path refuted, because
that is what the reference report says; anything else is called
inconclusive. The captures are never read, so any case the check makes
itself gets the same shrug.

Kind: hard-codes the demo
Fails with: the evidence comes from the finding's own quote
Passed the check before lesson 7 was rebuilt: yes
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'
KNOWN = {"lab-probe-<i>7</i>": "confirmed", "/staging/": "refuted", 'name="generator"': "confirmed"}


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict the reference report gave this expected text."""
    return {"verdict": KNOWN.get(expect, "inconclusive"), "reason": "as the reference report says"}


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

