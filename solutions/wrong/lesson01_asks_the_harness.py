"""Wrong: hands the report to the harness's own verification and reads the section it names.

Kind: reads the reference
Fails with: is unavailable while the check runs: it is the harness that wrote the report
"""

CHECKED = ("closed", "counts", "findings", "stage")


def derive_sections(report: dict) -> dict:
    """The sections a fresh door derives from the ledger."""
    from core.run.rederive import redo
    from core.run.report import ledger_sections

    sections = ledger_sections(redo(report), {})
    findings = [{field: f[field] for field in ("finding_id", "capture_id", "quote", "claim", "verdict")}
                for f in sections.get("findings", [])]
    return {"closed": sections["closed"], "counts": sections["counts"], "findings": findings,
            "stage": sections["stage"]}


def first_disagreeing_section(report: dict) -> str | None:
    """The section seal verify names, if it is one of the four."""
    from core.run.rederive import verify
    from core.run.seal import reseal

    section = verify(reseal(report)).section
    return section if section in CHECKED else None
