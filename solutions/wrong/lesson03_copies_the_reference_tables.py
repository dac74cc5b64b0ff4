"""Wrong: answers from the reference run's tables, copied in, whatever table it is given.

The reference run's table is the one the page prints, so a guard written
against it passes every question about that table, and the recon-only table
where the two agree. Asked about any other table, it answers about the wrong one.

Kind: hard-codes the demo
Fails with: only in the stages its table lists for it
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


REFERENCE_STAGES = ("authorize", "observe", "propose", "select", "execute", "verify", "review", "report")
REFERENCE_MOVES = [["authorize", "observe"], ["observe", "propose"], ["propose", "select"], ["select", "execute"],
                   ["execute", "observe"], ["select", "verify"], ["verify", "review"], ["review", "report"]]
REFERENCE_ADMITTED_IN = {"observation": ["authorize", "observe"], "action": ["execute", "verify"],
                         "capture": ["execute", "verify"], "outcome": ["execute", "verify"],
                         "finding": ["verify"], "review": ["execute", "review"], "transition": list(REFERENCE_STAGES)}


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None when the reference admits ``kind`` in ``stage``; else the out_of_stage refusal."""
    if stage in REFERENCE_ADMITTED_IN.get(kind, []):
        return None
    return {"code": "out_of_stage", "reason": f"record kind {kind!r} is not admitted in stage {stage!r}"}


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when the reference lists the move; else why not."""
    if to not in REFERENCE_STAGES:
        return {"code": "unknown_stage", "reason": f"unknown stage {to!r}"}
    if [stage, to] not in REFERENCE_MOVES:
        return {"code": "move_not_listed", "reason": f"transition from {stage!r} to {to!r} is not allowed"}
    return None
