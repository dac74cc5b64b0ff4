"""Lesson 3, your edit: the stage guard, over any stage table.

Lesson 3's door asks two questions of its stage table before it admits
anything: may this kind of record be made in the stage the run is in
(``in_its_stage`` in ``core/run/stages.py``), and may the run move from here
to the stage it asks for (``build_transition``). Write both answers, over a
table given to you as plain data:

    table = {
        "stages": ["authorize", "observe", ...],            # the run starts in the first
        "transitions": [["authorize", "observe"], ...],     # every allowed move, [from, to]
        "admitted_in": {"observation": ["authorize", "observe"], ...},  # kind -> its stages
    }

Each function answers ``None`` to let the request on, or the refusal, a dict
``{"code": CODE, "reason": TEXT}`` whose reason says what was refused.

``refuse_record(table, stage, kind)`` answers for a run in ``stage`` that asks
to record a ``kind``: ``None`` exactly in the stages ``admitted_in`` lists for
that kind (a kind the table does not name is admitted nowhere), and otherwise
the code ``"out_of_stage"`` with a reason that names the kind and the stage.

``refuse_move(table, stage, to)`` answers for a run in ``stage`` that asks to
move to ``to``, which may be any JSON value (a typo, ``None``, a list...):

- ``"unknown_stage"``, with a reason naming what was asked for, whenever
  ``to`` is not a stage the table declares, compared exactly (``"Observe"``
  is not ``"observe"``, and a list is not a stage), whether or not some move
  lists it: an auditor must tell a caller asking for a stage this engagement
  does not have from a real stage reached out of order;
- ``"move_not_listed"``, with a reason naming both stages, for a declared
  stage whose pair ``[stage, to]`` is not in ``transitions`` (a move listed
  from another stage does not count);
- ``None`` for a listed move.

The check runs this file in a process of its own, with the reference
(``core.run.stages``) unavailable to it. It asks your functions about the
reference table, the recon-only table below, tables it makes from a seed it
prints and tables no door would accept (a move listed to a stage the table
does not declare, say), then builds lesson 3's door with your two functions
in place of the reference's and walks a run through it. Check your work with
``course check 3`` (or ``python3 -m pytest starter/lesson03_test.py -q``).
The worked answer is ``solutions/lesson03.py``: read it after your attempt.
"""

# A recon-only engagement's table, for you to try your functions on: no verify stage,
# findings go straight to review, and nothing waits in execute for a person's approval.
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
    raise NotImplementedError("TODO 1: admit a kind only in the stages its table lists")


def refuse_move(table: dict, stage: str, to: object) -> dict | None:
    """None when ``table`` lists the move from ``stage`` to ``to``; else why not."""
    raise NotImplementedError("TODO 2: a declared stage, then a move listed from the current stage")
