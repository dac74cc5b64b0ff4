"""Lesson 3, worked answer: the stage table of a recon-only engagement.

Three changes to the reference tables. The ``verify`` stage is gone, so no run
can reach the place where confirming probes would be planned. The run leaves
the work loop from ``select`` for ``review``, and a finding is admitted only
there. And a review is admitted only in ``review``: nothing consequential is
held in ``execute`` waiting for a person. The stage machine still cannot tell
a passive tool from an active one (it sees record kinds, not tools); keeping
active tools out is the policy's job (lesson 2) and the gate's (lesson 8).
"""

# Every stage, in order; a run starts in the first.
STAGES = ("authorize", "observe", "propose", "select", "execute", "review", "report")

# Every move the door admits, as (from, to).
TRANSITIONS = (
    ("authorize", "observe"),
    ("observe", "propose"),
    ("propose", "select"),
    ("select", "execute"),
    ("execute", "observe"),
    ("select", "review"),
    ("review", "report"),
)

# The stages each of lesson 2's record kinds is admitted in.
ADMITTED_IN = {
    "observation": ("authorize", "observe"),
    "action": ("execute",),
    "capture": ("execute",),
    "outcome": ("execute",),
    "finding": ("review",),
    "review": ("review",),
}
