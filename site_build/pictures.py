"""Pictures for the docs site, drawn at build time from the code's own data.

Each function takes plain data (a table from ``core/``, a committed artifact)
and returns one self-contained SVG element as text: no library, no font or
script from another host, so the site works offline. Every mark carries the
datum it was drawn from in ``data-*`` attributes, so a test can read the
picture back and compare it with the data, and a ``<title>`` a reader sees on
hover.

A page asks for a picture with an HTML comment on a line of its own,
``<!-- picture: NAME -->``; the site hook replaces it with ``draw(NAME)``.
Later lessons add their pictures as rows of ``PICTURES``.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from html import escape
from pathlib import Path

from course.manifest import course_root

FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
ADMITTED, REFUSED, INK, MUTED, PAPER = "#2e7d32", "#c62828", "#263238", "#78909c", "#f5f7f8"
NOTE_CHARS = 140  # characters of 11 px monospace text on one line of a 1000 px picture, margins kept
STAGE_COLOURS = ("#90caf9", "#a5d6a7", "#fff176", "#ce93d8", "#4dd0e1", "#ffccbc", "#bcaaa4", "#eeeeee")


class PictureError(Exception):
    """A picture's data is missing or not the shape it is drawn from; the message says which."""


def _a(value: object) -> str:
    """An attribute value, escaped."""
    return escape(str(value), quote=True)


# The pictures' font is monospace: one character is at most this many ems wide, so a
# line of n characters at a size of s px is at most n * s * EM_WIDTH px wide.
EM_WIDTH = 0.62


def fits(pixels: float, size: float) -> int:
    """How many characters of the pictures' monospace font at ``size`` px fit in ``pixels``."""
    return max(8, int(pixels // (size * EM_WIDTH)))


# Where a word may break when it does not fit a line: after a URL's separators.
BREAK_AFTER = re.compile(r"[^\s/?&=]*[/?&=]+|[^\s/?&=]+")


def wrapped(text: str, chars: int, indent: str = "") -> list[str]:
    """``text`` as lines of at most ``chars`` characters, never cut. Lines break at spaces; a word
    too long for a line (a URL) breaks after a ``/``, ``?``, ``&`` or ``=``, so ``robots.txt``
    stays whole; only a run of more than ``chars`` characters without one breaks inside it."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        whole = len(indent) + len(word) <= chars and len(line) + 1 + len(word) > chars and line.strip()
        pieces = [word] if len(indent) + len(word) <= chars else BREAK_AFTER.findall(word)
        if whole:  # the word fits a line of its own: it starts the next one
            lines.append(line)
            line = indent
        for k, piece in enumerate(pieces):
            joined = line + (" " if k == 0 and line.strip() else "") + piece
            if len(joined) <= chars or not line.strip():
                line = joined
            else:
                lines.append(line)
                line = indent + piece
            while len(line) > chars:  # no separator in reach: the only place a word is broken
                lines.append(line[:chars])
                line = indent + line[chars:]
    return [*lines, line] if line.strip() or not lines else lines


def _svg(name: str, width: int, height: int, body: list[str], label: str) -> str:
    return (f'<svg id="picture-{name}" class="course-picture" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="{width}" role="img" aria-label="{_a(label)}" '
            f'font-family="{FONT}" font-size="12">'
            f'<title>{escape(label)}</title>'
            '<defs><marker id="arrow-' + name + '" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker></defs>'
            + "".join(body) + "</svg>")


# --- the stage machine (lesson 3's STAGES and TRANSITIONS) ---------------------------------

def stage_colours(stages, also=()) -> dict[str, str]:
    """One colour per stage, by its place in ``stages`` (then ``also``, in order): the stage machine and the
    run timeline colour a stage alike, so a reader matches a band of one with a box of the other."""
    names = list(dict.fromkeys([*stages, *also]))
    return {name: STAGE_COLOURS[i % len(STAGE_COLOURS)] for i, name in enumerate(names)}


def stage_machine(stages: tuple[str, ...] | list[str], transitions: tuple | list) -> str:
    """Stages in a row in their declared order; a move forward by one is a straight arrow,
    a longer move forward arcs above the row, a move back arcs below it."""
    stages = list(stages)
    if not stages or len(set(stages)) != len(stages):
        raise PictureError("the stage machine needs a list of distinct stage names")
    box_w, box_h, gap = 96, 34, 28
    lift = lambda i, j: 26 + 14 * abs(j - i)  # noqa: E731  how far an arc bows out of the row
    for origin, target in transitions:
        if origin not in stages or target not in stages:
            raise PictureError(f"transition {origin} -> {target} names a stage that is not in STAGES")
    spans = [(stages.index(o), stages.index(t)) for o, t in transitions]
    above = max([lift(i, j) for i, j in spans if j > i + 1] or [0])
    below = max([lift(i, j) for i, j in spans if j <= i] or [0])
    top = 16 + 0.75 * above
    width = len(stages) * box_w + (len(stages) - 1) * gap + 20
    x_of = {stage: 10 + i * (box_w + gap) for i, stage in enumerate(stages)}
    body: list[str] = []
    for index, (origin, target) in enumerate(transitions):
        i, j = stages.index(origin), stages.index(target)
        if j == i + 1:
            x1, x2, y = x_of[origin] + box_w, x_of[target] - 2, top + box_h / 2
            d = f"M{x1},{y} L{x2},{y}"
        else:
            forward = j > i
            x1 = x_of[origin] + box_w * (0.65 if forward else 0.35)
            x2 = x_of[target] + box_w * (0.35 if forward else 0.65)
            y = top if forward else top + box_h
            cy = y - lift(i, j) if forward else y + lift(i, j)
            d = f"M{x1},{y} C{x1},{cy} {x2},{cy} {x2},{y + (-2 if forward else 2)}"
        body.append(f'<path class="transition" data-from="{_a(origin)}" data-to="{_a(target)}" d="{d}" '
                    f'fill="none" stroke="{INK}" stroke-width="1.4" marker-end="url(#arrow-stage-machine)">'
                    f'<title>{escape(origin)} -&gt; {escape(target)}</title></path>')
    colours = stage_colours(stages)
    for i, stage in enumerate(stages):
        x = x_of[stage]
        start = ' stroke-width="2.5"' if i == 0 else ' stroke-width="1.2"'
        body.append(f'<g class="stage" data-stage="{_a(stage)}" data-colour="{colours[stage]}">'
                    f'<rect x="{x}" y="{top}" width="{box_w}" '
                    f'height="{box_h}" rx="8" fill="{colours[stage]}" stroke="{INK}"{start}/>'
                    f'<text x="{x + box_w / 2}" y="{top + box_h / 2 + 4}" text-anchor="middle" fill="{INK}">'
                    f'{escape(stage)}</text></g>')
    bottom = top + box_h + 0.75 * below + 30
    body.append(f'<text x="10" y="{bottom}" fill="{MUTED}">The run starts in {escape(stages[0])} '
                '(thick border). Arrows are the only moves the machine admits; any other move is a '
                'recorded refusal.</text>')
    return _svg("stage-machine", width, bottom + 10, body,
                f"Stage machine: {len(stages)} stages, {len(transitions)} allowed transitions")


# --- lesson 2: the admitted chain and the ledger ---------------------------------------------

def _short(identifier: str, size: int = 12) -> str:
    return identifier if " -> " in identifier else identifier[:size]


def citations(admitted: list[tuple[str, str, dict]]) -> list[tuple[int, str, int]]:
    """What each admitted record cites, read from its own fields: (its index, the field, the cited
    record's index) for every ``*_id`` field whose value is another admitted record's id."""
    index_of = {identifier: i for i, (_kind, identifier, _record) in enumerate(admitted)}
    return [(i, field, index_of[value]) for i, (_kind, identifier, record) in enumerate(admitted)
            for field, value in sorted(record.items())
            if field.endswith("_id") and isinstance(value, str) and value in index_of and value != identifier]


def arc_sides(spans: list[tuple[int, int]]) -> list[str]:
    """"below" or "above" the row of boxes for each span (two box indexes): shortest first, each on
    the first side where it interleaves with no span already there, so no two arcs cross."""
    side = [""] * len(spans)
    for k in sorted(range(len(spans)), key=lambda k: (abs(spans[k][1] - spans[k][0]), k)):
        a, b = sorted(spans[k])
        for name in ("below", "above"):
            placed = [sorted(spans[j]) for j in range(len(spans)) if side[j] == name]
            if not any(a < c < b < d or c < a < d < b for c, d in placed):
                side[k] = name
                break
        side[k] = side[k] or "below"  # no side is free of crossings: a table no lesson records
    return side


def records_chain(demo: dict) -> str:
    """The demo's admitted records left to right, each with what it cites; an arrow from a record to
    each record it cites (found in its own fields: one whose value is another admitted record's id),
    labelled with that field, above or below the row so that no two arrows cross; and below it the
    ledger, one row per event, refusals in red between the admitted writes."""
    try:
        admitted = [(str(e["kind"]), str(e["id"]), dict(e["record"])) for e in demo["admitted"]]
        events = list(demo["report"]["events"])
    except (KeyError, TypeError) as exc:
        raise PictureError(f"records-demo.json lacks {exc}: it is not lesson 2's demo artifact") from None
    box_w, box_h, gap = 190, 78, 20
    cited = citations(admitted)
    spans = [(i, j) for i, _field, j in cited]
    sides = arc_sides(spans)
    # Where each arc meets its box: on each side, the arcs leaving to the left first, nearest
    # leftmost, then those leaving to the right, farthest first (two arcs between the same two
    # boxes in opposite orders at their two ends), so arcs sharing a box nest.
    ends: dict[tuple[int, str], list[tuple[tuple, int]]] = {}
    for k, ((i, j), side) in enumerate(zip(spans, sides)):
        for here, there in ((i, j), (j, i)):
            order = (0, here - there, k) if there < here else (1, here - there, -k)
            ends.setdefault((here, side), []).append((order, k))
    slot: dict[tuple[int, int], float] = {}
    for (here, _side), found in ends.items():
        for n, (_order, k) in enumerate(sorted(found)):
            slot[(k, here)] = box_w * (n + 1) / (len(found) + 1)
    x_of = [10 + i * (box_w + gap) for i in range(len(admitted))]
    reach = [sorted((x_of[i] + slot[(k, i)], x_of[j] + slot[(k, j)])) for k, (i, j) in enumerate(spans)]
    # How deep each arc bows out: one level below every arc it encloses on its side.
    level = [0] * len(spans)
    for k in sorted(range(len(spans)), key=lambda k: reach[k][1] - reach[k][0]):
        (a, b), inner = reach[k], [0]
        inner += [level[m] for m in range(len(spans)) if m != k and sides[m] == sides[k]
                  and a < reach[m][0] and reach[m][1] < b]
        level[k] = 1 + max(inner)
    depth = [12 + 18 * n for n in level]
    lift = max([d for d, side in zip(depth, sides) if side == "above"], default=0)
    sink = max([d for d, side in zip(depth, sides) if side == "below"], default=0)
    top = 40 + 0.75 * lift + (16 if lift else 0)
    width = max(len(admitted) * (box_w + gap) - gap + 20, 980)
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">The admitted records and what each cites: an arrow '
            'runs from a record to each record whose id it holds, in the field it names</text>']
    for i, (kind, identifier, _record) in enumerate(admitted):
        x = x_of[i]
        tool, arrow, destination = _short(identifier, 12).partition(" -> ")  # an action's identity on two lines
        label = [tool + arrow.rstrip(), destination] if arrow else [tool]
        fields = [field for n, field, _j in cited if n == i]
        says = f"cites {', '.join(fields)}" if fields else "cites nothing"
        body.append(f'<g class="chain-record" data-kind="{_a(kind)}" data-id="{_a(identifier)}" '
                    f'data-cites="{_a(" ".join(fields))}">'
                    f'<title>{escape(kind)} {escape(identifier)}: {escape(says)}</title>'
                    f'<rect x="{x}" y="{top}" width="{box_w}" height="{box_h}" rx="6" fill="{PAPER}" '
                    f'stroke="{ADMITTED}" stroke-width="1.5"/>'
                    f'<text x="{x + 8}" y="{top + 18}" font-weight="bold" fill="{INK}">{escape(kind)}</text>'
                    + "".join(f'<text x="{x + 8}" y="{top + 34 + 14 * k}" font-size="11" fill="{MUTED}">'
                              f'{escape(line)}</text>' for k, line in enumerate(label))
                    + "".join(f'<text class="cites" x="{x + 8}" y="{top + box_h - 8 - 13 * (len(lines) - 1 - k)}" '
                              f'font-size="11" fill="{INK}">{escape(line)}</text>'
                              for lines in [wrapped(says, fits(box_w - 16, 11), "  ")] for k, line in enumerate(lines))
                    + "</g>")
    labels = []
    for k, ((i, field, j), side) in enumerate(zip(cited, sides)):
        x1, x2 = x_of[i] + slot[(k, i)], x_of[j] + slot[(k, j)]
        edge, sign = (top + box_h, 1) if side == "below" else (top, -1)
        bend = edge + sign * depth[k] * 4 / 3  # a cubic's apex is 3/4 of the way to its control points
        body.append(f'<path class="binding" data-from="{_a(admitted[i][1])}" data-field="{_a(field)}" '
                    f'data-to="{_a(admitted[j][1])}" data-side="{side}" d="M{x1:g},{edge} C{x1:g},{bend:g} '
                    f'{x2:g},{bend:g} {x2:g},{edge + sign * 2}" fill="none" stroke="{INK}" stroke-width="1.2" '
                    f'marker-end="url(#arrow-records-chain)"><title>{escape(admitted[i][0])}.{escape(field)} '
                    f'cites the {escape(admitted[j][0])} {escape(admitted[j][1])}</title></path>')
        apex, half = edge + sign * depth[k], len(field) * 11 * EM_WIDTH / 2 + 3
        labels.append(f'<rect x="{(x1 + x2) / 2 - half:g}" y="{apex - 8:g}" width="{2 * half:g}" height="16" '
                      f'fill="#ffffff"/><text x="{(x1 + x2) / 2:g}" y="{apex + 4:g}" text-anchor="middle" '
                      f'font-size="11" fill="{MUTED}">{escape(field)}</text>')
    body += labels  # on top of every arc, so no arc crosses a label
    deepest = sink * 4 / 3
    y = top + box_h + 0.75 * deepest + 50
    body.append(f'<text x="10" y="{y}" font-weight="bold" fill="{INK}">The ledger: one ordered list of '
                'every admitted write and every refusal</text>')
    y += 10
    chars = (width - 230) // 7
    for event in events:
        try:
            seq, status, kind = int(event["seq"]), str(event["status"]), str(event["kind"])
            text = str(event.get("reason") or _short(str(event.get("id", "")), 24))
        except (KeyError, TypeError, ValueError) as exc:
            raise PictureError(f"a ledger event lacks {exc}") from None
        lines = textwrap.wrap(text, chars) or [""]
        colour = REFUSED if status == "refused" else ADMITTED
        height = 16 * len(lines) + 6
        body.append(f'<g class="ledger-event" data-seq="{seq}" data-status="{_a(status)}" data-kind="{_a(kind)}">'
                    f'<title>{seq} {escape(status)} {escape(kind)}: {escape(text)}</title>'
                    f'<rect x="10" y="{y}" width="{width - 20}" height="{height}" fill="{PAPER if seq % 2 else "#ffffff"}"/>'
                    f'<rect x="10" y="{y}" width="5" height="{height}" fill="{colour}"/>'
                    f'<text x="22" y="{y + 15}" fill="{INK}">{seq:>2}</text>'
                    f'<text x="50" y="{y + 15}" fill="{colour}" font-weight="bold">{escape(status)}</text>'
                    f'<text x="125" y="{y + 15}" fill="{INK}">{escape(kind)}</text>'
                    + "".join(f'<text x="220" y="{y + 15 + 16 * k}" fill="{INK}">{escape(line)}</text>'
                              for k, line in enumerate(lines)) + "</g>")
        y += height
    return _svg("records-chain", width, y + 10, body,
                f"Lesson 2's demo: {len(admitted)} admitted records and a ledger of {len(events)} events")


# --- the reference run's timeline (data/course/report.json) --------------------------------

def run_timeline(report: dict, stages: tuple[str, ...] | list[str] = ()) -> str:
    """One column per ledger event, in order: the stage the run was in (from its transition
    events) as a coloured band, one lane per record kind, admitted events as dots, refusals as
    red crosses, reviews as diamonds, and the close at the end. ``stages`` is the stage table's
    order: a band has the colour the stage machine gives its stage."""
    try:
        events = sorted(report["events"], key=lambda e: int(e["seq"]))
        kinds = list(dict.fromkeys(str(e["kind"]) for e in events))
    except (KeyError, TypeError, ValueError) as exc:
        raise PictureError(f"the report's events lack {exc}") from None
    if not events:
        raise PictureError("the report has no events to draw")
    # The lane names sit left of the lanes, right-aligned: room for the longest, about 7 px a letter.
    left, step, lane, top = max(110, 20 + 7 * max(len(kind) for kind in kinds)), 7, 18, 58
    width = left + step * len(events) + 30
    bottom = top + lane * len(kinds)
    body = [f'<text x="10" y="18" font-weight="bold" fill="{INK}">The reference run, event by event: '
            f'{len(events)} events, '
            f'{sum(e.get("status") == "refused" for e in events)} refused</text>']
    # The stage bands. A run starts in the first stage; an admitted transition "<from> -> <to>" is
    # recorded in the stage it leaves, so it closes its band, and the next event opens <to>'s.
    stage, start, bands = (stages[0] if stages else ""), 0, []
    for index, event in enumerate(events):
        if event.get("kind") == "transition" and event.get("status") == "admitted" and " -> " in str(event.get("id")):
            origin, _, target = str(event["id"]).partition(" -> ")
            bands.append((stage or origin, start, index + 1))
            stage, start = target, index + 1
    bands.append((stage, start, len(events)))
    colours = stage_colours(stages, [name for name, _, _ in bands])
    number = {name: k + 1 for k, name in enumerate(colours)}  # a band too narrow for its name shows this
    for name, first, last in bands:
        if last <= first or not name:
            continue
        colour, band_w = colours[name], (last - first) * step
        x = left + first * step
        first_seq, last_seq = events[first]["seq"], events[last - 1]["seq"]
        label = f"{number[name]} {name}" if band_w >= EM_WIDTH * 10 * (len(name) + 2) + 4 else str(number[name])
        size = min(10.0, round(band_w / (EM_WIDTH * len(label)), 1))  # the label fits inside its band
        body.append(f'<g class="stage-band" data-stage="{_a(name)}" data-colour="{colour}" '
                    f'data-first="{_a(first_seq)}" '
                    f'data-last="{_a(last_seq)}"><title>{escape(name)}: events {_a(first_seq)} to {_a(last_seq)}</title>'
                    f'<rect x="{x}" y="{top - 24}" width="{band_w}" height="{bottom - top + 24}" '
                    f'fill="{colour}"/>'
                    f'<text class="band-label" x="{x + band_w / 2}" y="{top - 10}" font-size="{size:g}" '
                    f'text-anchor="middle" fill="{INK}">{escape(label)}</text></g>')
    for row, kind in enumerate(kinds):
        y = top + row * lane + lane / 2
        body.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end" fill="{INK}">{escape(kind)}</text>'
                    f'<line x1="{left}" y1="{y}" x2="{width - 20}" y2="{y}" stroke="#cfd8dc" stroke-width="0.6"/>')
    for index, event in enumerate(events):
        kind, status = str(event["kind"]), str(event.get("status"))
        x, y = left + index * step + step / 2, top + kinds.index(kind) * lane + lane / 2
        said = str(event.get("reason") or event.get("id") or "")
        tip = f'<title>{_a(event["seq"])} {escape(status)} {escape(kind)}: {escape(said)}</title>'
        data = f'data-seq="{_a(event["seq"])}" data-status="{_a(status)}" data-kind="{_a(kind)}"'
        if status == "refused":
            mark = (f'<path d="M{x - 3.5},{y - 3.5} L{x + 3.5},{y + 3.5} M{x - 3.5},{y + 3.5} L{x + 3.5},{y - 3.5}" '
                    f'stroke="{REFUSED}" stroke-width="2"/>')
        elif kind == "review":
            mark = f'<path d="M{x},{y - 6} L{x + 5},{y} L{x},{y + 6} L{x - 5},{y} z" fill="#ef6c00"/>'
        else:
            mark = f'<circle cx="{x}" cy="{y}" r="2.8" fill="{ADMITTED}"/>'
        body.append(f'<g class="timeline-event" {data}>{tip}{mark}</g>')
    closed = report.get("closed") if isinstance(report.get("closed"), dict) else None
    legend_y = bottom + 24
    body.append(f'<circle cx="16" cy="{legend_y - 4}" r="3" fill="{ADMITTED}"/>'
                f'<text x="24" y="{legend_y}" fill="{INK}">admitted</text>'
                f'<path d="M96,{legend_y - 8} L103,{legend_y - 1} M96,{legend_y - 1} L103,{legend_y - 8}" '
                f'stroke="{REFUSED}" stroke-width="2"/><text x="110" y="{legend_y}" fill="{INK}">refused</text>'
                f'<path d="M178,{legend_y - 10} L183,{legend_y - 4} L178,{legend_y + 2} L173,{legend_y - 4} z" '
                f'fill="#ef6c00"/><text x="190" y="{legend_y}" fill="{INK}">review (a person\'s decision)</text>'
                + (f'<text class="closed" x="420" y="{legend_y}" fill="{INK}" data-how="{_a(closed.get("how"))}">'
                   f'closed: {escape(str(closed.get("how")))} at event {escape(str(closed.get("seq")))}</text>'
                   if closed else ""))
    # The key to the bands: each stage's colour, its number and its name.
    key_y, x = legend_y + 24, 10
    body.append(f'<text x="{x}" y="{key_y}" fill="{INK}">stages:</text>')
    x += 8 * EM_WIDTH * 12 + 8
    for name, colour in colours.items():
        said = f"{number[name]} {name}"
        body.append(f'<g class="stage-key" data-stage="{_a(name)}" data-colour="{colour}">'
                    f'<rect x="{x}" y="{key_y - 11}" width="14" height="14" fill="{colour}" stroke="{MUTED}" '
                    f'stroke-width="0.6"/><text x="{x + 19}" y="{key_y}" fill="{INK}">{escape(said)}</text></g>')
        x += 19 + 12 * EM_WIDTH * len(said) + 18
    return _svg("run-timeline", max(width, x), key_y + 12, body,
                f"The reference run's timeline: {len(events)} events in {len(kinds)} kinds")


# --- lesson 5: one selection's ranking (data/course/selection-demo.json) ----------------------

def selection_ranking(demo: dict, which: int = 2) -> str:
    """The ``which``-th selection of the demo: one bar per ranked candidate, its score split into
    the rule's two parts, weight / (1 + cost) and what family credit adds on top,
    weight * credit / (1 + cost); the candidate the door recorded as selected is marked."""
    try:
        steps = [step for step in demo["loop"] if step.get("step") == "select"]
        step = steps[which - 1]
        ranking = list(step["ranking"])
        chosen = step["selection"]["action_id"]
        rows = [(str(r["action_id"]), float(r["weight"]), float(r["credit"]), float(r["cost"]), float(r["score"]),
                 str(r["family"])) for r in ranking]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise PictureError(f"selection-demo.json has no selection {which} with its ranking ({exc!r})") from None
    if not rows:
        raise PictureError(f"selection {which} ranked no candidate")
    left, bar_h, gap, top, width = 400, 22, 14, 44, 980
    scale = (width - left - 150) / max(score for *_, score, _ in rows)
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">Selection {which}: score = weight × (1 + family '
            f'credit) / (1 + cost), best first</text>']
    for i, (identity, weight, credit, cost, score, family) in enumerate(rows):
        y = top + i * (bar_h + gap)
        base, earned = weight / (1 + cost), weight * credit / (1 + cost)
        picked, bold = identity == chosen, ' font-weight="bold"'
        label = identity if len(identity) <= 52 else identity[:51] + "…"
        body.append(f'<g class="ranked" data-action-id="{_a(identity)}" data-score="{score:g}" '
                    f'data-base="{base:g}" data-credit-part="{earned:g}" data-chosen="{str(picked).lower()}">'
                    f'<title>{escape(identity)}: weight {weight:g}, {escape(family)} credit {credit:g}, cost {cost:g}'
                    f' -&gt; score {score:g}{" (selected)" if picked else ""}</title>'
                    f'<text x="10" y="{y + 15}" fill="{INK}"{bold if picked else ""}>'
                    f'{"▶ " if picked else ""}{escape(label)}</text>'
                    f'<rect x="{left}" y="{y}" width="{base * scale:.1f}" height="{bar_h}" fill="#90caf9"/>'
                    f'<rect x="{left + base * scale:.1f}" y="{y}" width="{earned * scale:.1f}" height="{bar_h}" '
                    f'fill="#ffb74d"/>'
                    + (f'<rect x="{left - 3}" y="{y - 3}" width="{score * scale + 6:.1f}" height="{bar_h + 6}" '
                       f'fill="none" stroke="{ADMITTED}" stroke-width="2.5"/>' if picked else "")
                    + f'<text x="{left + score * scale + 10:.1f}" y="{y + 15}" fill="{INK}">{score:g} '
                    f'= {weight:g}×(1+{credit:g})/(1+{cost:g})</text></g>')
    y = top + len(rows) * (bar_h + gap) + 10
    body.append(f'<rect x="10" y="{y}" width="14" height="12" fill="#90caf9"/>'
                f'<text x="30" y="{y + 11}" fill="{INK}">weight / (1 + cost)</text>'
                f'<rect x="200" y="{y}" width="14" height="12" fill="#ffb74d"/>'
                f'<text x="220" y="{y + 11}" fill="{INK}">added by the family\'s credit</text>'
                f'<text x="470" y="{y + 11}" fill="{INK}">▶ and green frame: the selection the door recorded</text>')
    return _svg("selection-ranking", width, y + 24, body,
                f"Selection {which} of lesson 5's demo: {len(rows)} candidates ranked")


# --- lesson 7: each finding's check (data/course/verification-demo.json) ----------------------

def verification_verdicts(demo: dict) -> str:
    """One row per check: the act the finding quotes, the confirming act and the control, each
    marked with whether its capture shows the expected text, and the verdict they add up to.
    Every text is wrapped to its box's width, and each row is as tall as its tallest box, so
    nothing is cut."""
    try:
        checks = [(str(c["plan"]["evidence"]["action"]), str(c["plan"]["evidence"]["quote"]),
                   str(c["plan"]["expect"]), dict(c["confirming"]), dict(c["control"]), str(c["verdict"]["verdict"]),
                   str(c["verdict"]["reason"]), str(c["verdict"]["finding_id"])) for c in demo["checks"]]
    except (KeyError, TypeError) as exc:
        raise PictureError(f"verification-demo.json has a check without {exc}") from None
    from core.run.verify import SERVER_ERROR  # read, never changed: where judge stops trusting a capture

    col_w, top, width, gap = 230, 52, 1000, 26
    small, bold = fits(col_w - 16, 11), fits(col_w - 16, 12)  # characters a box's line holds
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">Each check: the quoted act, a confirming act '
            'and a control, through the same door</text>',
            f'<text x="10" y="40" fill="{MUTED}">quoted act</text><text x="{10 + col_w + 20}" y="40" fill="{MUTED}">'
            f'confirming act</text><text x="{10 + 2 * (col_w + 20)}" y="40" fill="{MUTED}">control</text>'
            f'<text x="{10 + 3 * (col_w + 20)}" y="40" fill="{MUTED}">verdict</text>']

    def lines_of(title: str, texts: list[str]) -> tuple[list[str], list[str]]:
        return wrapped(title, bold), [line for text in texts for line in wrapped(text, small)]

    def box(x: float, y: float, height: float, titled: tuple[list[str], list[str]], colour: str) -> str:
        titles, lines = titled
        head = "".join(f'<text x="{x + 8}" y="{y + 17 + 15 * k}" font-weight="bold" fill="{INK}">{escape(line)}</text>'
                       for k, line in enumerate(titles))
        text = "".join(f'<text x="{x + 8}" y="{y + 19 + 15 * len(titles) + 15 * k}" fill="{INK}" font-size="11">'
                       f'{escape(line)}</text>' for k, line in enumerate(lines))
        dashed = ' stroke-dasharray="5,4"' if colour == MUTED else ""  # a box the verdict did not read
        return (f'<rect x="{x}" y="{y}" width="{col_w}" height="{height}" rx="6" fill="{PAPER}" stroke="{colour}" '
                f'stroke-width="1.6"{dashed}/>{head}{text}')

    verdict_colour = {"confirmed": ADMITTED, "refuted": REFUSED}
    y = top
    for evidence, quote, expect, confirming, control, verdict, reason, finding in checks:
        shows_c, shows_k = bool(confirming.get("shows_expect")), bool(control.get("shows_expect"))
        # verify.judge reads the control only once the confirming capture shows the evidence and is
        # no server error: otherwise the verdict is settled before the control, which played no part.
        status = confirming.get("http_status")
        counted = shows_c and isinstance(status, int) and status < SERVER_ERROR
        xs = [10 + k * (col_w + 20) for k in range(4)]
        control_said = [str(control.get("action_id", "")).split(" -> ")[-1], f"HTTP {control.get('http_status', '-')}"]
        boxes = [
            (lines_of("quoted", [evidence.split(" -> ")[-1], f"quote: {quote}"]), INK),
            (lines_of(("✓ shows " if shows_c else "✗ lacks ") + expect,
                      [str(confirming.get("action_id", "")).split(" -> ")[-1],
                       f"HTTP {confirming.get('http_status', '-')}"]), ADMITTED if shows_c else REFUSED),
            (lines_of(("✗ shows " if shows_k else "✓ lacks ") + expect, control_said), REFUSED if shows_k else ADMITTED)
            if counted else
            (lines_of("not read", [*control_said, "the verdict was settled by the confirming capture"]), MUTED),
            (lines_of(verdict, [reason]), verdict_colour.get(verdict, "#ef6c00")),
        ]
        height = max(26 + 15 * (len(titles) + len(lines)) for (titles, lines), _ in boxes)
        body.append(f'<g class="check" data-finding="{_a(finding)}" data-verdict="{_a(verdict)}" '
                    f'data-confirm-shows="{str(shows_c).lower()}" data-control-shows="{str(shows_k).lower()}" '
                    f'data-control-read="{str(counted).lower()}">'
                    f'<title>{escape(reason)}</title>'
                    + "".join(box(x, y, height, titled, colour) for x, (titled, colour) in zip(xs, boxes))
                    + "".join(f'<path d="M{xs[k] + col_w + 2},{y + height / 2} L{xs[k + 1] - 3},{y + height / 2}" '
                              f'stroke="{INK}" stroke-width="1.4" marker-end="url(#arrow-verification-verdicts)"'
                              + ('' if counted or k == 0 else ' stroke-dasharray="4,3"') + '/>'
                              for k in range(3)) + "</g>")
        y += height + gap
    return _svg("verification-verdicts", width, y - gap + 4, body,
                f"Lesson 7: {len(checks)} findings checked, each by a confirming act and a control")


# --- lesson 8: the gate's decision for each class (taxonomy table + the reference run's gating) ---

def gate_decisions(rows: list[dict], gating: dict) -> str:
    """One lane per action class, from the act to the gate's verdict, as the gate's rules give it
    for this table and this run's caps and fail-open classes (core/run/gate.py, module docstring)."""
    try:
        caps = {str(k): int(v) for k, v in dict(gating.get("caps", {})).items()}
        fail_open = {str(name) for name in gating.get("fail_open_classes", [])}
        lanes = [(str(r["name"]), bool(r["consequential"]), r.get("approver_role"), bool(r["fail_open_allowed"]),
                  list(r.get("legacy_aliases") or [])) for r in rows]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PictureError(f"the taxonomy rows or the gating lack {exc}") from None
    lane_h, top, width = 40, 44, 1000
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">The gate, class by class (taxonomy version '
            f'{escape(str(gating.get("taxonomy_version", "?")))}, this run\'s caps)</text>']
    for i, (name, consequential, approver, may_fail_open, aliases) in enumerate(lanes):
        y = top + i * lane_h
        cap = caps.get(name, 0)
        release = f"held for {approver}" if approver else "denied (no approver)"
        if consequential:
            verdict, text, colour = ("hold" if approver else "deny"), (
                f"every exact act {release}" if approver else "denied: no review can release it"), \
                ("#ef6c00" if approver else REFUSED)
        elif cap > 0:
            verdict, text, colour = f"allow-then-{'hold' if approver else 'deny'}", \
                f"runs freely for {cap} act(s), then {release}", ADMITTED
        else:
            verdict, text, colour = ("hold" if approver else "deny"), f"no cap in this run: {release}", \
                ("#ef6c00" if approver else REFUSED)
        stale = "may fail open while stale" if (may_fail_open and name in fail_open) else "fails closed while stale"
        alias = f" (was {', '.join(aliases)})" if aliases else ""
        body.append(f'<g class="gate-lane" data-class="{_a(name)}" data-consequential="{str(consequential).lower()}" '
                    f'data-approver="{_a(approver or "")}" data-cap="{cap}" data-verdict="{_a(verdict)}">'
                    f'<title>{escape(name)}{escape(alias)}: {escape(text)}; {stale}</title>'
                    f'<rect x="10" y="{y}" width="{width - 20}" height="{lane_h - 6}" rx="4" '
                    f'fill="{PAPER if i % 2 else "#ffffff"}"/>'
                    f'<text x="20" y="{y + 22}" font-weight="bold" fill="{INK}">{escape(name)}</text>'
                    f'<text x="215" y="{y + 22}" fill="{MUTED}" font-size="11">{escape(alias.strip(" ()"))}</text>'
                    f'<text x="330" y="{y + 22}" fill="{INK}">{"consequential" if consequential else "not consequential"}'
                    f'</text><path d="M455,{y + 17} L495,{y + 17}" stroke="{INK}" stroke-width="1.4" '
                    f'marker-end="url(#arrow-gate-decisions)"/>'
                    f'<rect x="500" y="{y + 4}" width="8" height="{lane_h - 14}" fill="{colour}"/>'
                    f'<text x="516" y="{y + 22}" fill="{INK}">{escape(text)}'
                    f'{"; may fail open while stale" if stale.startswith("may") else ""}</text></g>')
    y = top + len(lanes) * lane_h + 12
    footer = ("While an earlier outcome is unresolved (a stale view), a class fails closed unless the taxonomy "
              "allows it to fail open and this run lists it; never past its cap.")
    for k, line in enumerate(textwrap.wrap(footer, NOTE_CHARS)):  # 11 px monospace: a line fits the width
        body.append(f'<text x="10" y="{y + 15 * k}" fill="{MUTED}" font-size="11">{escape(line)}</text>')
    y += 15 * (len(textwrap.wrap(footer, NOTE_CHARS)) - 1)
    return _svg("gate-decisions", width, y + 10, body,
                f"The gate's decision for each of {len(lanes)} action classes")


def _gate_data() -> tuple[list[dict], dict]:
    from core.run import taxonomy  # read, never changed: the table lesson 8 defines
    gating = dict(_json("data/course/report.json").get("gating") or {})
    table = taxonomy.carried_taxonomy(gating.get("taxonomy_version"))
    rows = [{"name": r.name, "consequential": r.consequential, "approver_role": r.approver_role,
             "fail_open_allowed": r.fail_open_allowed, "legacy_aliases": list(r.legacy_aliases)}
            for r in list(table.classes.values()) + [taxonomy.UNCLASSIFIED]]
    return rows, gating


# --- lesson 9: the seal's chain and where each altered copy breaks it ----------------------------

BREAK = "#6a1b9a"  # a break is no event: it has a colour of its own, apart from a refusal's red

def seal_chain(intact: dict, tamper_lab: dict) -> str:
    """The chain of the intact report from h_0 to the seal, one link per event, and on the link
    where each altered copy first breaks it, a mark naming the copy."""
    try:
        events = sorted(intact["events"], key=lambda e: int(e["seq"]))
        seal = dict(intact["seal"])
        breaks = sorted(((int(v["chain"]["seq"]), name) for name, v in tamper_lab.items()
                         if isinstance(v, dict) and v.get("chain", {}).get("seq") is not None))
        caught_elsewhere = sorted(name for name, v in tamper_lab.items() if isinstance(v, dict)
                                  and v.get("chain", {}).get("seq") is None and not v.get("verify", {}).get("ok", True))
    except (KeyError, TypeError, ValueError) as exc:
        raise PictureError(f"the tamper lab lacks {exc}") from None
    step, left, top = 21, 60, 60
    width = max(left + step * (len(events) + 3) + 20, 1000)
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">The chain of intact.json: h_0, then one hash per '
            f'event, then the seal ({escape(str(seal.get("algorithm")))})</text>',
            f'<circle cx="{left - 25}" cy="{top}" r="9" fill="{INK}"/><text x="{left - 25}" y="{top + 28}" '
            f'text-anchor="middle" fill="{INK}" font-size="11">h_0</text>']
    for i, event in enumerate(events):
        x = left + i * step
        body.append(f'<g class="chain-link" data-seq="{_a(event["seq"])}" data-kind="{_a(event["kind"])}">'
                    f'<title>h_{_a(event["seq"])}: {escape(str(event["kind"]))} {escape(_short(str(event.get("chain", "")), 16))}'
                    f'</title><line x1="{x - step + 4 if i else left - 16}" y1="{top}" x2="{x - 5}" y2="{top}" '
                    f'stroke="{INK}" stroke-width="1.6"/><rect x="{x - 5}" y="{top - 7}" width="10" height="14" '
                    f'rx="2" fill="{REFUSED if event.get("status") == "refused" else ADMITTED}"/></g>')
        if int(event["seq"]) % 5 == 0:
            body.append(f'<text x="{x}" y="{top + 28}" text-anchor="middle" font-size="10" fill="{MUTED}">'
                        f'{_a(event["seq"])}</text>')
    end = left + len(events) * step
    body.append(f'<line x1="{end - step + 5}" y1="{top}" x2="{end + 8}" y2="{top}" stroke="{INK}" stroke-width="1.6"/>'
                f'<rect x="{end + 8}" y="{top - 14}" width="44" height="28" rx="5" fill="{INK}"/>'
                f'<text x="{end + 30}" y="{top + 5}" text-anchor="middle" fill="#ffffff" font-size="11">seal</text>')
    for k, (seq, name) in enumerate(breaks):
        index = next((i for i, e in enumerate(events) if int(e["seq"]) == seq), len(events))
        x = left + index * step if index < len(events) else end + 20
        y = top + 50 + 22 * k
        body.append(f'<g class="chain-break" data-copy="{_a(name)}" data-seq="{seq}">'
                    f'<title>{escape(name)}: {escape(str(tamper_lab[name].get("alteration", "")))}</title>'
                    f'<line x1="{x}" y1="{top + 9}" x2="{x}" y2="{y - 4}" stroke="{BREAK}" stroke-dasharray="3,2"/>'
                    f'<text x="{x}" y="{y + 8}" fill="{BREAK}" font-size="11" text-anchor="middle">'
                    f'✗ {escape(name)}</text></g>')
    y = top + 50 + 22 * len(breaks) + 14
    key = [(ADMITTED, "admitted event"), (REFUSED, "refused event (chained like any other)"),
           (BREAK, "✗ where an altered copy's chain first breaks")]
    x = 10
    for colour, said in key:
        body.append(f'<rect class="legend-swatch" data-colour="{colour}" x="{x}" y="{y - 9}" width="8" height="10" '
                    f'fill="{colour}"/><text class="legend-entry" data-colour="{colour}" x="{x + 12}" y="{y}" '
                    f'font-size="11" fill="{INK}">{escape(said)}</text>')
        x += 12 + 7 * len(said) + 24
    y += 20
    if caught_elsewhere:
        body.append(f'<text x="10" y="{y}" fill="{INK}" font-size="11">The chain holds for '
                    f'{escape(", ".join(caught_elsewhere))}: verify catches it by re-deriving a section from the '
                    'ledger, not by the chain.</text>')
    return _svg("seal-chain", width, y + 14, body, f"The chain over {len(events)} events and {len(breaks)} breaks")


# --- lesson 6: each act's events, in ledger order (data/course/execution-demo.json) -------------

# Lesson 6's bars: one colour per kind of event the picture tells apart, each named in its legend.
ACT_KEY = (("act", "#1565c0", "action or capture, admitted"),
           ("succeeded", ADMITTED, "outcome: succeeded"),
           ("unresolved", "#ef6c00", "outcome: unresolved"),
           ("failed", "#6a1b9a", "outcome: failed"),
           ("refused", REFUSED, "refused by the door"))


def execution_outcomes(demo: dict) -> str:
    """The demo's acts side by side; under each, the ledger events that name it, in order, the
    outcomes coloured by status and refusals marked, so a settlement and a refused second
    settlement show under the act they belong to. Each text is wrapped to its column, never cut."""
    try:
        acts = [str(step["action_id"]) for step in demo["steps"] if step.get("step") == "execute"]
        events = sorted(demo["report"]["events"], key=lambda e: int(e["seq"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise PictureError(f"execution-demo.json lacks {exc}") from None
    if not acts:
        raise PictureError("execution-demo.json executed no act")

    def names(event: dict, act: str) -> bool:
        payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
        return (event.get("kind") == "action" and event.get("id") == act) or payload.get("action_id") == act

    col_w, line_h = 310, 14
    chars = fits(col_w - 14, 11)
    width = max(len(acts) * (col_w + 16) + 4, 980)
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">Each act and the ledger events that name it, '
            'in order</text>']
    heads = [wrapped(act.split(" -> ")[-1], fits(col_w, 11)) for act in acts]
    colour_of = {key: colour for key, colour, _ in ACT_KEY}
    used: set[str] = set()
    top = 56 + line_h * max(len(lines) for lines in heads)
    deepest = top
    for i, (act, head) in enumerate(zip(acts, heads)):
        x = 10 + i * (col_w + 16)
        body.append(f'<text x="{x}" y="42" font-weight="bold" fill="{INK}">{escape(act.split(" -> ")[0])}</text>'
                    + "".join(f'<text x="{x}" y="{56 + line_h * k}" fill="{MUTED}" font-size="11">{escape(line)}</text>'
                              for k, line in enumerate(head)))
        y = top
        for event in (e for e in events if names(e, act)):
            payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
            status = str(event.get("status"))
            outcome = str(payload.get("status", "")) if event.get("kind") == "outcome" else ""
            drawn_as = "refused" if status == "refused" else outcome if event.get("kind") == "outcome" else "act"
            colour = colour_of.get(drawn_as, MUTED)
            used.add(drawn_as)
            said = event.get("reason") if status == "refused" else (outcome or _short(str(event.get("id")), 12))
            text = f'{event["seq"]:>3} {event["kind"]}: {"REFUSED " if status == "refused" else ""}{said}'
            lines = wrapped(text, chars, indent="      ")
            height = line_h * len(lines) + 10
            body.append(f'<g class="act-event" data-act="{_a(act)}" data-seq="{_a(event["seq"])}" '
                        f'data-kind="{_a(event["kind"])}" data-status="{_a(status)}" data-outcome="{_a(outcome)}">'
                        f'<title>{escape(text)}</title><rect x="{x}" y="{y}" width="6" height="{height - 6}" '
                        f'fill="{colour}"/>'
                        + "".join(f'<text x="{x + 12}" y="{y + 13 + line_h * k}" font-size="11" fill="{INK}" '
                                  f'xml:space="preserve">{escape(line)}</text>' for k, line in enumerate(lines))
                        + "</g>")
            y += height
        deepest = max(deepest, y)
    x = 10
    for key, colour, said in (entry for entry in ACT_KEY if entry[0] in used):  # only what is drawn
        body.append(f'<rect class="legend-swatch" data-colour="{colour}" x="{x}" y="{deepest + 8}" width="6" '
                    f'height="12" fill="{colour}"/><text class="legend-entry" data-key="{key}" data-colour="{colour}" '
                    f'x="{x + 12}" y="{deepest + 18}" font-size="11" fill="{INK}">{escape(said)}</text>')
        x += 12 + len(said) * 7 + 24
    return _svg("execution-outcomes", width, deepest + 30, body, f"Lesson 6: {len(acts)} acts and their events")


# --- lesson 10: three SafetyCheck verdicts side by side (data/course/safety-demo.json) ------------

# The picture's columns, in the order of lesson 10's table: a key of the demo's check, and its title.
SAFETY_COLUMNS = {"reference": "the reference run", "tampered": "tampered", "missing_evidence": "evidence removed"}


def safety_verdicts(check: dict) -> str:
    """One row per boundary, one column per verdict, in the order of lesson 10's table (the
    reference run, the tampered snapshot, the snapshot with evidence removed): upheld green,
    violated red, not judged grey with its reason."""
    try:
        columns = [(SAFETY_COLUMNS[key], check[key] if key == "reference" else check[key]["verdict"])
                   for key in SAFETY_COLUMNS]
        cells = [{str(r["boundary_id"]): r for r in verdict["results"]} for _, verdict in columns]
    except (KeyError, TypeError) as exc:
        raise PictureError(f"safety-demo.json's check lacks {exc}") from None
    boundaries = list(dict.fromkeys(b for column in cells for b in column))
    left, col_w, row_h, top = 290, 230, 30, 50
    width = max(left + len(columns) * col_w + 10, 980)
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">SafetyCheck, three times: each boundary '
            'upheld, violated or not judged</text>']
    for c, (title, _) in enumerate(columns):
        body.append(f'<text class="safety-column" data-column="{c}" data-key="{list(SAFETY_COLUMNS)[c]}" '
                    f'x="{left + c * col_w + 6}" y="{top - 8}" font-weight="bold" fill="{INK}">{escape(title)}</text>')
    notes: dict[str, int] = {}  # a not-judged reason, said once in full under the grid, by its number
    for r, boundary in enumerate(boundaries):
        y = top + r * row_h
        body.append(f'<text x="10" y="{y + 19}" fill="{INK}">{escape(boundary)}</text>')
        for c, column in enumerate(cells):
            result = column.get(boundary)
            upheld = result.get("upheld") if isinstance(result, dict) else None
            judged = "upheld" if upheld is True else "violated" if upheld is False else "not judged"
            colour = {"upheld": "#c8e6c9", "violated": "#ffcdd2"}.get(judged, "#eceff1")
            reason = str(result.get("reason", "")) if isinstance(result, dict) else "not in this verdict"
            shown_text = judged
            if judged == "not judged":
                shown_text = f"not judged (note {notes.setdefault(reason, len(notes) + 1)})"
            body.append(f'<g class="safety-cell" data-boundary="{_a(boundary)}" data-column="{c}" '
                        f'data-judged="{judged}"><title>{escape(boundary)}, {escape(columns[c][0])}: {escape(judged)}: '
                        f'{escape(reason)}</title><rect x="{left + c * col_w}" y="{y}" width="{col_w - 6}" '
                        f'height="{row_h - 4}" rx="3" fill="{colour}"/><text x="{left + c * col_w + 6}" y="{y + 17}" '
                        f'font-size="11" fill="{INK if judged != "not judged" else MUTED}">'
                        f'{escape(shown_text)}</text></g>')
    y = top + len(boundaries) * row_h + 16
    for reason, number in notes.items():
        for k, line in enumerate(textwrap.wrap(f"note {number}: {reason}", NOTE_CHARS, subsequent_indent="  ")):
            body.append(f'<text class="safety-note" x="10" y="{y}" font-size="11" fill="{MUTED}" '
                        f'data-note="{number}">{escape(line)}</text>')
            y += 15
    return _svg("safety-verdicts", width, y, body, f"Lesson 10: {len(boundaries)} boundaries judged three times")


# --- lesson 12: one AgentDojo pair's acts and reviews, from its sealed report ---------------

REVIEWED = {"approved": ADMITTED, "rejected": REFUSED}


def dojo_pair(report: dict) -> str:
    """Each act and review of an AgentDojo pair's ledger, in ledger order: an admitted act green, a refused one
    red with the guard that refused it, a review coloured by its decision and followed by its reason."""
    try:
        rows = [event for event in report["events"] if event["kind"] in ("action", "review")]
        marks = [(event["seq"], event["kind"], event["status"], event["code"], event["by"], event["payload"])
                 for event in rows]
    except (KeyError, TypeError) as exc:
        raise PictureError(f"dojo-pair.json's events lack {exc}") from None
    width, left, y = 1000, 150, 44
    body = [f'<text x="10" y="20" font-weight="bold" fill="{INK}">One pair through the course\'s door: each '
            'act and each review, in ledger order</text>']
    for seq, kind, status, code, by, payload in marks:
        if kind == "review":
            decision = str(payload.get("decision", ""))
            colour, said = REVIEWED.get(decision, MUTED), f"review: {decision} by {payload.get('reviewer', '')}"
            notes = wrapped(str(payload.get("reason", "")), fits(width - left - 30, 11))
        else:
            colour = ADMITTED if status == "admitted" else REFUSED
            said = f"{payload.get('tool', '')}: {status}" + (f" ({code}) by {by}" if by else "")
            notes = []
        body.append(f'<g class="dojo-mark" data-seq="{seq}" data-kind="{kind}" data-status="{_a(status)}" '
                    f'data-decision="{_a(payload.get("decision", ""))}"><title>event {seq}: {escape(said)}</title>'
                    f'<text x="10" y="{y}" fill="{MUTED}">event {seq}</text>'
                    f'<rect x="{left - 40}" y="{y - 11}" width="24" height="14" rx="3" fill="{colour}"/>'
                    f'<text x="{left}" y="{y}" fill="{INK}">{escape(said)}</text></g>')
        for line in notes:
            y += 16
            body.append(f'<text class="dojo-note" x="{left + 16}" y="{y}" font-size="11" fill="{MUTED}">'
                        f'{escape(line)}</text>')
        y += 24
    body.append(f'<rect x="10" y="{y - 8}" width="14" height="10" fill="{ADMITTED}"/><text x="30" y="{y + 1}" '
                f'font-size="11" fill="{INK}">admitted act, approving review</text>'
                f'<rect x="290" y="{y - 8}" width="14" height="10" fill="{REFUSED}"/><text x="310" y="{y + 1}" '
                f'font-size="11" fill="{INK}">refused act, rejecting review</text>')
    return _svg("dojo-pair", width, y + 14, body, f"Lesson 12: {len(marks)} acts and reviews of one AgentDojo pair")


# --- which picture a page asks for ------------------------------------------------------------

def _stage_tables() -> tuple:
    from core.run import stages  # read, never changed: the two tables lesson 3 defines
    return stages.STAGES, stages.TRANSITIONS


def _tlog_proof() -> str:
    """Lesson 11's picture, drawn by tlog/picture.py (tlog may use libraries core may not)."""
    from tlog import picture  # the log's own drawing of its tree; only lesson 11's page asks for it

    try:
        return picture.proof_tree(_json("data/course/tlog-demo.json"))
    except picture.PictureError as exc:
        raise PictureError(str(exc)) from None


def _json(relative: str) -> dict:
    path = course_root() / relative
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PictureError(f"{relative} cannot be read as JSON: {exc}") from None


PICTURES: dict[str, tuple[str, Callable[[], str]]] = {
    # name: (where its data comes from, how to draw it)
    "stage-machine": ("core/run/stages.py", lambda: stage_machine(*_stage_tables())),
    "records-chain": ("data/course/records-demo.json", lambda: records_chain(_json("data/course/records-demo.json"))),
    "run-timeline": ("data/course/report.json and core/run/stages.py",
                     lambda: run_timeline(_json("data/course/report.json"), _stage_tables()[0])),
    "selection-ranking": ("data/course/selection-demo.json",
                          lambda: selection_ranking(_json("data/course/selection-demo.json"))),
    "verification-verdicts": ("data/course/verification-demo.json",
                              lambda: verification_verdicts(_json("data/course/verification-demo.json"))),
    "execution-outcomes": ("data/course/execution-demo.json",
                           lambda: execution_outcomes(_json("data/course/execution-demo.json"))),
    "safety-verdicts": ("data/course/safety-demo.json",
                        lambda: safety_verdicts(dict(_json("data/course/safety-demo.json").get("check") or {}))),
    "gate-decisions": ("core/run/taxonomy.py and data/course/report.json", lambda: gate_decisions(*_gate_data())),
    "tlog-proof": ("data/course/tlog-demo.json", _tlog_proof),
    "dojo-pair": ("data/course/dojo-pair.json", lambda: dojo_pair(_json("data/course/dojo-pair.json"))),
    "seal-chain": ("data/course/tamper/intact.json and data/course/seal-demo.json",
                   lambda: seal_chain(_json("data/course/tamper/intact.json"),
                                      dict(_json("data/course/seal-demo.json").get("tamper_lab") or {}))),
}


def draw(name: str) -> str:
    """The named picture as SVG text, or a PictureError naming what is wrong."""
    if name not in PICTURES:
        raise PictureError(f"there is no picture {name!r}; the pictures are {', '.join(PICTURES)}")
    source, make = PICTURES[name]
    return (f'<figure class="course-figure" data-source="{_a(source)}">{make()}'
            f'<figcaption>Drawn when the site was built, from <code>{escape(source)}</code>.</figcaption></figure>')


def source_of(name: str) -> Path:
    return course_root() / PICTURES[name][0]
