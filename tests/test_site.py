"""The docs site builds strictly, works offline, and links every code reference to its definition."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from course import manifest, pages, refs
from site_build import pictures
from site_build import build as prebuild

REPO = Path(__file__).resolve().parent.parent
READY = [lesson for lesson in manifest.load(REPO) if lesson.ready]


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


def html_of(site: Path, lesson) -> Path:
    """A lesson page in the built site (the offline plugin writes one .html file per page)."""
    return site / (lesson.page.removeprefix("lessons/").removesuffix(".md") + ".html")


def test_the_strict_build_succeeds_with_no_warning(site_build):
    folder, done = site_build
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    warnings = [line for line in log.splitlines() if re.match(r"\s*(WARNING|ERROR)\b", line)]
    assert warnings == [], "\n".join(warnings)
    assert "Aborted" not in log and "end of life" not in log, log
    assert (folder / "index.html").is_file()
    for lesson in READY:
        assert html_of(folder, lesson).is_file()


def test_the_build_log_is_quiet(site_build):
    """No list of pages left out of the nav, no banner: what the build prints is worth reading."""
    _, done = site_build
    log = done.stdout + done.stderr
    assert "not included in the \"nav\"" not in log, log
    assert "NO_MKDOCS_2_WARNING" not in log, log


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
    html = html_of(site, lesson).read_text(encoding="utf-8")
    references = set(pages.code_references(text))
    assert references, f"{lesson.page} has no code references"
    for reference in references:
        found = refs.resolve(reference, REPO)
        anchor = f"#__codelineno-0-{found.line}"
        links = re.findall(rf'href="([^"]*{re.escape(anchor)})"><code>{re.escape(reference)}</code>', html)
        assert links, f"`{reference}` is not linked to {found.path} line {found.line}"
        target = (html_of(site, lesson).parent / links[0].split("#")[0]).resolve()
        assert target.name == f"{Path(found.path).name}.html", target
        assert f'id="{anchor[1:]}"' in target.read_text(encoding="utf-8")


def _copy_of_the_pages(tmp_path: Path, extra: str) -> Path:
    """A copy of the committed pages with ``extra`` appended to the index page."""
    docs = tmp_path / "lessons"
    shutil.copytree(REPO / "lessons", docs)
    with open(docs / "index.md", "a", encoding="utf-8") as f:
        f.write(extra)
    return docs


def test_an_unresolved_code_reference_stops_the_pages_being_written(tmp_path):
    docs = _copy_of_the_pages(tmp_path, "\nSee `run/records.py:NoSuchThing`.\n")
    done = subprocess.run([sys.executable, "-m", "site_build.build", "build-pages", "--out", str(tmp_path / "out"),
                           "--pages", str(docs)], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == "site_build.build: index.md: code reference `run/records.py:NoSuchThing` resolves to no definition\n"


@pytest.mark.parametrize("extra, says", [
    ("\n[nowhere](source/core/run/records.py.md#__codelineno-0-99999)\n",
     "index.md: the link to source/core/run/records.py.md#__codelineno-0-99999 names no line of a source page"),
    ("\n<!-- picture: no-such-picture -->\n", "index.md: there is no picture 'no-such-picture'"),
    ('\n--8<-- "solutions/no_such_file.py"\n', "index.md: the snippet 'solutions/no_such_file.py' is not a file"),
])
def test_a_page_the_site_cannot_show_stops_the_pages_being_written(tmp_path, extra, says):
    with pytest.raises(prebuild.SiteError, match=re.escape(says)):
        prebuild.build_pages(tmp_path / "out", pages_dir=_copy_of_the_pages(tmp_path, extra))


# --- navigation: one "Reference code" entry, cited-by lists, file paths as links --------------

def test_source_pages_sit_behind_one_reference_code_entry(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    nav = home[home.index("md-nav--primary"):home.index('class="md-content"')]
    assert "Reference code" in nav
    assert "source/core/run/records.py.html" not in nav, "source files are listed in the main navigation"
    index = (site / "source" / "index.html").read_text(encoding="utf-8")
    for path in prebuild.source_files():
        assert f'href="{path}.html"' in index, f"the Reference code page does not list {path}"


def test_each_wrong_solution_stored_as_its_mistake_is_shown_as_its_diff(site_pages):
    """A wrong solution's page shows its header and its diff, highlighted as one: the one-line mistake."""
    diffs = sorted((REPO / "solutions" / "wrong").glob("*.diff"))
    assert diffs
    folder = site_pages.parent / "site-src" / "source"
    for path in diffs:
        page = (folder / path.relative_to(REPO).with_name(path.name + ".md")).read_text(encoding="utf-8")
        assert '<span class="gi">+' in page or '<span class="gd">-' in page, path.name  # a diff's lines, as one
        changed = [line[1:] for line in path.read_text(encoding="utf-8").splitlines()
                   if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
        word = next(found.group() for line in changed if (found := re.search(r"[A-Za-z_]{3,}", line)))
        assert word in page, (path.name, word)
    index = (folder / "index.md").read_text(encoding="utf-8")
    assert "solutions/wrong/lesson04_accepts_every_page.diff" in index and "Wrong: every page has the tag." in index


def test_each_source_page_lists_the_lessons_that_cite_it(site):
    cited = prebuild.citations()
    assert "core/run/records.py" in cited
    for path, lessons in cited.items():
        if prebuild.page_of(path) != prebuild.source_page(path):
            continue  # a lesson page or notebook, or a file with no source page (a binary, say)
        html = (site / "source" / f"{path}.html").read_text(encoding="utf-8")
        for lesson in lessons:
            assert f"Lesson {lesson.number}: {lesson.title}" in html, path
    uncited = next(p for p in prebuild.source_files() if p not in cited)
    assert "No lesson page cites this file yet." in (site / "source" / f"{uncited}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_file_paths_on_a_page_link_to_their_files(site, lesson):
    text = (REPO / lesson.page).read_text(encoding="utf-8")
    html = html_of(site, lesson).read_text(encoding="utf-8")
    mentioned = {m.group("path") for line in pages.prose_lines(text) for m in prebuild.FILE_MENTION.finditer(line)
                 if (REPO / m.group("path")).is_file() and m.group("path") != lesson.page}
    assert mentioned, f"{lesson.page} names no file of the course"
    for path in mentioned:
        assert re.search(rf'<a href="[^"]*{re.escape(path)}[^"]*"><code>{re.escape(path)}</code></a>', html) or \
            re.search(rf'<a href="[^"]*"><code>{re.escape(path)}</code></a>', html), f"`{path}` is not a link"


# --- pictures: present in the built site, and saying what their data says ----------------------

class Marks(HTMLParser):
    """The elements of one inline SVG picture that carry data-* attributes."""

    def __init__(self, picture: str) -> None:
        super().__init__()
        self.picture, self.inside, self.depth, self.marks = picture, False, 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and attrs.get("id") == f"picture-{self.picture}":
            self.inside, self.depth = True, 0
        if self.inside:
            self.depth += 1
            if any(k.startswith("data-") for k in attrs):
                self.marks.append((attrs.get("class"), attrs))

    def handle_endtag(self, tag):
        if self.inside:
            self.depth -= 1
            if tag == "svg" and self.depth <= 0:
                self.inside = False


def marks(html_path: Path, picture: str, cls: str) -> list[dict]:
    parser = Marks(picture)
    parser.feed(html_path.read_text(encoding="utf-8"))
    assert parser.marks, f"{html_path.name} has no picture {picture!r}"
    return [attrs for c, attrs in parser.marks if c == cls]


def test_the_stage_machine_is_drawn_from_the_stage_tables(site):
    from core.run.stages import STAGES, TRANSITIONS
    assert [m["data-stage"] for m in marks(site / "index.html", "stage-machine", "stage")] == list(STAGES)
    drawn = [(m["data-from"], m["data-to"]) for m in marks(site / "index.html", "stage-machine", "transition")]
    assert drawn == [tuple(t) for t in TRANSITIONS]


def test_lesson_2_shows_its_admitted_chain_and_ledger_from_the_artifact(site):
    lesson = next(lesson for lesson in READY if lesson.number == 2)
    demo = json.loads((REPO / "data/course/records-demo.json").read_text(encoding="utf-8"))
    page = html_of(site, lesson)
    chain = [(m["data-kind"], m["data-id"]) for m in marks(page, "records-chain", "chain-record")]
    assert chain == [(e["kind"], e["id"]) for e in demo["admitted"]]
    records = {e["id"]: e["record"] for e in demo["admitted"]}
    bindings = marks(page, "records-chain", "binding")
    assert bindings, "the chain draws no binding between records"
    for b in bindings:
        assert records[b["data-from"]][b["data-field"]] == b["data-to"]
    ledger = [(int(m["data-seq"]), m["data-status"], m["data-kind"]) for m in marks(page, "records-chain", "ledger-event")]
    assert ledger == [(e["seq"], e["status"], e["kind"]) for e in demo["report"]["events"]]


def test_the_run_timeline_is_drawn_from_the_committed_report(site):
    report = json.loads((REPO / "data/course/report.json").read_text(encoding="utf-8"))
    home = site / "index.html"
    drawn = [(int(m["data-seq"]), m["data-status"], m["data-kind"]) for m in marks(home, "run-timeline", "timeline-event")]
    assert drawn == [(e["seq"], e["status"], e["kind"]) for e in sorted(report["events"], key=lambda e: e["seq"])]
    # Each event sits in the band of the stage its run was in: the target of the last admitted
    # transition before it (a transition is recorded in the stage it leaves), authorize before any move.
    bands = [(int(m["data-first"]), int(m["data-last"]), m["data-stage"])
             for m in marks(home, "run-timeline", "stage-band")]
    moves = [e for e in sorted(report["events"], key=lambda e: e["seq"])
             if e["kind"] == "transition" and e["status"] == "admitted"]
    for event in report["events"]:
        before = [m for m in moves if m["seq"] < event["seq"]]
        expected = before[-1]["id"].split(" -> ")[1] if before else "authorize"
        drawn_in = [stage for first, last, stage in bands if first <= event["seq"] <= last]
        assert drawn_in == [expected], f"event {event['seq']} is drawn in {drawn_in}, not [{expected!r}]"
    assert bands[-1][2] == report["stage"]
    assert sum(m["data-status"] == "refused" for m in marks(home, "run-timeline", "timeline-event")) == \
        sum(e["status"] == "refused" for e in report["events"])


@pytest.mark.parametrize("broken, says", [
    ({}, "lacks 'admitted'"),
    ({"admitted": [], "report": {"events": [{"seq": 1}]}}, "a ledger event lacks 'status'"),
])
def test_a_picture_of_malformed_data_names_what_is_wrong(broken, says):
    with pytest.raises(pictures.PictureError, match=re.escape(says)):
        pictures.records_chain(broken)


def test_a_timeline_reads_a_report_with_unknown_kinds_and_no_close():
    events = [{"seq": 2, "kind": "transition", "status": "admitted", "id": "a -> b", "reason": "", "payload": {}},
              {"seq": 3, "kind": "novel_kind", "status": "admitted", "id": "x", "reason": "", "payload": {}},
              {"seq": 1, "kind": "novel_kind", "status": "refused", "id": "", "reason": "why", "payload": {}}]
    svg = pictures.run_timeline({"events": events, "stage": "b", "closed": None, "seal": {}})
    assert svg.count('class="timeline-event"') == 3 and "novel_kind" in svg
    # The move is drawn in the stage it leaves; with no stage table given, that is the first move's origin.
    assert 'data-stage="a" data-colour' in svg and 'data-first="1" data-last="2"' in svg
    assert 'data-stage="b" data-colour' in svg and 'data-first="3" data-last="3"' in svg
    with pytest.raises(pictures.PictureError, match="no events"):
        pictures.run_timeline({"events": []})


# --- rule 10: every command and code line on a page fits in 88 columns ----------------------------

@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_every_command_and_code_line_fits_in_88_columns(lesson):
    text = (REPO / lesson.page).read_text(encoding="utf-8")
    found = pages.code_lines(text, REPO)
    assert len(found) > 20, "the page's code was not found"
    too_long = [line for line in found if len(line) > 88]
    assert too_long == [], too_long


@pytest.mark.parametrize("lesson", READY, ids=lambda lesson: f"lesson{lesson.label}")
def test_the_notebook_never_loads_the_worked_solution(lesson):
    notebook = json.loads((REPO / lesson.notebook).read_text(encoding="utf-8"))
    code = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    assert "load_lesson" not in code or "COURSE_TARGET" not in code, "the notebook switches what load_lesson loads"
    for forbidden in ('"solution"', "'solution'", "solutions/", "solutions.", Path(lesson.solution).stem + ".py"):
        assert forbidden not in code.replace(Path(lesson.starter).as_posix(), ""), f"the notebook names {forbidden}"


def test_lesson_5_shows_its_second_selection_ranking_from_the_artifact(site):
    lesson = next((lesson for lesson in READY if lesson.number == 5), None)
    if lesson is None:
        pytest.skip("lesson 5 is not ready in the manifest yet")
    demo = json.loads((REPO / "data/course/selection-demo.json").read_text(encoding="utf-8"))
    second = [step for step in demo["loop"] if step["step"] == "select"][1]
    drawn = marks(html_of(site, lesson), "selection-ranking", "ranked")
    assert [m["data-action-id"] for m in drawn] == [r["action_id"] for r in second["ranking"]]
    for mark, ranked in zip(drawn, second["ranking"]):
        assert float(mark["data-score"]) == ranked["score"]
        assert abs(float(mark["data-base"]) + float(mark["data-credit-part"]) - ranked["score"]) < 1e-9
        assert (mark["data-chosen"] == "true") == (ranked["action_id"] == second["selection"]["action_id"])
    assert sum(m["data-chosen"] == "true" for m in drawn) == 1


def page_of(site: Path, number: int):
    lesson = next((lesson for lesson in READY if lesson.number == number), None)
    if lesson is None:
        pytest.skip(f"lesson {number} is not ready in the manifest yet")
    return html_of(site, lesson)


def test_lesson_7_shows_each_check_and_its_verdict_from_the_artifact(site):
    demo = json.loads((REPO / "data/course/verification-demo.json").read_text(encoding="utf-8"))
    drawn = marks(page_of(site, 7), "verification-verdicts", "check")
    assert [(m["data-finding"], m["data-verdict"], m["data-confirm-shows"], m["data-control-shows"]) for m in drawn] == [
        (c["verdict"]["finding_id"], c["verdict"]["verdict"], str(c["confirming"]["shows_expect"]).lower(),
         str(c["control"]["shows_expect"]).lower()) for c in demo["checks"]]


def test_lesson_8_shows_the_gate_for_every_class_of_the_runs_taxonomy(site):
    from core.run import taxonomy
    gating = json.loads((REPO / "data/course/report.json").read_text(encoding="utf-8"))["gating"]
    table = taxonomy.carried_taxonomy(gating["taxonomy_version"])
    rows = list(table.classes.values()) + [taxonomy.UNCLASSIFIED]
    drawn = marks(page_of(site, 8), "gate-decisions", "gate-lane")
    assert [m["data-class"] for m in drawn] == [r.name for r in rows]
    for mark, row in zip(drawn, rows):
        cap = gating["caps"].get(row.name, 0)
        assert mark["data-consequential"] == str(row.consequential).lower()
        assert mark["data-approver"] == (row.approver_role or "") and int(mark["data-cap"]) == cap
        release = "hold" if row.approver_role else "deny"
        assert mark["data-verdict"] == (f"allow-then-{release}" if not row.consequential and cap > 0 else release)


def test_lesson_9_shows_the_chain_and_where_each_copy_breaks_it(site):
    intact = json.loads((REPO / "data/course/tamper/intact.json").read_text(encoding="utf-8"))
    lab = json.loads((REPO / "data/course/seal-demo.json").read_text(encoding="utf-8"))["tamper_lab"]
    page = page_of(site, 9)
    assert [int(m["data-seq"]) for m in marks(page, "seal-chain", "chain-link")] == \
        sorted(e["seq"] for e in intact["events"])
    breaks = {m["data-copy"]: int(m["data-seq"]) for m in marks(page, "seal-chain", "chain-break")}
    assert breaks == {name: v["chain"]["seq"] for name, v in lab.items() if v["chain"]["seq"] is not None}
    assert breaks, "no altered copy breaks the chain"


def test_lesson_6_shows_each_acts_events_from_the_artifact(site):
    demo = json.loads((REPO / "data/course/execution-demo.json").read_text(encoding="utf-8"))
    acts = [step["action_id"] for step in demo["steps"] if step["step"] == "execute"]
    drawn = marks(page_of(site, 6), "execution-outcomes", "act-event")
    assert sorted({m["data-act"] for m in drawn}) == sorted(acts)
    by_seq = {e["seq"]: e for e in demo["report"]["events"]}
    for mark in drawn:
        event = by_seq[int(mark["data-seq"])]
        assert (event["kind"], event["status"]) == (mark["data-kind"], mark["data-status"])
        if event["kind"] == "outcome":
            assert event["payload"]["action_id"] == mark["data-act"]
            assert mark["data-outcome"] == event["payload"]["status"]
    assert any(m["data-status"] == "refused" for m in drawn), "the refused second settlement is not drawn"


def test_lesson_10_shows_the_three_safety_verdicts_from_the_artifact(site):
    check = json.loads((REPO / "data/course/safety-demo.json").read_text(encoding="utf-8"))["check"]
    verdicts = [check["reference"], check["tampered"]["verdict"], check["missing_evidence"]["verdict"]]
    drawn = {(m["data-boundary"], int(m["data-column"])): m["data-judged"]
             for m in marks(page_of(site, 10), "safety-verdicts", "safety-cell")}
    expected = {(r["boundary_id"], c): {True: "upheld", False: "violated", None: "not judged"}[r["upheld"]]
                for c, verdict in enumerate(verdicts) for r in verdict["results"]}
    assert drawn == expected


# --- two builders, one site: mkdocs-material and Zensical read the same written pages --------

class ArticleText(HTMLParser):
    """What a reader reads on a page: the article's text, and where each of its links leads."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.inside = self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.inside += tag == "article"
        self.hidden += tag in ("script", "style", "svg")
        href = dict(attrs).get("href") or ""
        if self.inside and tag == "a" and href and not href.startswith("#"):
            self.parts.append(f"[{href}]")

    def handle_endtag(self, tag):
        self.inside -= tag == "article"
        self.hidden -= tag in ("script", "style", "svg")

    def handle_data(self, data):
        if self.inside and not self.hidden:
            self.parts.append(data)


def article_text(path: Path) -> str:
    parser = ArticleText()
    parser.feed(path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip()


def pages_the_site_must_have() -> set[str]:
    """Every page the manifest lists (each ready lesson's page and notebook), the index, the attack
    page, the Reference code index and every source page, as the built site's .html files."""
    lessons = [lesson.page.removeprefix("lessons/") for lesson in READY] + [lesson.notebook for lesson in READY]
    shown = prebuild.shown_sources(prebuild.citations())
    wanted = ["index.md", prebuild.ATTACKS_PAGE, prebuild.INDEX, *lessons, *(prebuild.source_page(p) for p in shown)]
    return {Path(page).with_suffix(".html").as_posix() for page in wanted}


def pictures_asked_for() -> dict[str, set[str]]:
    """Built page -> the pictures its committed page asks for."""
    asked = {}
    for page in ["index.md", *(lesson.page.removeprefix("lessons/") for lesson in READY)]:
        text = (REPO / "lessons" / page).read_text(encoding="utf-8")
        asked[page.removesuffix(".md") + ".html"] = set(re.findall(r"<!--\s*picture:\s*([\w-]+)\s*-->", text))
    return asked


def test_zensical_builds_the_written_pages_strictly(zensical_build):
    folder, done = zensical_build
    assert done.returncode == 0 and (folder / "index.html").is_file(), done.stdout + done.stderr


def test_both_builders_render_every_page_every_notebook_and_every_picture(site, zensical_build):
    """mkdocs-material and Zensical, built from the pages the pre-build step wrote, render the same set of pages: every page the manifest lists, every notebook page and every picture, with no raw picture marker or snippet line in either, and each lesson page links its notebook."""
    zensical, done = zensical_build
    assert done.returncode == 0, done.stdout + done.stderr
    wanted = pages_the_site_must_have()
    asked = pictures_asked_for()
    assert sum(len(names) for names in asked.values()) >= len(pictures.PICTURES)
    for builder, folder in (("mkdocs-material", site), ("Zensical", zensical)):
        built = {p.relative_to(folder).as_posix() for p in folder.rglob("*.html")} - {"404.html"}
        assert built == wanted, f"{builder}: missing {sorted(wanted - built)}, extra {sorted(built - wanted)}"
        for page in sorted(built):
            html = (folder / page).read_text(encoding="utf-8")
            assert "<h1" in html, f"{builder}: {page} has no title"
            assert not re.search(r"<!--\s*picture:", html), f"{builder}: {page} shows a raw picture marker"
            assert "--8&lt;--" not in html and "--8<--" not in html, f"{builder}: {page} shows a raw snippet line"
            for name in asked.get(page, ()):
                assert f'<svg id="picture-{name}"' in html, f"{builder}: {page} lacks the picture {name}"
        for lesson in READY:
            page = folder / (lesson.page.removeprefix("lessons/").removesuffix(".md") + ".html")
            html = page.read_text(encoding="utf-8")
            assert f'href="{lesson.notebook.removesuffix(".ipynb")}.html"' in html, f"{builder}: {page.name}"
            solution = next(line for line in (REPO / lesson.solution).read_text(encoding="utf-8").splitlines()
                            if len(line.strip()) > 20 and "&" not in line and "<" not in line and '"' not in line
                            and "'" not in line)
            assert " ".join(solution.split()) in article_text(page), f"{builder}: {page.name} lacks its worked solution"


def test_both_builders_show_a_reader_the_same_text_and_links_on_every_page(site, zensical_build):
    zensical, _ = zensical_build
    differ = [page for page in sorted(pages_the_site_must_have())
              if article_text(site / page) != article_text(zensical / page)]
    assert differ == []


def test_the_roots_own_config_builds_the_written_pages():
    """`mkdocs build --strict` from the repository's mkdocs.yml loads, and its hook points it at the written pages."""
    from mkdocs.config import load_config

    config = load_config(str(REPO / "mkdocs.yml"))
    config = config.plugins.on_config(config)  # the hook's on_config, as mkdocs build calls it
    assert Path(config.docs_dir) == REPO / "build" / "site-src" and (Path(config.docs_dir) / "index.md").is_file()
    assert config.nav and config.strict
