"""Lesson 7, worked answer: a header look confirms, the contact page controls.

The confirming action must be an act the run has not made: the finding quotes
``inspect_metadata -> .../about``, and asking for that act again is the same
action identity, which the door refuses as already recorded. The other
passive tool, ``inspect_headers``, fetches the same page afresh, so its
capture is new evidence made after the finding.

The control uses the same tool on /contact: a page of the same site, built
the same way, with meta tags of its own but no generator. Same tool, same
site, one difference: the thing the claim is about.

``expect`` is ``name="generator"``. The about page shows it and the contact
page does not, so the control can tell the two apart. A broader text such as
``<meta`` shows on both pages, and the door would judge the check
inconclusive; the full quote would work too, but would also refute the claim
the day the site upgraded its CMS, when the disclosure is still there.
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


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
