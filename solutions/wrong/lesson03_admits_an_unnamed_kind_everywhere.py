"""Wrong: a kind the table does not name is taken as unrestricted, and admitted in every stage.

The mistake of reading a missing entry as "no rule": a table that forgets a
kind (or misspells it) opens the door to it instead of closing it.

Kind: author's own
Fails with: a kind the table does not name is admitted nowhere
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
    """None when ``table`` admits ``kind`` in ``stage`` or says nothing about it; else the refusal."""
    where = table["admitted_in"].get(kind)
    if where is None or stage in where:
        return None
    return {"code": "out_of_stage", "reason": f"record kind {kind!r} is not admitted in stage {stage!r}"}


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when ``table`` lists the move from ``stage`` to ``to``; else why not."""
    if to not in table["stages"]:
        return {"code": "unknown_stage", "reason": f"unknown stage {to!r}"}
    if [stage, to] not in table["transitions"]:
        return {"code": "move_not_listed", "reason": f"transition from {stage!r} to {to!r} is not allowed"}
    return None
