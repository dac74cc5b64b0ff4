"""Wrong: "derives" each section by reading it from the report, so nothing can disagree.

On every genuine report its sections are exactly right, which is why the
check before lesson 1 was rebuilt, which only read reports as sealed, would
have had nothing to say against it.

Kind: author's own
Fails with: never copied from the report
Passed the check before lesson 1 was rebuilt: yes (with that check's five functions, kept below)
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


def derive_sections(report: dict) -> dict:
    """The report's own four sections."""
    findings = [{field: f.get(field) for field in FINDING_FIELDS} for f in report.get("findings", [])]
    return {"closed": report.get("closed"), "counts": report.get("counts"), "findings": findings,
            "stage": report.get("stage")}


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
