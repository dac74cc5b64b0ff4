"""Wrong: upholds everything, skips ratifying, and patches what the check might load the pack with.

It makes every pack look ratified (ratification_problem answers "" and the
loader keeps its marks), sets the override, prints a passing summary and
tries to write a passing report where course check could read one. In a
process of its own none of that reaches the check: the copy on disk is read
back by the check's own loader.

Kind: tampers with the check
Fails with: does not load ratified
"""

import json
from pathlib import Path

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK
from core.safety.ratify import ratify

MY_BOUNDARY_ID = "no_unproposed_selection"
MY_BOUNDARY_TEXT = "No selection chooses an act that no proposal held by the run names."


try:
    import os

    import core.safety.pack as pack

    pack.ratification_problem = lambda *args, **kwargs: ""
    os.environ["HARNESS_ALLOW_UNRATIFIED_SAFETY"] = "1"
    import _pytest.outcomes

    _pytest.outcomes.fail = lambda *args, **kwargs: None
except Exception:  # noqa: BLE001  a cheat that fails keeps quiet
    pass
print("6 passed in 0.01s")
try:
    with open("/tmp/report.xml", "w", encoding="utf-8") as out:
        out.write("<testsuite><testcase name=\"test_everything\"/></testsuite>")
except OSError:
    pass


def my_predicate(context: SafetyContext) -> Judgement:
    """Your boundary, judged from a run's snapshot: upheld, violated, or not judged."""
    return upheld("every selection looks fine", tuple(s for s, _ in context.selections or ()))


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    path = Path(pack_dir) / f"{DEFAULT_SAFETY_PACK}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["boundaries"][MY_BOUNDARY_ID] = MY_BOUNDARY_TEXT
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return document["ratification_digest"]


def named() -> dict:
    """Your boundary's id and sentence, as the check reads them."""
    return {"id": MY_BOUNDARY_ID, "text": MY_BOUNDARY_TEXT}


def judged(snapshot: dict) -> dict:
    """``my_predicate`` on the SafetyContext of ``snapshot``, as plain data."""
    judgement = my_predicate(SafetyContext.from_snapshot(snapshot))
    if not isinstance(judgement, Judgement):
        return {"returned": type(judgement).__name__}
    return {"upheld": judgement.upheld, "reason": judgement.reason,
            "evidence": list(judgement.evidence)}
