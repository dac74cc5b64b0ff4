"""Wrong: hands the work to the reference, imported under another spelling.

``importlib.import_module`` is not an ``import`` statement, so a check that
reads the file's imports does not see it; the answers are the reference's own.
The check makes the reference unavailable to the student's file while it
runs, however it is imported.

Kind: reads the reference
Fails with: core.run.seal is unavailable while the check runs
"""

import importlib


def first_altered_event(report: dict) -> int | None:
    """The seq of the first event the chain says was altered, or None if it holds."""
    return importlib.import_module("core.run." + "seal").verify_chain(report).seq


def matches_kept_head(report: dict, kept_head: str) -> bool:
    """True when the head ``report`` hashes to is ``kept_head``, whatever its seal claims."""
    verify = importlib.import_module("core.run." + "rederive").verify
    return verify(report).ok and report["seal"]["head"] == kept_head
