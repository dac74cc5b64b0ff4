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


def lesson_url(site_url: str, lesson=None) -> str:
    """A lesson page's address (the offline plugin writes one .html file per page)."""
    return site_url + (lesson or LESSON).page.removeprefix("lessons/").removesuffix(".md") + ".html"


READY = [lesson for lesson in manifest.load() if lesson.ready]
# Every element on a page that shows code: its scrollable box must be as wide as its content.
OVERFLOWING_CODE = """() => Array.from(document.querySelectorAll("article pre > code, article .highlight code"))
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => `${el.scrollWidth}px in ${el.clientWidth}px: ${el.innerText.split("\\n")[0].slice(0, 80)}`)"""


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
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lesson_url(site_url))
    page.locator("a", has=page.locator("code", has_text="run/records.py:Run")).first.click()
    page.wait_for_url(re.compile(r"source/core/run/records\.py\.html#__codelineno-0-\d+$"))
    line = int(page.url.rsplit("-", 1)[1])
    target = page.locator(f"#__span-0-{line}")
    assert target.inner_text().startswith("class Run")
    assert page.locator(f"#__codelineno-0-{line}").count() == 1
    # It lands on the line (on screen) and highlights it (and no other line).
    assert target.evaluate("el => { const r = el.getBoundingClientRect(); return r.top > 48 && r.bottom < innerHeight }")
    colour = lambda loc: loc.evaluate("el => getComputedStyle(el).backgroundColor")  # noqa: E731
    assert colour(target) not in ("rgba(0, 0, 0, 0)", "transparent")
    assert colour(page.locator(f"#__span-0-{line + 1}")) in ("rgba(0, 0, 0, 0)", "transparent")


@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_no_code_block_on_a_lesson_page_overflows_at_1280_px(page, site_url, lesson):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lesson_url(site_url, lesson))
    page.locator("details").evaluate_all("all => all.forEach(d => d.open = true)")  # hints and the solution too
    assert page.locator("article pre > code").count() > 0
    assert page.evaluate(OVERFLOWING_CODE) == []


def test_no_code_block_on_the_home_page_overflows_at_1280_px(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url)
    assert page.evaluate(OVERFLOWING_CODE) == []


def pictures_on_pages() -> list[tuple[str, str]]:
    """(page address, picture) for every picture a ready page or the home page asks for."""
    found = []
    for path, address in [("lessons/index.md", "index.html")] + \
            [(l.page, l.page.removeprefix("lessons/").removesuffix(".md") + ".html") for l in READY]:
        text = (manifest.course_root() / path).read_text(encoding="utf-8")
        found += [(address, name) for name in re.findall(r"<!--\s*picture:\s*([\w-]+)\s*-->", text)]
    return found


@pytest.mark.parametrize("where, picture", pictures_on_pages(), ids=lambda v: str(v))
def test_every_picture_is_shown_within_the_page(page, site_url, where, picture):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + where)
    svg = page.locator(f"svg#picture-{picture}")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    column = page.locator("article").bounding_box()
    assert box and box["width"] > 400 and box["height"] > 100, box
    assert box["x"] >= column["x"] - 1 and box["x"] + box["width"] <= column["x"] + column["width"] + 1
    # its marks carry the data they were drawn from
    assert svg.evaluate("s => [...s.querySelectorAll('*')].filter(e => [...e.attributes].some("
                        "a => a.name.startsWith('data-'))).length") > 0


# Every text of a picture, measured where the browser drew it: its box against the picture's box.
TEXTS_OUT_OF_PICTURE = """s => { const frame = s.getBoundingClientRect();
  return [...s.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()])
    .filter(([text, box]) => box.width > 0 && (box.left < frame.left - 1 || box.right > frame.right + 1
                                               || box.top < frame.top - 1 || box.bottom > frame.bottom + 1))
    .map(([text, box]) => `${text.slice(0, 60)} at ${Math.round(box.left - frame.left)}..`
                          + `${Math.round(box.right - frame.left)} of ${Math.round(frame.width)}`); }"""


@pytest.mark.parametrize("where, picture", pictures_on_pages(), ids=lambda v: str(v))
def test_no_text_of_a_picture_runs_outside_it_or_is_cut_short(page, site_url, where, picture):
    """Every text in every picture lies inside the picture as the browser draws it, and none is cut with an ellipsis."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + where)
    svg = page.locator(f"svg#picture-{picture}")
    svg.scroll_into_view_if_needed()
    assert svg.evaluate(TEXTS_OUT_OF_PICTURE) == []
    cut = svg.evaluate("s => [...s.querySelectorAll('text')].map(t => t.textContent)"
                       ".filter(t => t.trimEnd().endsWith('\u2026'))")
    assert cut == [], f"texts cut short in {picture}: {cut}"


@needs_lesson
def test_the_notebook_page_shows_its_outputs_unwrapped(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + LESSON.notebook.removesuffix(".ipynb") + ".html")
    outputs = page.locator("article .notebook-output pre")
    assert outputs.count() > 0
    assert "training-authorization-0001" in " ".join(outputs.all_inner_texts())
    styles = outputs.evaluate_all("all => all.map(el => getComputedStyle(el).whiteSpace)")
    assert set(styles) == {"pre"}, styles
    # An output line is never broken: each rendered line is as tall as one line of text.
    wrapped = outputs.evaluate_all("""all => all.filter(el => {
        const lines = el.innerText.replace(/\\n$/, "").split("\\n").length;
        const height = parseFloat(getComputedStyle(el).lineHeight);
        return el.scrollHeight > (lines + 1) * height;
    }).length""")
    assert wrapped == 0


@needs_lesson
def test_searching_for_refusal_finds_lesson_2(page, site_url):
    page.goto(site_url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("refusal", delay=50)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=60000)  # the search index loads in a web worker; slow machines need time
    assert LESSON.title in " ".join(results.all_inner_texts())


@needs_lesson
def test_the_site_works_from_a_folder_opened_with_no_server(page, site):
    """file:// only: navigation, pictures and search work with nothing but the built folder."""
    lesson = LESSON
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto((site / "index.html").as_uri())
    assert page.locator("svg#picture-run-timeline").is_visible()
    page.locator("nav.md-nav--primary a", has_text=lesson.title).first.click()
    page.wait_for_url(re.compile(r"^file://.*\.html"))
    assert page.locator("article h1").inner_text().startswith(f"Lesson {lesson.number}")
    page.locator("a", has=page.locator("code", has_text="run/records.py:Run")).first.click()
    page.wait_for_url(re.compile(r"^file://.*records\.py\.html#__codelineno-0-\d+$"))
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("refusal", delay=50)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=60000)
    assert lesson.title in " ".join(results.all_inner_texts())
    assert [url for url in requests if not url.startswith(("file://", "data:", "about:", "blob:"))] == []


@needs_lesson
def test_the_task_list_can_be_ticked_and_keeps_its_ticks(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lesson_url(site_url))
    boxes = page.locator("article .task-list-item input[type=checkbox]")
    assert boxes.count() >= 3
    assert not boxes.nth(1).is_checked()
    item = page.locator("article li.task-list-item").nth(1)
    item.scroll_into_view_if_needed()
    box = item.bounding_box()
    page.mouse.click(box["x"] - 10, box["y"] + box["height"] / 2)  # where the drawn checkbox sits
    assert boxes.nth(1).is_checked()
    page.reload()
    boxes = page.locator("article .task-list-item input[type=checkbox]")
    assert boxes.nth(1).is_checked() and not boxes.nth(0).is_checked()
