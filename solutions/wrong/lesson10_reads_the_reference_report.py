"""Wrong: judges by the committed reference report instead of the snapshot it is given.

It reads the proposals from data/course/report.json, so the reference run is
upheld whatever a copy of it says. The check keeps its own data out of reach.

Kind: reads the reference
Fails with: data/course is unavailable while the check runs
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
    report = Path(__file__).resolve().parents[2] / "data" / "course" / "report.json"
    held = {p["action_id"] for p in json.loads(report.read_text(encoding="utf-8"))["proposals"]}
    gap = context.gaps("selections")
    if gap:
        return not_judged(f"cannot judge: {gap}")
    crossing = tuple(s for s, action_id in context.selections if action_id not in held)
    if crossing:
        return violated("a selection chose an act no held proposal names", crossing)
    return upheld("every selection chose a held proposal", tuple(s for s, _ in context.selections))


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    pack = Path(pack_dir) / f"{DEFAULT_SAFETY_PACK}.json"
    pack.write_text(json.dumps({**(doc := json.loads(pack.read_text(encoding="utf-8"))), "boundaries": {
        **doc["boundaries"], MY_BOUNDARY_ID: MY_BOUNDARY_TEXT}}, indent=2), encoding="utf-8")
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
