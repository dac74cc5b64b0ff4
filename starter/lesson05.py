"""Lesson 5, your edit: the choice. Rank the open proposals, credit each outcome, choose the next act.

Lesson 5's door chooses the next act itself (``core/run/select.py``). Here you
write that choice, as four functions of plain data; the check compares what
they return with what the door decides, on the demo's run and on runs it makes
fresh from a seed (random tools, weights, costs, families, outcomes settled
late, acts the door turns away). While your file runs, ``core.run.select``,
the course's ``data/`` and the worked answers in ``solutions/`` are
unavailable to it.

The data, as the check sends it:

* a **catalogue**: ``{tool_id: {"family": ..., "weight": ..., "cost": ...}}``,
  the operator's numbers from the policy;
* a **proposal**: ``{"action_id": "<tool> -> <canonical destination>", "tool": ...}``;
* an **outcome**: ``{"outcome_id": ..., "action_id": ..., "status": ...}``, the
  status one of ``"unresolved"``, ``"succeeded"``, ``"failed"``;
* a run's **history**: the door's ledger so far, as a list of entries in order,
  each a dict whose ``"step"`` says what happened:

  - ``{"step": "proposed", "action_id", "tool"}``: the door stored a proposal;
  - ``{"step": "executed", "action_id", "tool"}``: the door admitted the act
    its selection chose;
  - ``{"step": "turned away", "action_id", "tool", "reason"}``: the door
    refused the act its selection chose (the run goes on without it);
  - ``{"step": "settled", "outcome_id", "action_id", "status"}``: the outcome
    of an executed act settled, and was credited (an act in doubt settles
    later, after other acts have run).

``rank(proposals, catalogue, credit)`` must answer every proposal with its
score, ``[{"action_id": ..., "score": ...}, ...]``, highest score first.
``credit`` maps a family to what it has earned (a family it does not name has
earned 0.0), and the score is

    score = weight * (1 + credit of the tool's family) / (1 + cost)

evaluated as written, as the door evaluates it: the same arithmetic grouped
another way (``weight / (1 + cost) * (1 + credit)``) can differ in its last
bit, and two scores the rule makes exactly equal would no longer tie.
Equal scores go to the smaller action identity, the two strings compared as
strings, whatever order the proposals came in: a run must choose the same act
from the same proposals however the model listed them.

``feedback(outcome, actions, catalogue)`` must answer what one outcome earns,
and for whom: ``{"action_id": ..., "family": ..., "credit": ...}``, the credit
1.0 for ``succeeded`` and 0.0 for ``failed``, going to the act that produced
the outcome (the outcome names it) and to that act's family, never to another
act of the same tool. ``actions`` lists the acts the run executed,
``[{"action_id", "tool"}]``. It answers ``None`` for an outcome that is not
settled or names no act in ``actions``.

``choose(history, catalogue, max_actions)`` must answer the best-ranked open
proposal (an entry as ``rank`` gives it), where the open proposals are those
stored and neither executed nor turned away (an identity turned away is never
chosen again) and each family's credit is the sum of what ``feedback`` gives,
over every settled outcome; or ``None`` once ``max_actions`` acts have been
executed (an act turned away spent nothing) or when nothing is open.

``my_inspect_metadata()`` must answer your lesson 2 tool's catalogue entry,
scored to your operator's plan (below). Its ``tool_id``, ``activity`` and
``requires`` stay as they are; choose its ``family``, ``weight`` and ``cost``.

The plan, for a fixed run of lesson 5's door (starter/lesson05_test.py):

* the catalogue: ``inspect_headers`` (fam-recon, weight 2.0, cost 1.0),
  ``probe_reflection`` (active, fam-probe, weight 3.0, cost 2.0) and your entry;
  at most 4 actions;
* the model's first reply proposes ``inspect_headers`` at /about and
  ``probe_reflection`` at /search;
* its second reply, after the about page showed its generator tag, proposes
  ``inspect_metadata`` at /about, ``inspect_headers`` at /news and
  ``inspect_headers`` at /contact; later replies propose nothing;
* every act the door admits succeeds.

The door must make these four selections, one after another:

    selection 1: inspect_headers -> https://lab.example:443/about
    selection 2: inspect_headers -> https://lab.example:443/contact
    selection 3: inspect_headers -> https://lab.example:443/news
    selection 4: inspect_metadata -> https://lab.example:443/about

and then the action budget is spent, so the probe at /search is never selected.
In words: the header looks come before the metadata read, and the active probe
comes last. So ``inspect_metadata`` must lose to each open header look and still beat
the probe. And it stays out of the probe's family: a family's credit raises
every tool in it, so a passive read in ``fam-probe`` would make each of its
successes push the active probe up. The values below are the reference run's
(data/policy/): they send the metadata read out second.

Check your work with ``course check 5`` (or ``python3 -m pytest
starter/lesson05_test.py -q``); read the worked answer, ``solutions/lesson05.py``,
after your attempt.
"""


def rank(proposals: list[dict], catalogue: dict, credit: dict) -> list[dict]:
    """Every proposal with its score, highest first; equal scores by action identity."""
    raise NotImplementedError("TODO 1: score each proposal by the rule and order them")


def feedback(outcome: dict, actions: list[dict], catalogue: dict) -> dict | None:
    """The credit ``outcome`` earns, for the act that produced it and that act's family; or None."""
    raise NotImplementedError("TODO 2: credit the act the outcome names, and its family")


def choose(history: list[dict], catalogue: dict, max_actions: int) -> dict | None:
    """The best open proposal after ``history``, or None when the budget is spent or nothing is open."""
    raise NotImplementedError("TODO 3: the open proposals, each family's credit, your ranking's first")


def my_inspect_metadata() -> dict:
    """Your catalogue entry for inspect_metadata, as in a policy's ``tools`` list."""
    return {
        "tool_id": "inspect_metadata",
        "activity": "passive",
        "requires": {"has_meta": True},
        "family": "fam-recon",  # TODO 4: whose successes should raise its score
        "weight": 3.0,  # how much the operator values it
        "cost": 1.0,  # what running it spends
    }
