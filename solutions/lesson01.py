"""Lesson 1, worked answer: questions about a sealed report, from its JSON alone.

Every answer comes from the report itself: the run section, the ledger
(``events``, in order) and the stores the ledger filled (``findings``,
``reviews``). Nothing here runs the harness or opens the lab, which is the
point of a sealed report: anyone holding the file can answer these questions.
"""

FIRST_STAGE = "authorize"  # every run starts here, before any event is recorded


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
    current = FIRST_STAGE
    for event in report["events"]:
        if current == stage:
            return event["seq"]
        if event["kind"] == "transition" and event["status"] == "admitted":
            current = event["id"].partition(" -> ")[2]
    return None
