"""Report: the run as one JSON document, and the Markdown a person reads.

A report is the closed run's ledger (``events``) and its **sections**: every
other part of the document, each derived from a door by a function. Lesson
9's functions (``ledger_sections``) derive what the door itself holds: the
run, its policy, stage and close, the counts, every store, and each finding
with the verdict verification gave it; from lesson 8 on, ``gating_sections``
adds how acts were gated. A later lesson adds its own function (lesson 10's
safety verdict), and ``rederive.SECTIONS`` lists them all. seal.py then chains
and seals the document; the sealed JSON is the artifact.

Building and verifying share those functions. ``build_report`` derives the
sections from the door that ran; ``verify_report`` checks the chain and the
seal, asks a fresh door every question of the ledger again, derives the
sections from that door the same way, and names the first section that
disagrees. So a section edited and resealed is caught. A ledger rewritten
through a fresh door and resealed is not: its sections agree with its
ledger. Only a head kept elsewhere catches that (seal.py).

``render_markdown`` writes the human-readable report from the sealed JSON
alone, with no door and no other file, and says at the top what verifying
it found, so a rendered copy of an altered report cannot pass for a good
one. Much of a report's text was written outside the harness: page content
in quotes and destinations, model text in refusal reasons, operator text in
claims. The renderer shows every such value as a code span, so Markdown
never reads it as markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from core.run.canon import CanonError, canonical_bytes
from core.run.gate import subject_of
from core.run.recorder import Recorder
from core.run.records import printable, shown
from core.run.seal import Verification, closed_of, verify_chain

FORMAT = "harness-report/4"  # 4: the report carries its verification plan (lesson 7)
UNVERIFIED = "unverified"
SHORT = 12  # hex digits a reader needs to tell identifiers apart

Sections = Callable[[Recorder, Mapping], dict]  # a door and what the run was given -> some sections
Redo = Callable[[dict], Recorder]  # a sealed report -> a fresh door asked its ledger's questions again


class ReportError(ValueError):
    """A report cannot be built or read from what was given; the message says why."""


# --- the sections --------------------------------------------------------------------------


def ledger_sections(door: Recorder, given: Mapping) -> dict:
    """What the door itself holds: its snapshot without the events, each finding with its verdict."""
    snapshot = door.snapshot(with_events=False)
    sections = {"format": FORMAT, **snapshot}
    if "findings" in snapshot:
        sections["findings"] = with_verdicts(snapshot["findings"], snapshot.get("verdicts", []))
    return sections


def gating_sections(door: Recorder, given: Mapping) -> dict:
    """How acts were gated (lesson 8): the gating and the taxonomy table's version and digest."""
    gating = door.parts.get("gating")
    if gating is None:
        return {}
    return {"gating": gating.snapshot(), "taxonomy": {"version": gating.table.version,
                                                      "digest": gating.table.digest}}


SECTIONS = (ledger_sections, gating_sections)  # lesson 9's; rederive.SECTIONS adds later lessons'


def with_verdicts(findings: list[dict], verdicts: list[dict]) -> list[dict]:
    """Each finding with the verdict verification recorded for it, or ``unverified`` when there is none.

    A refuted finding stays in the list: the report shows what was claimed
    and what checking it found, not only the claims that survived.
    """
    by_finding = {verdict["finding_id"]: verdict for verdict in verdicts}
    enriched = []
    for finding in findings:
        verdict = by_finding.get(finding["finding_id"])
        if verdict is None:
            extra = {"verdict": UNVERIFIED, "verdict_id": "", "verdict_reason": "no verdict was recorded"}
        else:
            extra = {"verdict": verdict["verdict"], "verdict_id": verdict["verdict_id"],
                     "verdict_reason": verdict["reason"]}
        enriched.append({**finding, **extra})
    return enriched


def derived(door: Recorder, sections: Iterable[Sections], given: Mapping) -> dict:
    """Every section ``sections`` derive from ``door``, in one dict."""
    found: dict = {}
    for derive in sections:
        found.update(derive(door, given))
    return found


# --- building ----------------------------------------------------------------------------


def build_report(door: Recorder, sections: Iterable[Sections] = SECTIONS, given: Mapping | None = None) -> dict:
    """The closed run as one unsealed, JSON-ready report (seal it with seal.seal).

    ``given`` is what the run was given besides its door (lesson 10's safety
    pack), for the section functions that need it. An open run is refused:
    it could still change after its report is sealed.
    """
    if closed_of(door) is None:
        raise ReportError("the run is still open: finish or abort it before writing its report")
    report = {"events": door.ledger, **derived(door, sections, given or {})}
    try:
        canonical_bytes(report)
    except CanonError as exc:
        raise ReportError(f"the report has no canonical JSON form: {exc}") from None
    return report


# --- verifying everything a report says ---------------------------------------------------


def verify_report(report: object, redo: Redo, sections: Iterable[Sections] = SECTIONS,
                  given_by: Callable[[dict], Mapping] = lambda report: {},
                  chain: Callable[[object], Verification] = verify_chain) -> Verification:
    """The chain and the seal (seal.verify_chain), then every section, derived again from the ledger.

    ``redo`` rebuilds the report's door and asks it every question of the
    ledger again (rederive.redo); ``given_by`` rebuilds what the run was given
    besides its door (rederive.given_by). A report whose sections were edited and then
    resealed has a valid chain; it is caught here, and the first section
    that disagrees is named. Raises SealError or ReportError when the input
    is not a sealed harness report (``redo`` raises its own error when the
    report's setting cannot be rebuilt). ``chain`` walks the chain in
    seal.verify_chain's place (``course attack`` asks a student's walk).
    """
    verification = chain(report)
    if not verification.ok:
        return verification
    if report.get("format") != FORMAT:
        raise ReportError(f"not a harness report: format is {shown(report.get('format'))}, not {FORMAT}")
    door = redo(report)
    if closed_of(door) is None:
        raise ReportError("the report's ledger never closes the run")
    fresh = derived(door, sections, given_by(report))
    for section in sorted(set(fresh) | (set(report) - {"events", "seal"})):
        if report.get(section) != fresh.get(section):
            return Verification(False, None, f"altered: the section {section!r} is not what the ledger "
                                             "derives (edited, then resealed?)", section)
    return verification


# --- rendering ---------------------------------------------------------------------------


def render_markdown(sealed: dict, verification: Verification) -> str:
    """The report a person reads, from the sealed JSON alone: the answers first, then the evidence.

    ``verification`` is what verifying ``sealed`` found (rederive.verify); its
    line heads the report. Raises ReportError when ``sealed`` is not a
    harness report.
    """
    if sealed.get("format") != FORMAT:
        raise ReportError(f"not a harness report: format is {_text(sealed.get('format'))}, not {FORMAT}")
    sections = [
        _summary(sealed, verification.message),
        _findings(sealed),
        _counts(sealed),
        _reviewed_actions(sealed),
        _refusals(sealed),
        _safety(sealed),
        _seal(sealed),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _summary(sealed: dict, seal_line: str) -> list[str]:
    policy = _dict(sealed.get("policy"))
    closed = sealed.get("closed")
    if isinstance(closed, dict):
        outcome = f"{_text(closed.get('how'))}: {_code(closed.get('reason'))}"
    else:
        outcome = "not closed"
    return [
        f"# Run report: {_code(policy.get('reference'))}",
        "",
        f"- Run: {_text(_dict(sealed.get('run')).get('run_id'))}",
        f"- Outcome: {outcome} (stage {_text(sealed.get('stage'))})",
        f"- Seal: {seal_line}",
    ]


def _findings(sealed: dict) -> list[str]:
    findings = _list(sealed.get("findings"))
    lines = [f"## Findings ({len(findings)})", ""]
    for finding in findings:
        lines += [
            f"- {_text(finding.get('verdict'))}: {_code(finding.get('claim'))}",
            f"  quote {_code(finding.get('quote'))} from capture {_short(finding.get('capture_id'))}",
            f"  verdict: {_code(finding.get('verdict_reason'))}",
        ]
    return lines if findings else lines + ["- none"]


def _counts(sealed: dict) -> list[str]:
    counts = _dict(sealed.get("counts"))
    lines = ["## Counts", "", f"- events: {_text(counts.get('admitted'))} admitted, "
                               f"{_text(counts.get('refusals'))} refused"]
    stores = sorted(key for key, value in sealed.items() if isinstance(value, list) and key != "events")
    return lines + [f"- {store}: {len(sealed[store])}" for store in stores]


def _reviewed_actions(sealed: dict) -> list[str]:
    """Each exact act a review decided on: when the gate held it, the decision, and when it ran."""
    story: dict[str, list[str]] = {}
    for event in _list(sealed.get("events")):
        payload = _dict(event.get("payload"))
        if event.get("kind") != "action":
            continue
        subject = subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))
        what = "admitted" if event.get("status") == "admitted" else "refused"
        story.setdefault(subject, []).append(f"{what} at event {_text(event.get('seq'))}")
    lines = ["## Reviewed actions", ""]
    for review in _list(sealed.get("reviews")):
        subject = review.get("subject_id")
        if subject not in story:
            continue  # a review of a finding, not of an act
        decided = (f"{_text(review.get('decision'))} by {_code(review.get('reviewer'))} "
                   f"in review {_short(review.get('review_id'))}")
        lines.append(f"- {_code(subject)}: {', then '.join(story[subject])}; {decided}")
    return lines if len(lines) > 2 else lines + ["- none"]


def _refusals(sealed: dict) -> list[str]:
    refused = [event for event in _list(sealed.get("events")) if event.get("status") == "refused"]
    lines = [f"## Refusals ({len(refused)})", ""]
    lines += [f"- event {_text(event.get('seq'))} ({_code(event.get('kind'))}): {_code(event.get('reason'))}"
              for event in refused]
    return lines if refused else lines + ["- none"]


def _safety(sealed: dict) -> list[str]:
    safety = _dict(sealed.get("safety"))
    lines = [f"## Safety: {_text(safety.get('pack_id'))}", "", _text(safety.get("summary")), ""]
    for result in _list(safety.get("results")):
        if not result.get("runtime_checkable"):
            state = "declared only, not judged"
        else:
            state = "upheld at runtime" if result.get("upheld") else "VIOLATED at runtime"
        lines.append(f"- {_text(result.get('boundary_id'))}: {state}: {_text(result.get('reason'))}")
    return lines


def _seal(sealed: dict) -> list[str]:
    seal = sealed["seal"]
    taxonomy, pack = _dict(sealed.get("taxonomy")), _dict(sealed.get("safety_pack"))
    return ["## Seal", "", f"- algorithm: {_text(seal['algorithm'])}", f"- events: {_text(seal['events'])}",
            f"- head: {_text(seal['head'])}", f"- chain: {_text(seal['chain'])}", f"- body: {_text(seal['body'])}",
            f"- taxonomy: version {_text(taxonomy.get('version'))}, digest {_short(taxonomy.get('digest'))}",
            f"- safety pack: {_text(pack.get('pack_id'))}, digest {_short(pack.get('digest'))}, "
            f"{_text(pack.get('ratification'))}"]


# Readers of a JSON file cannot trust its types: these keep rendering total.

def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _raw(value: object) -> str:
    return value if isinstance(value, str) else "(missing)" if value is None else str(value)


def _text(value: object) -> str:
    """A value as plain Markdown text: escapes shown (records.printable), inline markup backslash-escaped.

    The harness's own words (a verdict, a count, the safety summary) come out
    as they are; anything a tampered report put there is shown, not obeyed.
    """
    text = MARKUP.sub(r"\\\g<0>", printable(_raw(value)))
    return "\\" + text if text[:1] in ("-", "+", "=") else text


MARKUP = re.compile(r"[\\`*\[\]<>|~#]")  # what CommonMark may read as inline markup or a heading


def _short(value: object) -> str:
    return _text(_raw(value)[:SHORT])


def _code(value: object) -> str:
    """``value`` as one inline code span that no text inside it can end early.

    Line breaks are shown as backslash escapes so a value stays on its line,
    and so is every other character a terminal or a renderer would obey
    (records.printable). The span is fenced with one backtick more than the
    longest run inside it (the CommonMark rule), with a space of padding
    where the text touches a backtick.
    """
    text = printable(_raw(value).replace("\r", "\\r").replace("\n", "\\n"))
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
