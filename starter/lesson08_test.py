"""Lesson 8 completion test: your two taxonomy rows and your caps, judged by lesson 8's real door.

Your rows are added to a copy of the committed table (as version 3) in a
temporary folder; the run's gating is read from it with Gating.from_dict, and
every act passes door_for(8, ...), walked to the verify stage as the lesson's
demo does (core/run/demo_gating.py: lesson 7's plan guard left out, so the
acts reach the gate). The metadata checks use a table with
your recon.metadata row only, the form checks one with your
probe.form_submit row only, so a mistake in one row does not hide the other.
By default they check starter/lesson08.py; `course check 8` shows each result.
"""

import hashlib
import json
import tempfile
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from core.run.demo_gating import WITHOUT, at_verify
from core.run.doors import door_for
from core.run.gate import Gating, GatingError, act_subject
from core.run.policy import Policy
from core.run.records import action_identity, make_run
from core.run.taxonomy import TAXONOMY_DIR, TaxonomyError, parse_table
from course.student import Student

LAB = "https://lab.example"
METADATA, FORM = "recon.metadata", "probe.form_submit"
HEADERS = {"tool_id": "inspect_headers", "activity": "recon.passive", "requires": {}, "family": "fam-recon",
           "weight": 2.0, "cost": 1.0}
INSPECT_METADATA = {"tool_id": "inspect_metadata", "activity": METADATA, "requires": {"has_meta": True},
                    "family": "fam-recon", "weight": 3.0, "cost": 1.0}
SUBMIT_FORM = {"tool_id": "submit_form", "activity": FORM, "requires": {}, "family": "fam-probe",
               "weight": 3.0, "cost": 2.0, "arguments": {"field": "string", "marker": "string"}}
READS = ("/about", "/contact", "/news", "/search")  # the fourth is one past the operator's three
FIRST = {"field": "message", "marker": "lab-form-<b>1</b>"}
SECOND = {"field": "message", "marker": "lab-form-<b>2</b>"}
HOLDS = "waits for an approved review of this exact act by"


yours = Student(8, names=("metadata_row", "form_probe_row", "my_caps"), in_process=True)


def read_mine() -> SimpleNamespace:
    """Your two rows and your caps, or a one-line failure naming what is wrong."""
    made = {}
    for name, what in (("metadata_row", "recon.metadata row"), ("form_probe_row", "probe.form_submit row"),
                       ("my_caps", "run's caps")):
        made[name] = yours.call(name)  # one line when the file cannot load, lacks it, or it raises
        if not isinstance(made[name], dict):
            pytest.fail(f"{name}() must return a dict (your {what}), not {type(made[name]).__name__}")
    for name, wanted in (("metadata_row", METADATA), ("form_probe_row", FORM)):
        if made[name].get("name") != wanted:
            pytest.fail(f"{name}() must name the class {wanted!r}, not {made[name].get('name')!r}")
    return SimpleNamespace(metadata=made["metadata_row"], form=made["form_probe_row"], caps=made["my_caps"])


@pytest.fixture(scope="module")
def mine():
    return read_mine()


def your_table(*rows: dict) -> dict:
    """The committed table with your rows added, as version 3."""
    raw = json.loads((TAXONOMY_DIR / "action_taxonomy.json").read_text(encoding="utf-8"))
    raw["taxonomy_version"] = 3
    raw["about"] = "Version 2 of the action classes, with the rows of lesson 8's exercise."
    raw["classes"] = raw["classes"] + [dict(row) for row in rows]
    return raw


def gating_with(row: dict, caps: dict) -> Gating:
    """The run's gating under the committed table plus ``row``, or a failure naming what is wrong.

    A cap of your other class is left out here: that class is not in this table.
    """
    other = FORM if row.get("name") == METADATA else METADATA
    caps = {name: cap for name, cap in caps.items() if name != other}
    raw = your_table(row)
    try:
        parse_table(raw, "your table")
    except (TaxonomyError, TypeError) as exc:
        pytest.fail(f"your {row.get('name')} row does not load: {exc}")
    text = json.dumps(raw, sort_keys=True)
    folder = Path(tempfile.gettempdir()) / f"lesson08-table-{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    folder.mkdir(exist_ok=True)
    (folder / "action_taxonomy.json").write_text(text, encoding="utf-8")
    try:
        return Gating.from_dict({"taxonomy_version": 3, "caps": caps, "fail_open_classes": []}, folder)
    except GatingError as exc:
        pytest.fail(f"my_caps() is not a gating the run accepts: {exc}")


def door_with(row: dict, caps: dict, tool: dict, world: str):
    """Lesson 8's door under your table, with has_meta observed, walked to the verify stage."""
    gating = gating_with(row, caps)
    policy = Policy.from_dict({"reference": "training-authorization-0001", "allowed_origins": [f"{LAB}:443"],
                               "tools": [HEADERS, tool], "max_actions": 12, "max_model_calls": 4})
    try:
        door = door_for(8, make_run(policy.snapshot(), {"world": world}), policy, gating, without=WITHOUT)
    except GatingError as exc:
        pytest.fail(f"lesson 8's door refuses a catalogue with {tool['tool_id']} under your row: {exc}")
    assert door.record("observation", {"run_id": door.run.run_id, "field": "has_meta", "value": True})["recorded"]
    return at_verify(door)


def act(door, tool: str, path: str, arguments: dict | None = None) -> dict:
    """Hand an act to the door; settle an admitted one at once, so the gate's view stays current."""
    payload = {"run_id": door.run.run_id, "tool": tool, "destination": f"{LAB}{path}", "arguments": arguments or {}}
    answer = door.record("action", payload)
    if answer["recorded"]:
        settled = door.record("outcome", {"run_id": door.run.run_id, "action_id": answer["id"], "status": "succeeded"})
        assert settled["recorded"], settled
    return answer


def review(door, subject: str, reviewer: str) -> dict:
    return door.record("review", {"run_id": door.run.run_id, "subject_id": subject, "decision": "approved",
                                  "reviewer": reviewer, "reason": "one harmless marker in the contact form"})


def metadata_reads(mine) -> list[dict]:
    """The door's answers to four metadata reads in a row."""
    door = door_with(mine.metadata, mine.caps, INSPECT_METADATA, "lesson08-metadata")
    return [act(door, "inspect_metadata", path) for path in READS]


def identity(path: str, tool: str = "inspect_metadata") -> str:
    return action_identity(tool, f"{LAB}{path}").replace(f" -> {LAB}:443", " ")


def test_your_rows_declare_every_key(mine):
    for row in (mine.metadata, mine.form):
        gating_with(row, {})
    try:
        parse_table(your_table(mine.metadata, mine.form), "your table")
    except (TaxonomyError, TypeError) as exc:
        pytest.fail(f"your two rows do not load together: {exc}")


def test_inspect_metadata_reads_three_times_without_review(mine):
    for number, (path, answer) in enumerate(zip(READS[:3], metadata_reads(mine)), start=1):
        if not answer["recorded"]:
            pytest.fail(f"metadata read {number} ({identity(path)}) was refused: {answer['reason']}; "
                        "the operator allows three reads without a review")


def test_a_fourth_metadata_read_is_denied_not_held(mine):
    answers = metadata_reads(mine)
    early = [number for number, answer in enumerate(answers[:3], start=1) if not answer["recorded"]]
    if early:
        pytest.fail(f"metadata read {early[0]} was already refused, before the fourth; see the check above")
    fourth = answers[3]
    if fourth["recorded"]:
        pytest.fail(f"the door admitted a fourth metadata read ({identity(READS[3])}); the operator allows "
                    f"three, so the cap of {METADATA} in my_caps() must be 3, not {mine.caps.get(METADATA)!r}")
    if HOLDS in fourth["reason"]:
        pytest.fail(f"the fourth metadata read was held for a review ({fourth['reason']}); nobody may approve "
                    f"a read past the cap, so it must be denied, not held")
    if not fourth["reason"].endswith("so it is denied, not held"):
        pytest.fail(f"the fourth metadata read was refused for another reason than its cap: {fourth['reason']}")


def test_the_form_probe_is_held_until_the_engagement_lead_approves_that_exact_act(mine):
    door = door_with(mine.form, mine.caps, SUBMIT_FORM, "lesson08-form")
    probe = action_identity("submit_form", f"{LAB}/contact")
    first = act(door, "submit_form", "/contact", FIRST)
    if first["recorded"]:
        pytest.fail("submit_form was admitted without any review; a form submission changes what the site "
                    f"stores, so {FORM} must be consequential")
    if f"{HOLDS} engagement-lead" not in first["reason"]:
        pytest.fail(f"submit_form was not held for the engagement lead: {first['reason']}; the operator wants "
                    "each form submission held until the engagement-lead approves it")
    subject = act_subject(probe, FIRST)
    if review(door, subject, "client-liaison")["recorded"]:
        pytest.fail("a review of the held submit_form by client-liaison was admitted; only engagement-lead may")
    if not review(door, subject, "engagement-lead")["recorded"]:
        pytest.fail("the engagement lead's approval of the held submit_form was refused")
    other = act(door, "submit_form", "/contact", SECOND)
    if other["recorded"] or HOLDS not in other["reason"]:
        pytest.fail(f"submit_form with another marker was not held again: {other}; an approval covers one exact act")
    again = act(door, "submit_form", "/contact", FIRST)
    if not again["recorded"]:
        pytest.fail(f"the approved submit_form was refused after its approval: {again['reason']}")


def test_your_rows_keep_the_operators_other_rules(mine):
    if mine.form.get("trigger_class") != "active_testing":
        pytest.fail(f"{FORM} counts toward {mine.form.get('trigger_class')!r}; the operator counts a form "
                    "submission as active_testing")
    for row in (mine.metadata, mine.form):
        if row.get("fail_open_allowed") is not False:
            pytest.fail(f"{row['name']} has fail_open_allowed {row.get('fail_open_allowed')!r}; the operator "
                        "says it never proceeds on a stale view")
        if row.get("legacy_aliases") != []:
            pytest.fail(f"{row['name']} lists the earlier names {row.get('legacy_aliases')!r}; it had none")


def show(mine) -> None:
    """Print what the gate answered to each act, with your rows and caps."""
    def say(what: str, answer: dict) -> None:
        said = f"{what}: " + ("admitted" if answer["recorded"] else f"refused: {answer['reason']}")
        print(textwrap.fill(said, 79, subsequent_indent="    "))

    for path, answer in zip(READS, metadata_reads(mine)):
        say(identity(path), answer)
    door = door_with(mine.form, mine.caps, SUBMIT_FORM, "lesson08-form")
    say("submit_form, marker 1", act(door, "submit_form", "/contact", FIRST))
    say("  approval by engagement-lead",
        review(door, act_subject(action_identity("submit_form", f"{LAB}/contact"), FIRST), "engagement-lead"))
    say("submit_form, marker 2", act(door, "submit_form", "/contact", SECOND))
    say("submit_form, marker 1", act(door, "submit_form", "/contact", FIRST))


if __name__ == "__main__":  # python3 starter/lesson08_test.py: the gate's answers with your rows
    import sys

    try:
        show(read_mine())
    except pytest.fail.Exception as exc:
        sys.exit(textwrap.fill(f"lesson08: {exc}", 79, subsequent_indent="    "))
