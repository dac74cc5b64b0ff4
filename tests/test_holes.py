"""Governance holes, round 2 (issue 23): one test or more per hole, each written to fail before its fix.

The attack suite (lab/attacks.py, tests/test_attacks.py) tries each hole as an
attacker would and judges it by evidence; the tests here pin the mechanism
that closes it, at the smallest scale that shows it.
"""

from __future__ import annotations

import json

from core.run.policy import Policy, reference_policy

# --- hole 8: the catalogue check is linear --------------------------------------------------


class CountedId(str):
    """A tool id that counts how often it is compared for equality: the work a catalogue check does."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountedId.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _catalogue(count: int) -> list[dict]:
    return [{"tool_id": CountedId(f"tool{index:05d}"), "activity": "recon.passive", "requires": {},
             "family": "fam", "weight": 1.0, "cost": 1.0} for index in range(count)]


def test_building_a_policy_compares_each_tool_id_a_bounded_number_of_times():
    """Building a policy of n tools, and looking each tool up once, compares tool ids O(n) times, not O(n^2)."""
    base = reference_policy().snapshot()
    for count in (500, 2000):
        CountedId.comparisons = 0
        policy = Policy.from_dict({**base, "tools": _catalogue(count)})
        for tool in policy.tools:
            assert policy.tool_named(tool.tool_id) is tool
        per_tool = CountedId.comparisons / count
        assert per_tool < 8, f"{count} tools cost {CountedId.comparisons} id comparisons ({per_tool:.0f} per tool)"
