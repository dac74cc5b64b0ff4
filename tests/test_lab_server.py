"""`python -m lab serve`: a real loopback server, its bad input, its start and its stop."""

import json
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from waitress.adjustments import Adjustments
from waitress.parser import HTTPRequestParser

from lab import DEFAULT_LAB_DIR
from lab.app import MAX_HEADER_BYTES
from lab.server import HOST, REPOSITORY, LabRequestParser, create_server, head_problem, running

from .conftest import examples

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


# --- requests waitress would hold open, misread or serve by the wrong name -------------------

DEADLINE = 2.0  # seconds within which a bad request must be answered or its connection closed


def answer_within(port, request: bytes, seconds: float = DEADLINE, pieces: tuple[bytes, ...] = ()) -> bytes:
    """Send ``request`` (then each of ``pieces``) and read until the server closes.

    Fails if the connection is still open, unanswered, after ``seconds``: the
    loop is bounded by that deadline, never by the server's good will.
    """
    deadline = time.monotonic() + seconds
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as connection:
        connection.sendall(request)
        for piece in pieces:
            time.sleep(0.05)
            connection.sendall(piece)
        answer = b""
        while (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                return answer
            answer += chunk
    pytest.fail(f"the connection was still open after {seconds} s; it had answered {answer[:60]!r}")


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\nHost: lab.example\n\n",
        b"GET / HTTP/1.1\r\nHost: lab.example\n\r\n",
        b"GET / HTTP/1.1\rHost: lab.example\r\r",
        b"GET / HTTP/1.1\r\nHost: lab.ex\x00ample\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS ClientHello sent to the plain port
        b"GET /\r\n\r\n",  # no HTTP version at all
    ],
    ids=["bare LF everywhere", "one bare LF", "bare CR", "NUL in a header", "TLS handshake", "no version"],
)
def test_a_malformed_request_is_answered_400_within_two_seconds(port, request_bytes):
    """A request with bare LF or CR line endings, a control character, a first byte no method starts with, or no HTTP version gets 400 within two seconds, and the server keeps serving."""
    started = time.monotonic()
    answer = answer_within(port, request_bytes)
    assert status_of(answer) == 400, answer[:80]
    assert time.monotonic() - started < DEADLINE
    assert get(port).status_code == 200


def test_a_crlf_split_across_two_packets_is_not_a_bare_cr(port):
    """A CR LF whose two bytes arrive in separate packets is a line ending, not a bare CR: the request is served."""
    answer = answer_within(port, b"GET / HTTP/1.1\r", pieces=(b"\nHost: lab.example\r", b"\nConnection: close\r\n\r\n"))
    assert status_of(answer) == 200


@pytest.mark.parametrize("version", [b"9.9", b"2.0", b"0.9", b"1.2", b"3.0"])
def test_an_unknown_http_version_gets_505(port, version):
    """A request line naming any HTTP version but 1.0 or 1.1 gets 505 within two seconds."""
    answer = answer_within(port, b"GET / HTTP/" + version + b"\r\nHost: lab.example\r\n\r\n")
    assert status_of(answer) == 505


@pytest.mark.parametrize("version", [b"1.0", b"1.1"])
def test_http_1_0_and_1_1_are_still_served(port, version):
    """HTTP/1.0 and HTTP/1.1 requests are served as before."""
    answer = answer_within(port, b"GET / HTTP/" + version + b"\r\nHost: lab.example\r\nConnection: close\r\n\r\n")
    assert status_of(answer) == 200 and b"Lab Example Garden Supplies" in answer


@pytest.mark.parametrize(
    ("target", "host", "status"),
    [
        (b"http://other.example/", b"lab.example", 400),
        (b"http://attacker.test/about", b"lab.example", 400),
        (b"http://lab.example:8080/", b"lab.example", 400),
        (b"http://lab.example/", b"other.example", 400),
        (b"http://lab.example@other.example/", b"lab.example", 400),
        (b"ftp://lab.example/", b"lab.example", 400),
        (b"http://lab.example/", None, 400),
        (b"http://lab.example/about", b"lab.example", 200),
        (b"http://LAB.Example./about", b"lab.example", 200),
        (b"https://lab.example:443/", b"lab.example:443", 200),
    ],
)
def test_an_absolute_form_target_must_name_the_host_header_origin(port, target, host, status):
    """An absolute-form request target whose origin differs from the Host header's gets 400; one naming the same origin is served."""
    host_line = b"" if host is None else b"Host: " + host + b"\r\n"
    answer = answer_within(port, b"GET " + target + b" HTTP/1.1\r\n" + host_line + b"Connection: close\r\n\r\n")
    assert status_of(answer) == status, answer[:80]


# --- property tests: request heads, in process (thousands) and over sockets (a few hundred) ---

TOKEN_CHARACTERS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
TARGET_BYTES = bytes(range(0x21, 0x7F))  # a request target is visible ASCII
VALUE_BYTES = bytes([9, 32, *range(0x21, 0x7F), *range(0x80, 0x100)])  # field values may carry obs-text


def _word(rng: random.Random, alphabet, most: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, most)))


@st.composite
def well_formed_heads(draw):
    """A request head RFC 9112 allows: method, origin-form target, HTTP/1.0 or 1.1, fields.

    Hypothesis draws a seed; a seeded Random writes the head from it, which is
    far cheaper per example than drawing every byte.
    """
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    method = rng.choice(["GET", "HEAD", _word(rng, TOKEN_CHARACTERS, 8).upper()])
    target = b"/" + bytes(rng.choice(TARGET_BYTES) for _ in range(rng.randint(0, 20)))
    lines = [method.encode() + b" " + target + b" HTTP/" + rng.choice([b"1.0", b"1.1"]), b"Host: lab.example"]
    for _ in range(rng.randint(0, 4)):
        name = _word(rng, TOKEN_CHARACTERS.replace("_", ""), 8).encode()
        value = bytes(rng.choice(VALUE_BYTES) for _ in range(rng.randint(0, 20))).strip(b" \t")
        lines.append(name + b": " + value)
    return b"\r\n".join(lines) + b"\r\n\r\n"


def pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given offsets, as a slow client might send it."""
    bounds = sorted({cut % (len(data) + 1) for cut in cuts} | {0, len(data)})
    return [data[start:end] for start, end in zip(bounds, bounds[1:])]


def parse(parser_class, chunks: list[bytes]):
    """Feed ``chunks`` as waitress's channel does, stopping once the request is complete."""
    parser = parser_class(Adjustments(max_request_header_size=MAX_HEADER_BYTES))
    for chunk in chunks:
        while chunk and not parser.completed:
            chunk = chunk[parser.received(chunk) :]
    return parser


def reading(parser) -> tuple:
    """What a parser made of a request: enough to tell any two readings apart."""
    error = None if parser.error is None else (parser.error.code, parser.error.body)
    fields = ("command", "path", "query", "version", "headers") if parser.error is None else ()
    return (parser.completed, error, *(getattr(parser, field, None) for field in fields))


@settings(max_examples=examples(2000), deadline=None)
@given(head=well_formed_heads(), cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_a_well_formed_request_is_read_exactly_as_waitress_reads_it(head, cuts):
    """A well-formed HTTP/1.0 or 1.1 request head, sent whole or in pieces, is never refused by the lab's parser, which reads it exactly as waitress's own parser does."""
    ours = parse(LabRequestParser, pieces(head, cuts))
    assert ours.error is None and ours.completed
    assert reading(ours) == reading(parse(HTTPRequestParser, [head]))


ANY_HEAD = st.binary(max_size=60) | st.builds(
    lambda head, noise, at: head[:at] + noise + head[at:], well_formed_heads(), st.binary(max_size=3), st.integers(0, 200)
)


@settings(max_examples=examples(2000), deadline=None)
@given(data=ANY_HEAD, cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_any_bytes_get_the_same_verdict_however_they_are_cut(data, cuts):
    """Any bytes at all get the same verdict from the lab's parser whether they arrive at once or in pieces, and bytes the guard names as impossible are refused without waiting for more."""
    whole = parse(LabRequestParser, [data])
    assert reading(parse(LabRequestParser, pieces(data, cuts))) == reading(whole)
    end = data.find(b"\r\n\r\n")
    head = data if end == -1 else data[: end + 4]
    if head_problem(head.rstrip(b"\r")) is not None:
        assert whole.completed and whole.error.code == 400


MUTATIONS = {
    "none": (lambda head: head, 200),
    "bare LF": (lambda head: head.replace(b"\r\n", b"\n", 1), 400),
    "bare CR": (lambda head: head.replace(b"\r\n", b"\r", 1), 400),
    "control byte": (lambda head: head.replace(b"Host: ", b"Host: \x01", 1), 400),
    "version": (lambda head: head.replace(b"HTTP/1.1", b"HTTP/4.2", 1), 505),
    "absolute form": (lambda head: head.replace(b"GET /", b"GET http://other.example/", 1), 400),
    "no version": (lambda head: head.replace(b" HTTP/1.1", b"", 1), 400),
}


@settings(max_examples=examples(150), deadline=None)
@given(
    path=st.sampled_from(["/", "/about", "/staging/", "/debug?q=x"]),
    mutation=st.sampled_from(sorted(MUTATIONS)),
    noise=st.text(TOKEN_CHARACTERS, max_size=12),
)
def test_every_request_to_the_real_server_is_answered_within_two_seconds(port, path, mutation, noise):
    """Over real sockets, a request, well formed or broken in any of the ways above, gets its expected status or a closed connection within two seconds."""
    change, status = MUTATIONS[mutation]
    head = b"GET " + path.encode() + b" HTTP/1.1\r\nHost: lab.example\r\nX-Noise: " + noise.encode()
    head += b"\r\nConnection: close\r\n\r\n"
    answer = answer_within(port, change(head))
    expected = 404 if status == 200 and path == "/staging/" else status
    assert status_of(answer) == expected, (mutation, answer[:80])


SMUGGLED = (b"POST /search HTTP/1.1\r\nHost: lab.example\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: lab.example\r\n\r\n")


def test_a_request_with_content_length_and_chunked_gets_400_and_the_connection_closes(tmp_path):
    """A request carrying both Content-Length and Transfer-Encoding: chunked gets one 400 and the connection closes (RFC 9112 section 6.1): the bytes after it are never served as a second request."""
    record = tmp_path / "record.jsonl"
    with running(record=record) as port:
        answer = raw(port, SMUGGLED)
    assert status_of(answer) == 400, answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1, f"the connection served more than one answer: {answer!r}"
    assert b"connection: close" in answer.lower()
    from lab.server import read_record

    assert all(entry["path"] != "/smuggled" for entry in read_record(record)), read_record(record)


def test_the_lab_served_in_this_process_is_the_same_server_and_leaves_nothing_behind():
    """serving_here (what the reference run's http transport uses) serves the lab with the same refusals as
    `python -m lab serve`, and when its block ends no thread of it is left and nothing listens on its port."""
    import threading

    from lab.server import serving_here

    before = set(threading.enumerate())
    with serving_here() as port:
        response = get(port)
        assert response.status_code == 200 and "Lab Example Garden Supplies" in response.text
        assert status_of(raw(port, b"GET / HTTP/1.1\nHost: lab.example\n\n")) == 400  # the lab's own parser
        assert status_of(raw(port, b"GET / HTTP/2.0\r\nHost: lab.example\r\n\r\n")) == 505
    assert [t for t in threading.enumerate() if t not in before and t.is_alive()] == []
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)



def test_a_request_that_waits_for_a_thread_prints_nothing():
    """waitress's "Task queue depth" warning never reaches stderr: a busy machine must not change a page's output."""
    waits = ("import lab.server\n"
             "from waitress.task import ThreadedTaskDispatcher\n"
             "dispatcher = ThreadedTaskDispatcher()  # no thread yet: every task waits in the queue\n"
             "dispatcher.add_task(object())\n")
    done = subprocess.run([sys.executable, "-c", waits], cwd=REPOSITORY, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
