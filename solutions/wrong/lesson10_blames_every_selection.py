"""Wrong: when any selection crosses the boundary, it gives every selection as evidence.

The verdict is right: violated exactly when some selection chose an act no
held proposal names. But the evidence blames every selection of the run, the
ones that chose a held proposal too, so an auditor cannot tell which crossed.

Kind: author's own
Fails with: which choose a held proposal
"""

import json
from pathlib import Path

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK
from core.safety.ratify import ratify

MY_BOUNDARY_ID = "no_unproposed_selection"
MY_BOUNDARY_TEXT = "No selection chooses an act that no proposal held by the run names."


def my_predicate(context: SafetyContext) -> Judgement:
    """Your boundary, judged from a run's snapshot: upheld, violated, or not judged."""
    gap = context.gaps("selections", "proposals")
    if gap:
        return not_judged(f"cannot judge: {gap}")
    held = {action_id for (action_id,) in context.proposals}
    every = tuple(s for s, _ in context.selections)
    if any(action_id not in held for _, action_id in context.selections):
        return violated("a selection chose an act no held proposal names", every)
    return upheld("every selection chose a held proposal", every)


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    path = Path(pack_dir) / f"{DEFAULT_SAFETY_PACK}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["boundaries"][MY_BOUNDARY_ID] = MY_BOUNDARY_TEXT
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return ratify(Path(pack_dir), DEFAULT_SAFETY_PACK)


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
