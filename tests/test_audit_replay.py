"""Lesson 10 completion suite, audit replay: a sealed report's decisions are made again and compared.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). The report builders come from tests/test_run_seal.py; the
edge cases live in tests/test_seal_edges.py.
"""

from __future__ import annotations

import copy
import functools
import json
import shutil

import pytest

from core.audit.replay import Answer, Divergence, replay
from core.run import taxonomy
from core.run.canon import write_artifact
from core.run.doors import final_door
from core.run.rederive import DoorError
from core.run.drive import work
from core.run.gate import GateState, Gating, act_subject, decide
from core.run.policy import Policy
from core.run.records import make_run
from core.run.seal import finish, reseal
from lab.adapter import HttpAdapter

from .lab_run import LAB_POLICY
from .test_run_seal import ROOT, lab_report, run_command, sealed_from

LEAD = "engagement-lead"
MARKER = {"parameter": "q", "marker": "lab-probe"}
PROBE = "probe_reflection -> https://lab.example:443/search"
EXPLOIT_TOOL = {"tool_id": "exploit_form", "activity": "exploit", "requires": {}, "family": "fam-exploit",
                "weight": 9.0, "cost": 1.0}
EXPLOIT = "exploit_form -> https://lab.example:443/search"


def scripted(*proposals: dict):
    """A model that proposes ``proposals`` once, then nothing."""
    replies = [json.dumps({"proposals": list(proposals)})]
    return lambda prompt: replies.pop() if replies else '{"proposals": []}'


def proposal(tool: str, path: str, arguments: dict | None = None) -> dict:
    return {"tool": tool, "destination": f"https://lab.example{path}", "arguments": arguments or {}, "why": "test"}


def driven_report(policy: dict, gating: dict, model, reviews: dict, world: str) -> dict:
    """A run driven through the final door by the run driver, finished and sealed."""
    rules = Policy.from_dict(policy)
    door = final_door(make_run(rules.snapshot(), {"world": world}), rules, Gating.from_dict(gating))
    with HttpAdapter("inprocess") as adapter:
        work(door, model, adapter, reviews)
    assert finish(door, "the model proposed nothing more")["recorded"]
    return sealed_from(door)


@functools.cache
def _gated_report() -> dict:
    """A passive page, then a probe held, approved as that exact act, and run."""
    approval = {"reviewer": LEAD, "decision": "approved", "reason": "a reflected-input probe on the lab only"}
    return driven_report(LAB_POLICY, {"caps": {"recon.passive": 3}, "fail_open_classes": [], "taxonomy_version": 2},
                         scripted(proposal("inspect_headers", "/"), proposal("probe_reflection", "/search", MARKER)),
                         {act_subject(PROBE, MARKER): approval}, "gated")


def gated_report() -> dict:
    return copy.deepcopy(_gated_report())


@functools.cache
def _v1_report() -> dict:
    """A run configured for the carried taxonomy version 1, whose engagement lead may approve an exploit."""
    tools = [{**tool, "activity": {"recon.passive": "passive", "probe.active_light": "active"}[tool["activity"]]}
             for tool in LAB_POLICY["tools"]] + [EXPLOIT_TOOL]
    approval = {"reviewer": LEAD, "decision": "approved", "reason": "the lead accepts the risk under version 1"}
    return driven_report({**LAB_POLICY, "tools": tools},
                         {"caps": {"passive": 3}, "fail_open_classes": [], "taxonomy_version": 1},
                         scripted(proposal("inspect_headers", "/"), proposal("exploit_form", "/search")),
                         {act_subject(EXPLOIT, {}): approval}, "version-1")


def v1_report() -> dict:
    return copy.deepcopy(_v1_report())


def test_an_untouched_report_replays_with_every_decision_agreeing():
    """An untouched sealed report replays with every decision agreeing, its refusals and its held and approved action included."""
    lab = lab_report()
    assert any(event["status"] == "refused" for event in lab["events"])
    assert replay(lab).divergences == ()
    gated = gated_report()
    kinds = [(event["kind"], event["status"]) for event in gated["events"]]
    assert ("action", "refused") in kinds and ("review", "admitted") in kinds
    assert replay(gated).divergences == ()


def test_replay_decides_under_the_taxonomy_version_the_report_names():
    """A report sealed under the carried taxonomy version 1 is replayed under version 1's own rules, which let an approved exploit run that version 2 would deny, so every decision agrees and today's table is never used."""
    sealed = v1_report()
    assert (sealed["gating"]["taxonomy_version"], sealed["taxonomy"]["version"]) == (1, 1)
    assert EXPLOIT in [action["action_id"] for action in sealed["actions"]]
    assert replay(sealed).divergences == ()
    today = taxonomy.current_table()
    under_v2 = decide(Gating(2, today, {}, ()), "exploit", EXPLOIT, act_subject(EXPLOIT, {}),
                      GateState(decided={act_subject(EXPLOIT, {}): ("approved", LEAD, "r")}))
    assert under_v2.verdict == "deny" and "no approver role is declared" in under_v2.reason


def test_the_safety_verdict_judges_a_run_under_the_version_it_was_sealed_with():
    """The safety check judges a run under the taxonomy version it ran under: an exploit approved under version 1 upholds the boundary on consequential actions, although version 2 would call it unapprovable."""
    sealed = v1_report()
    results = {result["boundary_id"]: result for result in sealed["safety"]["results"]}
    approved = results["no_unapproved_consequential_action"]
    assert approved["upheld"] is True and EXPLOIT in approved["evidence"]
    assert sealed["safety"]["violated"] == []


def test_replay_names_a_changed_table_instead_of_blaming_the_report(tmp_path):
    """When the taxonomy table a report was sealed under has been edited in place since, replay says the table changed, naming both digests, instead of reporting the report's decisions as diverging."""
    folder = tmp_path / "taxonomy"
    shutil.copytree(taxonomy.TAXONOMY_DIR, folder)
    table = json.loads((folder / "action_taxonomy.json").read_text(encoding="utf-8"))
    table["classes"][2]["approver_role"] = "anyone"
    (folder / "action_taxonomy.json").write_text(json.dumps(table), encoding="utf-8")
    sealed = gated_report()
    with pytest.raises(DoorError) as caught:
        replay(sealed, taxonomy_dir=folder)
    message = str(caught.value)
    assert message.startswith("the taxonomy table, version 2, has changed since the report was sealed")
    assert sealed["taxonomy"]["digest"][:12] in message and message.endswith("the table changed, not the report")


def test_a_divergence_names_the_event_the_sealed_decision_and_the_replayed_one():
    """A divergence names the event's sequence number and kind, what the sealed report says and what the replay decided."""
    sealed = gated_report()
    events = copy.deepcopy(sealed["events"])
    held = next(e for e in events if e["kind"] == "action" and e["status"] == "refused")
    held["reason"] = "held for no reason"
    selection = next(e for e in events if e["kind"] == "selection" and e["status"] == "admitted")
    selection.update(status="refused", id="", reason="nothing worth choosing")
    result = replay(reseal({**sealed, "events": events}))
    replayed_held = next(e for e in sealed["events"] if e["seq"] == held["seq"])
    assert result.divergences == tuple(sorted([
        Divergence(held["seq"], "action", Answer("refused", "", "held for no reason", "held_for_review"),
                   Answer("refused", "", replayed_held["reason"], "held_for_review")),
        Divergence(selection["seq"], "selection", Answer("refused", "", "nothing worth choosing", ""),
                   Answer("admitted", sealed["events"][selection["seq"] - 1]["id"], "", "")),
    ], key=lambda d: d.seq))
    assert result.divergences[-1].describe() == (
        f"event {held['seq']} (action): the report says refused: held for no reason; "
        f"the replay decided refused: {replayed_held['reason']}")


def test_an_altered_report_is_refused_before_replay(tmp_path):
    """An altered report is not replayed: the replay command names the first altered event and exits 1."""
    sealed = gated_report()
    sealed["events"][2]["payload"]["tool"] = "shell"
    path = write_artifact(tmp_path / "altered.json", sealed)
    done = run_command("core.audit.replay", str(path))
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout == ("not replayed, the report changed after it was sealed: altered: event 3: its chain hash "
                           "does not follow from the events before it (the event was altered, or it belongs to "
                           "another run)\n")


def test_replay_command_exit_codes(tmp_path):
    """`python3 -m core.audit.replay PATH` exits 0 saying every decision agrees, 1 listing each divergence, and 2 with one line for a missing file, a file that is not JSON or a report whose door cannot be rebuilt."""
    sealed = gated_report()
    agreeing = write_artifact(tmp_path / "agreeing.json", sealed)
    events = copy.deepcopy(sealed["events"])
    held = next(e for e in events if e["kind"] == "action" and e["status"] == "refused")
    held["reason"] = "held for no reason"
    diverging = write_artifact(tmp_path / "diverging.json", reseal({**sealed, "events": events}))
    unknown = write_artifact(tmp_path / "unknown.json",
                             reseal({**sealed, "gating": {**sealed["gating"], "taxonomy_version": 7}}))
    (tmp_path / "text.json").write_text("{", encoding="utf-8")
    done = run_command("core.audit.replay", str(agreeing))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"replayed {len(events)} events: every decision agrees, "
                                                              "checked against itself only (see --config)\n", "")
    done = run_command("core.audit.replay", str(diverging))
    lines = done.stdout.splitlines()
    assert (done.returncode, done.stderr, len(lines)) == (1, "", 2)
    assert lines[0] == f"replayed {len(events)} events: decisions diverge at 1 of them"
    assert lines[1].startswith(f"event {held['seq']} (action): the report says refused: held for no reason; "
                               "the replay decided refused: probe.active_light is consequential")
    for path, start in [(tmp_path / "missing.json", "no such file"), (tmp_path / "text.json", "not JSON"),
                        (unknown, "taxonomy version 7 is not carried")]:
        done = run_command("core.audit.replay", str(path))
        assert (done.returncode, done.stdout) == (2, ""), path
        assert done.stderr.startswith("replay: ") and start in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_the_demo_replays_the_reference_report_and_names_a_rewritten_refusal():
    """The lesson's demo replays the reference report with every decision agreeing, and in a copy whose out-of-scope refusal was rewritten and resealed, replay names that event, the reason the report gives and the reason the door gives."""
    from core.run.demo_safety import HIDDEN_REASON, run_demo

    shown = run_demo()["replay"]
    assert shown["reference"]["divergences"] == [] and shown["reference"]["events"] > 100
    altered = shown["altered"]
    assert altered["verify_before_reseal"].startswith(f"altered: event {altered['event']}")
    assert altered["verify_after_reseal"].startswith("intact")
    assert altered["divergences"] == [
        f"event {altered['event']} (proposal): the report says refused: {HIDDEN_REASON}; "
        f"the replay decided refused: {altered['sealed_reason']}"]
    assert "outside the explicit authorized origins" in altered["sealed_reason"]


def test_a_ledger_rewritten_through_a_fresh_door_verifies_and_replays_in_agreement():
    """A ledger rewritten through a fresh door and sealed again verifies and replays with every decision agreeing, and its safety verdict finds nothing, so only the head kept elsewhere tells it from the report that was sealed."""
    from core.run.rederive import verify
    from core.run.seal import against_kept_head
    from core.safety.pack import DEFAULT_SAFETY_PACK, PACK_DIR, first_broken_link, pack_path, report_path
    from tlog.forgery import forge

    genuine = json.loads((ROOT / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    forged = forge(genuine)
    assert len(forged["events"]) < len(genuine["events"])  # stories were dropped
    assert verify(forged).ok
    result = replay(forged)
    assert result.divergences == ()
    assert forged["safety"]["violated"] == []
    pack = json.loads(pack_path(PACK_DIR, DEFAULT_SAFETY_PACK).read_text(encoding="utf-8"))
    ratification = json.loads(report_path(PACK_DIR, DEFAULT_SAFETY_PACK).read_text(encoding="utf-8"))
    assert first_broken_link(pack, ratification, forged["safety_pack"]) == ""  # the pack's links hold too
    kept = genuine["seal"]["head"]
    assert not against_kept_head(verify(forged), forged, kept).ok
    assert against_kept_head(verify(genuine), genuine, kept).ok

