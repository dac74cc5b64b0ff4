"""Lesson 10, your edit: a boundary of your own, judged at runtime, in a ratified pack.

The harness's one safety pack (data/packs/safety/harness_safety_v1.json) keeps
six boundaries. Yours is a seventh, about what the run chose to do:

    every selection chooses an act that a proposal the run holds names.

Lesson 5's door only selects among stored proposals, so a real run keeps it;
a report someone edited, or a door with a bug, might not. Three steps:

1. Name it: ``MY_BOUNDARY_ID`` (snake_case: a-z, 0-9 and "_", starting with a
   letter, not one of the pack's six) and ``MY_BOUNDARY_TEXT`` (one sentence
   saying what the harness never does).

2. Judge it: ``my_predicate(context)`` reads a SafetyContext
   (core/safety/check.py) and returns a Judgement, built with one of
   ``upheld(reason, evidence)``, ``violated(reason, evidence)`` or
   ``not_judged(reason)``. It needs two of the context's fields:

   * ``context.selections``: one ``(selection_id, action_id)`` per selection;
   * ``context.proposals``: one ``(action_id,)`` per proposal the run holds.

   Either is ``None`` when the snapshot did not provide it; then nobody can
   say whether the boundary held, and the honest answer is ``not_judged``,
   never ``upheld``. ``context.gaps("selections", "proposals")`` says what is
   missing, in words. When a selection chooses an act no held proposal names,
   the boundary is violated, and the evidence is those selections' ids. When
   none does, it is upheld, and the evidence is every selection id checked.

   The version below is a small lie: it says "upheld" without looking.

3. Ratify it: ``add_my_boundary(pack_dir)`` adds your boundary to the pack
   file in ``pack_dir`` (a copy of data/packs/safety; never the committed
   one), keeping the other six as they are, then ratifies that copy with
   ``core.safety.ratify.ratify(pack_dir, pack_id)`` and returns what it
   returns: the digest of the new ratification report.

Check your work with ``course check 10``; ``python3 starter/lesson10_test.py``
prints the verdict on the reference run with your boundary. Read the worked
answer, ``solutions/lesson10.py``, after your attempt.
"""

from pathlib import Path

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK  # noqa: F401
from core.safety.ratify import ratify  # noqa: F401

MY_BOUNDARY_ID = ""  # TODO 1: a snake_case id the pack does not have yet
MY_BOUNDARY_TEXT = ""  # TODO 1: one sentence: what the harness never does


def my_predicate(context: SafetyContext) -> Judgement:
    """Your boundary, judged from a run's snapshot: upheld, violated, or not judged."""
    return upheld("every selection looks fine")  # TODO 2: look before you say so


def add_my_boundary(pack_dir: Path) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    raise NotImplementedError("TODO 3: add your boundary to the copy, then ratify it")
