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
from core.run.records import RecordError, action_identity, shown
from core.run.seal import SealError, load_report, verify

FORMAT = "harness-report/1"
GATING_FIELDS = ("caps", "fail_open_classes", "taxonomy_version")
UNVERIFIED = "unverified"
SHORT = 12  # hex digits a reader needs to tell identifiers apart


class ReportError(ValueError):
    """A report cannot be built or read from what was given; the message says why."""


# --- building ----------------------------------------------------------------------------


def build_report(recorder: Recorder, *, gating: dict, safety: dict) -> dict:
    """The closed run as one unsealed, JSON-ready report (seal it with seal.seal).

    ``gating`` says how actions were gated: the taxonomy version, the caps
    per class and the classes configured to fail open. Replay needs the
    version to re-decide the run under the same table. ``safety`` is the
    safety check's verdict (SafetyVerdict.to_dict()).

    An open run is refused: it could still change after its report is sealed.
    """
    if recorder.closed is None:
        raise ReportError("the run is still open: finish or abort it before writing its report")
    _require_gating(gating)
    if not isinstance(safety, dict):
        raise ReportError("safety must be the safety verdict as a JSON object")
    snapshot = recorder.snapshot()
    report = {"format": FORMAT, **snapshot, "gating": copy.deepcopy(gating), "safety": copy.deepcopy(safety)}
    report["findings"] = with_verdicts(snapshot["findings"], snapshot.get("verdicts", []))
    try:
        canonical_bytes(report)
    except CanonError as exc:
        raise ReportError(f"the report has no canonical JSON form: {exc}") from None
    return report


def _require_gating(gating: object) -> None:
    if not isinstance(gating, dict) or set(gating) != set(GATING_FIELDS):
        raise ReportError(f"gating must be an object with exactly the fields {', '.join(GATING_FIELDS)}")
    version = gating["taxonomy_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ReportError(f"gating taxonomy_version must be a positive integer, got {shown(version)}")


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


# --- rendering ---------------------------------------------------------------------------


def render_markdown(sealed: object) -> str:
    """The report a person reads, from the sealed JSON alone: the answers first, then the evidence.

    Raises SealError or ReportError when ``sealed`` is not a sealed harness report.
    """
    verification = verify(sealed)  # raises SealError for anything that is not a sealed report
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
    """Each action a review decided on: when it was turned away, the decision, and when it ran."""
    events = [event for event in _list(sealed.get("events")) if event.get("kind") == "action"]
    admitted = [(event.get("seq"), event.get("id")) for event in events if event.get("status") == "admitted"]
    refused = [(event.get("seq"), _identity(event.get("payload"))) for event in events
               if event.get("status") == "refused"]
    lines = ["## Reviewed actions", ""]
    for review in _list(sealed.get("reviews")):
        subject = review.get("subject_id")
        held = [seq for seq, identity in refused if identity == subject]
        ran = [seq for seq, identity in admitted if identity == subject]
        if not held and not ran:
            continue  # a review of a finding, not of an action
        story = [f"refused at event {_text(seq)}" for seq in held]
        story.append(f"{_text(review.get('decision'))} by {_code(review.get('reviewer'))} "
                     f"in review {_short(review.get('review_id'))}")
        story += [f"admitted at event {_text(seq)}" for seq in ran] or ["never admitted"]
        lines.append(f"- {_code(subject)}: {', then '.join(story)}")
    return lines if len(lines) > 2 else lines + ["- none"]


def _identity(payload: object) -> str | None:
    """The action identity a refused action payload asked for, or None if it named none."""
    payload = _dict(payload)
    try:
        return action_identity(payload.get("tool"), payload.get("destination"))
    except RecordError:
        return None


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
    return ["## Seal", "", f"- algorithm: {seal['algorithm']}", f"- events: {seal['events']}",
            f"- head: {_text(seal['head'])}", f"- body: {_text(seal['body'])}"]


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
    return 0 if verify(sealed).ok else 1


if __name__ == "__main__":
    sys.exit(main())
