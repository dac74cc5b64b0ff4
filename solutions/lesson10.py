"""Lesson 10, worked answer: every selection chooses an act a held proposal names.

The predicate looks before it speaks. If the snapshot lacks the selections or
the proposals, it cannot say anything about the boundary, so it says exactly
that (``not_judged``), naming what was missing: an absent list is neither a
pass nor a violation. Otherwise it compares each selection's chosen act with
the acts the run's stored proposals name, and answers with the selection ids
as evidence: the ones that cross the boundary, or every one it checked.

Adding the boundary edits a copy of the pack like any developer would, which
breaks its ratification at once (the pack's digest changed); ratifying the
copy seals a new companion report over all seven boundaries and writes its
digest into the pack, so the loader accepts it again without the override.
"""

import json
from pathlib import Path

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK
from core.safety.ratify import ratify

# student writes: begin
MY_BOUNDARY_ID = "no_unproposed_selection"
MY_BOUNDARY_TEXT = "No selection chooses an act that no proposal held by the run names."


def my_predicate(context: SafetyContext) -> Judgement:
    """Your boundary, judged from a run's snapshot: upheld, violated, or not judged."""
    gap = context.gaps("selections", "proposals")
    if gap:
        return not_judged(f"cannot judge: {gap}")
    held = {action_id for (action_id,) in context.proposals}
    unproposed = tuple(selection_id for selection_id, action_id in context.selections
                       if action_id not in held)
    if unproposed:
        reason = f"{len(unproposed)} selection(s) chose an act no held proposal names"
        return violated(reason, unproposed)
    checked = tuple(selection_id for selection_id, _ in context.selections)
    return upheld(f"{len(checked)} selection(s) checked, each choosing a held proposal",
                  checked)


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    path = Path(pack_dir) / f"{DEFAULT_SAFETY_PACK}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["boundaries"][MY_BOUNDARY_ID] = MY_BOUNDARY_TEXT
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return ratify(Path(pack_dir), DEFAULT_SAFETY_PACK)
# student writes: end


# --- written for you: how the check reaches your boundary (leave them as they are) ---


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
