"""Wrong: asks whether the move is listed before asking whether the stage exists.

Every move it refuses is refused, and every move it admits is listed, so a
door built on it lets nothing wrong through; but a move to a stage the table
does not declare is put down as a move the table does not list, and the
ledger gives the wrong reason. The page stresses the order of the two questions.

Kind: skips the edge
Fails with: asked before whether the move is listed
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
    """None when ``table`` lists the move from ``stage`` to ``to``; else why not."""
    if [stage, to] not in table["transitions"]:
        return {"code": "move_not_listed", "reason": f"transition from {stage!r} to {to!r} is not allowed"}
    if to not in table["stages"]:
        return {"code": "unknown_stage", "reason": f"unknown stage {to!r}"}
    return None
