"""The rendered site, in a real browser: Debian's chromium driven by Playwright.

Without chromium these tests are skipped with the command that installs it;
CI installs it and sets COURSE_REQUIRE_BROWSER=1, which turns the skip into a failure.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from course import manifest, pages

pytestmark = pytest.mark.browser

LESSON = next((lesson for lesson in manifest.load() if lesson.number == 2 and lesson.ready), None)
CHROMIUM = shutil.which("chromium")
# Headless, as root, on a machine with no network beyond loopback.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM:
        message = "Debian's chromium is not installed: apt-get install chromium"
        if os.environ.get("COURSE_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def site_url(site):
    """The built site, served on 127.0.0.1 for the length of the session."""
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


needs_lesson = pytest.mark.skipif(LESSON is None, reason="lesson 2 is not ready in the manifest yet")


def lesson_url(site_url: str) -> str:
    return site_url + LESSON.page.removeprefix("lessons/").removesuffix(".md") + "/"


@needs_lesson
def test_lesson_page_shows_every_section_in_order(page, site_url):
    page.goto(lesson_url(site_url))
    headings = [h.strip().rstrip("¶").strip() for h in page.locator("article h2").all_inner_texts()]
    assert headings == list(pages.SECTIONS)


@needs_lesson
def test_a_hint_starts_collapsed_and_opens_on_click(page, site_url):
    page.goto(lesson_url(site_url))
    hint = page.locator("details", has=page.locator("summary", has_text=re.compile("Hint"))).first
    assert hint.get_attribute("open") is None
    hint.locator("summary").click()
    assert hint.get_attribute("open") is not None
    assert hint.locator("p").first.is_visible()


@needs_lesson
def test_a_code_reference_leads_to_its_definition(page, site_url):
    page.goto(lesson_url(site_url))
    page.locator("a", has=page.locator("code", has_text="run/records.py:Run")).first.click()
    page.wait_for_url(re.compile(r"source/core/run/records\.py/#__codelineno-0-\d+$"))
    line = int(page.url.rsplit("-", 1)[1])
    source = page.locator("td.code pre code").first.inner_text().splitlines()
    assert source[line - 1].startswith("class Run")
    assert page.locator(f"#__codelineno-0-{line}").count() == 1


@needs_lesson
def test_the_notebook_page_shows_a_committed_output(page, site_url):
    page.goto(site_url + "notebooks/lesson02/")
    outputs = page.locator(".jp-OutputArea-output")
    assert outputs.count() > 0
    assert "training-authorization-0001" in " ".join(outputs.all_inner_texts())


@needs_lesson
def test_searching_for_refusal_finds_lesson_2(page, site_url):
    page.goto(site_url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("refusal", delay=50)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=60000)  # the search index loads in a web worker; slow machines need time
    assert LESSON.title in " ".join(results.all_inner_texts())
