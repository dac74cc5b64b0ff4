"""The lab deduplicates by Idempotency-Key, and the lab's adapter sends keys and shows the memory that holds them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lab import server
from lab.adapter import HttpAdapter
from lab.app import FirstAnswers, make_app
from lab.plugin import make_adapter

from .conftest import examples
from .test_lab_app import call

KEY = "8e2ee01d4110ef2c50024a04ee48cac8f5047c77b945b6b9b5161312623cd89b"


def keyed(key: str) -> dict:
    return {"HTTP_IDEMPOTENCY_KEY": key}


def test_a_repeated_key_gets_the_first_response_without_serving_again_and_is_recorded_replayed():
    """A request sent again under its Idempotency-Key is answered with the first response, not served again, and the lab's record marks it replayed."""
    served = []
    answers = FirstAnswers()
    environ = {"REQUEST_METHOD": "GET", "HTTP_HOST": "lab.example", "PATH_INFO": "/debug", "QUERY_STRING": "q=x"}

    def serve():
        served.append(1)
        return 200, [("Content-Type", "text/plain")], f"served {len(served)}".encode()

    assert answers.answer(KEY, environ, serve) == (200, [("Content-Type", "text/plain")], b"served 1", False)
    assert answers.answer(KEY, environ, serve) == (200, [("Content-Type", "text/plain")], b"served 1", True)
    assert len(served) == 1
    record: list = []
    app = make_app(record=record)
    first = call(app, "/debug", query="q=<b>x</b>", extra=keyed(KEY))
    again = call(app, "/debug", query="q=<b>x</b>", extra=keyed(KEY))
    assert first == again
    assert [(entry["idempotency_key"], entry["replayed"]) for entry in record] == [(KEY, False), (KEY, True)]


def test_a_key_used_for_another_request_is_refused_422_and_serves_nothing():
    """An Idempotency-Key reused for another method, host, path or query gets 422, and the first request's response is kept."""
    record: list = []
    app = make_app(record=record)
    first = call(app, "/debug", query="q=one", extra=keyed(KEY))
    for other in (dict(path="/search", query="q=one"), dict(path="/debug", query="q=two"),
                  dict(path="/debug", query="q=one", method="HEAD")):
        status = call(app, other.pop("path"), extra=keyed(KEY), **other)[0]
        assert status == 422, other
    assert call(app, "/debug", query="q=one", extra=keyed(KEY)) == first
    assert [entry["status"] for entry in record] == [200, 422, 422, 422, 200]


@settings(max_examples=examples(50))
@given(st.lists(st.sampled_from(["/", "/about", "/debug", "/nowhere"]), min_size=1, max_size=6),
       st.sampled_from(["a", "b", "c"]))
def test_requests_without_a_key_are_served_each_time_and_recorded_as_before(paths, key):
    """A request without a key is served every time, and its record entry has exactly the fields it always had; one with a key is served once."""
    record: list = []
    app = make_app(record=record)
    for path in paths:
        call(app, path)
        call(app, path, extra=keyed(key + path))
    plain, with_key = record[0::2], record[1::2]
    assert all(sorted(entry) == ["host", "method", "path", "query", "status"] for entry in plain)
    assert [entry["replayed"] for entry in with_key] == [path in paths[:index] for index, path in enumerate(paths)]


def test_the_http_adapter_sends_the_key_and_a_lab_served_on_its_own_replays_it(tmp_path):
    """Over real HTTP, the adapter sends the key as the Idempotency-Key header, and the lab served on its own (python -m lab serve --record) replays a repeated key."""
    record = tmp_path / "record.jsonl"
    with server.running(record=record) as port, HttpAdapter("http", port=port) as adapter:
        one = adapter.fetch("https://lab.example/debug?q=%3Cb%3E1%3C/b%3E", idempotency_key=KEY)
        two = adapter.fetch("https://lab.example/debug?q=%3Cb%3E1%3C/b%3E", idempotency_key=KEY)
        three = adapter.fetch("https://lab.example/debug?q=%3Cb%3E1%3C/b%3E")
    assert one == two == three
    entries = server.read_record(record)
    assert [entry.get("idempotency_key") for entry in entries] == [KEY, KEY, None]
    assert [entry.get("replayed") for entry in entries] == [False, True, None]


def test_the_labs_adapter_assumes_no_memory_and_shows_the_one_its_lab_names():
    """The lab's adapter never says its target deduplicates because of how the lab is served: it shows the memory the lab names, another for each lab made in process, and another for a lab served again from a thread of the harness."""
    with make_adapter("inprocess") as one, make_adapter("inprocess") as two:
        assert not hasattr(one, "deduplicates") and one.memory() and one.memory() != two.memory()
    shown = []
    for _ in range(2):
        with server.serving_here() as port, make_adapter("http", None, port) as in_thread:
            shown.append(in_thread.memory())
    assert all(shown) and shown[0] != shown[1]
