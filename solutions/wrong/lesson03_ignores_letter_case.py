"""Wrong: compares stage names without regard to letter case or spaces around them.

Kind: author's own
Fails with: stage names are compared exactly
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


def _plain(name: object) -> object:
    return name.strip().lower() if isinstance(name, str) else name


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None when ``table`` admits ``kind`` in ``stage``; else the out_of_stage refusal."""
    if stage in table["admitted_in"].get(kind, []):
        return None
    return {"code": "out_of_stage", "reason": f"record kind {kind!r} is not admitted in stage {stage!r}"}


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when ``table`` lists the move from ``stage`` to ``to``, whatever its letter case."""
    to = _plain(to)
    if to not in table["stages"]:
        return {"code": "unknown_stage", "reason": f"unknown stage {to!r}"}
    if [stage, to] not in table["transitions"]:
        return {"code": "move_not_listed", "reason": f"transition from {stage!r} to {to!r} is not allowed"}
    return None
