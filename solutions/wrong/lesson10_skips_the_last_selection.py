"""Wrong: looks for a crossing with an off-by-one, and never looks at the last selection.

``range(len(selections) - 1)`` stops one short: a run whose only crossing is
its last selection is upheld, with every selection as its evidence.

Kind: skips the edge
Fails with: a selection crosses the boundary when no held proposal names the act it chose
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
    looked = [context.selections[index] for index in range(len(context.selections) - 1)]
    crossing = tuple(s for s, action_id in looked if action_id not in held)
    if crossing:
        return violated(f"{len(crossing)} selection(s) chose an act no held proposal names", crossing)
    return upheld("every selection chose a held proposal", tuple(s for s, _ in context.selections))


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
