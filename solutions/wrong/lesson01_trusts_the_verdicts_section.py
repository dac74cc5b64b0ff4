"""Wrong: takes each finding's verdict from the report's verdicts section instead of judging it again.

The verdicts section is another part of the same report: edit a verdict
there and in findings alike, and the two agree with each other while neither
agrees with the ledger's evidence.

Kind: author's own
Fails with: judged again from its admitted verdict event
Passed the check before lesson 1 was rebuilt: yes (with that check's five functions, kept below)
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


def admitted(report: dict, kind: str) -> list[dict]:
    return [event for event in report["events"] if event["kind"] == kind and event["status"] == "admitted"]


def derive_sections(report: dict) -> dict:
    """closed, counts and stage from the events; each verdict as the verdicts section records it."""
    events = report["events"]
    refused = sum(1 for event in events if event["status"] == "refused")
    stage = FIRST_STAGE
    for move in admitted(report, "transition"):
        stage = move["payload"]["to"]
    closes = admitted(report, "close")
    closed = {"how": closes[0]["payload"]["how"], "reason": closes[0]["payload"]["reason"],
              "seq": closes[0]["seq"]} if closes else None
    recorded = {verdict["finding_id"]: verdict["verdict"] for verdict in report.get("verdicts", [])}
    findings = [{"finding_id": event["id"], "capture_id": event["payload"]["capture_id"],
                 "quote": event["payload"]["quote"], "claim": event["payload"]["claim"],
                 "verdict": recorded.get(event["id"], "unverified")} for event in admitted(report, "finding")]
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


# The old exercise's five functions, kept from last time: the check before lesson 1 was rebuilt
# asked only for these, and they answer it.


def run_id(report: dict) -> str:
    """The run identifier: a digest of the policy snapshot and the world inputs."""
    return report["run"]["run_id"]


def refusal_reasons(report: dict) -> list[str]:
    """The reason of every refused event, in ledger order."""
    return [event["reason"] for event in report["events"]
            if event["status"] == "refused"]


def findings_by_verdict(report: dict) -> dict[str, list[str]]:
    """Each verdict that occurs -> the claims of the findings that received it.

    Claims keep the order of ``report["findings"]``.
    """
    grouped: dict[str, list[str]] = {}
    for finding in report["findings"]:
        grouped.setdefault(finding["verdict"], []).append(finding["claim"])
    return grouped


def consequential_acts(report: dict) -> list[tuple[str, str, str]]:
    """(exact act, reviewer, decision) for every act a reviewer decided on, in order.

    The gate holds a consequential act until a review of that exact act (its
    identity and the digest of its arguments) is recorded, so the reviews
    whose subject is an act are the consequential acts. A review of a finding
    names a finding identifier, which has no " -> " in it.
    """
    return [(review["subject_id"], review["reviewer"], review["decision"])
            for review in report["reviews"] if " -> " in review["subject_id"]]


def first_event_in_stage(report: dict, stage: str) -> int | None:
    """The ``seq`` of the first event recorded while the run was in ``stage``, or None.

    The run starts in ``authorize``; an admitted transition ``"<from> -> <to>"``
    is recorded in the stage it leaves and moves the run to ``<to>``.
    """
    current = "authorize"
    for event in report["events"]:
        if current == stage:
            return event["seq"]
        if event["kind"] == "transition" and event["status"] == "admitted":
            current = event["id"].partition(" -> ")[2]
    return None
