"""Lesson 2 completion suite: one origin rule, two twins, one identity per act.

The harness must not take its scope rule from the target it tests, so
core/run/origins.py restates the lab's canonicalizer (lab/origins.py), written
apart; two twins catch each other's mistakes. These tests hold them to the shared case
table and show the consequence at the door: alias spellings of a destination
are one act. Every test here is one completion sentence of the lesson page.
"""

from __future__ import annotations

import json
from pathlib import Path

import lab.origins
from core.run import origins
from core.run.demo_records import build_policy
from core.run.recorder import Recorder
from core.run.records import make_run

CASES = Path(__file__).resolve().parent.parent / "data" / "cases" / "origins.json"


def outcome(canonicalize, error_type, text: str, key: str = "expect") -> dict:
    """What a canonicalizer says about ``text``: its value under ``key``, or its error category."""
    try:
        return {key: canonicalize(text)}
    except error_type as exc:
        return {"error": exc.category}


def test_origin_twins_agree_on_the_case_table():
    """Core's origin canonicalizer and the lab's give the same answer, value or error category, for every case in the shared table."""
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 40
    assert tuple(origins.CATEGORIES) == tuple(lab.origins.CATEGORIES)
    assert {case["error"] for case in cases if "error" in case} == set(origins.CATEGORIES)
    disagreements = []
    for case in cases:
        expected = {key: case[key] for key in ("expect", "error") if key in case}
        core_says = outcome(origins.canonical_origin, origins.OriginError, case["input"])
        lab_says = outcome(lab.origins.canonical_origin, lab.origins.OriginError, case["input"])
        if not core_says == lab_says == expected:
            disagreements.append((case["input"], case["note"], expected, core_says, lab_says))
        if "destination" in case:  # the same for the whole destination: origin, path and query
            core_says = outcome(origins.canonical_destination, origins.OriginError, case["input"], "destination")
            lab_says = outcome(lab.origins.canonical_destination, lab.origins.OriginError, case["input"], "destination")
            if not core_says == lab_says == {"destination": case["destination"]}:
                disagreements.append((case["input"], case["note"], case["destination"], core_says, lab_says))
    assert sum("destination" in case for case in cases) >= 40
    assert disagreements == []


def test_alias_spellings_collapse_to_one_identity():
    """Different spellings of the same destination collapse to a single action identity at the door before anything is stored."""
    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "aliases"}), policy)
    run_id = recorder.run.run_id
    spellings = [
        "https://lab.example/",
        "HTTPS://LAB.EXAMPLE/",
        "https://LAB.example./",
        "https://lab.example:443/",
        "https://lab.example",
        "https://lab.example/#fragment",
        "hTTpS://Lab.Example.:443",
    ]
    identity = "inspect_headers -> https://lab.example:443/"
    answers = [
        recorder.record("action", {"run_id": run_id, "tool": "inspect_headers", "destination": d, "arguments": {}})
        for d in spellings
    ]
    assert answers[0] == {"recorded": True, "kind": "action", "id": identity}
    assert answers[1:] == [{"recorded": False, "reason": f"action '{identity}' is already recorded"}] * (
        len(spellings) - 1
    )
    assert [a["action_id"] for a in recorder.snapshot()["actions"]] == [identity]
    # Spellings of /about that differ only in dot segments, escapes and slashes are one act too.
    about = "inspect_headers -> https://lab.example:443/about"
    about_spellings = [
        "https://lab.example/about",
        "https://lab.example/./about",
        "https://lab.example/a/../about",
        "https://lab.example/%61bout",
        "https://lab.example/%61%62%6f%75%74",
        "https://lab.example//about",
        "https://lab.example/x%2F..%2Fabout",
    ]
    answers = [
        recorder.record("action", {"run_id": run_id, "tool": "inspect_headers", "destination": d, "arguments": {}})
        for d in about_spellings
    ]
    assert answers[0] == {"recorded": True, "kind": "action", "id": about}
    assert answers[1:] == [{"recorded": False, "reason": f"action '{about}' is already recorded"}] * (
        len(about_spellings) - 1
    )
    assert [a["action_id"] for a in recorder.snapshot()["actions"]] == [identity, about]
    # A different path at the same origin is a different act, not an alias.
    other_path = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/contact", "arguments": {}}
    assert recorder.record("action", other_path)["id"] == "inspect_headers -> https://lab.example:443/contact"
