"""course/entry.py: `course check N` starts its check before the rest of the tool loads, and never leaves it running."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from course import entry
from course.check import Running

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [["status"], ["check"], ["check", "2", "--x"], ["check", "99"], ["check", "²"],
                                  ["check", "-1"], ["check", "02x"], ["hint", "2"]])
def test_anything_but_check_of_a_ready_lesson_starts_nothing_early(args):
    assert entry.early_check(args) is None


def test_check_of_a_ready_lesson_is_started_early_and_stopped_if_unread():
    started = entry.early_check(["check", "2"])
    assert isinstance(started, Running) and started.lesson == 2
    folder = Path(started.folder.name)
    started.stop()
    assert started.process.poll() is not None, "the early check is still running"
    assert not folder.exists(), "the early check's folder was left behind"


def test_an_early_check_read_to_its_end_gives_the_same_rows_as_a_check_started_late():
    from course.check import check
    from course.manifest import find

    started = entry.early_check(["check", "2"])
    early = started.result()
    started.stop()  # after result: nothing to do, and no error
    late = check(find(2, ROOT), ROOT)
    assert [(r.name, r.passed) for r in early.results] == [(r.name, r.passed) for r in late.results]


def test_a_check_the_command_refuses_to_read_is_not_left_running(tmp_path):
    """A target that is not a file: the early check started, and the command still refuses in its one line."""
    env = {**os.environ, "COURSE_TARGET": str(tmp_path / "missing.py")}
    finished = subprocess.run([sys.executable, "-m", "course", "check", "2"], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=60)
    assert finished.returncode == 2
    assert finished.stderr.strip() == f"course: COURSE_TARGET selects {tmp_path / 'missing.py'}, which is not a Python file"


def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid``, read from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def test_ctrl_c_during_a_check_leaves_nothing_running(tmp_path):
    """A student's file that ignores every signal and loops as it loads: Ctrl-C still ends all the check started."""
    import signal
    import time

    stubborn = tmp_path / "lesson01.py"
    stubborn.write_text("import signal\nfor s in (signal.SIGINT, signal.SIGTERM):\n    signal.signal(s, signal.SIG_IGN)\n"
                        "while True:\n    pass\n", encoding="utf-8")
    course = subprocess.Popen([sys.executable, "-m", "course", "check", "1"], cwd=ROOT,
                              env={**os.environ, "COURSE_TARGET": str(stubborn)}, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline, below = time.monotonic() + 30, set()
    while time.monotonic() < deadline and len(below) < 2:  # the check's interpreter and the child loading the file
        time.sleep(0.05)
        below = _descendants(course.pid)
    assert len(below) >= 2, "the check never started the child that loads the file"
    course.send_signal(signal.SIGINT)
    course.communicate(timeout=30)
    time.sleep(0.2)
    alive = [pid for pid in below if Path(f"/proc/{pid}").exists()
             and (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z")]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)  # leave the machine as it was, then fail
    assert not alive, f"still running after Ctrl-C: {alive}"
