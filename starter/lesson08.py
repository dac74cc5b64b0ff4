"""Lesson 8, your edit: the gate's decision (allow, hold or deny) for an authorized act.

The door's last guard asks the gate about every act the policy authorized.
Write ``decide``, the rule it applies, from data alone:

* ``table``: a taxonomy table as JSON, like data/taxonomy/action_taxonomy.json:
  ``table["classes"]`` is a list of rows, each with ``name``, ``trigger_class``,
  ``consequential``, ``fail_open_allowed``, ``approver_role`` (a role, or None:
  nobody may approve it) and ``legacy_aliases`` (the names it had before);
* ``caps``: the run's caps, canonical class name -> how many acts of that
  class run without a review (a class that is not consequential and has no cap
  here has a cap of 0);
* ``act``: ``{"action_id": "tool -> destination", "arguments": {...},
  "declared": <the class its tool declares, or None>}``;
* ``used``: canonical class name -> how many acts of it the run has admitted;
* ``reviews``: the decisions recorded on held acts, each ``{"subject_id",
  "action_id", "decision": "approved" or "rejected", "reviewer"}``, where
  ``subject_id`` is ``act_subject(...)`` of the exact act reviewed and
  ``action_id`` its identity.

What the decision must be, and why (fail closed: what the table cannot vouch
for needs a person):

- the act's class is the row named by ``declared``, or the row that lists it
  among its ``legacy_aliases`` (an old name is governed by today's row); a
  class that is undeclared (None) or that no row knows is UNCLASSIFIED:
  consequential, counted under the trigger class "unclassified", and with no
  approver role;
- an act of a class that is not consequential is allowed while ``used`` of it
  is below its cap, and counts toward no trigger class (None); past its cap it
  needs a review, like a consequential act;
- a consequential act counts toward its row's trigger class, or toward
  "CHANGE" when it amends an approved act: the run holds an approval, by the
  class's approver role, of the same identity with other arguments;
- an act that needs a review is denied when its class has no approver role,
  and else only a review of this exact act (``act_subject``) by the class's
  approver role counts: approved, allow; rejected, deny; none, hold. When
  several such reviews are listed (``reviews`` is in the order they were
  recorded), the last one is the approver's decision.

Return ``{"verdict": "allow" | "hold" | "deny", "action_class": <the canonical
name, or "unclassified">, "trigger_class": <a name, or None>, "reason": <one
sentence saying why>}``.

The check runs your file in a process of its own, with the reference gate and
taxonomy (``core.run.gate``, ``core.run.taxonomy``) unavailable to it, on the
committed table, on tables and acts it makes from a seed it prints, and in
lesson 8's real door with your decision in place of the gate's. Check your work
with ``course check 8``; read the worked answer, ``solutions/lesson08.py``,
after your attempt.
"""

from core.run.canon import digest

UNCLASSIFIED = "unclassified"
CHANGE = "CHANGE"


def act_subject(action_id: str, arguments: dict) -> str:
    """What a review of one exact act names: its identity and its arguments' digest."""
    return f"{action_id} with arguments {digest(arguments)}"


def decide(table: dict, caps: dict, act: dict, used: dict, reviews: list) -> dict:
    """The gate's verdict for ``act`` (allow, hold or deny), its class and trigger."""
    # TODO 1: the act's row, through the table (an alias resolves; else unclassified)
    # TODO 2: a class that is not consequential, within its cap
    # TODO 3: the trigger class, CHANGE included
    # TODO 4: the review of this exact act by the class's approver role
    raise NotImplementedError("TODO 1: find the act's class through the table")
