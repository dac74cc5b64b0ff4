"""MkDocs hooks: the site's navigation from the manifest, code references as links, pictures.

* The nav lists the course's index, every ready lesson's page and notebook
  (from ``course/manifest.toml``), and one "Reference code" index page.
* Each Python file of the course, and every other file a page names, gets a
  generated page under ``source/`` that shows it with line numbers and lists
  the lessons that cite it. Those pages stay out of the nav and the search.
* Every `file.py:Symbol` reference on a page becomes a link to the line that
  defines the symbol (a reference that resolves to nothing stops the build),
  and every inline `path/of/a/file` that names a file of the course becomes a
  link to its page.
* ``<!-- picture: NAME -->`` on a line of its own becomes the SVG picture
  ``course.pictures.draw(NAME)``, drawn from the code's data at build time.
"""

from __future__ import annotations

import ast
import posixpath
import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel

from course import manifest, pages, pictures, refs

ROOT = manifest.course_root()
SOURCE_FOLDERS = ("core", "lab", "starter", "solutions")
INDEX = "source/index.md"
LANGUAGES = {".py": "python", ".json": "json", ".toml": "toml", ".cfg": "ini", ".txt": "text", ".md": "markdown",
             ".html": "html"}
# An inline code span that may name a file of the course, such as `data/cases/origins.json`.
FILE_MENTION = re.compile(r"(?<!\[)`(?P<path>[A-Za-z0-9_][\w.-]*(?:/[\w.-]+)+)`")
PICTURE = re.compile(r"<!--\s*picture:\s*(?P<name>[\w-]+)\s*-->")
# Where the offline plugin would load its web-worker shim from; we serve our own copy instead.
SHIM = "assets/vendor/iframe-worker-shim.js"


def source_files() -> list[str]:
    """Every Python file a page may refer to, relative to the repository root."""
    found = []
    for folder in SOURCE_FOLDERS:
        found += [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / folder).rglob("*.py"))
                  if "__pycache__" not in p.parts and p.stat().st_size > 0]
    return found


def source_page(path: str) -> str:
    return f"source/{path}.md"


def _ready_lessons() -> list[manifest.Lesson]:
    return [lesson for lesson in manifest.load(ROOT) if lesson.ready]


def _page_of(path: str) -> str | None:
    """The site page (a docs-relative .md or .ipynb) that shows the repository file ``path``."""
    lessons = _ready_lessons()
    for lesson in lessons:
        if path == lesson.page:
            return lesson.page.removeprefix("lessons/")
        if path == lesson.notebook:
            return lesson.notebook
    if path.startswith("lessons/"):
        return None
    full = ROOT / path
    if full.is_file() and full.suffix in LANGUAGES and ROOT.resolve() in full.resolve().parents:
        return source_page(path)
    return None


def citations() -> dict[str, list[manifest.Lesson]]:
    """Repository file -> the ready lessons whose page cites it (by code reference or by path)."""
    cited: dict[str, list[manifest.Lesson]] = {}
    for lesson in _ready_lessons():
        text = (ROOT / lesson.page).read_text(encoding="utf-8")
        named = {found.path for ref in pages.code_references(text) if (found := refs.resolve(ref, ROOT))}
        named |= {m.group("path") for line in pages.prose_lines(text) for m in FILE_MENTION.finditer(line)
                  if (ROOT / m.group("path")).is_file()}
        for path in sorted(named):
            cited.setdefault(path, []).append(lesson)
    return cited


ATTACKS_PAGE = "attacks.md"  # the attack suite's page, its table written by python -m lab.attacks


def on_config(config):
    lessons = _ready_lessons()
    nav = [{"Start here": "index.md"}]
    nav.append({"Lessons": [{f"{l.number}. {l.title}": l.page.removeprefix("lessons/")} for l in lessons]})
    nav.append({"Notebooks": [{f"Lesson {l.number} notebook": l.notebook} for l in lessons]})
    if (ROOT / "lessons" / ATTACKS_PAGE).is_file():
        nav.append({"After lesson 10: the attack suite": ATTACKS_PAGE})
    nav.append({"Reference code": INDEX})
    config["nav"] = nav
    polyfills = config["extra"].get("polyfills", [])
    config["extra"]["polyfills"] = [SHIM if "iframe-worker" in str(p) else p for p in polyfills]
    return config


@event_priority(100)  # before mkdocs-jupyter, so that it sees the notebooks added here
def on_files(files: Files, config) -> Files:
    for lesson in _ready_lessons():
        files.append(File(lesson.notebook, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    cited = citations()
    shown = dict.fromkeys(source_files() + [p for p in cited if _page_of(p) == source_page(p)])
    for path in shown:
        files.append(File.generated(config, source_page(path), content=_source_markdown(path, cited.get(path, [])),
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    files.append(File.generated(config, INDEX, content=_index_markdown(list(shown), cited)))
    return files


def _back(page: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def _cited_by(path: str, lessons: list[manifest.Lesson]) -> str:
    if not lessons:
        return "No lesson page cites this file yet."
    links = [f"[Lesson {l.number}: {l.title}]({_back(source_page(path), l.page.removeprefix('lessons/'))})"
             for l in lessons]
    return "Cited by " + ", ".join(links) + "."


def _source_markdown(path: str, lessons: list[manifest.Lesson]) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    fence = "````" if "```" in text else "```"
    language = LANGUAGES.get(posixpath.splitext(path)[1], "text")
    index = _back(source_page(path), INDEX)
    # Source pages are where code references lead; search finds the lessons, not every line of code.
    return (f"---\nsearch:\n  exclude: true\n---\n\n# `{path}`\n\n{_cited_by(path, lessons)} "
            f"All files: [Reference code]({index}).\n\n"
            f'{fence}{language} linenums="1"\n{text}{fence}\n')


def _summary(path: str) -> str:
    """The first line of a Python file's docstring: what the file is for, in its own words."""
    if not path.endswith(".py"):
        return ""
    try:
        doc = ast.get_docstring(ast.parse((ROOT / path).read_text(encoding="utf-8"))) or ""
    except SyntaxError:
        return ""
    return doc.strip().splitlines()[0].replace("|", "\\|") if doc.strip() else ""


def _index_markdown(paths: list[str], cited: dict[str, list[manifest.Lesson]]) -> str:
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.split("/")[0], []).append(path)
    out = ["# Reference code", "",
           "Every file a lesson reads or names, with line numbers. A code reference on a lesson page, such "
           "as `run/records.py:Run`, leads to the line that defines it. `core/` is the reference harness "
           "(standard library only), `lab/` the fictional fixture lab, `starter/` the files you edit, "
           "`solutions/` the worked answers, and `data/` and `tests/` the files the lessons name.", ""]
    for folder, members in groups.items():
        out += [f"## `{folder}/`", "", "| File | What it is | Cited by |", "|---|---|---|"]
        for path in members:
            lessons = ", ".join(f"[Lesson {l.number}]({_back(INDEX, l.page.removeprefix('lessons/'))})"
                                for l in cited.get(path, []))
            out.append(f"| [`{path}`]({_back(INDEX, source_page(path))}) | {_summary(path)} | {lessons} |")
        out.append("")
    return "\n".join(out)


LESSON_LIST = "<!-- lesson-list: filled in from course/manifest.toml when the site is built -->"


def lesson_list() -> str:
    """The index page's table of lessons, straight from the manifest."""
    rows = ["| Lesson | What you build |", "|---|---|"]
    for lesson in manifest.load(ROOT):
        title = f"[{lesson.title}]({lesson.page.removeprefix('lessons/')})" if lesson.ready else lesson.title
        rows.append(f"| {lesson.number} | {title}{'' if lesson.ready else ' (being written)'} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Link each code reference to its definition (or stop the build naming it), and each file path to its page."""
    markdown = markdown.replace(LESSON_LIST, lesson_list())
    here = page.file.src_uri

    def link(match) -> str:
        reference = match.group("ref")
        found = refs.resolve(reference, ROOT)
        if found is None:
            raise PluginError(f"{here}: code reference `{reference}` resolves to no definition")
        return f"[`{reference}`]({_back(here, source_page(found.path))}#__codelineno-0-{found.line})"

    def link_file(match) -> str:
        target = _page_of(match.group("path"))
        if target is None or target == here or files.get_file_from_path(target) is None:
            return match.group(0)
        return f"[{match.group(0)}]({_back(here, target)})"

    if here.startswith("source/"):
        return markdown
    lines = markdown.split("\n")
    return "\n".join(line if code else FILE_MENTION.sub(link_file, pages.CODE_REFERENCE.sub(link, line))
                     for line, code in zip(lines, pages.in_code(lines)))


def on_page_content(html: str, page, config, files) -> str:
    """Draw the pictures a page asks for, and let link validation see the source pages' line anchors."""
    def picture(match) -> str:
        try:
            return pictures.draw(match.group("name"))
        except pictures.PictureError as exc:
            raise PluginError(f"{page.file.src_uri}: {exc}") from None

    html = PICTURE.sub(picture, html)
    if page.file.src_uri.startswith("source/") and page.present_anchor_ids is not None:
        # pymdownx.highlight writes the line anchors as stashed raw HTML, which MkDocs does not scan;
        # these are the ids really on the page, so a link to a line that does not exist still fails.
        page.present_anchor_ids |= set(re.findall(r'\bid="(__codelineno-[\w-]+)"', html))
    return html
