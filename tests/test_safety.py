"""Lesson 10 completion suite (safety half): the safety pack, its ratification and the SafetyCheck.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). One case per malformed pack or report, and the corners of
the check, live in tests/test_safety_edges.py. Tests work on tmp_path copies
of data/packs/safety; the committed files are only read.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.canon import canonical_bytes, digest
from core.run.demo_records import run_demo
from core.safety import (
    DEFAULT_SAFETY_PACK,
    OVERRIDE_ENV,
    Judgement,
    SafetyCheck,
    SafetyContext,
    SafetyPackError,
    load_safety_pack,
)
from core.safety.check import upheld
from core.safety.pack import PACK_DIR, first_broken_link, pack_as_sealed, pack_digest, seal_of
from core.safety.ratify import ratification_report

REPO = Path(__file__).resolve().parent.parent
PACK_FILE = f"{DEFAULT_SAFETY_PACK}.json"
REPORT_FILE = f"{DEFAULT_SAFETY_PACK}.ratification.json"
BOUNDARIES = (
    "no_fabricated_quote",
    "no_model_written_policy",
    "no_out_of_scope_destination",
    "no_unapproved_consequential_action",
    "no_unrecorded_refusal",
    "no_untrusted_adapter",
)


@pytest.fixture(autouse=True)
def no_override(monkeypatch):
    """A developer's shell may have the override set; these tests decide it themselves."""
    monkeypatch.delenv(OVERRIDE_ENV, raising=False)


@pytest.fixture
def packs(tmp_path) -> Path:
    folder = tmp_path / "safety"
    shutil.copytree(PACK_DIR, folder)
    return folder


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def edit_pack(folder: Path, change) -> None:
    document = read(folder / PACK_FILE)
    change(document)
    write(folder / PACK_FILE, document)


def ratify(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "core.safety.ratify", *args], cwd=REPO,
                          capture_output=True, text=True, env=env)


def demo_snapshot() -> dict:
    """A real recorder snapshot: lesson 2's demo run, with one finding and five refusals."""
    return run_demo()["report"]


def results(verdict) -> dict:
    return {result.boundary_id: result for result in verdict.results}


def test_the_one_safety_pack_loads_ratified():
    """The harness's one safety pack loads at start-up, ratified, with every boundary it declares and a description of each."""
    pack = load_safety_pack()
    assert (pack.pack_id, pack.ratified, pack.unratified_reason) == (DEFAULT_SAFETY_PACK, True, "")
    assert pack.boundary_ids == BOUNDARIES
    assert all(len(description) > 20 for description in pack.boundaries.values())
    assert pack.ratification_digest == digest(read(PACK_DIR / REPORT_FILE))


def test_a_missing_pack_stops_startup_with_a_runtime_error(tmp_path):
    """A missing safety pack stops start-up with a SafetyPackError, a RuntimeError rather than a ValueError, so code that turns bad input into refusals cannot swallow it."""
    assert issubclass(SafetyPackError, RuntimeError) and not issubclass(SafetyPackError, ValueError)

    def start_harness():
        try:
            return load_safety_pack(tmp_path)
        except ValueError:
            return "carried on as if it were bad input"

    with pytest.raises(SafetyPackError, match=rf"^{PACK_FILE}: no such safety pack$"):
        start_harness()


def test_a_malformed_or_empty_pack_stops_startup_even_with_the_override(packs, monkeypatch):
    """A safety pack that is not JSON, has the wrong shape or declares no boundaries stops start-up, even with the development override set."""
    monkeypatch.setenv(OVERRIDE_ENV, "1")
    assert load_safety_pack(packs).ratified
    original = (packs / PACK_FILE).read_text(encoding="utf-8")
    document = read(packs / PACK_FILE)
    broken = {
        "not JSON (": original[:-20],
        "lacks the field(s) boundaries": json.dumps({k: v for k, v in document.items() if k != "boundaries"}),
        "declares no boundaries": json.dumps({**document, "boundaries": {}}),
    }
    for expected, text in broken.items():
        (packs / PACK_FILE).write_text(text, encoding="utf-8")
        with pytest.raises(SafetyPackError, match=re.escape(expected)):
            load_safety_pack(packs)


def test_an_unratified_pack_stops_startup(packs):
    """A pack edited after ratification or never ratified, or one whose report is missing or whose seal is broken, stops start-up."""
    report = read(packs / REPORT_FILE)
    cases = {
        "the pack has changed since it was ratified":
            lambda: edit_pack(packs, lambda d: d["boundaries"].update(no_fabricated_quote="Quotes may be loose.")),
        "it has never been ratified": lambda: edit_pack(packs, lambda d: d.update(ratification_digest="")),
        f"{REPORT_FILE}: no such ratification report": lambda: (packs / REPORT_FILE).unlink(),
        f"the seal of {REPORT_FILE} does not match its content":
            lambda: write(packs / REPORT_FILE, {**report, "statement": "Nobody read these."}),
    }
    pristine = {name: (packs / name).read_bytes() for name in (PACK_FILE, REPORT_FILE)}
    for expected, breakage in cases.items():
        breakage()
        with pytest.raises(SafetyPackError, match=f"^safety pack {DEFAULT_SAFETY_PACK} is not ratified: {expected}"):
            load_safety_pack(packs)
        for name, data in pristine.items():
            (packs / name).write_bytes(data)
        assert load_safety_pack(packs).ratified


def test_a_ratification_that_is_present_but_does_not_match_stops_startup_and_verify(packs):
    """A ratification report that is present, sealed and named by the pack, but that ratified another version of it, stops start-up, and verify refuses a run sealed under another version: a pack, its report and a run belong together only when every link matches."""
    document = read(packs / PACK_FILE)
    weakened = copy.deepcopy(document)
    weakened["boundaries"]["no_fabricated_quote"] = "Quotes may be paraphrased."
    report = ratification_report(weakened)
    write(packs / REPORT_FILE, report)
    edit_pack(packs, lambda d: d.update(ratification_digest=digest(report)))
    assert seal_of(report) == report["seal"]  # present, and sealed: only the match is missing
    assert first_broken_link(read(packs / PACK_FILE), read(packs / REPORT_FILE)) == "pack"
    with pytest.raises(SafetyPackError, match="is not ratified: the pack has changed since it was ratified$"):
        load_safety_pack(packs)
    reference_run = read(REPO / "data" / "course" / "report.json")["safety_pack"]
    assert pack_as_sealed(reference_run).ratified
    refused = "was ratified, but it is not: the run was sealed under "
    for other, message in (({**reference_run, "digest": pack_digest(weakened)}, refused),
                           ({**reference_run, "ratified_by": "the board"}, refused),
                           ({**reference_run, "ratification": "Ratified"}, "'Ratified' is not one a run writes")):
        assert first_broken_link(document, read(PACK_DIR / REPORT_FILE), other) == "run"
        with pytest.raises(SafetyPackError, match=message):
            pack_as_sealed(other)


def test_the_override_skips_only_the_ratification_check(packs, monkeypatch):
    """The development override lets an unratified pack load, marked as unratified with the reason, and it changes nothing else about the pack."""
    edit_pack(packs, lambda d: d["boundaries"].update(no_secret_in_report="No report carries a credential."))
    monkeypatch.setenv(OVERRIDE_ENV, "yes")
    with pytest.raises(SafetyPackError, match="the pack has changed since it was ratified"):
        load_safety_pack(packs)
    monkeypatch.setenv(OVERRIDE_ENV, "1")
    pack = load_safety_pack(packs)
    assert (pack.ratified, pack.unratified_reason) == (False, "the pack has changed since it was ratified")
    assert pack.boundary_ids == tuple(sorted((*BOUNDARIES, "no_secret_in_report")))
    assert pack.ratification_digest == load_safety_pack().ratification_digest


def test_ratify_seals_the_report_and_running_it_again_changes_nothing(packs):
    """The ratify command seals a companion report over the pack, embeds the report's digest in the pack, and running it again changes no byte."""
    committed = {name: (PACK_DIR / name).read_bytes() for name in (PACK_FILE, REPORT_FILE)}
    assert ratify("--pack-dir", str(packs)).returncode == 0
    assert {name: (packs / name).read_bytes() for name in committed} == committed

    edit_pack(packs, lambda d: d["boundaries"].update(no_secret_in_report="No report carries a credential."))
    done = ratify("--pack-dir", str(packs), DEFAULT_SAFETY_PACK)
    report = read(packs / REPORT_FILE)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"ratified {DEFAULT_SAFETY_PACK}: report digest {digest(report)}\n"
    assert report["seal"] == seal_of(report) == digest({k: v for k, v in report.items() if k != "seal"})
    assert "no_secret_in_report" in report["boundary_ids"]
    assert read(packs / PACK_FILE)["ratification_digest"] == digest(report)
    assert load_safety_pack(packs).ratified
    first = {name: (packs / name).read_bytes() for name in committed}
    assert ratify("--pack-dir", str(packs)).returncode == 0
    assert {name: (packs / name).read_bytes() for name in committed} == first


def test_ratify_answers_bad_input_in_one_line(packs, tmp_path):
    """The ratify command answers bad input with one line on stderr and a non-zero exit, never a traceback."""
    edit_pack(packs, lambda d: d.update(boundaries={}))
    before = {name: (packs / name).read_bytes() for name in (PACK_FILE, REPORT_FILE)}
    cases = [
        (["--pack-dir", str(packs)], 1, "declares no boundaries"),
        (["--pack-dir", str(tmp_path / "nowhere")], 1, f"{PACK_FILE}: no such safety pack"),
        (["--pack-dir", str(packs), "../secrets"], 1, "is not a plain name"),
        (["--no-such-option"], 2, "unrecognized arguments"),
    ]
    for args, code, expected in cases:
        done = ratify(*args)
        assert done.returncode == code, args
        assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith("ratify: ") and expected in done.stderr
        assert str(tmp_path) not in done.stderr
    assert {name: (packs / name).read_bytes() for name in before} == before


def test_the_check_names_violated_boundaries_with_evidence():
    """The safety check names each violated boundary and gives the records that cross it as evidence."""
    pack, check = load_safety_pack(), SafetyCheck()
    snapshot = demo_snapshot()
    clean = check.check(SafetyContext.from_snapshot(snapshot), pack)
    assert clean.violated == ()
    assert results(clean)["no_out_of_scope_destination"].upheld is True

    tampered = copy.deepcopy(snapshot)
    tampered["actions"].append({"action_id": "inspect_headers -> https://other.example:443/",
                                "tool": "inspect_headers", "destination": "https://other.example/"})
    finding = tampered["findings"][0]
    finding["quote"] = "X-Debug-Mode: on"
    classes = {"inspect_headers": "probe.active_light"}
    verdict = check.check(SafetyContext.from_snapshot(tampered, tool_classes=classes), pack)
    assert verdict.violated == ("no_fabricated_quote", "no_out_of_scope_destination",
                                "no_unapproved_consequential_action")
    found = results(verdict)
    assert found["no_out_of_scope_destination"].evidence == ("inspect_headers -> https://other.example:443/",)
    assert found["no_fabricated_quote"].evidence == (finding["finding_id"],)
    assert found["no_fabricated_quote"].reason == "1 finding quoting text the cited capture does not hold"
    assert len(found["no_unapproved_consequential_action"].evidence) == 2


def test_the_check_is_honest_about_what_it_cannot_judge():
    """A boundary that no run can show, or whose evidence the snapshot lacks, is reported as not runtime-checkable and not judged, never as upheld."""
    snapshot = demo_snapshot()
    del snapshot["findings"]
    verdict = SafetyCheck().check(SafetyContext.from_snapshot(snapshot), load_safety_pack())
    found = results(verdict)
    not_judged = ("no_fabricated_quote", "no_model_written_policy", "no_unapproved_consequential_action",
                  "no_untrusted_adapter")
    for boundary_id in not_judged:
        assert (found[boundary_id].upheld, found[boundary_id].runtime_checkable) == (None, False), boundary_id
    assert "the snapshot has no findings list" in found["no_fabricated_quote"].reason
    assert "tool_classes" in found["no_unapproved_consequential_action"].reason
    assert "code path" in found["no_model_written_policy"].reason
    assert verdict.declared_only == not_judged
    assert verdict.checked_at_runtime == ("no_out_of_scope_destination", "no_unrecorded_refusal")
    report = verdict.to_dict()
    canonical_bytes(report)
    assert [r["boundary_id"] for r in report["results"]] == list(BOUNDARIES)
    assert report["summary"] == "2 of 6 boundaries checked at runtime, none violated; 4 declared only, not judged"


def test_custom_predicates_can_be_registered_and_a_boundary_without_one_is_not_judged():
    """A custom predicate can be registered for a boundary, and a declared boundary with no predicate is reported as not judged instead of crashing the check."""
    pack = load_safety_pack()
    extended = dataclasses.replace(pack, boundaries={**pack.boundaries, "no_secret_in_report": "No credentials."})
    context = SafetyContext.from_snapshot(demo_snapshot())
    check = SafetyCheck()
    result = results(check.check(context, extended))["no_secret_in_report"]
    assert (result.upheld, result.runtime_checkable) == (None, False)
    assert result.reason == "no predicate is registered for this boundary: it is declared, not checked"

    def no_secrets(ctx: SafetyContext) -> Judgement:
        leaked = tuple(capture_id for capture_id, body in ctx.captures if "password=" in body)
        return Judgement(not leaked, "captures checked for credentials", leaked)

    check.register("no_secret_in_report", no_secrets)
    check.register("no_model_written_policy", lambda ctx: upheld("reviewed in this test"))
    found = results(check.check(context, extended))
    assert (found["no_secret_in_report"].upheld, found["no_secret_in_report"].runtime_checkable) == (True, True)
    assert found["no_model_written_policy"].reason == "reviewed in this test"
    assert results(SafetyCheck().check(context, extended))["no_model_written_policy"].upheld is None


def test_a_report_names_the_pack_and_taxonomy_it_ran_under(packs, monkeypatch):
    """A sealed report records the safety pack's id, digest and ratification state, ratified or unratified (override), and the taxonomy's version and digest, so a run under the development override can always be told from a ratified one."""
    from core.run.drive import seal_report as seal_run
    from core.run.seal import finish
    from core.run.taxonomy import current_table

    from .lab_run import go_to, lab_run

    def sealed(pack) -> dict:
        door = lab_run(10, world="which-pack")
        go_to(door, "observe")
        assert finish(door, "looked once")["recorded"]
        return seal_run(door, pack)

    ratified = sealed(load_safety_pack())
    edit_pack(packs, lambda d: d.update(ratification_digest=""))
    monkeypatch.setenv(OVERRIDE_ENV, "1")
    overridden = sealed(load_safety_pack(packs))
    table = current_table()
    assert ratified["taxonomy"] == overridden["taxonomy"] == {"version": table.version, "digest": table.digest}
    assert ratified["safety_pack"] == {"pack_id": DEFAULT_SAFETY_PACK, "digest": load_safety_pack().digest,
                                       "ratification": "ratified"}
    assert overridden["safety_pack"] == {**ratified["safety_pack"], "ratification": "unratified (override)"}
    assert ratified["seal"]["head"] != overridden["seal"]["head"]


def test_the_demo_stops_startup_three_ways_and_the_override_skips_only_ratification(monkeypatch):
    """The lesson's demo shows start-up stopping for a missing, a malformed and an unratified pack, the override letting only the unratified one load with its report saying so, and ratification sealing the companion report, without writing the committed pack files."""
    from core.run.demo_safety import run_demo

    monkeypatch.setenv(OVERRIDE_ENV, "1")  # a developer's shell must not change what the demo shows
    committed = {name: (PACK_DIR / name).read_bytes() for name in (PACK_FILE, REPORT_FILE)}
    demo = run_demo()
    loader, override, ratified = demo["loader"], demo["override"], demo["ratification"]
    assert loader["committed"]["starts"] and loader["committed"]["ratification"] == "ratified"
    assert [loader[case]["starts"] for case in ("missing", "malformed", "unratified")] == [False] * 3
    assert loader["missing"]["error"] == f"{PACK_FILE}: no such safety pack"
    assert loader["malformed"]["error"].startswith(f"{PACK_FILE}: not JSON")
    assert loader["unratified"]["error"].endswith("the pack has changed since it was ratified")
    assert override["set_to_1"]["starts"] and override["set_to_1"]["ratification"] == "unratified (override)"
    assert not override["set_to_yes"]["starts"] and not override["malformed_with_override"]["starts"]
    assert override["reports_say"]["override"]["ratification"] == "unratified (override)"
    assert override["reports_say"]["ratified"]["ratification"] == "ratified" and override["heads_differ"]
    assert not ratified["before"]["starts"] and ratified["after"]["ratified"]
    assert ratified["seal_is_the_digest_of_the_rest"] and ratified["pack_names_the_report"]
    assert not ratified["report_edited_after"]["starts"]
    assert {name: (PACK_DIR / name).read_bytes() for name in committed} == committed
    check = demo["check"]
    assert check["same_as_sealed"] and check["reference"]["violated"] == []
    assert check["reference"]["declared_only"] == ["no_model_written_policy", "no_untrusted_adapter"]
    assert check["tampered"]["verdict"]["violated"] == ["no_fabricated_quote", "no_out_of_scope_destination"]
    lacking = {r["boundary_id"]: r for r in check["missing_evidence"]["verdict"]["results"]}
    assert lacking["no_fabricated_quote"]["upheld"] is None
    assert lacking["no_unapproved_consequential_action"]["runtime_checkable"] is False
