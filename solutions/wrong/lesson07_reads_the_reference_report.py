"""Wrong: looks the verdict up in the committed reference report.

It finds a finding in data/course/report.json whose quote matches and returns
the verdict recorded there. The check's cases are made fresh, and the
course's artifacts are not an input of the judgement.

Kind: reads the reference
Fails with: data is unavailable while the check runs
Passed the check before lesson 7 was rebuilt: yes
"""

import json
from pathlib import Path

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'
EXPECT = 'name="generator"'
REPORT = Path(__file__).resolve().parents[2] / "data" / "course" / "report.json"


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict the reference report recorded for a finding with this quote."""
    report = json.loads(REPORT.read_text(encoding="utf-8"))
    for finding in report["findings"]:
        if finding["quote"] == quote:
            return {"verdict": finding["verdict"], "reason": finding["verdict_reason"]}
    return {"verdict": "inconclusive", "reason": "not in the reference report"}


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

