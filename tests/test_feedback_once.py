"""The door credits each outcome once, however often a caller asks (lesson 5's prediction stands on it).

A caller that loses the door's answer asks again. Feedback is named by its
content, all of it read off the outcome, so the second request names a record
the door already holds: it is refused, and the family's credit does not grow.
"""

from __future__ import annotations

import pytest

from core.run.demo_selection import build_policy, fixed_pages, proposal, scripted
from core.run.doors import door_for
from core.run.execute import execute
from core.run.propose import propose
from core.run.records import make_run
from core.run.select import family_credit, select_next
from core.run.stages import advance


@pytest.mark.parametrize("asked", [2, 3])
def test_feedback_asked_again_for_the_same_outcome_is_refused_and_credits_nothing_more(asked):
    """Feedback asked again for the same settled outcome is refused as already recorded, and the credit stays 1.0."""
    policy = build_policy()
    door = door_for(5, make_run(policy.snapshot(), {"world": "asked-again"}), policy)
    for stage in ("observe", "propose"):
        advance(door, stage)
    propose(door, scripted([[proposal("inspect_headers", "/about", "Headers first.")]]))
    advance(door, "select")
    chosen = door.get("selection", select_next(door)["id"])
    advance(door, "execute")
    act = door.get("proposal", chosen["action_id"])
    done = execute(door, {key: act[key] for key in ("run_id", "tool", "destination", "arguments")},
                   fixed_pages())
    assert done.status == "succeeded"
    outcome_id = done.answers[-1]["id"]
    answers = [door.record("feedback", {"run_id": door.run.run_id, "outcome_id": outcome_id})
               for _ in range(asked)]
    assert answers[0]["recorded"]
    assert [answer["recorded"] for answer in answers[1:]] == [False] * (asked - 1)
    assert all(answer["reason"].endswith("is already recorded") for answer in answers[1:])
    assert door.count("feedback") == 1
    assert family_credit(door) == {"fam-recon": 1.0}
