"""Lesson 3, your edit: the stage guard, over any stage table.

Lesson 3's door asks two questions of its stage table before it admits
anything: may this kind of record be made in the stage the run is in
(``in_its_stage`` in ``core/run/stages.py``), and may the run move from here
to the stage it asks for (``build_transition``). Write both, over a table
given to you as plain data:

    table = {
        "stages": ["authorize", "observe", ...],            # the run starts in the first
        "transitions": [["authorize", "observe"], ...],     # every allowed move, [from, to]
        "admitted_in": {"observation": ["authorize", "observe"], ...},  # kind -> its stages
    }

Each function returns ``None`` to let the request on, or the refusal, a dict
``{"code": CODE, "reason": TEXT}`` whose reason says what was refused.

1. ``refuse_record(table, stage, kind)``: the run is in ``stage`` and asks to
   record a ``kind``. It is admitted exactly in the stages ``admitted_in``
   lists for that kind; a kind the table does not name is admitted nowhere.
   Otherwise the code is ``"out_of_stage"`` and the reason names the kind and
   the stage.
2. ``refuse_move(table, stage, to)``: the run is in ``stage`` and asks to move
   to ``to``, which may be any JSON value (a typo, ``None``, a list...). Two
   questions, in this order:

   - is ``to`` a stage the table declares? Compare exactly: ``"Observe"`` is
     not ``"observe"``, and a list is not a stage. If not, the code is
     ``"unknown_stage"`` and the reason names what was asked for;
   - is the pair ``[stage, to]`` listed in ``transitions``? A move listed
     from another stage does not count. If not, the code is
     ``"move_not_listed"`` and the reason names both stages.

The check runs this file in a process of its own, with the reference
(``core.run.stages``) unavailable to it. It asks your functions about the
reference table, the recon-only table below and tables it makes from a seed
it prints, then builds lesson 3's door with your two functions in place of
the reference's and walks a run through it. Check your work with
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
