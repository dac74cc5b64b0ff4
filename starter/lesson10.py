"""Lesson 10, your edit: a boundary of your own, judged at runtime, in a ratified pack.

The harness's one safety pack (data/packs/safety/harness_safety_v1.json) keeps
six boundaries. Yours is a seventh, about what the run chose to do:

    every selection chooses an act that a proposal the run holds names.

Lesson 5's door only selects among stored proposals, so a real run keeps it;
a report someone edited, or a door with a bug, might not. Three names are yours:

``MY_BOUNDARY_ID`` (snake_case: a-z, 0-9 and "_", starting with a letter, not
one of the pack's six) and ``MY_BOUNDARY_TEXT`` (one sentence saying what the
harness never does) name the boundary.

``my_predicate(context)`` must answer a Judgement (``upheld(reason,
evidence)``, ``violated(reason, evidence)`` or ``not_judged(reason)``) from a
SafetyContext (core/safety/check.py), read through two of its fields:

* ``context.selections``: one ``(selection_id, action_id)`` per selection, in
  the run's order;
* ``context.proposals``: one ``(action_id,)`` per proposal the run holds.

A selection *crosses* the boundary when the act it chose is named by no
proposal the run holds. The answer is

* ``not_judged``, naming what is missing (``context.gaps("selections",
  "proposals")`` says it in words), when either field is ``None`` (the
  snapshot did not provide it, or provided it malformed): nobody can then say
  whether the boundary held, and ``upheld`` would be a lie;
* ``violated`` when any selection crosses it, its evidence exactly the ids of
  the selections that cross, in the snapshot's order, wherever they are: no
  more, no fewer;
* ``upheld`` when none does, its evidence the id of every selection checked,
  in order.

The version below is a small lie: it says "upheld" without looking.

``add_my_boundary(pack_dir)`` must answer the digest of a new ratification
report, the one ``core.safety.ratify.ratify(pack_dir, pack_id)`` returns, for
the pack file in ``pack_dir`` (a copy of data/packs/safety, given as a path
string; never the committed one) with your boundary added and the other six
kept as they are. The check loads that copy in its own process, with the
development override (HARNESS_ALLOW_UNRATIFIED_SAFETY) unset: it must load
ratified, because an unratified pack stops start-up.

The check runs your file in a process of its own and calls it through the two
helpers at the bottom (written for you), with snapshots as plain data: the
reference run's, tampered copies of it, and runs it makes up from a seed it
prints. Check your work with ``course check 10``;
``python3 starter/lesson10_test.py`` prints the verdict on the reference run
with your boundary. Read the worked answer, ``solutions/lesson10.py``, after
your attempt.
"""

from pathlib import Path  # noqa: F401  (you will need it)

from core.safety.check import Judgement, SafetyContext, not_judged, upheld, violated
from core.safety.pack import DEFAULT_SAFETY_PACK  # noqa: F401
from core.safety.ratify import ratify  # noqa: F401

MY_BOUNDARY_ID = ""  # TODO 1: a snake_case id the pack does not have yet
MY_BOUNDARY_TEXT = ""  # TODO 1: one sentence: what the harness never does


def my_predicate(context: SafetyContext) -> Judgement:
    """Your boundary, judged from a run's snapshot: upheld, violated, or not judged."""
    return upheld("every selection looks fine")  # TODO 2: look before you say so


def add_my_boundary(pack_dir: str) -> str:
    """Add your boundary to the pack in ``pack_dir``, ratify it, return the digest."""
    raise NotImplementedError("TODO 3: add your boundary to the copy, then ratify it")


# --- written for you: how the check reaches your boundary (leave them as they are) ---


def named() -> dict:
    """Your boundary's id and sentence, as the check reads them."""
    return {"id": MY_BOUNDARY_ID, "text": MY_BOUNDARY_TEXT}


def judged(snapshot: dict) -> dict:
    """``my_predicate`` on the SafetyContext of ``snapshot``, as plain data."""
    judgement = my_predicate(SafetyContext.from_snapshot(snapshot))
    if not isinstance(judgement, Judgement):
        return {"returned": type(judgement).__name__}
    return {"upheld": judgement.upheld, "reason": judgement.reason,
            "evidence": list(judgement.evidence)}
