"""The docs site's pages, written as plain Markdown and SVG before any builder runs.

    python -m site_build.build build-pages             # writes build/site-src/ and build/mkdocs.yml
    python -m site_build.build build-pages --out DIR   # the same under DIR
    make docs                                     # this, then serves the site (mkdocs-material)

Everything the site shows that is not a page as committed is made here, so that
any builder that reads ``mkdocs.yml`` (mkdocs-material, Zensical) renders the
same pages with no plug-in or hook of its own (mkdocs run on the root's
``mkdocs.yml`` gets this step from ``site_build/hook.py``, then builds them):

* the navigation, from ``course/manifest.toml``: the index, every ready
  lesson's page and notebook, the attack suite's page, one "Reference code"
  index (written into ``build/mkdocs.yml``, which inherits ``mkdocs.yml``);
* every lesson page, with each `file.py:Symbol` reference linked to the line
  that defines it (one that resolves to nothing stops the step), each inline
  `path/of/a/file` that names a file of the course linked to its page, each
  ``--8<-- "path"`` line replaced by that file (the worked solutions), each
  ``<!-- picture: NAME -->`` line replaced by the picture drawn from the code's
  data (``site_build.pictures``; each is also written as ``pictures/NAME.svg``),
  and a link to the lesson's notebook page;
* every notebook as a page: its Markdown cells, its code and its committed
  outputs (``notebooks/lessonNN.md``);
* a page for each Python file of the course and every other file a page
  names, its code highlighted with line anchors already in the HTML (so a
  builder's link check sees them), listing the lessons that cite it.

A link to a source line that does not exist stops the step too. The folder is
built output (``build/`` is not committed), so nothing here can drift from the
code it is drawn from.
"""

from __future__ import annotations

import argparse
import ast
import html
import posixpath
import re
import shutil
import sys
from functools import cache
from pathlib import Path

import markdown
import nbformat
import yaml

from course import manifest, pages, refs, wrong
from site_build import pictures

ROOT = manifest.course_root()
PAGES = "lessons"  # the committed pages, as authors write them
BASE_CONFIG = "mkdocs.yml"  # the site's settings; the written config inherits it
SOURCE_FOLDERS = ("core", "lab", "tlog", "starter", "solutions")
INDEX = "source/index.md"
ATTACKS_PAGE = "attacks.md"  # the attack suite's page, its table written by python -m lab.attacks
LANGUAGES = {".py": "python", ".json": "json", ".toml": "toml", ".cfg": "ini", ".txt": "text", ".md": "markdown",
             ".html": "html", ".diff": "diff"}
# An inline code span that may name a file of the course, such as `data/cases/origins.json`.
FILE_MENTION = re.compile(r"(?<!\[)`(?P<path>[A-Za-z0-9_][\w.-]*(?:/[\w.-]+)+)`")
PICTURE = re.compile(r"^\s*<!--\s*picture:\s*(?P<name>[\w-]+)\s*-->\s*$")
SNIPPET = re.compile(r'^(?P<indent>\s*)--8<--\s+"(?P<path>[^"]+)"\s*$')
LESSON_LIST = "<!-- lesson-list: filled in from course/manifest.toml when the site is built -->"
# A Markdown link to a line of a source page: [text](../source/core/x.py.md#__codelineno-0-12)
LINE_LINK = re.compile(r"\]\((?P<target>[^)\s#]*source/[^)\s#]+\.md)#__codelineno-0-(?P<line>\d+)\)")


class SiteError(Exception):
    """A page cannot be written as it stands; the message names the page and what is wrong."""


# --- what the site holds -------------------------------------------------------------------


@cache
def _lessons() -> tuple[manifest.Lesson, ...]:
    return tuple(manifest.load(ROOT))


@cache
def _resolve(reference: str) -> refs.Definition | None:
    return refs.resolve(reference, ROOT)


def ready_lessons() -> list[manifest.Lesson]:
    return [lesson for lesson in _lessons() if lesson.ready]


def lesson_page(lesson: manifest.Lesson) -> str:
    """The site page (relative to the pages folder) of a lesson: its page's file name."""
    return lesson.page.removeprefix(f"{PAGES}/")


def notebook_page(lesson: manifest.Lesson) -> str:
    return lesson.notebook.removesuffix(".ipynb") + ".md"


def source_page(path: str) -> str:
    return f"source/{path}.md"


def source_files() -> list[str]:
    """Every Python file a page may refer to, and each wrong solution stored as its diff (shown as one)."""
    found = []
    for folder in SOURCE_FOLDERS:
        found += [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / folder).rglob("*.py"))
                  if "__pycache__" not in p.parts and p.stat().st_size > 0]
    return found + [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / wrong.FOLDER).glob("*.diff"))]


def page_of(path: str) -> str | None:
    """The site page that shows the repository file ``path``, or None."""
    for lesson in ready_lessons():
        if path == lesson.page:
            return lesson_page(lesson)
        if path == lesson.notebook:
            return notebook_page(lesson)
    if path.startswith(f"{PAGES}/"):
        return None
    full = ROOT / path
    if full.is_file() and full.suffix in LANGUAGES and ROOT.resolve() in full.resolve().parents:
        return source_page(path)
    return None


def citations() -> dict[str, list[manifest.Lesson]]:
    """Repository file -> the ready lessons whose page cites it (by code reference or by path)."""
    cited: dict[str, list[manifest.Lesson]] = {}
    for lesson in ready_lessons():
        text = (ROOT / lesson.page).read_text(encoding="utf-8")
        named = {found.path for ref in pages.code_references(text) if (found := _resolve(ref))}
        named |= {m.group("path") for line in pages.prose_lines(text) for m in FILE_MENTION.finditer(line)
                  if (ROOT / m.group("path")).is_file()}
        for path in sorted(named):
            cited.setdefault(path, []).append(lesson)
    return cited


def shown_sources(cited: dict[str, list[manifest.Lesson]]) -> list[str]:
    """Every file that gets a source page: the course's Python files, then any other file a page names."""
    return list(dict.fromkeys(source_files() + [p for p in cited if page_of(p) == source_page(p)]))


def navigation() -> list:
    lessons = ready_lessons()
    nav: list = [{"Start here": "index.md"}]
    nav.append({"Lessons": [{f"{l.number}. {l.title}": lesson_page(l)} for l in lessons]})
    nav.append({"Notebooks": [{f"Lesson {l.number} notebook": notebook_page(l)} for l in lessons]})
    if (ROOT / PAGES / ATTACKS_PAGE).is_file():
        nav.append({"After lesson 10: the attack suite": ATTACKS_PAGE})
    nav.append({"Reference code": INDEX})
    return nav


# --- writing it ------------------------------------------------------------------------------


def build_pages(out: Path, pages_dir: Path | None = None) -> Path:
    """Write every page to ``out``/site-src and the builders' config to ``out``/mkdocs.yml; return the config.

    ``pages_dir`` is where the committed pages are read from (``lessons/``
    unless a test gives a copy).
    """
    pages_dir = pages_dir or ROOT / PAGES
    _lessons.cache_clear()  # read afresh for each build: the manifest, and where each reference points
    _resolve.cache_clear()
    docs = out / "site-src"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    shutil.copytree(pages_dir / "assets", docs / "assets")
    cited = citations()
    shown = shown_sources(cited)
    lessons = ready_lessons()
    site = {*(lesson_page(l) for l in lessons), *(notebook_page(l) for l in lessons), INDEX,
            *(page for page in ("index.md", ATTACKS_PAGE) if (pages_dir / page).is_file()),
            *(source_page(path) for path in shown)}
    written: dict[str, str] = {}
    for page in ("index.md", ATTACKS_PAGE):
        if page in site:
            written[page] = course_page(page, (pages_dir / page).read_text(encoding="utf-8"), docs, site)
    for lesson in lessons:
        page = lesson_page(lesson)
        text = (pages_dir / page).read_text(encoding="utf-8")
        written[page] = course_page(page, with_notebook_link(text, lesson), docs, site)
        written[notebook_page(lesson)] = course_page(notebook_page(lesson), notebook_markdown(lesson), docs, site)
    for path in shown:
        written[source_page(path)] = source_markdown(path, cited.get(path, []))
    written[INDEX] = index_markdown(shown, cited)
    for page, text in written.items():
        (docs / page).parent.mkdir(parents=True, exist_ok=True)
        (docs / page).write_text(text, encoding="utf-8")
    config = out / "mkdocs.yml"
    base = posixpath.relpath((ROOT / BASE_CONFIG).resolve().as_posix(), out.resolve().as_posix())
    config.write_text("# Written by `python -m site_build.build build-pages`; not committed. The site's settings are\n"
                      f"# {BASE_CONFIG}; this adds the pages folder and the navigation from course/manifest.toml.\n"
                      + yaml.safe_dump({"INHERIT": base, "docs_dir": "site-src", "site_dir": "site",
                                        "hooks": [], "nav": navigation()}, sort_keys=False, allow_unicode=True),
                      encoding="utf-8")
    return config


def with_notebook_link(text: str, lesson: manifest.Lesson) -> str:
    """The lesson page with a line under its title that links the lesson's notebook page."""
    title, _, rest = text.partition("\n")
    line = (f"The same lesson as a notebook, cell by cell: [`{lesson.notebook}`]"
            f"({_back(lesson_page(lesson), notebook_page(lesson))}) (run it yourself with `make lab`).")
    return f"{title}\n\n{line}\n{rest}"


def course_page(page: str, text: str, docs: Path, site: set[str]) -> str:
    """A page with its lesson list, snippets, pictures and links filled in."""
    text = text.replace(LESSON_LIST, lesson_list())
    lines = []
    given = text.split("\n")
    for line, code in zip(given, pages.in_code(given)):
        if found := SNIPPET.match(line):  # the worked solutions are included inside a code block
            lines += _snippet(page, found.group("path"), found.group("indent"))
        elif not code and (found := PICTURE.match(line)):
            lines.append(_picture(page, found.group("name"), docs))
        else:
            lines.append(line)
    text = link_references(page, "\n".join(lines), site)
    check_line_links(page, text)
    return text


def _snippet(page: str, path: str, indent: str) -> list[str]:
    full = ROOT / path
    if not full.is_file():
        raise SiteError(f"{page}: the snippet {path!r} is not a file of the course")
    return [indent + line if line else "" for line in full.read_text(encoding="utf-8").rstrip("\n").split("\n")]


def _picture(page: str, name: str, docs: Path) -> str:
    try:
        figure = pictures.draw(name)
    except pictures.PictureError as exc:
        raise SiteError(f"{page}: {exc}") from None
    svg = docs / "pictures" / f"{name}.svg"
    svg.parent.mkdir(exist_ok=True)
    svg.write_text(pictures.PICTURES[name][1]() + "\n", encoding="utf-8")
    return figure


def lesson_list() -> str:
    """The index page's table of lessons, straight from the manifest."""
    rows = ["| Lesson | What you build |", "|---|---|"]
    for lesson in _lessons():
        title = f"[{lesson.title}]({lesson_page(lesson)})" if lesson.ready else lesson.title
        rows.append(f"| {lesson.number} | {title}{'' if lesson.ready else ' (being written)'} |")
    return "\n".join(rows)


def link_references(page: str, text: str, site: set[str]) -> str:
    """Each code reference linked to its definition (or a SiteError naming it), each file path to its page.

    ``site`` is every page being written: a file whose page the site does not have is left as it is."""
    def link(match) -> str:
        reference = match.group("ref")
        found = _resolve(reference)
        if found is None:
            raise SiteError(f"{page}: code reference `{reference}` resolves to no definition")
        return f"[`{reference}`]({_back(page, source_page(found.path))}#__codelineno-0-{found.line})"

    def link_file(match) -> str:
        target = page_of(match.group("path"))
        if target is None or target == page or target not in site:
            return match.group(0)
        return f"[{match.group(0)}]({_back(page, target)})"

    lines = text.split("\n")
    return "\n".join(line if code else FILE_MENTION.sub(link_file, pages.CODE_REFERENCE.sub(link, line))
                     for line, code in zip(lines, pages.in_code(lines)))


def check_line_links(page: str, text: str) -> None:
    """Every link to a line of a source page names a line that file has."""
    for found in LINE_LINK.finditer(text):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), found.group("target")))
        path = target.removeprefix("source/").removesuffix(".md")
        line = int(found.group("line"))
        full = ROOT / path
        lines = full.read_text(encoding="utf-8").count("\n") + 1 if full.is_file() else 0
        if not target.startswith("source/") or not 1 <= line <= lines:
            raise SiteError(f"{page}: the link to {found.group('target')}#__codelineno-0-{line} "
                            "names no line of a source page")


def _back(page: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


# --- notebook pages --------------------------------------------------------------------------


def notebook_markdown(lesson: manifest.Lesson) -> str:
    """The notebook as committed: Markdown cells as they are, code cells and their outputs as code blocks."""
    notebook = nbformat.read(ROOT / lesson.notebook, as_version=4)
    back = _back(notebook_page(lesson), lesson_page(lesson))
    parts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        elif cell.cell_type == "code":
            parts.append(_fenced(cell.source, "python"))
            text = "".join(_output_text(output) for output in cell.get("outputs", []))
            if text:
                parts.append(_fenced(text, "text", " .notebook-output"))
    if parts and parts[0].startswith("# "):  # under the notebook's title, where it comes from
        title, _, rest = parts[0].partition("\n")
        parts[0] = (f"{title}\n\nThis page is `{lesson.notebook}` as committed, with its outputs; run it yourself "
                    f"with `make lab`. The lesson's page: [{lesson.title}]({back}).\n{rest}")
    return "\n\n".join(parts) + "\n"


def _output_text(output) -> str:
    if output.output_type == "stream":
        return output.text
    if output.output_type in ("execute_result", "display_data"):
        return output.get("data", {}).get("text/plain", "") + "\n"
    if output.output_type == "error":
        return "\n".join(output.get("traceback", [])) + "\n"
    return ""


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in ``text``."""
    return "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))


def _fenced(text: str, language: str, classes: str = "") -> str:
    fence = _fence(text)
    opening = f"{fence} {{ .{language}{classes} }}" if classes else f"{fence}{language}"
    return f"{opening}\n{text.rstrip(chr(10))}\n{fence}"


# --- source pages ----------------------------------------------------------------------------


@cache
def _highlighter() -> markdown.Markdown:
    """Python-Markdown with the site's own highlight settings (from mkdocs.yml), for source pages."""
    config = yaml.safe_load((ROOT / BASE_CONFIG).read_text(encoding="utf-8"))
    settings = {}
    for entry in config.get("markdown_extensions", []):
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        settings[name] = options or {}
    return markdown.Markdown(extensions=["pymdownx.superfences", "pymdownx.highlight"],
                             extension_configs={"pymdownx.highlight": settings.get("pymdownx.highlight", {})})


def _code_html(text: str, language: str) -> str:
    """The file's code as the site's highlighter writes it, with an anchor on every line."""
    fence = _fence(text)
    html = _highlighter().reset().convert(f'{fence}{language} linenums="1"\n{text}{fence}\n')
    return html.strip()


def source_markdown(path: str, lessons: list[manifest.Lesson]) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    language = LANGUAGES.get(posixpath.splitext(path)[1], "text")
    index = _back(source_page(path), INDEX)
    # Source pages are where code references lead; search finds the lessons, not every line of code.
    return (f"---\nsearch:\n  exclude: true\n---\n\n# `{path}`\n\n{_cited_by(path, lessons)} "
            f"All files: [Reference code]({index}).\n\n{_code_html(text, language)}\n")


def _cited_by(path: str, lessons: list[manifest.Lesson]) -> str:
    if not lessons:
        return "No lesson page cites this file yet."
    links = [f"[Lesson {l.number}: {l.title}]({_back(source_page(path), lesson_page(l))})" for l in lessons]
    return "Cited by " + ", ".join(links) + "."


def _summary(path: str) -> str:
    """The first line of a Python file's docstring (a wrong solution's header): what the file is for."""
    if not path.endswith((".py", ".diff")):
        return ""
    try:
        doc = wrong.header(ROOT / path) if path.endswith(".diff") else \
            ast.get_docstring(ast.parse((ROOT / path).read_text(encoding="utf-8"))) or ""
    except (SyntaxError, wrong.WrongSolutionError):
        return ""
    if not doc.strip():
        return ""
    first = html.escape(doc.strip().splitlines()[0], quote=False)  # a docstring may name <title>: text, not markup
    return first.replace("|", "\\|")


def index_markdown(paths: list[str], cited: dict[str, list[manifest.Lesson]]) -> str:
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
            lessons = ", ".join(f"[Lesson {l.number}]({_back(INDEX, lesson_page(l))})" for l in cited.get(path, []))
            out.append(f"| [`{path}`]({_back(INDEX, source_page(path))}) | {_summary(path)} | {lessons} |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_build.build", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build-pages", help="write every page and the builders' config")
    build.add_argument("--out", default=str(ROOT / "build"), help="the folder to write into (default build/)")
    build.add_argument("--pages", default=str(ROOT / PAGES), help="read the committed pages from here (default lessons/)")
    args = parser.parse_args(argv)
    try:
        config = build_pages(Path(args.out), Path(args.pages))
    except SiteError as exc:
        print(f"site_build.build: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {config.parent / 'site-src'} and {config}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
