"""Lesson 3, worked answer: the stage guard, over whatever table the door was given.

Both questions read the table and nothing else, so the same two functions
guard the reference run, a recon-only engagement and any table an operator
writes. Stage names are compared exactly, with ``==`` (a list of stages, or
``"Observe"``, is not the stage ``"observe"``), and a move is judged in two
steps, in order: is the stage asked for one the table declares, and only
then, is the pair (the stage the run is in, the stage asked for) listed. A
kind the table does not name has no stages, so it is admitted nowhere: a
table that forgets a kind closes the door on it rather than opening it.
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


# student writes: begin
def refusal(code: str, reason: str) -> dict:
    return {"code": code, "reason": reason}


def refuse_record(table: dict, stage: str, kind: str) -> dict | None:
    """None when ``table`` admits ``kind`` in ``stage``; else the refusal."""
    if stage in table["admitted_in"].get(kind, []):  # an unnamed kind: no stages
        return None
    return refusal("out_of_stage",
                   f"record kind {kind!r} is not admitted in stage {stage!r}")


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when ``table`` lists the move from ``stage`` to ``to``; else why not."""
    if to not in table["stages"]:  # compared exactly, with ==, whatever type ``to`` is
        return refusal("unknown_stage", f"unknown stage {to!r}")
    if [stage, to] not in table["transitions"]:  # the pair, from where the run is
        return refusal("move_not_listed",
                       f"transition from {stage!r} to {to!r} is not allowed")
    return None
# student writes: end
