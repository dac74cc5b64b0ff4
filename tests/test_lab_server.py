"""`python -m lab serve`: a real loopback server, its bad input, its start and its stop."""

import json
import re
import shutil
import signal
import socket
import subprocess
import sys

import httpx
import pytest

from lab import DEFAULT_LAB_DIR
from lab.server import HOST, REPOSITORY, create_server, running

READY = re.compile(r"lab listening on http://127\.0\.0\.1:(\d+)\n")
PYPROJECT_MARK = "[build-system]"  # a line of a file just outside data/lab


def start(*arguments):
    """Start `python -m lab serve ...` and return the process and the port it printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "lab", "serve", *arguments],
        cwd=REPOSITORY,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    ready = READY.fullmatch(line)
    if ready is None:
        process.kill()
        process.communicate()
        pytest.fail(f"the server did not print its port line, it printed {line!r}")
    return process, int(ready.group(1))


def stop(process, signum):
    """Send ``signum`` and return (exit status, rest of stdout, stderr)."""
    process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the server did not stop within 5 seconds")
    return process.returncode, out, err


def run_cli(*arguments):
    command = [sys.executable, "-m", "lab", *arguments]
    return subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True, timeout=20)


def get(port, path="/", host="lab.example"):
    with httpx.Client(trust_env=False) as client:
        return client.get(f"http://127.0.0.1:{port}{path}", headers={"Host": host})


def raw(port, request: bytes) -> bytes:
    """Send raw bytes and read the answer until the server closes or stays silent."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.fixture(scope="module")
def port():
    with running() as port:
        yield port


def test_serve_prints_one_line_answers_the_lab_host_and_stops_on_sigterm():
    """The server prints exactly one line naming its loopback port, answers Host: lab.example, and exits 0 on SIGTERM."""
    process, port = start("--port", "0")
    response = get(port)
    assert response.status_code == 200 and "Lab Example Garden Supplies" in response.text
    status, out, err = stop(process, signal.SIGTERM)
    assert status == 0
    assert out == "", "nothing is printed after the port line"
    assert "Traceback" not in err


def test_serve_stops_cleanly_on_sigint():
    """The server exits 0 on SIGINT (Ctrl-C) too, and afterwards its port no longer answers."""
    process, port = start()
    assert get(port).status_code == 200
    status, _, err = stop(process, signal.SIGINT)
    assert status == 0 and "Traceback" not in err
    with pytest.raises(httpx.ConnectError):
        get(port)


def test_the_server_binds_loopback_only():
    """The lab's server listens on 127.0.0.1 and nowhere else."""
    server = create_server(0)
    try:
        assert HOST == "127.0.0.1"
        assert server.effective_host == "127.0.0.1"
        assert server.socket.getsockname()[0] == "127.0.0.1"
    finally:
        server.close()


def test_a_real_request_answers_like_curl_would_see_it(port):
    """Over real HTTP, the home page comes back with its fixture headers plus the server's own Date."""
    response = get(port)
    assert response.status_code == 200
    assert response.headers["server"] == "Apache/2.4.29 (Ubuntu)"
    assert "date" in response.headers, "the real server adds Date; the adapter is what drops it"


def test_an_unknown_host_gets_421_over_http(port):
    """Over real HTTP, an unknown Host header, or none at all, gets 421."""
    assert get(port, host="attacker.test").status_code == 421
    assert status_of(raw(port, b"GET / HTTP/1.0\r\n\r\n")) == 421


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"NOT A REQUEST LINE\r\n\r\n",
        b"\x00\x01\x02\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost lab.example\r\n\r\n",
    ],
)
def test_a_malformed_request_gets_400_and_the_server_keeps_serving(port, request_bytes):
    """A malformed request line or header line gets 400, and the server keeps answering afterwards."""
    assert status_of(raw(port, request_bytes)) == 400
    assert get(port).status_code == 200


def test_an_oversized_header_gets_431_and_the_server_keeps_serving(port):
    """A request whose headers exceed the limit gets 431, and the server keeps answering afterwards."""
    request = b"GET / HTTP/1.1\r\nHost: lab.example\r\nX-Big: " + b"a" * 10_000 + b"\r\n\r\n"
    assert status_of(raw(port, request)) == 431
    assert get(port).status_code == 200


@pytest.mark.parametrize(
    "target",
    [
        b"/../../pyproject.toml",
        b"/%2e%2e/%2e%2e/pyproject.toml",
        b"/%2E%2E/%2E%2E/pyproject.toml",
        b"/..%2f..%2fpyproject.toml",
        b"/%252e%252e/%252e%252e/pyproject.toml",
        b"/..\\..\\pyproject.toml",
        b"/%5c..%5c..%5cpyproject.toml",
        b"/about%00.html",
        b"/./about",
    ],
)
def test_a_traversal_attempt_over_http_gets_a_4xx_and_no_file(port, target):
    """Over real HTTP, a traversal attempt, plain or percent-encoded, gets a 4xx and never a file from outside data/lab."""
    request = b"GET " + target + b" HTTP/1.1\r\nHost: lab.example\r\nConnection: close\r\n\r\n"
    answer = raw(port, request)
    assert 400 <= status_of(answer) < 500
    assert PYPROJECT_MARK.encode() not in answer
    assert get(port).status_code == 200


@pytest.mark.parametrize(
    "arguments",
    [
        ["serve", "--port", "abc"],
        ["serve", "--port", "70000"],
        ["serve", "--lab", "/nonexistent/lab"],
        ["serve", "--nope"],
        ["nope"],
        [],
    ],
)
def test_bad_command_line_input_gets_one_line_and_exit_2(arguments):
    """Bad command-line input gets exactly one line on stderr, nothing on stdout, and exit status 2."""
    result = run_cli(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("lab: ")
    assert "Traceback" not in result.stderr


def test_a_port_already_in_use_gets_one_line_and_exit_1():
    """Asking for a port that is already taken gets one line on stderr and exit status 1, not a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run_cli("serve", "--port", str(taken.getsockname()[1]))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "cannot listen" in result.stderr


def test_serve_lab_serves_another_folder_and_never_caches(tmp_path):
    """With --lab, the server serves that folder, and an edit to a body file shows in the very next response."""
    lab_dir = shutil.copytree(DEFAULT_LAB_DIR, tmp_path / "lab")
    about = lab_dir / "sites" / "lab.example" / "about.html"
    process, port = start("--port", "0", "--lab", str(lab_dir))
    try:
        assert "three gardeners" in get(port, "/about").text
        edited = about.read_text(encoding="utf-8").replace("three gardeners", "five gardeners")
        about.write_text(edited, encoding="utf-8")
        assert "five gardeners" in get(port, "/about").text
        index_path = lab_dir / "sites" / "lab.example" / "site.json"
        index = json.loads(index_path.read_text(encoding="utf-8"))
        index["pages"]["/about"]["status"] = 410
        index_path.write_text(json.dumps(index), encoding="utf-8")
        assert get(port, "/about").status_code == 410
    finally:
        assert stop(process, signal.SIGTERM)[0] == 0
