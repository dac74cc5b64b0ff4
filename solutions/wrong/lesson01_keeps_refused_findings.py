"""Wrong: counts a refused event in the stores too: a refused finding becomes a finding, a refused move moves.

It reads each event's payload without asking whether the door admitted it.
The reference run has no refused finding, verdict or move, so on that report
it is right; on a run whose plan quotes a capture loosely, or a run whose
operator tried a move the table does not list, it is not.

Kind: skips the edge
Fails with: a refused finding is not in the report
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


def of_kind(report: dict, kind: str) -> list[dict]:
    """Every event of ``kind`` that has a payload, admitted or not."""
    return [event for event in report["events"] if event["kind"] == kind and event["payload"]]


def judge(expect: str, confirming: str | None, control: str | None) -> str:
    if confirming is None:
        return "inconclusive"
    if expect not in confirming:
        return "refuted"
    if control is None or expect in control:
        return "inconclusive"
    return "confirmed"


def derive_sections(report: dict) -> dict:
    """closed, counts, findings and stage, from every event of each kind."""
    events = report["events"]
    refused = sum(1 for event in events if event["status"] == "refused")
    stage = FIRST_STAGE
    for move in of_kind(report, "transition"):
        if move["payload"]["to"] in ("authorize", "observe", "propose", "select", "execute", "verify", "review",
                                     "report"):
            stage = move["payload"]["to"]
    closes = of_kind(report, "close")
    closed = {"how": closes[0]["payload"]["how"], "reason": closes[0]["payload"]["reason"],
              "seq": closes[0]["seq"]} if closes else None
    bodies = {event["id"]: event["payload"]["body"] for event in of_kind(report, "capture")}
    verdicts = {}
    for event in of_kind(report, "verdict"):
        payload = event["payload"]
        verdicts[payload["finding_id"]] = judge(payload["expect"], bodies.get(payload["confirming_capture_id"]),
                                                bodies.get(payload["control_capture_id"]))
    findings = [{"finding_id": event["id"], "capture_id": event["payload"]["capture_id"],
                 "quote": event["payload"]["quote"], "claim": event["payload"]["claim"],
                 "verdict": verdicts.get(event["id"], "unverified")} for event in of_kind(report, "finding")]
    return {"closed": closed, "counts": {"admitted": len(events) - refused, "refusals": refused},
            "findings": findings, "stage": stage}


def first_disagreeing_section(report: dict) -> str | None:
    """The first of SECTIONS whose value in the report is not what its ledger derives."""
    derived = derive_sections(report)
    written = dict(report)
    written["findings"] = [{field: finding.get(field) for field in FINDING_FIELDS}
                           for finding in report.get("findings", [])]
    for section in SECTIONS:
        if written.get(section) != derived[section]:
            return section
    return None
