"""Lesson 1, worked answer: four sections derived again, and the first that disagrees.

Everything comes from ``report["events"]``: the door admitted or refused
each question, and an admitted event keeps the payload it was asked with, so
a reader can redo the sums. A refused event changes nothing but the count of
refusals. The verdicts are not written in the ledger at all (a verdict event
names its evidence, not its conclusion), so they are judged again, by the
rule verification uses, from the captures the ledger holds.

What this cannot do is tell a genuine ledger from one rewritten and fed
through a fresh door: that ledger's sections agree with it too. Only a head
kept elsewhere tells them apart (``seal verify --head``, lesson 11's log).
"""

# student writes: begin
SECTIONS = ("closed", "counts", "findings", "stage")  # seal verify's order
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


def admitted(report: dict, kind: str) -> list[dict]:
    """The admitted events of ``kind``, in ledger order."""
    return [event for event in report["events"]
            if event["kind"] == kind and event["status"] == "admitted"]


SERVER_ERROR = 500  # a capture from here up answered no question


def judge(expect: str, confirming: dict | None, control: dict | None) -> str:
    """The verdict two captures (their payloads) support for ``expect``, in order."""
    if confirming is None or confirming["status"] >= SERVER_ERROR:
        return "inconclusive"
    if expect not in confirming["body"]:
        return "refuted"
    if control is None or control["status"] >= SERVER_ERROR:
        return "inconclusive"
    if expect in control["body"]:
        return "inconclusive"
    return "confirmed"


def derive_sections(report: dict) -> dict:
    """closed, counts, findings and stage, from the report's events alone."""
    events = report["events"]
    refused = sum(1 for event in events if event["status"] == "refused")
    counts = {"admitted": len(events) - refused, "refusals": refused}

    stage = FIRST_STAGE
    for move in admitted(report, "transition"):  # a refused move moves nothing
        stage = move["payload"]["to"]

    closed = None
    for close in admitted(report, "close"):
        closed = {"how": close["payload"]["how"],
                  "reason": close["payload"]["reason"], "seq": close["seq"]}

    captures = {event["id"]: event["payload"]
                for event in admitted(report, "capture")}
    verdicts = {}
    for event in admitted(report, "verdict"):
        payload = event["payload"]
        confirming = captures.get(payload["confirming_capture_id"])  # "": none
        control = captures.get(payload["control_capture_id"])
        verdicts[payload["finding_id"]] = judge(payload["expect"], confirming,
                                                control)
    findings = []
    for event in admitted(report, "finding"):
        payload = event["payload"]
        findings.append({"finding_id": event["id"],
                         "capture_id": payload["capture_id"],
                         "quote": payload["quote"], "claim": payload["claim"],
                         "verdict": verdicts.get(event["id"], "unverified")})

    return {"closed": closed, "counts": counts, "findings": findings,
            "stage": stage}


def first_disagreeing_section(report: dict) -> str | None:
    """The first of SECTIONS the report states otherwise than its ledger."""
    derived = derive_sections(report)
    written = {section: report.get(section) for section in SECTIONS}
    written["findings"] = [{field: finding.get(field) for field in FINDING_FIELDS}
                           for finding in report.get("findings", [])]
    for section in SECTIONS:
        if written[section] != derived[section]:
            return section
    return None
# student writes: end
