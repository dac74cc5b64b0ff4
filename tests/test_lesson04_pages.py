"""The pages lesson 4's check makes are labelled as a browser reads them, and the reference agrees.

``starter/lesson04_test.py`` draws fresh pages from a seed (rule 17) and knows,
for each, whether its markup carries a generator meta tag. These tests hold
those labels to two readers that are not the check's: the reference reader
(core/run/observe.py) and, where Debian's chromium is installed, a browser's
own HTML parser.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from core.run.observe import read_generator, read_observations, split_response

from .test_site_browser import browser_type_launch_args  # noqa: F401  (chromium, as the site tests launch it)

REPO = Path(__file__).resolve().parent.parent
SEEDS = range(25)


def _check_module():
    spec = importlib.util.spec_from_file_location("lesson04_check", REPO / "starter" / "lesson04_test.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _check_module()
PAGES = [case for number in SEEDS for case in CHECK.fresh_pages(number, CHECK.FRESH_PAGES)]


def test_the_reference_reader_agrees_with_every_fresh_page_label():
    wrong = [(case["number"], case["decoys"]) for case in PAGES
             if dict(read_observations(case["text"])).get("has_meta") != case["expected"]]
    assert wrong == []
    assert {kind for case in PAGES for kind in case["decoys"]} == set(CHECK.DECOYS)
    assert 0.5 < sum(case["expected"] is True for case in PAGES) / len(PAGES) < 0.8


@pytest.mark.browser
@pytest.mark.browser
def test_a_browser_finds_a_generator_tag_on_exactly_the_pages_labelled_so(page):
    bodies = [split_response(case["text"])[1] for case in PAGES]
    found = page.evaluate("""pages => pages.map(text => {
        const document = new DOMParser().parseFromString(text, "text/html");
        return document.querySelector('meta[name="generator" i]') !== null;
    })""", bodies)
    wrong = [(case["number"], case["decoys"], case["tag"]) for case, seen in zip(PAGES, found)
             if seen != bool(case["expected"])]
    assert wrong == []
    for kind, (_where, make, _why) in CHECK.DECOYS.items():  # each piece alone, too
        alone = page.evaluate("text => new DOMParser().parseFromString(text, 'text/html')"
                              ".querySelector('meta[name=\"generator\" i]') !== null",
                              CHECK.page(body=make(CHECK.FAKE)))
        assert alone is False, kind


# The HTML standard's tokenizer drops an attribute a tag repeats (a duplicate-attribute parse error):
# the first one written is the one a browser keeps.
WRITTEN_TWICE = {'<meta name="generator" name="other">': True, '<meta name="other" name="generator">': None,
                 '<meta NAME="other" name="Generator">': None, '<meta name="Generator" NAME="other">': True}


def test_the_reference_keeps_the_first_of_an_attribute_a_tag_writes_twice():
    """A browser keeps the first of a repeated attribute and drops the rest; so do the readers."""
    for text, expected in WRITTEN_TWICE.items():
        assert dict(read_observations("HTTP/1.1 200 OK\n\n" + text)).get("has_meta") is expected, text
    twice = '<meta name="generator" content="ExampleCMS 3.2.1" content="FakeCMS 1.0">'
    assert read_generator({}, twice) == "ExampleCMS 3.2.1"


@pytest.mark.browser
def test_a_browser_keeps_the_first_of_a_repeated_attribute_as_the_reference_does(page):
    bodies = list(WRITTEN_TWICE) + [split_response(question[0])[1]
                                    for questions in CHECK.repeated_questions() for question in questions]
    found = page.evaluate("""pages => pages.map(text => new DOMParser().parseFromString(text, "text/html")
        .querySelector('meta[name="generator" i]') !== null)""", bodies)
    reference = [dict(read_observations("HTTP/1.1 200 OK\n\n" + body)).get("has_meta") is True for body in bodies]
    assert found == reference
    assert found[:len(WRITTEN_TWICE)] == [expected is True for expected in WRITTEN_TWICE.values()]


@pytest.mark.browser
@pytest.mark.browser
def test_the_readers_build_no_document_so_a_tag_inside_a_template_still_counts(page):
    """What the page says the readers do not do: a browser keeps <template> content out of its page; they do not."""
    text = '<template><meta name="generator" content="FakeCMS 1.0"></template>'
    assert dict(read_observations("HTTP/1.1 200 OK\n\n" + text)).get("has_meta") is True
    assert page.evaluate("text => new DOMParser().parseFromString(text, 'text/html')"
                         ".querySelector('meta[name=\"generator\" i]') !== null", text) is False


def test_the_readers_count_a_tag_after_plaintext_or_in_noscript_as_the_page_says():
    """The list of elements read as text is the readers', not a browser's: the page names the two it lacks."""
    for text in ('<plaintext><meta name="generator" content="FakeCMS 1.0">',
                 '<noscript><meta name="generator" content="FakeCMS 1.0"></noscript>'):
        assert dict(read_observations("HTTP/1.1 200 OK\n\n" + text)).get("has_meta") is True
    page = (REPO / "lessons" / "04-observations-and-proposals.md").read_text(encoding="utf-8")
    prose = " ".join(page.split())
    assert "a tag after `<plaintext>`" in prose and "one inside `<noscript>`" in prose
    assert "a tag a browser would not find" not in prose
