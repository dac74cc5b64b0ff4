"""The one reader every command reads a file through: read_bytes, read_text and read_json share its guards.

Each hostile path is one line in the caller's error, naming the file and the
problem, before anything is read from it: a device that never ends, a FIFO
no one writes to, a folder, a link that loops, a missing path, a file over
the caller's cap, and (as text) bytes that are not UTF-8. The cap holds for
a file whose size the system does not tell (/proc), by reading at most one
byte more than it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.run.jsonfile import MAX_FILE_BYTES, read_bytes, read_json, read_text, shown_path


class ReadError(ValueError):
    """Stands for a caller's own error type."""


READERS = {"bytes": read_bytes, "text": read_text, "json": read_json}


def _refusal(reader, path: Path, **options) -> str:
    with pytest.raises(ReadError) as caught:
        reader(path, error=ReadError, what="thing", **options)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def _loop(tmp_path: Path) -> Path:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    return tmp_path / "a"


HOSTILE = {
    "a device that never ends": (lambda tmp: Path("/dev/zero"), "zero: not a regular file (a FIFO, socket or device)"),
    "a FIFO": (lambda tmp: (os.mkfifo(tmp / "pipe"), tmp / "pipe")[1], "pipe: not a regular file"),
    "a folder": (lambda tmp: tmp, "a folder, not a thing"),
    "a link that loops": (_loop, "a: a symbolic link that loops"),
    "a missing path": (lambda tmp: tmp / "gone", "gone: no such thing"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_every_hostile_path_is_one_line_in_the_callers_error(tmp_path, reader, case):
    make, said = HOSTILE[case]
    assert said in _refusal(READERS[reader], make(tmp_path))


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_file_over_the_cap_is_refused_unread(tmp_path, reader):
    path = tmp_path / "big"
    path.write_bytes(b"1" * 11)
    assert _refusal(READERS[reader], path, limit=10) == "big: bigger than 10 bytes, so it is not read"
    assert READERS[reader](path, error=ReadError, limit=11) in (b"1" * 11, "1" * 11, int("1" * 11))


def test_the_cap_holds_for_a_file_whose_size_reads_0():
    """/proc files are regular and say they are empty; the reader stops one byte past the cap all the same."""
    status = Path("/proc/self/status")
    assert os.stat(status).st_size == 0
    assert "bigger than 16 bytes" in _refusal(read_bytes, status, limit=16)
    assert read_bytes(status, error=ReadError).startswith(b"Name:")


def test_the_default_cap_is_the_one_every_command_shares(tmp_path):
    path = tmp_path / "huge"
    with open(path, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    assert f"bigger than {MAX_FILE_BYTES:,} bytes" in _refusal(read_bytes, path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_that_cannot_be_read_is_one_line(tmp_path):
    path = tmp_path / "secret"
    path.write_text("x")
    path.chmod(0)
    assert "secret: cannot be read (Permission denied)" in _refusal(read_bytes, path)


def test_text_that_is_not_utf_8_names_the_byte(tmp_path):
    path = tmp_path / "latin"
    path.write_bytes(b"caf\xe9\n")
    assert _refusal(read_text, path) == "latin: not UTF-8 text (byte 3 is not)"


def test_a_link_that_loops_is_named_by_its_name_not_raised_while_naming_it(tmp_path):
    assert shown_path(_loop(tmp_path)) == "a"


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_read_back_as_themselves(data):
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file"
        path.write_bytes(data)
        assert read_bytes(path, error=ReadError) == data
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            assert "not UTF-8 text" in _refusal(read_text, path)
        else:
            assert read_text(path, error=ReadError) == text


def test_no_refusal_leaves_a_descriptor_open(tmp_path):
    """A folder, a device and a file over the cap are each opened to be looked at, and closed again."""
    big = tmp_path / "big"
    big.write_bytes(b"12")
    open_before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        for path, options in ((tmp_path, {}), (Path("/dev/null"), {}), (big, {"limit": 1})):
            _refusal(read_bytes, path, **options)
    assert len(os.listdir("/proc/self/fd")) == open_before
