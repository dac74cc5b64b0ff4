"""MkDocs hooks: the site's navigation from the manifest, and code references as links.

* The nav lists the course's index, every ready lesson's page and notebook
  (from ``course/manifest.toml``), and the reference source.
* Each Python file of the course gets a generated page under ``source/`` that
  shows it with line numbers.
* Every `file.py:Symbol` reference on a page becomes a link to the line that
  defines the symbol; a reference that resolves to nothing stops the build.
"""

from __future__ import annotations

import posixpath
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from course import manifest, pages, refs

ROOT = manifest.course_root()
SOURCE_FOLDERS = ("core", "lab", "starter", "solutions")


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


def on_config(config):
    lessons = _ready_lessons()
    nav = [{"Start here": "index.md"}]
    nav.append({"Lessons": [{f"{l.number}. {l.title}": l.page.removeprefix("lessons/")} for l in lessons]})
    nav.append({"Notebooks": [{f"Lesson {l.number} notebook": l.notebook} for l in lessons]})
    nav.append({"Source": [{path: source_page(path)} for path in source_files() if path.startswith("core/")]})
    config["nav"] = nav
    return config


@event_priority(100)  # before mkdocs-jupyter, so that it sees the notebooks added here
def on_files(files: Files, config) -> Files:
    for lesson in _ready_lessons():
        files.append(File(lesson.notebook, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    for path in source_files():
        text = (ROOT / path).read_text(encoding="utf-8")
        # Source pages are where code references lead; search finds the lessons, not every line of code.
        content = f"---\nsearch:\n  exclude: true\n---\n\n# `{path}`\n\n```python linenums=\"1\"\n{text}```\n"
        files.append(File.generated(config, source_page(path), content=content))
    return files


LESSON_LIST = "<!-- lesson-list: filled in from course/manifest.toml when the site is built -->"


def lesson_list() -> str:
    """The index page's table of lessons, straight from the manifest."""
    rows = ["| Lesson | What you build |", "|---|---|"]
    for lesson in manifest.load(ROOT):
        title = f"[{lesson.title}]({lesson.page.removeprefix('lessons/')})" if lesson.ready else lesson.title
        rows.append(f"| {lesson.number} | {title}{'' if lesson.ready else ' (being written)'} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Link each code reference to its definition, or stop the build naming it."""
    markdown = markdown.replace(LESSON_LIST, lesson_list())
    def link(match) -> str:
        reference = match.group("ref")
        found = refs.resolve(reference, ROOT)
        if found is None:
            raise PluginError(f"{page.file.src_uri}: code reference `{reference}` resolves to no definition")
        target = posixpath.relpath(source_page(found.path), posixpath.dirname(page.file.src_uri) or ".")
        return f"[`{reference}`]({target}#__codelineno-0-{found.line})"

    if page.file.src_uri.startswith("source/"):
        return markdown
    lines = markdown.split("\n")
    return "\n".join(line if code else pages.CODE_REFERENCE.sub(link, line)
                     for line, code in zip(lines, pages.in_code(lines)))

