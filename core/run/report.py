"""Report: the run as one JSON document, and the Markdown a person reads.

``build_report`` gathers a closed run into one JSON-ready dict: the recorder's
snapshot (run, policy, stage, how it closed, every event with its payload,
every store), how actions were gated, what the safety check said, and each
finding with the verdict verification gave it. seal.py then chains and seals
that dict; the sealed JSON is the artifact.

``render_markdown`` writes the human-readable report from the sealed JSON
alone, with no recorder and no other file. That is the point: anyone holding
the JSON can check its seal and read the same report, long after the run and
its process are gone. It verifies the seal first and says at the top whether
the report is intact, so a rendered copy of an altered report cannot pass for
a good one.

Much of a report's text was written outside the harness: page content in
quotes and destinations, model text in refusal reasons, operator text in
claims. The renderer shows every such value as a code span, so Markdown never
reads it as markup (a page's ``<b>`` stays text, a model's link stays inert).

    python3 -m core.run.report render PATH
"""

from __future__ import annotations

import copy
import re
import sys

from core.run.canon import CanonError, canonical_bytes
from core.run.commandline import OneLineParser
from core.run.recorder import Recorder
from core.run.records import shown
from core.run.seal import SealError, Verification, load_report, seal, verify_chain

FORMAT = "harness-report/2"
UNVERIFIED = "unverified"
SHORT = 12  # hex digits a reader needs to tell identifiers apart
SETTING_FIELDS = ("gating", "taxonomy", "safety_pack")  # what the run was made under, besides its policy


class ReportError(ValueError):
    """A report cannot be built or read from what was given; the message says why."""


# --- building ----------------------------------------------------------------------------


def build_report(recorder: Recorder, *, setting: dict, safety: dict) -> dict:
    """The closed run as one unsealed, JSON-ready report (seal it with seal.seal).

    ``setting`` says what the run was made under besides its policy:
    ``gating`` (the taxonomy version, caps and fail-open classes),
    ``taxonomy`` (that table's version and digest) and ``safety_pack`` (its
    id, digest and ratification state, ``ratified`` or ``unratified
    (override)``). Replay and verify rebuild the door from them. ``safety``
    is the safety check's verdict (SafetyVerdict.to_dict()).

    An open run is refused: it could still change after its report is sealed.
    """
    if recorder.closed is None:
        raise ReportError("the run is still open: finish or abort it before writing its report")
    if not isinstance(setting, dict) or set(setting) != set(SETTING_FIELDS):
        raise ReportError(f"setting must be an object with exactly the fields {', '.join(SETTING_FIELDS)}")
    if not isinstance(safety, dict):
        raise ReportError("safety must be the safety verdict as a JSON object")
    snapshot = recorder.snapshot()
    report = {"format": FORMAT, **snapshot, **copy.deepcopy(setting), "safety": copy.deepcopy(safety)}
    report["findings"] = with_verdicts(snapshot["findings"], snapshot.get("verdicts", []))
    try:
        canonical_bytes(report)
    except CanonError as exc:
        raise ReportError(f"the report has no canonical JSON form: {exc}") from None
    return report


def seal_run(recorder: Recorder, pack) -> dict:
    """A closed run's sealed report: judged against the safety ``pack`` under the taxonomy its gate used.

    The report records what it was made under (the gating, the taxonomy's
    version and digest, the pack's id, digest and ratification state), so
    that verify and replay can rebuild its door and judge it by its own rules.
    """
    from core.safety import verdict_for  # lesson 10's check; the report carries its verdict

    gating = recorder.parts["gating"]
    tools = {tool.tool_id: tool.activity for tool in recorder.policy.tools}
    safety = verdict_for(recorder.snapshot(), tools, pack, gating.table)
    setting = {"gating": gating.snapshot(), "taxonomy": {"version": gating.table.version, "digest": gating.table.digest},
               "safety_pack": pack.summary()}
    return seal(build_report(recorder, setting=setting, safety=safety), recorder.event_bytes())


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


# --- verifying everything a report says ---------------------------------------------------


def derived_sections(report: dict) -> dict:
    """Every section of ``report`` that comes from its ledger, derived again from the ledger alone.

    A fresh door, rebuilt from the report's run, policy and gating under the
    taxonomy version it was sealed with, is asked every question of the
    ledger again (doors.redo); the sections are then built from that door
    exactly as the run built them, and the safety check runs again under
    the same pack. Raises ReportError when the setting cannot be rebuilt.
    """
    from core.run.doors import DoorError, redo  # doors.py builds on every module, this one included
    from core.safety import SafetyPackError, safety_of

    try:
        door = redo(report)
        safety = safety_of(door, report)
    except (DoorError, SafetyPackError) as exc:
        raise ReportError(f"the report's sections cannot be derived again: {exc}") from None
    if door.closed is None:
        raise ReportError("the report's ledger never closes the run")
    fresh = build_report(door, setting={key: report.get(key) for key in SETTING_FIELDS}, safety=safety)
    return {key: value for key, value in fresh.items() if key not in ("events", *SETTING_FIELDS)}


def verify_report(report: object) -> Verification:
    """The chain and the seal (seal.verify_chain), then every section the ledger derives.

    A report whose derived sections were edited and then resealed has a
    valid chain; it is caught here, and the first section that disagrees is
    named. Raises SealError or ReportError when the input is not a sealed
    harness report.
    """
    verification = verify_chain(report)
    if not verification.ok:
        return verification
    if report.get("format") != FORMAT:
        raise ReportError(f"not a harness report: format is {shown(report.get('format'))}, not {FORMAT}")
    fresh = derived_sections(report)
    for section in sorted(set(fresh) | (set(report) - {"events", "seal", *SETTING_FIELDS})):
        if report.get(section) != fresh.get(section):
            return Verification(False, None, f"altered: the section {section!r} is not what the ledger "
                                             "derives (edited, then resealed?)", section)
    return verification


# --- rendering ---------------------------------------------------------------------------


def render_markdown(sealed: object) -> str:
    """The report a person reads, from the sealed JSON alone: the answers first, then the evidence.

    Raises SealError or ReportError when ``sealed`` is not a sealed harness report.
    """
    verification = verify_report(sealed)  # raises SealError or ReportError for what is not a sealed report
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
    from core.run.drive import subject_of  # the one way to name an exact act from a payload

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
    return ["## Seal", "", f"- algorithm: {seal['algorithm']}", f"- events: {seal['events']}",
            f"- head: {_text(seal['head'])}", f"- chain: {_text(seal['chain'])}", f"- body: {_text(seal['body'])}",
            f"- taxonomy: version {_text(taxonomy.get('version'))}, digest {_short(taxonomy.get('digest'))}",
            f"- safety pack: {_text(pack.get('pack_id'))}, digest {_short(pack.get('digest'))}, "
            f"{_text(pack.get('ratification'))}"]


# Readers of a JSON file cannot trust its types: these keep rendering total.

def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(value: object) -> str:
    return value if isinstance(value, str) else "(missing)" if value is None else str(value)


def _short(value: object) -> str:
    return _text(value)[:SHORT]


def _code(value: object) -> str:
    """``value`` as one inline code span that no text inside it can end early.

    Line breaks are shown as backslash escapes so a value stays on its line.
    The span is fenced with one backtick more than the longest run inside it
    (the CommonMark rule), with a space of padding where the text touches a
    backtick.
    """
    text = _text(value).replace("\r", "\\r").replace("\n", "\\n")
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# --- the command line --------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Print the Markdown report; exit 1 when its seal does not hold, 2 when it is not a report."""
    parser = OneLineParser("report", prog="python3 -m core.run.report",
                           description="Render a sealed report as Markdown.")
    parser.add_argument("command", choices=["render"], help="render: print the report as Markdown")
    parser.add_argument("path", metavar="PATH", help="the sealed report (JSON)")
    args = parser.parse_args(argv)
    try:
        sealed = load_report(args.path)
        text = render_markdown(sealed)
    except (SealError, ReportError) as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0 if verify_report(sealed).ok else 1


if __name__ == "__main__":
    sys.exit(main())
