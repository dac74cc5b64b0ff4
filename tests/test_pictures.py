"""The pictures say what their data says and no more: read back from the SVG each function returns.

Each picture is drawn from its committed artifact (as the site's pre-build
draws it) and parsed as XML; a test reads its marks, texts, colours and legend
entries and compares them with the data, the code's rule or the page they sit
on. No browser: tests/test_pictures_lessons_6_7.py and tests/test_site_browser.py
measure the rendered layout.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from site_build import pictures

from .conftest import examples

REPO = Path(__file__).resolve().parent.parent


def artifact(relative: str) -> dict:
    return json.loads((REPO / relative).read_text(encoding="utf-8"))


def parsed(svg: str) -> ET.Element:
    """The picture as an element tree, its tags without the SVG namespace."""
    root = ET.fromstring(svg)
    for element in root.iter():
        element.tag = element.tag.rsplit("}", 1)[-1]
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [element for element in root.iter() if element.get("class") == cls]


def texts(element: ET.Element) -> list[str]:
    """The picture's visible texts under ``element``, in document order (not its hover titles)."""
    return ["".join(t.itertext()) for t in element.iter("text")]


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def far_apart(colours) -> bool:
    """Every two of ``colours`` differ by at least 40 in some channel: a reader tells them apart."""
    colours = list(colours)
    return all(max(abs(a - b) for a, b in zip(rgb(c), rgb(d))) >= 40
               for k, c in enumerate(colours) for d in colours[k + 1:])


# --- lesson 2: what each record cites --------------------------------------------------------

ARC = re.compile(r"M([\d.]+),([\d.]+) C[\d.]+,([\d.]+) [\d.]+,[\d.]+ ([\d.]+),[\d.]+")


def arcs(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """Each citation arrow as (left x, right x, the row edge it leaves, how far it bows out)."""
    found = []
    for path in groups(root, "binding"):
        x1, edge, bend, x2 = (float(v) for v in ARC.fullmatch(path.get("d")).groups())
        found.append((min(x1, x2), max(x1, x2), edge, bend - edge))
    return found


def crossings(found) -> list[tuple]:
    """Pairs of arrows that cross: on one side of the row, neither nested in nor apart from the
    other, or nested with the outer one bowing out no further than the inner."""
    bad = []
    for k, (a, b, edge, bow) in enumerate(found):
        for c, d, edge2, bow2 in found[k + 1:]:
            if edge != edge2 or (bow > 0) != (bow2 > 0):
                continue  # one above the row, one below
            apart, a_outer, c_outer = b <= c or d <= a, a <= c and d <= b, c <= a and b <= d
            if not (apart or (a_outer and abs(bow) > abs(bow2)) or (c_outer and abs(bow2) > abs(bow))):
                bad.append(((a, b), (c, d)))
    return bad


def test_lesson_2s_picture_draws_what_each_record_cites_with_no_arrow_crossing_another():
    demo = artifact("data/course/records-demo.json")
    root = parsed(pictures.records_chain(demo))
    ids = {entry["id"]: entry["kind"] for entry in demo["admitted"]}
    cited = {(entry["id"], field, value) for entry in demo["admitted"] for field, value in entry["record"].items()
             if field.endswith("_id") and value in ids and value != entry["id"]}
    drawn = {(b.get("data-from"), b.get("data-field"), b.get("data-to")) for b in groups(root, "binding")}
    assert drawn == cited, "the arrows are not exactly what the records cite"
    for record in groups(root, "chain-record"):
        fields = sorted(field for source, field, _ in cited if source == record.get("data-id"))
        says = " ".join(" ".join(texts(record)).split())
        assert (f"cites {', '.join(fields)}" if fields else "cites nothing") in says, says
    assert {"action", "observation"} <= {r.get("data-kind") for r in groups(root, "chain-record")
                                         if "cites nothing" in " ".join(texts(r))}
    heading = texts(root)[0]
    assert "before it" not in heading and "cites" in heading, heading
    assert crossings(arcs(root)) == []


@settings(max_examples=examples(200))
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(1, n - 1), st.integers(0, n - 2)), max_size=8))))
def test_arrows_on_one_side_of_the_row_never_cross_when_their_spans_do_not_interleave(table):
    """Any records citing earlier ones: where arc_sides finds each side free of interleaving spans,
    the drawn arrows nest or stand apart, the outer bowing out further."""
    n, links = table
    records = [{"kind": f"k{i}", "id": f"id{i}", "record": {}} for i in range(n)]
    for field, (source, target) in enumerate(links):
        if target < source:
            records[source]["record"][f"f{field}_id"] = f"id{target}"
    spans = [(i, j) for i, _field, j in pictures.citations([(r["kind"], r["id"], r["record"]) for r in records])]
    sides = pictures.arc_sides(spans)
    interleave = [(s, t) for k, s in enumerate(spans) for m, t in enumerate(spans) if k < m and sides[k] == sides[m]
                  and (min(s) < min(t) < max(s) < max(t) or min(t) < min(s) < max(t) < max(s))]
    if interleave:
        return  # a table no single row can draw without a crossing: not this test's question
    root = parsed(pictures.records_chain({"admitted": records, "report": {"events": []}}))
    assert len(groups(root, "binding")) == len(spans)
    assert crossings(arcs(root)) == []


# --- lesson 1: the run's timeline --------------------------------------------------------------

def test_lesson_1s_timeline_labels_every_stage_band_and_keys_each_colour():
    from core.run.stages import STAGES
    root = parsed(pictures.run_timeline(artifact("data/course/report.json"), STAGES))
    key = {k.get("data-stage"): (k.get("data-colour"), " ".join(texts(k))) for k in groups(root, "stage-key")}
    bands = groups(root, "stage-band")
    assert bands and set(key) == {band.get("data-stage") for band in bands}
    for band in bands:
        colour, said = key[band.get("data-stage")]
        assert band.get("data-colour") == colour and said.endswith(band.get("data-stage")), said
        label = band.find("text")
        assert label is not None, f"the {band.get('data-stage')} band at {band.get('data-first')} has no label"
        number = said.split()[0]
        assert "".join(label.itertext()).split()[0] == number
        width = float(band.find("rect").get("width"))
        assert float(label.get("font-size")) * pictures.EM_WIDTH * len("".join(label.itertext())) <= width + 0.01
    assert far_apart(colour for colour, _ in key.values())


# --- lesson 7: each check -------------------------------------------------------------------------

SEPARATORS = "/?&="


def test_wrapping_breaks_a_url_after_a_separator_never_inside_a_name():
    assert pictures.wrapped("https://lab.example:443/robots.txt", 28) == ["https://lab.example:443/", "robots.txt"]
    assert pictures.wrapped("10 action: inspect_headers -> https://lab.example:443/about", 40, "  ") == [
        "10 action: inspect_headers ->", "  https://lab.example:443/about"]


@settings(max_examples=examples(300))
@given(st.text(alphabet="ab./?= ", max_size=80), st.integers(8, 30))
def test_a_wrapped_text_keeps_every_character_and_breaks_a_word_only_where_it_must(text, chars):
    lines = pictures.wrapped(text, chars, "  ")
    assert all(len(line) <= chars for line in lines)
    assert "".join(line.strip() for line in " ".join(lines).split()) == "".join(text.split())
    for word in text.split():  # a word breaks only if it is longer than a line, and then after a separator
        if len(word) + 2 <= chars:
            assert any(word in line.split() for line in lines), (word, lines)


def test_lesson_7s_picture_breaks_urls_after_a_separator_and_ticks_no_control_the_verdict_did_not_read():
    demo = artifact("data/course/verification-demo.json")
    root = parsed(pictures.verification_verdicts(demo))
    for check, drawn in zip(demo["checks"], groups(root, "check"), strict=True):
        lines = texts(drawn)
        urls = [check["plan"]["evidence"]["action"], check["confirming"]["action_id"], check["control"]["action_id"]]
        for url in (u.split(" -> ")[-1] for u in urls):
            shown = [lines[k:m] for k in range(len(lines)) for m in range(k + 1, len(lines) + 1)
                     if "".join(lines[k:m]) == url]
            assert shown, f"{url} is not shown whole on consecutive lines: {lines}"
            assert all(part[-1] in SEPARATORS for part in shown[0][:-1]), f"{url} is broken as {shown[0]}"
        confirming = check["confirming"]
        read = confirming["shows_expect"] and confirming["http_status"] < 500  # verify.judge's order
        assert drawn.get("data-control-read") == str(read).lower()
        ticked = [line for line in lines if line.startswith(("✓", "✗"))]
        assert len(ticked) == (2 if read else 1), f"{check['verdict']['verdict']}: {ticked}"
        assert read or "not read" in lines
    assert any(drawn.get("data-control-read") == "false" for drawn in groups(root, "check")), \
        "the reference demo has a check whose control played no part"


# --- lesson 6: each act's events ----------------------------------------------------------------------

def test_lesson_6s_legend_names_exactly_what_each_colour_marks():
    root = parsed(pictures.execution_outcomes(artifact("data/course/execution-demo.json")))
    legend = {entry.get("data-colour"): " ".join(texts(entry)) for entry in groups(root, "legend-entry")}
    assert len(legend) == len(groups(root, "legend-entry")), "two legend entries share a colour"
    used = set()
    for event in groups(root, "act-event"):
        colour = event.find("rect").get("fill")
        used.add(colour)
        said = legend.get(colour, "")
        kind, status, outcome = event.get("data-kind"), event.get("data-status"), event.get("data-outcome")
        expected = "refused" if status == "refused" else outcome if kind == "outcome" else kind
        assert expected in said and (kind == "outcome" or "succeeded" not in said), \
            f"a {status} {kind} {outcome} bar is coloured as {said!r}"
    assert set(legend) == used, "the legend names a colour no bar has"
    assert far_apart(legend)


# --- lesson 9: the chain and its breaks -------------------------------------------------------------

def test_lesson_9s_breaks_have_a_colour_of_their_own_and_the_legend_names_each():
    root = parsed(pictures.seal_chain(artifact("data/course/tamper/intact.json"),
                                      artifact("data/course/seal-demo.json")["tamper_lab"]))
    links = {(link.get("data-seq"), link.find("rect").get("fill")) for link in groups(root, "chain-link")}
    intact = {str(e["seq"]): e["status"] for e in artifact("data/course/tamper/intact.json")["events"]}
    event_colours = {status: {fill for seq, fill in links if intact[seq] == status} for status in set(intact.values())}
    assert all(len(fills) == 1 for fills in event_colours.values()), event_colours
    break_colours = {mark.get("fill") or mark.get("stroke") for b in groups(root, "chain-break")
                     for mark in b if mark.tag in ("line", "text")}
    assert len(break_colours) == 1 and not break_colours & {c for fills in event_colours.values() for c in fills}
    legend = {entry.get("data-colour"): " ".join(texts(entry)) for entry in groups(root, "legend-entry")}
    assert "refused" in legend[event_colours["refused"].pop()] and "admitted" in legend[event_colours["admitted"].pop()]
    assert "breaks" in legend[break_colours.pop()]
    assert far_apart(legend)


# --- lesson 10: three verdicts --------------------------------------------------------------------------

def test_lesson_10s_columns_are_in_the_order_of_the_table_on_its_page():
    page = (REPO / "lessons" / "10-safety-packs-and-audit-replay.md").read_text(encoding="utf-8")
    table = re.search(r"verdicts = \[(.*?)\]\n", page, re.S)
    assert table, "lesson 10's page no longer builds its table from a list named verdicts"
    order = re.findall(r'check\["(\w+)"\]', table.group(1))
    root = parsed(pictures.safety_verdicts(artifact("data/course/safety-demo.json")["check"]))
    assert [column.get("data-key") for column in groups(root, "safety-column")] == order
    for cell in groups(root, "safety-cell"):  # each cell sits under its column's verdict
        key = order[int(cell.get("data-column"))]
        check = artifact("data/course/safety-demo.json")["check"]
        verdict = check[key] if key == "reference" else check[key]["verdict"]
        upheld = next(r["upheld"] for r in verdict["results"] if r["boundary_id"] == cell.get("data-boundary"))
        assert cell.get("data-judged") == {True: "upheld", False: "violated", None: "not judged"}[upheld]



def test_lesson_12s_picture_marks_each_act_and_review_of_the_pair_in_ledger_order():
    """Each act and review of the pair's ledger is one mark, in ledger order, coloured by its status or decision."""
    report = artifact("data/course/dojo-pair.json")
    root = parsed(pictures.dojo_pair(report))
    marks = groups(root, "dojo-mark")
    events = [e for e in report["events"] if e["kind"] in ("action", "review")]
    assert [int(g.get("data-seq")) for g in marks] == [e["seq"] for e in events]
    for mark, event in zip(marks, events):
        assert mark.get("data-status") == event["status"]
        colour = next(mark.iter("rect")).get("fill")
        good = event["payload"]["decision"] == "approved" if event["kind"] == "review" else event["status"] == "admitted"
        assert colour == (pictures.ADMITTED if good else pictures.REFUSED), event["seq"]
    assert {e["payload"]["decision"] for e in events if e["kind"] == "review"} == {"approved", "rejected"}
