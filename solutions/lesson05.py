"""Lesson 5, worked answer: inspect_metadata waits for header looks, beats the probe.

In the same family as ``inspect_headers`` (fam-recon) both tools share one
credit, so whatever the header looks have earned, the two scores keep their
ratio: metadata / headers = (weight / (1 + cost)) / (2.0 / 2.0). To lose to
every open header look, that ratio must be at most 1 (a tie goes to
``inspect_headers``, the smaller identity). To beat the probe at selection 4,
when fam-recon has earned 3.0 from three header looks and fam-probe nothing,
weight * 4 / (1 + cost) must be at least 1.0 (a tie goes to
``inspect_metadata``). Weight 1.5 and cost 1.0 give a ratio of 0.75 and a
score of 3.0 at selection 4: inside both bounds, with room on each side.

A family of its own would work too, with other numbers: its credit stays 0.0
until it succeeds, so its score is just weight / (1 + cost), which must be at
most 2.0 at selection 2 and at least 1.0 at selection 4. The family decides
whose successes raise the score; weight and cost set where it starts.
"""


def my_inspect_metadata() -> dict:
    """Your catalogue entry for inspect_metadata, as in a policy's ``tools`` list."""
    return {
        "tool_id": "inspect_metadata",
        "activity": "passive",
        "requires": {"has_meta": True},
        "family": "fam-recon",
        "weight": 1.5,
        "cost": 1.0,
    }
