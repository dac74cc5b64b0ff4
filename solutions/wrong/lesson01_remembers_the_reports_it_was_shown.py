"""Wrong: remembers each report the first time it sees it, and compares later copies with that memory.

The check's process is the same for every call, so a file can keep what it
was shown. Sections copied from a report the first time it arrives are
right for a report the harness sealed; a later copy of the same run with a
section edited could then be told apart by comparing it with that memory,
without deriving anything. The check shows each run it edits only once,
edited, so there is nothing to remember.

Kind: author's own
Fails with: never copied from the report
"""

CHECKED = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
SEEN: dict[str, dict] = {}


def _sections(report: dict) -> dict:
    findings = [{field: f.get(field) for field in FINDING_FIELDS} for f in report.get("findings", [])]
    return {"closed": report.get("closed"), "counts": report.get("counts"), "findings": findings,
            "stage": report.get("stage")}


def _key(report: dict) -> str:
    return report["run"]["run_id"] + report["events"][-1].get("chain", "")


def derive_sections(report: dict) -> dict:
    """What this run's report said the first time it was shown."""
    return SEEN.setdefault(_key(report), _sections(report))


def first_disagreeing_section(report: dict) -> str | None:
    """The first section that differs from what the first copy of this run said."""
    remembered, written = derive_sections(report), _sections(report)
    for section in CHECKED:
        if written[section] != remembered[section]:
            return section
    return None
