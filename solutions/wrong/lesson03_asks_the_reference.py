"""Wrong: builds the reference's own table and asks the reference guard and move check.

Kind: reads the reference
Fails with: core.run.stages is unavailable while the check runs
Passed the check before lesson 3 was rebuilt: yes (it read only the recon-only table, kept here)
"""

# A recon-only engagement's table: no verify stage, findings go straight to review,
# and nothing waits in execute for a person's approval (lesson 3's page).
STAGES = ("authorize", "observe", "propose", "select", "execute", "review", "report")
TRANSITIONS = (("authorize", "observe"), ("observe", "propose"), ("propose", "select"), ("select", "execute"),
               ("execute", "observe"), ("select", "review"), ("review", "report"))
ADMITTED_IN = {"observation": ("authorize", "observe"), "finding": ("review",), "review": ("review",),
               **{kind: ("execute",) for kind in ("action", "capture", "outcome")}}


def _reference(table: dict):
    from core.run.stages import StageTable

    return StageTable(table["stages"], table["transitions"], table["admitted_in"])


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """Whatever the reference table says."""
    if stage in _reference(table).admitted_in.get(kind, ()):
        return None
    return {"code": "out_of_stage", "reason": f"record kind {kind!r} is not admitted in stage {stage!r}"}


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """Whatever the reference's move check says."""
    from core.run.recorder import Refusal
    from core.run.stages import build_transition

    class Door:
        parts = {"stage_table": _reference(table)}
        state = {"stage": stage}
    try:
        build_transition(Door(), {"to": to})
    except Refusal as refused:
        return {"code": refused.code, "reason": refused.reason}
    return None
