"""Wrong: the committed report's four sections, typed in, and compared with whatever report it is given.

Kind: hard-codes the demo
Fails with: every event is admitted or refused, by its status
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


REFERENCE = {
    "closed": {"how": "finished", "reason": "every stage ran: work, verification, review and report", "seq": 139},
    "counts": {"admitted": 127, "refusals": 12},
    "stage": "report",
}


def derive_sections(report: dict) -> dict:
    """The reference run's sections; its findings read off the report."""
    findings = [{field: finding[field] for field in FINDING_FIELDS} for finding in report["findings"]]
    return {**REFERENCE, "findings": findings}


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
