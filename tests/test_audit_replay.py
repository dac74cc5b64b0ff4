"""Lesson 10 completion suite, audit replay: a sealed report's decisions are made again and compared.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). The report builders come from tests/test_run_seal.py; the
edge cases live in tests/test_seal_edges.py.
"""

from __future__ import annotations

import copy
import functools
from types import MappingProxyType

from core.audit.replay import Decision, Divergence, harness_door, replay
from core.run.canon import write_artifact
from core.run.harness import GatedRecorder, Gating, make_recorder
from core.run.policy import Policy
from core.run.records import make_run
from core.run.seal import finish, seal
from core.run.select import SelectionRecorder
from core.run.taxonomy import carried_taxonomy
from lab.adapter import HttpAdapter

from .lab_run import LAB_POLICY, capture_page, go_to
from .test_run_seal import lab_report, run_command, sealed_from, unchained

CANONICAL_POLICY = {**LAB_POLICY, "tools": [
    {**tool, "activity": {"passive": "recon.passive", "active": "probe.active_light"}[tool["activity"]]}
    for tool in LAB_POLICY["tools"]]}
CANONICAL_GATING = {"caps": {"recon.passive": 3}, "fail_open_classes": [], "taxonomy_version": 2}
PROBE = {"tool": "probe_reflection", "destination": "https://lab.example/search?q=lab-probe", "arguments": {}}
EXPLOIT_TOOL = {"tool_id": "exploit_form", "activity": "exploit", "requires": {}, "family": "fam-exploit",
                "weight": 1.0, "cost": 5.0}
EXPLOIT = {"tool": "exploit_form", "destination": "https://lab.example/search?q=payload", "arguments": {}}
LEAD = "engagement-lead"


def selection_door(run, policy, gating):
    """The door the lessons 3 to 5 lab loop ran through (it has no gate, so gating is not used)."""
    return SelectionRecorder(run, policy)


def door_under_named_table(run, policy, gating):
    """A gated door under the table the gating section names, without the harness's catalogue check.

    The check would refuse the legacy class name ``exploit`` under version 2;
    skipping it lets one catalogue run under both versions, so the tables'
    own decisions can be compared.
    """
    table = carried_taxonomy(gating["taxonomy_version"])
    return GatedRecorder(run, policy, Gating(table.version, table, MappingProxyType(dict(gating["caps"])),
                                             tuple(gating["fail_open_classes"])))


def resealed(report: dict, **changes) -> dict:
    """``report`` with ``changes`` applied and sealed again, as a door that sealed its own mistakes would."""
    bare = {key: value for key, value in {**report, **changes}.items() if key != "seal"}
    bare["events"] = [unchained(event) for event in bare["events"]]
    return seal(bare)


@functools.cache
def _gated_report() -> dict:
    """A run through the harness's own door: a passive page, then a probe held, approved and run."""
    policy = Policy.from_dict(CANONICAL_POLICY)
    recorder = make_recorder(make_run(policy.snapshot(), {"world": "gated"}), policy,
                             Gating.from_dict(CANONICAL_GATING))
    run_id = recorder.run.run_id
    with HttpAdapter("inprocess") as adapter:
        go_to(recorder, "execute")
        capture_page(recorder, adapter, "/", "inspect_headers")
        assert "waits for an approved review" in recorder.record("action", {"run_id": run_id, **PROBE})["reason"]
        review = {"run_id": run_id, "subject_id": "probe_reflection -> https://lab.example:443/search?q=lab-probe",
                  "decision": "approved", "reviewer": LEAD, "reason": "a reflected-input probe on the lab only"}
        assert recorder.record("review", review)["recorded"]
        capture_page(recorder, adapter, "/search?q=lab-probe", "probe_reflection")
    assert finish(recorder, "probed once, with approval")["recorded"]
    return sealed_from(recorder, CANONICAL_GATING)


def gated_report() -> dict:
    return copy.deepcopy(_gated_report())


def exploit_report() -> dict:
    """A version 2 run that tries an exploit, has it approved by the lead, and tries it again."""
    policy = Policy.from_dict({**LAB_POLICY, "tools": LAB_POLICY["tools"] + [EXPLOIT_TOOL]})
    gating = {"caps": {"passive": 3, "recon.passive": 3}, "fail_open_classes": [], "taxonomy_version": 2}
    recorder = door_under_named_table(make_run(policy.snapshot(), {"world": "exploit"}), policy, gating)
    run_id = recorder.run.run_id
    go_to(recorder, "execute")
    header = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", header)["recorded"]
    assert "denied, not held" in recorder.record("action", {"run_id": run_id, **EXPLOIT})["reason"]
    review = {"run_id": run_id, "subject_id": "exploit_form -> https://lab.example:443/search?q=payload",
              "decision": "approved", "reviewer": LEAD, "reason": "the lead accepts the risk"}
    assert not recorder.record("review", review)["recorded"]
    assert not recorder.record("action", {"run_id": run_id, **EXPLOIT})["recorded"]
    assert finish(recorder, "the exploit was not allowed")["recorded"]
    return sealed_from(recorder, gating)


def test_an_untouched_report_replays_with_every_decision_agreeing():
    """An untouched sealed report replays with every decision agreeing, its refusals and its held and approved action included."""
    lab = lab_report()
    assert any(event["status"] == "refused" for event in lab["events"])
    assert replay(lab, selection_door) == []
    gated = gated_report()
    kinds = [(event["kind"], event["status"]) for event in gated["events"]]
    assert ("action", "refused") in kinds and ("review", "admitted") in kinds
    assert replay(gated, harness_door) == []


def test_replay_decides_under_the_taxonomy_version_the_report_names():
    """A report sealed under taxonomy version 2 and replayed under the carried version 1 is re-decided by version 1's rules, which let an approved exploit run that version 2 denies, and each place the two versions decide differently is a divergence."""
    sealed = exploit_report()
    assert replay(sealed, door_under_named_table) == []
    under_v1 = resealed(sealed, gating={**sealed["gating"], "taxonomy_version": 1})
    divergences = replay(under_v1, door_under_named_table)
    exploit_seqs = [event["seq"] for event in sealed["events"] if event["kind"] in ("action", "review")][1:]
    assert [(d.seq, d.kind) for d in divergences] == list(zip(exploit_seqs, ["action", "review", "action"]))
    held, reviewed, admitted = (d.replayed for d in divergences)
    assert held.status == "refused" and held.reason.endswith(f"it waits for an approved review by {LEAD}")
    assert reviewed.status == admitted.status == "admitted"
    assert admitted.id == "exploit_form -> https://lab.example:443/search?q=payload"
    assert all(d.sealed.status == "refused" for d in divergences)


def test_a_divergence_names_the_event_the_sealed_decision_and_the_replayed_one():
    """A divergence names the event's sequence number and kind, what the sealed report says and what the replay decided."""
    sealed = lab_report()
    events = copy.deepcopy(sealed["events"])
    budget = next(e for e in events if e["reason"] == "model call budget of 4 calls is spent")
    budget["reason"] = "the model was not worth asking"
    proposal = next(e for e in events if e["kind"] == "proposal" and e["status"] == "admitted")
    proposal.update(status="refused", id="", reason="proposal turned away")
    divergences = replay(resealed(sealed, events=events), selection_door)
    assert divergences == sorted([
        Divergence(budget["seq"], "model_call", Decision("refused", "", "the model was not worth asking"),
                   Decision("refused", "", "model call budget of 4 calls is spent")),
        Divergence(proposal["seq"], "proposal", Decision("refused", "", "proposal turned away"),
                   Decision("admitted", sealed["events"][proposal["seq"] - 1]["id"], "")),
    ], key=lambda d: d.seq)
    assert divergences[-1].describe() == (
        f"event {budget['seq']} (model_call): the report says refused: the model was not worth asking; "
        "the replay decided refused: model call budget of 4 calls is spent")


def test_an_altered_report_is_refused_before_replay(tmp_path):
    """An altered report is not replayed: the replay command names the first altered event and exits 1."""
    sealed = gated_report()
    sealed["events"][2]["payload"]["tool"] = "shell"
    path = write_artifact(tmp_path / "altered.json", sealed)
    done = run_command("core.audit.replay", str(path))
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout == ("not replayed, the seal does not hold: altered: event 3: its chain hash does not follow "
                           "from the events before it (the event was altered, or it belongs to another run)\n")


def test_replay_command_exit_codes(tmp_path):
    """`python3 -m core.audit.replay PATH` exits 0 saying every decision agrees, 1 listing each divergence, and 2 with one line for a missing file, a file that is not JSON or a report whose door cannot be rebuilt."""
    sealed = gated_report()
    agreeing = write_artifact(tmp_path / "agreeing.json", sealed)
    events = copy.deepcopy(sealed["events"])
    held = next(e for e in events if e["kind"] == "action" and e["status"] == "refused")
    held["reason"] = "held for no reason"
    diverging = write_artifact(tmp_path / "diverging.json", resealed(sealed, events=events))
    legacy = write_artifact(tmp_path / "legacy.json", lab_report())
    (tmp_path / "text.json").write_text("{", encoding="utf-8")
    done = run_command("core.audit.replay", str(agreeing))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"replayed {len(events)} events: every decision agrees\n", "")
    done = run_command("core.audit.replay", str(diverging))
    lines = done.stdout.splitlines()
    assert (done.returncode, done.stderr, len(lines)) == (1, "", 2)
    assert lines[0] == f"replayed {len(events)} events: decisions diverge at 1 of them"
    assert lines[1].startswith(f"event {held['seq']} (action): the report says refused: held for no reason; "
                               "the replay decided refused: probe.active_light is consequential")
    for path, start in [(tmp_path / "missing.json", "no such file"), (tmp_path / "text.json", "not JSON"),
                        (legacy, "cannot rebuild the run's door")]:
        done = run_command("core.audit.replay", str(path))
        assert (done.returncode, done.stdout) == (2, ""), path
        assert done.stderr.startswith("replay: ") and start in done.stderr and done.stderr.count("\n") == 1, done.stderr
