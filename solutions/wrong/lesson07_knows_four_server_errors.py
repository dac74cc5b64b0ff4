"""Wrong: a server error is one of 500, 502, 503 and 504, the ones a student has met.

Every status from 500 to 599 is a server error: a 501 confirming page that
lacks the evidence is then called refuted, and a 507 control lets the
finding be confirmed, though the server answered neither question.

Kind: skips the edge
Fails with: a confirming capture of any status from 100 to 599
"""

SERVER_ERRORS = (500, 502, 503, 504)  # the server errors one meets

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


def verdict_for(quote: str, expect: str, confirming: dict | None,
                control: dict | None) -> dict:
    """The verdict two captures support for ``expect``; refused if it is not quoted."""
    wanted = repr(expect)
    if expect not in quote:
        return {"refused": f"expect {wanted} is not part of the finding's quote, so "
                           "it tests something the finding never showed"}
    if confirming is None:
        return verdict("inconclusive", "no confirming capture was made, so the claim "
                                       "was never tested")
    status = confirming["status"]
    if status in SERVER_ERRORS:
        return verdict("inconclusive", f"the confirming capture is HTTP {status}, a "
                                       f"server error: it neither shows nor disproves "
                                       f"{wanted}")
    if expect not in confirming["body"]:
        return verdict("refuted", f"the confirming capture (HTTP {status}) does not "
                                  f"show {wanted}")
    if control is None:
        return verdict("inconclusive", f"the confirming capture shows {wanted}, but "
                                       "no negative control was captured")
    if control["status"] in SERVER_ERRORS:
        return verdict("inconclusive", f"the negative control is HTTP "
                                       f"{control['status']}, a server error: it did "
                                       "not really run")
    if expect in control["body"]:
        return verdict("inconclusive", f"the negative control shows {wanted} too, so "
                                       "the check cannot tell the weakness from its "
                                       "absence")
    return verdict("confirmed", f"the confirming capture (HTTP {status}) shows "
                                f"{wanted} and the negative control (HTTP "
                                f"{control['status']}) does not")


def verdict(name: str, reason: str) -> dict:
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
