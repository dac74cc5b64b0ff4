"""tlog/logfile.py: the log file a person can read, refused in one line when torn or edited; one leaf per run."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlog import merkle
from tlog.logfile import Entry, Log, LogError, parse_log, read_log

from .tlog_helpers import REFERENCE, one_line, run_tlog

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RUN = json.loads(REFERENCE.read_text(encoding="utf-8"))["run"]["run_id"][:12]  # the reference run, as answers name it


def hexed(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def a_log(n: int) -> Log:
    return Log("lab.example/harness-course/log", [Entry(hexed(f"run {i}"), hexed(f"head {i}")) for i in range(n)])


def test_a_log_reads_back_as_it_was_written():
    log = a_log(7)
    again = parse_log(log.text())
    assert again.text() == log.text()
    assert again.root() == merkle.tree_root([e.leaf_hash() for e in log.entries])
    first = log.text().splitlines()
    assert first[0] == "tlog/v1 lab.example/harness-course/log"
    assert first[1] == f"leaf 0 run {hexed('run 0')} head {hexed('head 0')} root {log.roots[0].hex()}"


def test_a_leaf_commits_to_its_run_as_well_as_its_head():
    entry = Entry(hexed("run"), hexed("head"))
    assert entry.leaf_hash() == hashlib.sha256(b"\x00" + bytes.fromhex(entry.run_id) + bytes.fromhex(entry.head)).digest()
    assert Entry(hexed("other run"), entry.head).leaf_hash() != entry.leaf_hash()


@FAST
@given(st.integers(1, 12), st.data())
def test_a_log_torn_anywhere_inside_a_line_is_refused_as_torn(n, data):
    text = a_log(n).text()
    ends = {i + 1 for i, c in enumerate(text) if c == "\n"}
    cut = data.draw(st.integers(0, len(text) - 1).filter(lambda i: i not in ends))
    with pytest.raises(LogError, match="torn") as caught:
        parse_log(text[:cut])
    assert "\n" not in str(caught.value)


@FAST
@given(st.integers(1, 12), st.data())
def test_a_log_cut_at_a_line_end_reads_as_a_shorter_log(n, data):
    """A whole-line cut leaves a valid, shorter log: the file alone cannot tell; a kept checkpoint does."""
    log = a_log(n)
    keep = data.draw(st.integers(0, n - 1))
    shorter = parse_log("\n".join(log.text().split("\n")[:keep + 1]) + "\n")
    assert shorter.size == keep and shorter.root() == log.root(keep)


@FAST
@given(st.integers(1, 12), st.data())
def test_any_one_character_edited_in_a_leaf_line_is_refused_naming_its_line(n, data):
    text = a_log(n).text()
    header_end = text.index("\n") + 1
    at = data.draw(st.integers(header_end, len(text) - 1).filter(lambda i: text[i] != "\n"))
    new = data.draw(st.characters(codec="ascii").filter(lambda c: c != text[at]))
    edited = text[:at] + new + text[at + 1:]
    line = text.count("\n", 0, at) + 1
    with pytest.raises(LogError) as caught:
        parse_log(edited)
    message = str(caught.value)
    assert "\n" not in message
    # the edit is named at its own line, or (a newline typed in) where the line breaks
    assert f"line {line}" in message or f"line {line + 1}" in message or "torn" in message, message


@FAST
@given(st.integers(1, 12), st.data())
def test_an_edited_origin_reads_but_is_another_log(n, data):
    """The origin is not in the tree: an edit there is caught where it is compared, with the checkpoint."""
    log = a_log(n)
    text = log.text().replace(log.origin, "lab.example/another-log", 1)
    assert parse_log(text).origin == "lab.example/another-log"
    assert parse_log(text).root() == log.root()


@pytest.mark.parametrize("edit, named", [
    (lambda lines: lines[:2] + lines[3:], "line 3 holds leaf 2 where leaf 1 belongs"),
    (lambda lines: [lines[0], lines[2], lines[1], *lines[3:]], "line 2 holds leaf 1 where leaf 0 belongs"),
    (lambda lines: lines[:2] + [lines[2][:-64] + lines[1][-64:]] + lines[3:], "line 3: its root does not follow"),
    (lambda lines: [lines[0].replace("tlog/v1", "tlog/v2"), *lines[1:]], "line 1 is not 'tlog/v1 ORIGIN'"),
    (lambda lines: [lines[0], lines[1] + "\r", *lines[2:]], "line 2 is not a leaf line"),
    (lambda lines: [lines[0], lines[1].upper(), *lines[2:]], "line 2 is not a leaf line"),
    (lambda lines: [lines[0], lines[1], "", *lines[2:]], "line 3 is not a leaf line"),
])
def test_a_removed_moved_or_rewritten_line_is_refused_in_one_line(edit, named):
    lines = a_log(4).text().splitlines()
    with pytest.raises(LogError, match=named.replace("'", ".")):
        parse_log("\n".join(edit(lines)) + "\n")


def test_a_run_with_two_leaves_is_refused_even_with_every_root_recomputed():
    first, other = Entry(hexed("run"), hexed("head")), Entry(hexed("run"), hexed("forged head"))
    forged = Log("lab.example/harness-course/log", [first])
    forged.entries.append(other)  # past append's refusal, as a forger writing the file would
    forged.__post_init__()  # every root recomputed
    with pytest.raises(LogError, match="line 3: run .* is already leaf 0"):
        parse_log(forged.text())


def test_the_same_head_again_changes_nothing_and_a_second_head_is_refused():
    log = a_log(3)
    before = log.text()
    assert log.append(Entry(hexed("run 1"), hexed("head 1"))) == (1, False)
    assert log.text() == before
    with pytest.raises(LogError, match="a second head"):
        log.append(Entry(hexed("run 1"), hexed("another head")))
    assert log.text() == before
    assert log.append(Entry(hexed("run 9"), hexed("head 9"))) == (3, True)
    assert parse_log(log.text()).root() == log.root()


@pytest.mark.parametrize("content, named", [
    (b"", "empty: torn"),
    (b"tlog/v1 lab.example/x\nleaf 0", "line 2 is torn"),
    ("tlog/v1 lab.example/\u00e9\n".encode(), "is not ASCII"),
    (b"\xff\xfebinary\n", "byte 0 is not ASCII"),
    (b'{"not": "a log"}\n', "line 1 is not"),
])
def test_a_file_that_is_not_a_log_is_refused_in_one_line(tmp_path, content, named):
    path = tmp_path / "heads.log"
    path.write_bytes(content)
    with pytest.raises(LogError, match=named) as caught:
        read_log(path)
    assert "\n" not in str(caught.value)


def test_append_on_the_command_line_is_idempotent_and_refuses_a_second_head(tmp_path, capsys):
    log = tmp_path / "heads.log"
    said = run_tlog(capsys, "append", log, REFERENCE)
    assert said.code == 0 and said.out == f"appended run {RUN} as leaf 0: the log holds 1 leaf\n"
    written = log.read_bytes()
    said = run_tlog(capsys, "append", log, REFERENCE)
    assert said.code == 0 and "nothing changed" in said.out
    assert log.read_bytes() == written
    report = json.loads(REFERENCE.read_text(encoding="utf-8"))
    from tlog.forgery import forge
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(forge(report)), encoding="utf-8")
    said = run_tlog(capsys, "append", log, forged)
    assert said.code == 1 and "a second head" in one_line(said)
    assert log.read_bytes() == written


def test_append_refuses_a_report_that_does_not_verify(tmp_path, capsys):
    from .tlog_helpers import REPO
    said = run_tlog(capsys, "append", tmp_path / "heads.log", REPO / "data/course/tamper/resealed-section.json")
    assert said.code == 1
    assert one_line(said).startswith("refused: the report does not verify on its own: altered: the section 'counts'")
    assert not (tmp_path / "heads.log").exists()
