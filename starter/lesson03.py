"""Lesson 3, your edit: the stage table of a recon-only engagement.

The reference run's stage machine is three tables in ``core/run/stages.py``:
``STAGES``, ``TRANSITIONS`` and ``LESSON_2_STAGES``. Below is a copy of them,
under the three names this file must define. Change the copy into the table of
a *recon-only* engagement, one that looks and reports but never probes:

1. No ``verify`` stage. Verification (lesson 7) plans confirming acts and
   negative controls, active work a recon-only engagement does not do. Remove
   the stage, and every transition and admitted stage that names it.
2. Findings go straight to review. The run leaves the work loop from
   ``select`` for ``review``, and a ``finding`` is admitted in the ``review``
   stage only.
3. No execute stage for consequential work. The reference admits a ``review``
   in ``execute`` too: that is where a consequential action waits for a
   person's approval (lesson 8). A recon-only engagement runs passive tools
   only, so nothing waits there: a ``review`` is admitted in the ``review``
   stage only, and ``action``, ``capture`` and ``outcome`` in ``execute`` only.
4. Everything else stays as the reference has it: the run starts in
   ``authorize``; the work loop observe -> propose -> select -> execute ->
   observe; observations in ``authorize`` and ``observe``; review -> report;
   and nothing at all is admitted in ``report``.

The completion test builds lesson 3's door with your table
(``door_for(3, run, policy, stage_table=StageTable(STAGES, TRANSITIONS,
ADMITTED_IN))``) and asks it which moves and which records it admits.
Check your work with ``course check 3``
(or ``python3 -m pytest starter/lesson03_test.py -q``).
The worked answer is ``solutions/lesson03.py``: read it after your attempt.
"""

# Every stage, in order; a run starts in the first.
STAGES = (
    "authorize",
    "observe",
    "propose",
    "select",
    "execute",
    "verify",  # TODO 1: a recon-only engagement has no verify stage
    "review",
    "report",
)

# Every move the door admits, as (from, to).
TRANSITIONS = (
    ("authorize", "observe"),
    ("observe", "propose"),
    ("propose", "select"),
    ("select", "execute"),
    ("execute", "observe"),
    ("select", "verify"),  # TODO 1 and 2: leave the loop from select for review
    ("verify", "review"),
    ("review", "report"),
)

# The stages each of lesson 2's record kinds is admitted in.
ADMITTED_IN = {
    "observation": ("authorize", "observe"),
    "action": ("execute", "verify"),  # TODO 3: action, capture, outcome in execute only
    "capture": ("execute", "verify"),
    "outcome": ("execute", "verify"),
    "finding": ("verify",),  # TODO 2: findings go straight to review
    "review": ("execute", "verify", "review"),  # TODO 3: nothing waits in execute
}
