"""The lab names the memory that holds its idempotency keys, so that a harness never has to assume it remembers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lab import server
from lab.adapter import HttpAdapter
from lab.app import MEMORY_HEADER, MEMORY_PATH, FirstAnswers, make_app
from lab.plugin import LabAdapter, make_adapter

from .conftest import examples
from .test_lab_app import call


def test_the_lab_names_its_memory_of_keys_on_any_host_and_records_no_request_for_it():
    """A GET of the memory's path answers with the name of the memory that holds the lab's keys, on any host, and the lab's record of what reached its sites leaves it out."""
    record: list[dict] = []
    memory = FirstAnswers()
    app = make_app(record=record, memory=memory)
    for host in ("lab.example", "other.example", "nowhere.invalid", None):
        status, headers, body = call(app, MEMORY_PATH, host=host)
        assert (status, headers[MEMORY_HEADER.lower()], body) == (200, memory.name, memory.name + "\n")
    assert record == []
    status, headers, _ = call(app, MEMORY_PATH, method="HEAD")
    assert status == 404 and MEMORY_HEADER.lower() not in headers and len(record) == 1  # only a GET asks it
    status, headers, _ = call(app, "/", extra={"HTTP_IDEMPOTENCY_KEY": "k"})
    assert status == 200 and MEMORY_HEADER.lower() not in headers  # a page never carries it: captures stay the same


def test_each_memory_has_a_name_of_its_own_and_a_shared_memory_shows_the_same():
    """Two labs made apart show two names; a lab made again over the same memory shows its name, and answers a key it was sent from that memory."""
    first, second = make_app(), make_app()
    assert call(first, MEMORY_PATH)[2] != call(second, MEMORY_PATH)[2]
    memory = FirstAnswers()
    one, again = [], []
    call(make_app(record=one, memory=memory), "/", extra={"HTTP_IDEMPOTENCY_KEY": "k"})
    call(make_app(record=again, memory=memory), "/", extra={"HTTP_IDEMPOTENCY_KEY": "k"})
    assert [entry["replayed"] for entry in one + again] == [False, True]


@settings(max_examples=examples(100))
@given(st.text(max_size=40))
def test_only_the_exact_path_asks_for_the_memory(path):
    """Only the memory's exact path, and nothing that merely looks like it, is answered with the memory's name."""
    memory = FirstAnswers()
    status, headers, _ = call(make_app(memory=memory), MEMORY_PATH + path)
    assert (MEMORY_HEADER.lower() in headers) == (path == "")


def test_the_adapter_shows_the_memory_in_process_and_over_loopback_and_a_restarted_lab_shows_another():
    """The lab's adapter reports the memory's name in process and over real loopback HTTP; a lab served again shows another name, and a lab that cannot be reached shows none."""
    memory = FirstAnswers()
    with LabAdapter(HttpAdapter("inprocess", memory=memory)) as inprocess:
        assert inprocess.memory() == memory.name
    names = []
    for _ in range(2):
        with server.running() as port, make_adapter("http", None, port) as adapter:
            names.append((adapter.memory(), adapter.memory()))
    assert names[0][0] == names[0][1] and names[1][0] == names[1][1] and names[0][0] != names[1][0]
    with make_adapter("http", None, port) as gone:
        assert gone.memory() == ""
