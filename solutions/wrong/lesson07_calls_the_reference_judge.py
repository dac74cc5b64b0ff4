"""Wrong: hands the captures to the reference verifier's judge.

It rebuilds Capture records and asks core.run.verify for the verdict. While
the check runs, the reference verifier is not there to ask.

Kind: reads the reference
Fails with: core.run.verify is unavailable while the check runs
Passed the check before lesson 7 was rebuilt: yes
"""

import importlib

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The reference verifier's verdict."""
    verify = importlib.import_module("core.run.verify")
    records = importlib.import_module("core.run.records")

    def held(data):
        return None if data is None else records.Capture("r" * 64, "a -> https://lab.example:443/", data["status"],
                                                         data["body"])

    problem = verify.expect_problem(quote, expect)
    if problem:
        return {"refused": problem}
    verdict, reason = verify.judge(expect, held(confirming), held(control))
    return {"verdict": verdict, "reason": reason}


def my_generator_check() -> dict:
    """Your verification plan for the generator-disclosure finding."""
    claim = ("The about page names the CMS the site runs and its version, ExampleCMS 3.2.1, in a generator meta "
             "tag, so anyone can look up the known weaknesses of that version.")
    asks = {step: {"tool": "inspect_headers", "destination": f"https://lab.example/{page}", "arguments": {}}
            for step, page in (("confirm", "about"), ("control", "contact"))}
    return {"claim": claim, "evidence": {"action": FINDING_ACT, "quote": QUOTE}, **asks, "expect": EXPECT}

