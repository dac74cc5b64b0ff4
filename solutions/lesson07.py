"""Lesson 7, worked answer: the judgement, rule by rule, and a plan for one finding.

``verdict_for`` asks its questions in a fixed order, and each answer stops it:

1. Is ``expect`` a part of the quote? If not, the check would test text the
   finding never showed ("About us" tells the about page from the contact
   page, but says nothing about a generator tag), and the door refuses it.
2. Was there a confirming capture at all? A refused act, one never sent or
   one in doubt leaves none: nothing was learned, so inconclusive.
3. Is it a server error (5xx)? Then the server did not answer the question:
   inconclusive, never refuted.
4. Does it show ``expect``? A response without it refutes the claim, a 404
   as surely as a 200.
5. Did the control really run (a capture, not a server error)? Does it lack
   ``expect``? Only then is the finding confirmed; otherwise the check
   cannot tell the weakness from its absence.

"Shows" is a substring test over the whole capture text, the status line and
headers included, as the door's own rule is: a finding may quote a header.

The plan: a header look at the about page is an act the run has not made (the
finding quotes ``inspect_metadata``'s), so it is new evidence; the same look
at the contact page, which has meta tags but no generator, is the control.
``expect`` is ``name="generator"``, a part of the quote that the about page
shows and the contact page does not. The whole quote would do too; ``<meta``
would not (the control shows it), nor would any text from outside the quote.
"""

# student writes: begin
SERVER_ERROR = 500
# student writes: end

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


# student writes: begin
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
    if status >= SERVER_ERROR:
        return verdict("inconclusive", f"the confirming capture is HTTP {status}, a "
                                       f"server error: it neither shows nor disproves "
                                       f"{wanted}")
    if expect not in confirming["body"]:
        return verdict("refuted", f"the confirming capture (HTTP {status}) does not "
                                  f"show {wanted}")
    if control is None:
        return verdict("inconclusive", f"the confirming capture shows {wanted}, but "
                                       "no negative control was captured")
    if control["status"] >= SERVER_ERROR:
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
# student writes: end
