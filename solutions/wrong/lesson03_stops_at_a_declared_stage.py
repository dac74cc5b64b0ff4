"""Wrong: once the stage asked for is declared, lets the move through without asking whether it is listed.

Kind: returns early
Fails with: a move is judged from the stage the run is in
Passed the check before lesson 3 was rebuilt: yes (it read only the recon-only table, kept here)
"""

# A recon-only engagement's table: no verify stage, findings go straight to review,
# and nothing waits in execute for a person's approval (lesson 3's page).
STAGES = ("authorize", "observe", "propose", "select", "execute", "review", "report")

TRANSITIONS = (
    ("authorize", "observe"),
    ("observe", "propose"),
    ("propose", "select"),
    ("select", "execute"),
    ("execute", "observe"),
    ("select", "review"),
    ("review", "report"),
)

ADMITTED_IN = {
    "observation": ("authorize", "observe"),
    "action": ("execute",),
    "capture": ("execute",),
    "outcome": ("execute",),
    "finding": ("review",),
    "review": ("review",),
}


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None when ``table`` admits ``kind`` in ``stage``; else the out_of_stage refusal."""
    if stage in table["admitted_in"].get(kind, []):
        return None
    return {"code": "out_of_stage", "reason": f"record kind {kind!r} is not admitted in stage {stage!r}"}


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when ``to`` is a declared stage; else the unknown_stage refusal."""
    if to in table["stages"]:
        return None  # declared: done
    return {"code": "unknown_stage", "reason": f"unknown stage {to!r}"}
