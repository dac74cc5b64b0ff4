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
    plan = json.loads(REPORT.read_text(encoding="utf-8"))["findings"][0]  # the reference run's own plan
    return {key: plan.get(key) for key in ("claim", "evidence", "confirm", "control", "expect")}

