"""The run's way in: the check core calls, by the name the operator's configuration gives.

``core`` is the standard library only, so it cannot check a signature: the
configuration names this function under ``plugins.review_signature``
(``"signoff.plugin:check_decision"``), and the run loads it by that name, as
it loads the lab's adapter. Without it, no signed decision is admitted.
Its answer is plain data, so core needs nothing of this package's types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from signoff import decision
from tlog.note import NoteError


def check_decision(signed: str, run_id: str, held: Mapping[str, str],
                   approvers: Mapping[str, Sequence[str]]) -> dict:
    """``{"admitted": True, "subject_id", "decision", "reason", "signed_by"}``, or
    ``{"admitted": False, "code", "reason"}`` with one of decision.CODES."""
    try:
        found = decision.check(signed, run_id, held, approvers)
    except decision.DecisionError as exc:
        return {"admitted": False, "code": exc.code, "reason": exc.reason}
    except NoteError as exc:  # a verifier key in the configuration that cannot be read
        return {"admitted": False, "code": "decision_unknown_key", "reason": f"an approver key is unreadable: {exc}"}
    return {"admitted": True, "subject_id": found.act, "decision": found.decision, "reason": found.reason,
            "signed_by": found.signed_by}
