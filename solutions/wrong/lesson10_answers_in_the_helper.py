"""Wrong: my_predicate still says upheld, and the helper judged() answers on its own from the raw snapshot.

The check reaches the predicate through the helper, so a rewritten helper
judges nothing the pack would run. Found by a helper in the attacker's seat.

Kind: tampers with the check
Fails with: is not the helper the starter wrote for you
"""

import json
from pathlib import Path

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK
from core.safety.ratify import ratify

MY_BOUNDARY_ID = "no_unproposed_selection"
MY_BOUNDARY_TEXT = "No selection chooses an act that no proposal held by the run names."


def my_predicate(context: SafetyContext) -> Judgement:
    """Says upheld, always (the starter's lie)."""
    return upheld("looks fine", ())


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    path = Path(pack_dir) / f"{DEFAULT_SAFETY_PACK}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["boundaries"][MY_BOUNDARY_ID] = MY_BOUNDARY_TEXT
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return ratify(Path(pack_dir), DEFAULT_SAFETY_PACK)


# --- written for you: how the check reaches your boundary (leave them as they are) ---


def named() -> dict:
    """Your boundary's id and sentence, as the check reads them."""
    return {"id": MY_BOUNDARY_ID, "text": MY_BOUNDARY_TEXT}


def judged(snapshot: dict) -> dict:
    """``my_predicate`` on the SafetyContext of ``snapshot``, as plain data."""
    sel, props = snapshot.get("selections"), snapshot.get("proposals")
    if isinstance(sel, list) and isinstance(props, list) and all(isinstance(p, dict) and isinstance(p.get("action_id"), str) for p in props):
        held = {p["action_id"] for p in props}
        bad = [s.get("selection_id") for s in sel if isinstance(s, dict) and "action_id" in s and s["action_id"] not in held]
        if bad:
            return {"upheld": False, "reason": "crossed", "evidence": bad}
        return {"upheld": True, "reason": "fine", "evidence": [s.get("selection_id") if isinstance(s, dict) else s for s in sel]}
        judgement = my_predicate(SafetyContext.from_snapshot(snapshot))
    else:
        return {"upheld": None, "reason": "missing", "evidence": []}
    if not isinstance(judgement, Judgement):
        return {"returned": type(judgement).__name__}
    return {"upheld": judgement.upheld, "reason": judgement.reason,
            "evidence": list(judgement.evidence)}
