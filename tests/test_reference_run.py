"""The reference run: byte-identical everywhere, named by its world, telling the whole story, and safe at its command line.

The run itself takes well under a second; most of the time here is spent
starting Python (and, for the http transport, the lab server) in subprocesses,
which is the only honest way to vary hash seeds, timezones and locales.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.run import drive
from core.run.gate import subject_of
from core.run.gate import act_subject
from core.run.rederive import verify

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "data" / "course" / "report.json"
PROBE = act_subject("probe_reflection -> https://lab.example:443/debug",
                    {"parameter": "q", "marker": "lab-probe-<i>7</i>"})
HOLD_REASON = ("probe.active_light is consequential; it waits for an approved review of this exact act by "
               "engagement-lead")
INJECTION_REFUSAL = "destination https://other.example:443 is outside the explicit authorized origins"


def command(out: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m core.run.main --out OUT ARGS`` from the repository root."""
    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "core.run.main", "--out", str(out), *args],
                          cwd=REPO, env=environment, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def sealed() -> dict:
    """The reference report, built in this process."""
    return drive.run(drive.load_configuration()).report


def test_the_reference_run_is_byte_identical_across_seeds_timezones_locales_and_transports(tmp_path):
    """Four runs under different hash seeds, timezones, locales and both transports write the same bytes."""
    variants = [
        ("inprocess", {"PYTHONHASHSEED": "0", "TZ": "UTC", "LC_ALL": "C"}),
        ("inprocess", {"PYTHONHASHSEED": "4242", "TZ": "Pacific/Chatham", "LC_ALL": "C.UTF-8"}),
        ("http", {"PYTHONHASHSEED": "1", "TZ": "America/St_Johns", "LC_ALL": "C.UTF-8"}),
        ("http", {"PYTHONHASHSEED": "random", "TZ": "Asia/Kathmandu", "LC_ALL": "C"}),
    ]
    outputs = []
    for index, (transport, env) in enumerate(variants):
        out = tmp_path / f"report-{index}.json"
        done = command(out, "--transport", transport, env=env)
        assert (done.returncode, done.stderr, done.stdout) == (0, "", ""), transport
        outputs.append(out.read_bytes())
    assert all(output == outputs[0] for output in outputs)
    report = json.loads(outputs[0])
    assert verify(report).ok
    assert str(REPO) not in outputs[0].decode("utf-8") and str(tmp_path) not in outputs[0].decode("utf-8")
    if COMMITTED.exists():  # the lead commits it; once it exists, a fresh run must reproduce it
        assert outputs[0] == COMMITTED.read_bytes()


def test_editing_a_lab_fixture_changes_the_run_identifier(tmp_path, sealed):
    """An unchanged copy of the lab gives the same run identifier; one edited character gives another."""
    config = drive.load_configuration()
    copy = tmp_path / "lab"
    shutil.copytree(drive.DEFAULT_LAB, copy)
    same = drive.run(config, copy).door
    assert same.run.run_id == sealed["run"]["run_id"]
    page = copy / "sites" / "lab.example" / "contact.html"
    page.write_text(page.read_text(encoding="utf-8").replace("nine to five", "nine to six"), encoding="utf-8")
    edited = drive.run(config, copy).door
    assert edited.run.run_id != sealed["run"]["run_id"]
    assert edited.run.policy_digest == same.run.policy_digest
    assert edited.run.world_digest != same.run.world_digest
    # Through the command line too, with --lab.
    out = tmp_path / "edited.json"
    assert command(out, "--lab", str(copy)).returncode == 0
    assert json.loads(out.read_text(encoding="utf-8"))["run"]["run_id"] == edited.run.run_id


def test_the_report_shows_every_element_of_the_story(sealed):
    """Admitted and refused events, the refused injection, a confirmed and a refuted finding, a held then approved action, the close, the seal and the safety verdict are all in the report."""
    events = sealed["events"]
    assert {e["status"] for e in events} == {"admitted", "refused"}
    assert sealed["counts"]["refusals"] == sum(1 for e in events if e["status"] == "refused") > 0
    # The news page's injected instruction: the model proposed another origin and the policy refused it.
    injection = [e for e in events if e["code"] == "out_of_scope"]
    assert [(e["kind"], e["payload"]["destination"]) for e in injection] == [("proposal", "https://other.example/")]
    assert "https://other.example" not in json.dumps(sealed["actions"])
    # Findings with their verdicts.
    assert sorted(f["verdict"] for f in sealed["findings"]) == ["confirmed"] * 5 + ["refuted"]
    refuted = next(f for f in sealed["findings"] if f["verdict"] == "refuted")
    assert refuted["verdict_reason"] == "the confirming capture (HTTP 404) does not show '/staging/'"
    # Held, then approved by the declared role in a recorded review, then admitted.
    def subject(event):
        payload = event["payload"]
        return subject_of(payload["tool"], payload["arguments"], payload["destination"])

    held = [e["seq"] for e in events if e["kind"] == "action" and e["code"] == "held_for_review"
            and subject(e) == PROBE]
    approval = next(r for r in sealed["reviews"] if r["subject_id"] == PROBE)
    assert (approval["decision"], approval["reviewer"]) == ("approved", "engagement-lead")
    reviewed = next(e["seq"] for e in events if e["kind"] == "review" and e["id"] == approval["review_id"])
    admitted = next(e["seq"] for e in events if e["kind"] == "action" and e["status"] == "admitted"
                    and subject(e) == PROBE)
    assert len(held) == 1 and held[0] < reviewed < admitted
    # Closed, sealed, judged.
    assert sealed["closed"]["how"] == "finished" and events[-1]["kind"] == "close"
    assert sealed["seal"]["events"] == len(events) and verify(sealed).ok
    safety = sealed["safety"]
    assert safety["violated"] == [] and safety["checked_at_runtime"] and safety["declared_only"]
    assert sealed["gating"] == {"caps": {"recon.passive": 20}, "fail_open_classes": [], "taxonomy_version": 2}


@pytest.mark.parametrize(("arguments", "contents", "status", "message"), [
    (["--config", "{missing}"], None, 1, "main: missing.json: no such configuration file"),
    (["--config", "{config}"], "{not json", 1, "main: config.json: not JSON (Expecting property name"),
    (["--config", "{config}"], '{"policy": {}}', 1, "main: config.json: the configuration lacks the field(s)"),
    (["--config", "{config}"], "POLICY_WITHOUT_ORIGINS", 1, "main: config.json: allowed_origins must be a non-empty list"),
    (["--config", "{config}"], "PLUGIN_THAT_IS_NOT_THERE", 1, "main: plugin lab.plugin:make_nothing: lab.plugin has no callable"),
    (["--lab", "{missing}"], None, 1, "main: --lab 'missing.json' is not a lab folder (it has no sites/)"),
    (["--transport", "carrier-pigeon"], None, 2, "main: argument --transport: invalid choice: 'carrier-pigeon'"),
    ([], None, 2, None),
])
def test_bad_command_line_input_gets_one_line_and_a_non_zero_exit(tmp_path, arguments, contents, status, message):
    """Bad input answers with exactly one line on stderr, the right exit status, no traceback, and no report written."""
    config = tmp_path / "config.json"
    good = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
    if contents == "POLICY_WITHOUT_ORIGINS":
        contents = json.dumps({**good, "policy": {**good["policy"], "allowed_origins": []}})
    elif contents == "PLUGIN_THAT_IS_NOT_THERE":
        contents = json.dumps({**good, "plugins": {**good["plugins"], "model": "lab.plugin:make_nothing"}})
    if contents is not None:
        config.write_text(contents, encoding="utf-8")
    out = tmp_path / "report.json"
    filled = [argument.format(missing=tmp_path / "missing.json", config=config) for argument in arguments]
    if arguments:
        done = command(out, *filled)
    else:  # no --out at all
        done = subprocess.run([sys.executable, "-m", "core.run.main"], cwd=REPO, capture_output=True, text=True)
        message = "main: the following arguments are required: --out"
    assert done.returncode == status
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not out.exists()


def test_the_reference_run_holds_every_kind_of_refusal(sealed):
    """The reference report holds every kind of refusal the course teaches: a malformed reply, a wrong-shape reply, an undeclared tool, an unobserved requirement, a probe smuggled through a passive tool, the injected out-of-scope destination, a consequential act held and then approved as that exact act, and a denied act."""
    refused = [e for e in sealed["events"] if e["status"] == "refused"]

    def some(code: str, text: str) -> bool:
        """A refusal with this code, whose reason says this (the code finds it; the text is what it says)."""
        return any(e["code"] == code and text in e["reason"] for e in refused)

    assert some("reply_not_json", "not JSON (")  # the half-written reply
    assert some("reply_wrong_shape", "'proposals' must be a list")
    assert some("unknown_tool", "tool 'shell' is not declared in the catalogue")
    assert some("unobserved_requirement", "tool 'inspect_metadata' requires observed field 'has_meta'")
    assert some("bad_arguments", "tool 'inspect_headers' does not declare the argument")
    assert some("out_of_scope", INJECTION_REFUSAL)
    assert some("held_for_review", HOLD_REASON)
    assert some("denied", "engagement-lead rejected this exact act")
    decisions = {(r["subject_id"].split(" with arguments ")[0], r["decision"]) for r in sealed["reviews"]}
    assert ("probe_reflection -> https://lab.example:443/debug", "approved") in decisions
    assert ("probe_reflection -> https://lab.example:443/search", "rejected") in decisions
    assert "probe_reflection -> https://lab.example:443/search" not in [a["action_id"] for a in sealed["actions"]]
