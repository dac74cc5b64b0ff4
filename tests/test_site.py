"""The docs site builds strictly, works offline, and links every code reference to its definition."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from course import manifest, pages, refs

REPO = Path(__file__).resolve().parent.parent
READY = [lesson for lesson in manifest.load(REPO) if lesson.ready]


from .conftest import build_site as build


class Resources(HTMLParser):
    """Every URL a page makes the browser load (not the ones it merely links to)."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "img", "iframe", "source") and attrs.get("src"):
            self.loaded.append(attrs["src"])
        if tag == "link" and attrs.get("href") and "stylesheet" in (attrs.get("rel") or "") + "preload icon":
            self.loaded.append(attrs["href"])


def test_the_site_builds_with_strict_checks(site):
    assert (site / "index.html").is_file()
    for lesson in READY:
        assert (site / lesson.page.removeprefix("lessons/").removesuffix(".md") / "index.html").is_file()


def test_the_site_loads_nothing_from_another_host(site):
    external = []
    for path in site.rglob("*.html"):
        parser = Resources()
        parser.feed(path.read_text(encoding="utf-8"))
        external += [f"{path.relative_to(site)}: {url}" for url in parser.loaded if re.match(r"(https?:)?//", url)]
    for path in site.rglob("*.css"):
        external += [f"{path.relative_to(site)}: {m}" for m in re.findall(r"url\(['\"]?(?:https?:)?//[^)]*\)", path.read_text())]
    assert external == []


def test_the_nav_lists_exactly_the_ready_lessons(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    for lesson in manifest.load(REPO):
        assert (f"{lesson.number}. {lesson.title}" in home) == lesson.ready, lesson.title


@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_every_code_reference_links_to_the_line_that_defines_it(site, lesson):
    text = (REPO / lesson.page).read_text(encoding="utf-8")
    html = (site / lesson.page.removeprefix("lessons/").removesuffix(".md") / "index.html").read_text(encoding="utf-8")
    references = set(pages.code_references(text))
    assert references, f"{lesson.page} has no code references"
    for reference in references:
        found = refs.resolve(reference, REPO)
        anchor = f"#__codelineno-0-{found.line}"
        links = re.findall(rf'href="([^"]*{re.escape(anchor)})"><code>{re.escape(reference)}</code>', html)
        assert links, f"`{reference}` is not linked to {found.path} line {found.line}"
        target = (site / lesson.page.removeprefix("lessons/").removesuffix(".md") / links[0].split("#")[0]).resolve()
        assert f'id="{anchor[1:]}"' in (target / "index.html").read_text(encoding="utf-8")


def test_an_unresolved_code_reference_stops_the_build(tmp_path):
    docs = tmp_path / "lessons"
    shutil.copytree(REPO / "lessons", docs)
    with open(docs / "index.md", "a", encoding="utf-8") as f:
        f.write("\nSee `run/records.py:NoSuchThing`.\n")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("docs_dir: lessons", f"docs_dir: {docs}").replace("course/site_hooks.py", str(REPO / "course/site_hooks.py"))
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "code reference `run/records.py:NoSuchThing` resolves to no definition" in done.stderr
