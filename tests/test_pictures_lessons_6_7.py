"""Lessons 6 and 7's pictures, measured in a real browser: every text fits its box, and none is cut.

Each picture is drawn from its committed artifact and laid out by Debian's
chromium (driven by Playwright, as in tests/test_site_browser.py); each text's
box, as the browser renders it, must lie inside the box it belongs to, and no
text ends in an ellipsis. Without chromium the test is skipped with the
command that installs it (CI sets COURSE_REQUIRE_BROWSER=1: then it fails).
"""

from __future__ import annotations

import os
import shutil

import pytest

from site_build import pictures

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium")
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


# For each <text>: its rendered box, and the box it must stay in (the rect of its own
# group: a verdict's box; in lesson 6, its act's column, which starts at the group's rect).
MEASURE = """(args) => {
  const [name, column] = args;
  const svg = document.querySelector(`svg#picture-${name}`);
  const inside = [];
  for (const text of svg.querySelectorAll("text")) {
    const box = text.getBBox();
    const group = text.closest("g");
    let limit = {x: 0, y: 0, width: svg.viewBox.baseVal.width, height: svg.viewBox.baseVal.height};
    if (group) {
      const rects = [...group.querySelectorAll("rect")].map(r => r.getBBox());
      const own = rects.find(r => box.x >= r.x && box.x < r.x + (column || r.width) && box.y >= r.y - 2
                                   && box.y < r.y + r.height);
      if (own) limit = column ? {x: own.x, y: own.y, width: column, height: own.height} : own;
    }
    inside.push({text: text.textContent, right: box.x + box.width, bottom: box.y + box.height,
                 limit_right: limit.x + limit.width, limit_bottom: limit.y + limit.height});
  }
  return inside;
}"""


@pytest.mark.parametrize("name, column", [("execution-outcomes", 310), ("verification-verdicts", 0)])
def test_every_text_of_lessons_6_and_7s_pictures_fits_its_box_and_none_is_cut(page, name, column):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_content(f"<html><body style='margin:0'>{pictures.draw(name)}</body></html>")
    measured = page.evaluate(MEASURE, [name, column])
    assert measured, f"{name} has no text"
    cut = [m["text"] for m in measured if m["text"].rstrip().endswith(("…", "..."))]
    assert cut == [], f"{name} cuts {cut}"
    outside = [m for m in measured if m["right"] > m["limit_right"] + 0.5 or m["bottom"] > m["limit_bottom"] + 0.5]
    assert outside == [], f"{name}: texts run outside their box: {outside}"
