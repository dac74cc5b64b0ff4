"""Wrong: derives the four sections correctly, then finds every report in order.

Kind: accepts everything
Fails with: a section that disagrees with its ledger is named
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


def admitted(report: dict, kind: str) -> list[dict]:
    """The admitted events of ``kind``, in ledger order."""
    return [event for event in report["events"]
            if event["kind"] == kind and event["status"] == "admitted"]


def judge(expect: str, confirming: str | None, control: str | None) -> str:
    """The verdict two captured texts support for ``expect``, in verification's order."""
    if confirming is None:
        return "inconclusive"
    if expect not in confirming:
        return "refuted"
    if control is None or expect in control:
        return "inconclusive"
    return "confirmed"


def derive_sections(report: dict) -> dict:
    """closed, counts, findings and stage, from the report's events alone."""
    events = report["events"]
    refused = sum(1 for event in events if event["status"] == "refused")
    stage = FIRST_STAGE
    for move in admitted(report, "transition"):  # a refused move leaves the stage
        stage = move["payload"]["to"]
    closes = admitted(report, "close")
    closed = None
    if closes:
        close = closes[0]
        closed = {"how": close["payload"]["how"], "reason": close["payload"]["reason"],
                  "seq": close["seq"]}
    bodies = {event["id"]: event["payload"]["body"] for event in admitted(report, "capture")}
    verdicts = {}
    for event in admitted(report, "verdict"):
        payload = event["payload"]
        confirming = bodies.get(payload["confirming_capture_id"])  # "" names no capture
        control = bodies.get(payload["control_capture_id"])
        verdicts[payload["finding_id"]] = judge(payload["expect"], confirming, control)
    findings = [{"finding_id": event["id"], "capture_id": event["payload"]["capture_id"],
                 "quote": event["payload"]["quote"], "claim": event["payload"]["claim"],
                 "verdict": verdicts.get(event["id"], "unverified")}
                for event in admitted(report, "finding")]
    return {"closed": closed, "counts": {"admitted": len(events) - refused, "refusals": refused},
            "findings": findings, "stage": stage}


def first_disagreeing_section(report: dict) -> str | None:
    """Every report agrees with itself, surely."""
    derive_sections(report)
    return None
