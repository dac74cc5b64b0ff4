"""Every command that reads a JSON file answers a hostile one with one line and a non-zero exit.

End to end: each file below is the committed reference report
(or configuration, or safety pack) with one hostile edit: a value nested beyond
canon.MAX_DEPTH, an integer of 5000 digits, a number that reads as infinity.
Read naively, each would print a traceback (ValueError, RecursionError) or take
1e400 for infinity and go on. The answer comes from read_json, as the command's own
error type, so these tests hold whatever happens inside seal.py, report.py and
replay.py as long as they keep reading through seal.load_report.

A second group edits a report so that it still reads but no longer digests (an
integer beyond 2**53 - 1, a lone surrogate): seal verify and replay must name the
event, in one line, and exit non-zero.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.run.canon import MAX_DEPTH

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "data" / "course" / "report.json"
CONFIG = REPO / "data" / "policy" / "training-authorization-0001.json"
EVENT = 4  # the fifth event: any event will do


def deep(levels: int) -> object:
    value: object = "bottom"
    for _ in range(levels):
        value = [value]
    return value


def report_with(edit: str) -> str:
    """The reference report's text with one hostile edit to its fifth event."""
    report = json.loads(REPORT.read_text(encoding="utf-8"))
    marker = "__HOSTILE__"
    report["events"][EVENT]["payload"]["extra"] = marker
    return json.dumps(report, indent=2, ensure_ascii=False).replace(f'"{marker}"', edit)


HOSTILE = {
    "nested one level beyond MAX_DEPTH": (json.dumps(deep(MAX_DEPTH)), "nested too deeply"),
    "nested 900 levels": (json.dumps(deep(900)), "nested too deeply"),
    "nested 50,000 levels": ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
    "an integer of 5000 digits": ("9" * 5000, "integer too long to read"),
    "1e400": ("1e400", "the number 1e400 is too large for a JSON number"),
}

READERS = {
    "seal verify": ["-m", "core.run.seal", "verify"],
    "replay": ["-m", "core.audit.replay"],
    "report render": ["-m", "core.run.report", "render"],
}


def run(args: list[str]) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, env=env, timeout=120)


def assert_one_line(done: subprocess.CompletedProcess, *fragments: str) -> None:
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0, f"exit 0 on a hostile file:\n{output[:500]}"
    assert "Traceback" not in output and len(output.splitlines()) == 1, f"not one line:\n{output[:2000]}"
    for fragment in fragments:
        assert fragment in output


@pytest.fixture(scope="module")
def hostile_reports(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    paths = {}
    for number, (case, (edit, _)) in enumerate(sorted(HOSTILE.items())):
        paths[case] = folder / f"report-{number}.json"
        paths[case].write_text(report_with(edit), encoding="utf-8")
    return paths


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_cli_answers_a_hostile_report_with_one_line(hostile_reports, reader, case):
    """Lead: these pass with only read_json's change; they need seal/replay/report to keep reading through load_report."""
    path = hostile_reports[case]
    assert_one_line(run([*READERS[reader], str(path)]), path.name, HOSTILE[case][1])


DIGEST_REFUSES = {
    "an integer beyond 2**53 - 1": (str(2**60), "event 5"),
    "a lone surrogate": ('"\\ud800"', "event 5"),
}


@pytest.mark.parametrize("reader", ["seal verify", "replay"])
@pytest.mark.parametrize("case", sorted(DIGEST_REFUSES))
def test_cli_names_the_event_whose_value_no_longer_digests(tmp_path, reader, case):
    edit, named = DIGEST_REFUSES[case]
    path = tmp_path / "report.json"
    path.write_text(report_with(edit), encoding="utf-8")
    assert_one_line(run([*READERS[reader], str(path)]), named, "no canonical JSON form")


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_reference_run_answers_a_hostile_configuration_with_one_line(tmp_path, case):
    edit, problem = HOSTILE[case]
    config = json.loads(CONFIG.read_text(encoding="utf-8"))
    config["about"] = "__HOSTILE__"
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config).replace('"__HOSTILE__"', edit), encoding="utf-8")
    done = run(["-m", "core.run.main", "--out", str(tmp_path / "out.json"), "--config", str(path)])
    assert_one_line(done, "config.json", problem)
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_ratify_answers_a_hostile_safety_pack_with_one_line(tmp_path, case):
    edit, problem = HOSTILE[case]
    for source in (REPO / "data" / "packs" / "safety").glob("*.json"):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    pack = tmp_path / "harness_safety_v1.json"
    document = json.loads(pack.read_text(encoding="utf-8"))
    document["description"] = "__HOSTILE__"
    pack.write_text(json.dumps(document).replace('"__HOSTILE__"', edit), encoding="utf-8")
    done = run(["-m", "core.safety.ratify", pack.stem, "--pack-dir", str(tmp_path)])
    assert_one_line(done, pack.name, problem)
