"""Wrong: lets every record and every move through.

Kind: accepts everything
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


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None: every record is let through."""
    return None


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None: every move is let through."""
    return None
