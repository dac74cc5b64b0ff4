"""Lesson 5, your edit: score inspect_metadata so the door keeps your operator's order.

In lesson 2 you declared the fictional tool ``inspect_metadata``: passive, and it
``requires`` the observed field ``has_meta`` to be ``True``. Lesson 4 made it eligible
once a capture shows a generator meta tag. Those three keys stay as they are below.
Now choose the other three: its ``family``, ``weight`` and ``cost``. Lesson 5's door
ranks every open proposal by

    score = weight * (1 + credit of the tool's family) / (1 + cost)

where a family's credit is 1.0 for each of its acts that succeeded so far; equal
scores go to the smaller action identity ("inspect_headers -> ..." comes before
"inspect_metadata -> ...", which comes before "probe_reflection -> ...").

The run your check drives (starter/lesson05_test.py), against fixed lab pages:

* the catalogue: ``inspect_headers`` (fam-recon, weight 2.0, cost 1.0),
  ``probe_reflection`` (fam-probe, weight 3.0, cost 2.0) and your entry;
  at most 4 actions;
* the model's first reply proposes ``inspect_headers`` at /about and
  ``probe_reflection`` at /search;
* its second reply, after the about page showed its generator tag, proposes
  ``inspect_metadata`` at /about, ``inspect_headers`` at /news and
  ``inspect_headers`` at /contact; later replies propose nothing;
* every act the door admits succeeds.

Your operator's plan, the order in which the door must select:

1. inspect_headers -> https://lab.example:443/about
2. inspect_headers -> https://lab.example:443/contact
3. inspect_headers -> https://lab.example:443/news
4. inspect_metadata -> https://lab.example:443/about

and then the action budget is spent, so the probe at /search is never selected.
In words: every header look first (they are cheap and broad), then the metadata
read, and the active probe last. So ``inspect_metadata`` must lose to each open
header look, and still beat the probe. A score that wins everything breaks the
plan, and so does one that never wins.

The values below are the reference run's (data/policy/): they send the metadata
read out second. Check your work with ``course check 5``; read the worked answer,
``solutions/lesson05.py``, after your attempt.
"""


def my_inspect_metadata() -> dict:
    """Your catalogue entry for inspect_metadata, as in a policy's ``tools`` list."""
    return {
        "tool_id": "inspect_metadata",
        "activity": "passive",
        "requires": {"has_meta": True},
        "family": "fam-recon",  # TODO 1: whose successes should raise its score
        "weight": 3.0,  # TODO 2: how much the operator values it
        "cost": 1.0,  # TODO 3: what running it spends
    }
