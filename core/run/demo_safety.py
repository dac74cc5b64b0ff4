"""Lesson 10's demo: the safety pack fails closed, ratification seals it, the check and replay judge a run.

    python3 -m core.run.demo_safety --out data/course/safety-demo.json

Every step works on a fresh temporary copy of data/packs/safety (pack.on_a_copy), so the
committed files are only read. In order: start-up stopping for a missing, a malformed and an
unratified pack; the override letting the unratified pack load and nothing else, and a run
sealed under it saying so; ratification; SafetyCheck on the reference run, a tampered copy
and a snapshot missing evidence; replay of the reference report and of an altered, resealed
copy. The edits are fixed data (data/scenes/safety.json) and messages name files without
their folder, so the artifact is byte-identical on every machine.
"""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

from core.audit.replay import replay
from core.run.canon import digest
from core.run.commandline import demo_main
from core.run.doors import final_door
from core.run.drive import enter, load_configuration, seal_run
from core.run.records import make_run
from core.run.rederive import verify
from core.run.seal import reseal
from core.safety import SafetyPackError, load_safety_pack, verdict_for
from core.safety.pack import DEFAULT_SAFETY_PACK, on_a_copy, overridden, read_pack, report_path, seal_of, start_up
from core.safety.ratify import ratify

REPO = Path(__file__).resolve().parents[2]
SCENE = json.loads((REPO / "data" / "scenes" / "safety.json").read_text(encoding="utf-8"))
PACK_FILE, HIDDEN_REASON = f"{DEFAULT_SAFETY_PACK}.json", SCENE["hidden_reason"]
EDITS = {"committed": lambda folder: None, "missing": lambda folder: (folder / PACK_FILE).unlink(),
         "malformed": lambda folder: (folder / PACK_FILE).write_text(SCENE["malformed"], encoding="utf-8"),
         "unratified": lambda folder: add_boundary(folder)}  # what start-up meets in a copy: all but the first stop it


def add_boundary(folder: Path) -> None:
    """Edit the copy's pack the way a developer would: one more boundary, not ratified yet."""
    document = json.loads((folder / PACK_FILE).read_text(encoding="utf-8"))
    document["boundaries"][SCENE["new_boundary"]["id"]] = SCENE["new_boundary"]["text"]
    (folder / PACK_FILE).write_text(json.dumps(document, indent=2), encoding="utf-8")


def sealed(folder: Path) -> dict:
    """A run sealed at once under the pack start-up loads from ``folder``: what its report says of that pack."""
    config = load_configuration()
    door = final_door(make_run(config.policy.snapshot(), {"world": "safety-demo"}), config.policy, config.gating)
    enter(door, "observe")
    return seal_run(door, load_safety_pack(folder), "the demo only needs a sealed report")


def the_override() -> dict:
    """The override lets the unratified pack load, marked so, and skips nothing else."""
    ratified, under_override = on_a_copy(EDITS["committed"], then=sealed), on_a_copy(add_boundary, "1", then=sealed)
    return {"set_to_1": on_a_copy(add_boundary, "1"), "set_to_yes": on_a_copy(add_boundary, "yes"),
            "malformed_with_override": on_a_copy(EDITS["malformed"], "1"),
            "reports_say": {"ratified": ratified["safety_pack"], "override": under_override["safety_pack"]},
            "heads_differ": ratified["seal"]["head"] != under_override["seal"]["head"]}


def the_ratification(folder: Path) -> dict:
    """Ratify the edited copy in ``folder``: the companion report is sealed, the pack names it, start-up passes."""
    before, report_digest = start_up(folder), ratify(folder, DEFAULT_SAFETY_PACK)
    report_file, pack = report_path(folder, DEFAULT_SAFETY_PACK), read_pack(folder, DEFAULT_SAFETY_PACK)
    report = json.loads(report_file.read_text(encoding="utf-8"))
    after, again = start_up(folder), ratify(folder, DEFAULT_SAFETY_PACK)
    unchanged = read_pack(folder, DEFAULT_SAFETY_PACK) == pack
    report_file.write_text(json.dumps({**report, "statement": SCENE["statement_after"]}), encoding="utf-8")  # after
    return {"before": before, "report": report, "seal_is_the_digest_of_the_rest": report["seal"] == seal_of(report),
            "pack_names_the_report": pack["ratification_digest"] == report_digest == digest(report),
            "after": after, "ratifying_again_changes_nothing": again == report_digest and unchanged,
            "report_edited_after": start_up(folder)}


def the_check(report: dict) -> dict:
    """The reference run judged by SafetyCheck; a tampered copy; a snapshot whose evidence is missing."""
    config = load_configuration()
    with overridden(None):  # the committed pack, as a real start-up loads it
        judged = partial(verdict_for, policy_tools={tool.tool_id: tool.activity for tool in config.policy.tools},
                         pack=load_safety_pack(), table=config.gating.table)
    tampered = {**report, "actions": [*report["actions"], SCENE["tampered"]["action"]],
                "findings": [{**report["findings"][0], "quote": SCENE["tampered"]["quote"]}, *report["findings"][1:]]}
    lacking = {key: value for key, value in report.items() if key not in SCENE["missing_evidence"]}
    reference = judged(report)
    return {"reference": reference, "same_as_sealed": reference == report["safety"],
            "tampered": {"changed": SCENE["tampered"]["changed"], "verdict": judged(tampered)},
            "missing_evidence": {"removed": SCENE["missing_evidence"], "verdict": judged(lacking)}}


def the_replay(report: dict) -> dict:
    """Replay the reference report, then a copy whose injection refusal was rewritten and resealed."""
    event = next(e for e in report["events"] if e["kind"] == "proposal" and e["code"] == "out_of_scope")
    altered = {**report, "events": [{**e, "reason": HIDDEN_REASON} if e is event else e for e in report["events"]]}
    unsealed, resealed = verify(altered), reseal(altered)
    return {"reference": {"events": len(report["events"]), **replay(report).summary()},
            "altered": {"event": event["seq"], "sealed_reason": event["reason"], "rewritten_reason": HIDDEN_REASON,
                        "verify_before_reseal": unsealed.message, "verify_after_reseal": verify(resealed).message,
                        "divergences": replay(resealed).summary()["divergences"]}}


def run_demo() -> dict:
    """The whole demo as data."""
    report = json.loads((REPO / "data" / "course" / "report.json").read_text(encoding="utf-8"))
    return {"about": SCENE["about"], "loader": {case: on_a_copy(edit) for case, edit in EDITS.items()},
            "override": the_override(), "ratification": on_a_copy(add_boundary, then=the_ratification),
            "check": the_check(report), "replay": the_replay(report)}


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_safety", "Write lesson 10's demo artifact: the safety pack's loader, ratification, "
                     "check and replay.", run_demo, argv, expected=(SafetyPackError,))


if __name__ == "__main__":
    sys.exit(main())
