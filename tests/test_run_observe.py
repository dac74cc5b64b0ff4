"""Lesson 4 completion suite, part 1: observations read from captures.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests live in tests/test_run_lessons_3_5_edges.py.
"""

from __future__ import annotations

import pytest

from core.run.demo_records import CAPTURE_BODY
from core.run.observe import observe, read_observations, render_response, split_response
from lab.adapter import HttpAdapter

from .lab_run import capture_page, go_to, lab_run


@pytest.fixture(scope="module")
def adapter():
    with HttpAdapter("inprocess") as lab:
        yield lab


def observations(recorder) -> list[tuple[str, object, str]]:
    return [(o["field"], o["value"], o["capture_id"]) for o in recorder.records("observation")]


def test_capture_text_has_one_form_that_reads_back():
    """render_response writes a capture as a status line, the headers sorted by name, a blank line and the page, and split_response reads the same headers and page back."""
    headers = {"Server": "lab-fixture/1.0", "Content-Type": "text/html; charset=utf-8"}
    page = "<html><head><title>Fixture lab</title></head><body>Welcome.</body></html>\n"
    text = render_response(200, headers, page)
    assert text == (
        "HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\nServer: lab-fixture/1.0\n\n" + page
    )
    assert text == CAPTURE_BODY  # lesson 2's demo capture is already in this form
    assert render_response(200, list(reversed(headers.items())), page) == text
    assert render_response(404, {}, "gone") == "HTTP/1.1 404 Not Found\n\ngone"
    tricky_page = "line one\n\nServer: forged/9.9\n"
    assert split_response(render_response(200, headers, tricky_page)) == (
        {"content-type": "text/html; charset=utf-8", "server": "lab-fixture/1.0"},
        tricky_page,
    )


def test_home_page_server_header_becomes_an_observation_citing_its_capture(adapter):
    """Observing a capture of the lab's home page records its Server header as the observation server, citing that capture."""
    recorder = lab_run(4)
    go_to(recorder, "execute")
    _, capture_id = capture_page(recorder, adapter, "/")
    go_to(recorder, "observe")
    answers = observe(recorder, capture_id)
    assert [answer["recorded"] for answer in answers] == [True]
    assert observations(recorder) == [("server", "Apache/2.4.29 (Ubuntu)", capture_id)]
    assert recorder.observed() == {"server": "Apache/2.4.29 (Ubuntu)"}
    assert recorder.events[-1]["kind"] == "observation" and recorder.events[-1]["id"] == answers[0]["id"]


def test_about_page_meta_tag_makes_has_meta_true_and_names_the_generator(adapter):
    """Observing the about page records has_meta as true and generator as the version its generator meta tag names, and a later page without that tag leaves both in place."""
    recorder = lab_run(4)
    go_to(recorder, "execute")
    _, about = capture_page(recorder, adapter, "/about")
    go_to(recorder, "observe")
    observe(recorder, about)
    assert observations(recorder) == [("has_meta", True, about), ("generator", "ExampleCMS 3.2.1", about)]
    go_to(recorder, "execute")
    _, contact = capture_page(recorder, adapter, "/contact")
    go_to(recorder, "observe")
    assert observe(recorder, contact) == []
    assert recorder.observed() == {"has_meta": True, "generator": "ExampleCMS 3.2.1"}


def test_a_generator_tag_counts_only_in_the_page_markup():
    """A generator meta tag written inside an HTML comment is not counted, while a real one is found whatever its attribute order or letter case."""
    hidden = '<html><head><!-- <meta name="generator" content="FakeCMS 1.0"> --></head></html>'
    assert read_observations(render_response(200, {}, hidden)) == []
    real = '<html><head><META CONTENT="ExampleCMS 3.2.1" NAME="Generator"></head></html>'
    assert read_observations(render_response(200, {}, real)) == [("has_meta", True), ("generator", "ExampleCMS 3.2.1")]
    # A header is not markup either: only the page's own tags count.
    assert read_observations(render_response(200, {"X-Note": '<meta name="generator">'}, "<p>plain</p>")) == []


@pytest.mark.parametrize("element", ["title", "textarea", "script", "style", "xmp", "iframe", "noembed", "noframes"])
def test_a_generator_tag_inside_an_element_read_as_text_is_not_counted(element):
    """A generator meta tag inside an element a browser reads as text (title, textarea, script, style, xmp and the like) or inside an attribute value is not counted, while a real one after that element's end tag is."""
    tag = '<meta name="generator" content="FakeCMS 1.0">'
    for page in (f"<{element}>{tag}</{element}>", f"<{element.upper()}>{tag}</{element} >",
                 f"<{element}/>{tag}</{element}>", f"<p title='{tag}'>hi</p>"):
        assert read_observations(render_response(200, {}, page)) == [], page
    after = f'<{element}>{tag}</{element}><meta name="generator" content="ExampleCMS 3.2.1">'
    assert read_observations(render_response(200, {}, after)) == [("has_meta", True), ("generator", "ExampleCMS 3.2.1")]
    # A browser has no comments inside these elements: "<!--" there is text, and the element still ends.
    trick = f'<{element}><!-- </{element}> --><meta name="generator" content="ExampleCMS 3.2.1"></{element}>'
    assert read_observations(render_response(200, {}, trick)) == [("has_meta", True), ("generator", "ExampleCMS 3.2.1")]
