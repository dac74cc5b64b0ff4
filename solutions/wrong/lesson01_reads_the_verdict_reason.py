"""Wrong: reads each verdict off the words of its reason in the report's sections, never judging the captures.

The reason verification wrote names its verdict one to one ("the confirming
capture ... does not show ..."), so on a report as sealed this gets every
verdict right without reading a single capture. The check asks about copies
whose sections tell the verdicts otherwise and say no reason at all.

Kind: author's own
Fails with: where verification judged it
"""


def _verdict_from_reason(reason: str) -> str:
    if reason.startswith("the confirming capture (HTTP") and "negative control" in reason:
        return "confirmed"
    if reason.startswith("the confirming capture (HTTP") and " does not show " in reason:
        return "refuted"
    return "inconclusive"


def _reasons(report: dict) -> dict:
    said = {}
    for finding in report.get("findings") or []:
        if isinstance(finding, dict) and finding.get("verdict_id"):
            said.setdefault(finding["verdict_id"], finding.get("verdict_reason", ""))
    for verdict in report.get("verdicts") or []:
        if isinstance(verdict, dict) and verdict.get("verdict_id"):
            said[verdict["verdict_id"]] = verdict.get("reason", "")
    return said


def derive_sections(report: dict) -> dict:
    events = report["events"]
    admitted = [e for e in events if e.get("status") == "admitted"]
    counts = {"admitted": len(admitted), "refusals": len(events) - len(admitted)}
    stage, closed = "authorize", None
    for e in admitted:
        if e["kind"] == "transition":
            stage = e["payload"]["to"]
        elif e["kind"] == "close":
            closed = {"how": e["payload"]["how"], "reason": e["payload"]["reason"], "seq": e["seq"]}
    verdict_event = {}
    for e in admitted:
        if e["kind"] == "verdict":
            verdict_event[e["payload"]["finding_id"]] = e["id"]
    reasons = _reasons(report)
    findings = []
    for e in admitted:
        if e["kind"] != "finding":
            continue
        vid = verdict_event.get(e["id"])
        verdict = "unverified" if vid is None else _verdict_from_reason(reasons.get(vid, ""))
        findings.append({"finding_id": e["id"], "capture_id": e["payload"]["capture_id"],
                         "quote": e["payload"]["quote"], "claim": e["payload"]["claim"], "verdict": verdict})
    return {"closed": closed, "counts": counts, "findings": findings, "stage": stage}


FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")


def first_disagreeing_section(report: dict):
    mine = derive_sections(report)
    for section in ("closed", "counts", "findings", "stage"):
        theirs = report.get(section)
        if section == "findings":
            theirs = [{f: x.get(f) for f in FIELDS} for x in theirs or []]
        if theirs != mine[section]:
            return section
    return None
