"""Wrong: takes the committed report as the truth, and names the first section that differs from it.

Kind: reads the reference
Fails with: data is unavailable while the check runs
"""

SECTIONS = ("closed", "counts", "findings", "stage")
FINDING_FIELDS = ("finding_id", "capture_id", "quote", "claim", "verdict")
FIRST_STAGE = "authorize"


import json
from pathlib import Path

COMMITTED = Path(__file__).resolve().parents[2] / "data" / "course" / "report.json"


def derive_sections(report: dict) -> dict:
    """The committed report's sections, as the truth to compare with."""
    truth = json.loads(COMMITTED.read_text(encoding="utf-8"))
    findings = [{field: f[field] for field in FINDING_FIELDS} for f in truth["findings"]]
    return {"closed": truth["closed"], "counts": truth["counts"], "findings": findings, "stage": truth["stage"]}


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
