"""Lesson 10's demo: the safety pack fails closed, ratification seals it, the check and replay judge a run.

    python3 -m core.run.demo_safety --out data/course/safety-demo.json

Every step works on a temporary copy of data/packs/safety: the committed
pack and its ratification report are only read. The demo shows, in order:

1. the loader stopping start-up for a missing pack, a malformed pack and an
   unratified one;
2. the development override letting the unratified pack load, and nothing
   else: a malformed pack still stops start-up, and a run sealed under the
   override says so in its report;
3. ratification sealing the companion report, and the pack loading ratified;
4. SafetyCheck's verdicts on the reference run, on a tampered copy of it and
   on a snapshot missing evidence, including the boundaries no run can show;
5. a replay of the reference report with every decision agreeing, and of an
   altered, resealed copy with the divergence named.

Error messages show file names only, never the temporary folder, so the
artifact is byte-identical on every machine.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from core.audit.replay import replay
from core.run.canon import digest
from core.run.commandline import demo_main
from core.run.doors import final_door
from core.run.rederive import verify
from core.run.drive import enter, load_configuration, seal_run
from core.run.records import make_run
from core.run.seal import reseal
from core.safety import OVERRIDE_ENV, SafetyCheck, SafetyContext, SafetyPackError, load_safety_pack
from core.safety.pack import DEFAULT_SAFETY_PACK, PACK_DIR, seal_of
from core.safety.ratify import ratify

REPO = Path(__file__).resolve().parents[2]
REFERENCE_REPORT = REPO / "data" / "course" / "report.json"
PACK_FILE = f"{DEFAULT_SAFETY_PACK}.json"
NEW_BOUNDARY = ("no_secret_in_report", "No report carries a credential the lab handed out.")
HIDDEN_REASON = "malformed reply to model call 6: not JSON (Expecting value at line 1 column 1)"


@contextmanager
def override(value: str | None) -> Iterator[None]:
    """Run a block with the development override set to ``value`` (None: unset), whatever the shell had."""
    before = os.environ.get(OVERRIDE_ENV)
    if value is None:
        os.environ.pop(OVERRIDE_ENV, None)
    else:
        os.environ[OVERRIDE_ENV] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(OVERRIDE_ENV, None)
        else:
            os.environ[OVERRIDE_ENV] = before


@contextmanager
def pack_copy() -> Iterator[Path]:
    """A temporary copy of the committed pack folder; the committed files are never written."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "safety"
        shutil.copytree(PACK_DIR, folder)
        yield folder


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def add_boundary(folder: Path) -> None:
    """Edit the copy's pack the way a developer would: one more boundary, not ratified yet."""
    document = read(folder / PACK_FILE)
    document["boundaries"][NEW_BOUNDARY[0]] = NEW_BOUNDARY[1]
    (folder / PACK_FILE).write_text(json.dumps(document, indent=2), encoding="utf-8")


def start_up(folder: Path) -> dict:
    """What start-up does with the pack in ``folder``: loads it, or stops with the loader's reason."""
    try:
        pack = load_safety_pack(folder)
    except SafetyPackError as exc:
        return {"starts": False, "error": str(exc)}
    return {"starts": True, "ratified": pack.ratified, "ratification": pack.ratification,
            "unratified_reason": pack.unratified_reason, "boundary_ids": list(pack.boundary_ids)}


def the_loader() -> dict:
    """A missing, a malformed and an unratified pack: each stops start-up, with its reason."""
    cases: dict[str, Callable[[Path], None]] = {
        "missing": lambda folder: (folder / PACK_FILE).unlink(),
        "malformed": lambda folder: (folder / PACK_FILE).write_text('{"pack_id": "harness_safety_v1",',
                                                                    encoding="utf-8"),
        "unratified": add_boundary,
    }
    shown = {}
    with override(None):
        with pack_copy() as folder:
            shown["committed"] = start_up(folder)
        for name, breakage in cases.items():
            with pack_copy() as folder:
                breakage(folder)
                shown[name] = start_up(folder)
    return shown


def tiny_sealed_report(pack) -> dict:
    """A run that opens, finishes at once and is sealed under ``pack``: enough to read its safety_pack section."""
    config = load_configuration()
    door = final_door(make_run(config.policy.snapshot(), {"world": "safety-demo"}), config.policy, config.gating)
    enter(door, "observe")
    return seal_run(door, pack, "the demo only needs a sealed report")


def the_override() -> dict:
    """The override lets the unratified pack load, marked so, and skips nothing else."""
    with pack_copy() as folder:
        add_boundary(folder)
        with override("1"):
            loaded = start_up(folder)
            overridden = load_safety_pack(folder)
            sealed_under_override = tiny_sealed_report(overridden)
        with override("yes"):
            only_one = start_up(folder)
    with pack_copy() as folder:
        (folder / PACK_FILE).write_text('{"pack_id": "harness_safety_v1",', encoding="utf-8")
        with override("1"):
            malformed = start_up(folder)
    with override(None):
        sealed_ratified = tiny_sealed_report(load_safety_pack())
    return {
        "set_to_1": loaded,
        "set_to_yes": only_one,
        "malformed_with_override": malformed,
        "reports_say": {"ratified": sealed_ratified["safety_pack"],
                        "override": sealed_under_override["safety_pack"]},
        "heads_differ": sealed_ratified["seal"]["head"] != sealed_under_override["seal"]["head"],
    }


def the_ratification() -> dict:
    """Ratify the edited copy: the companion report is sealed, the pack names it, start-up passes."""
    with override(None), pack_copy() as folder:
        add_boundary(folder)
        before = start_up(folder)
        report_digest = ratify(folder, DEFAULT_SAFETY_PACK)
        report = read(folder / f"{DEFAULT_SAFETY_PACK}.ratification.json")
        pack = read(folder / PACK_FILE)
        after = start_up(folder)
        again = ratify(folder, DEFAULT_SAFETY_PACK)
        unchanged = read(folder / PACK_FILE) == pack
        edited = copy.deepcopy(report)
        edited["statement"] = "Nobody read these."
        (folder / f"{DEFAULT_SAFETY_PACK}.ratification.json").write_text(json.dumps(edited), encoding="utf-8")
        tampered = start_up(folder)
    return {
        "before": before,
        "report": report,
        "seal_is_the_digest_of_the_rest": report["seal"] == seal_of(report),
        "pack_names_the_report": pack["ratification_digest"] == report_digest == digest(report),
        "after": after,
        "ratifying_again_changes_nothing": again == report_digest and unchanged,
        "report_edited_after": tampered,
    }


def verdict(snapshot: dict, report: dict) -> dict:
    """The SafetyCheck's verdict on ``snapshot``, with the tool classes and taxonomy of ``report``'s run."""
    config = load_configuration()
    tools = {tool.tool_id: tool.activity for tool in config.policy.tools}
    context = SafetyContext.from_snapshot(snapshot, tools, config.gating.table)
    with override(None):
        return SafetyCheck().check(context, load_safety_pack()).to_dict()


def the_check(report: dict) -> dict:
    """The reference run judged; a tampered copy; a snapshot whose evidence is missing."""
    tampered = copy.deepcopy(report)
    tampered["actions"].append({"action_id": "inspect_headers -> https://other.example:443/",
                                "tool": "inspect_headers", "destination": "https://other.example/"})
    tampered["findings"][0]["quote"] = "X-Debug-Mode: on"
    lacking = {key: value for key, value in report.items() if key not in ("findings", "reviews")}
    reference = verdict(report, report)
    return {
        "reference": reference,
        "same_as_sealed": reference == report["safety"],
        "tampered": {"changed": ["an action aimed at https://other.example/ appended",
                                 "the first finding's quote replaced with text no capture holds"],
                     "verdict": verdict(tampered, report)},
        "missing_evidence": {"removed": ["findings", "reviews"], "verdict": verdict(lacking, report)},
    }


def the_replay(report: dict) -> dict:
    """Replay the reference report, then a copy whose injection refusal was rewritten and resealed."""
    reference = replay(report)
    altered = copy.deepcopy(report)
    event = next(e for e in altered["events"] if e["kind"] == "proposal" and e["code"] == "out_of_scope")
    original = event["reason"]
    event["reason"] = HIDDEN_REASON
    unsealed = verify(altered)
    resealed = reseal(altered)
    result = replay(resealed)
    return {
        "reference": {"events": len(report["events"]),
                      "divergences": [d.describe() for d in reference.divergences],
                      "not_redecided": list(reference.not_redecided)},
        "altered": {
            "event": event["seq"],
            "sealed_reason": original,
            "rewritten_reason": HIDDEN_REASON,
            "verify_before_reseal": unsealed.message,
            "verify_after_reseal": verify(resealed).message,
            "divergences": [d.describe() for d in result.divergences],
        },
    }


def run_demo() -> dict:
    """The whole demo as data."""
    report = read(REFERENCE_REPORT)
    return {
        "about": "Lesson 10: the one safety pack fails closed, ratification seals it, "
                 "SafetyCheck judges a run honestly and replay decides a sealed run again.",
        "loader": the_loader(),
        "override": the_override(),
        "ratification": the_ratification(),
        "check": the_check(report),
        "replay": the_replay(report),
    }


def main(argv: list[str] | None = None) -> int:
    return demo_main("demo_safety", "Write lesson 10's demo artifact: the safety pack's loader, ratification, "
                     "check and replay.", run_demo, argv, expected=(SafetyPackError,))


if __name__ == "__main__":
    sys.exit(main())
