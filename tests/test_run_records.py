"""Lesson 2 completion suite: records, policy decisions and the single door.

Every test here is one completion sentence of the lesson page (its docstring,
word for word). Helper tests that are not completion sentences live in
tests/test_run_door_properties.py.
"""

from __future__ import annotations

import pytest

from core.run.canon import digest
from core.run.demo_records import build_policy
from core.run.recorder import Recorder
from core.run.records import Capture, RecordError, action_identity, make_capture, make_run

LAB = "https://lab.example/"
BODY = "HTTP/1.1 200 OK\nServer: lab-fixture/1.0\n\n<p>hello</p>\n"


def fresh() -> tuple[Recorder, str]:
    policy = build_policy()
    run = make_run(policy.snapshot(), {"world": "test-run-records"})
    return Recorder(run, policy), run.run_id


def stores(recorder: Recorder) -> dict:
    """The snapshot without the ledger: everything a refusal must leave alone."""
    report = recorder.snapshot()
    return {key: value for key, value in report.items() if key not in ("events", "counts")}


def action(run_id: str, tool: str = "inspect_headers", destination: str = LAB) -> dict:
    return {"run_id": run_id, "tool": tool, "destination": destination, "arguments": {}}


def admit_chain(recorder: Recorder, run_id: str) -> tuple[str, str]:
    """An admitted action and its capture; returns (action_id, capture_id)."""
    action_id = recorder.record("action", action(run_id))["id"]
    answer = recorder.record("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": BODY})
    assert answer["recorded"], answer
    return action_id, answer["id"]


def last_event(recorder: Recorder) -> dict:
    return recorder.events[-1]


def test_action_identity_is_one_normalized_string():
    """An action is named by a single normalized string made of its tool and its canonical destination."""
    assert action_identity("inspect_headers", LAB) == "inspect_headers -> https://lab.example:443/"
    assert action_identity("inspect_headers", "HTTPS://LAB.EXAMPLE:443/a?b=1#top") == (
        "inspect_headers -> https://lab.example:443/a?b=1"
    )
    assert action_identity("inspect_headers", "http://lab.example") == "inspect_headers -> http://lab.example:80/"
    for tool, destination in [("", LAB), ("   ", LAB), ("inspect_headers", ""), ("inspect_headers", "  ")]:
        with pytest.raises(RecordError):
            action_identity(tool, destination)
    recorder, run_id = fresh()
    answer = recorder.record("action", action(run_id, destination="https://Lab.Example./"))
    assert answer == {"recorded": True, "kind": "action", "id": "inspect_headers -> https://lab.example:443/"}
    assert recorder.snapshot()["actions"][0]["destination"] == "https://lab.example:443/"


def test_capture_identity_is_a_digest_of_content_and_run():
    """A capture's identifier is the digest of its own content together with its run, so new content or another run gives a new identifier."""
    run_id = make_run({"p": 1}, {"w": 1}).run_id
    other_run_id = make_run({"p": 1}, {"w": 2}).run_id
    action_id = "inspect_headers -> https://lab.example:443/"
    capture = make_capture(run_id, action_id, 200, BODY)
    assert capture.capture_id == digest({"run_id": run_id, "action_id": action_id, "status": 200, "body": BODY})
    assert make_capture(run_id, action_id, 200, BODY).capture_id == capture.capture_id
    assert make_capture(run_id, action_id, 200, BODY + " ").capture_id != capture.capture_id
    assert make_capture(other_run_id, action_id, 200, BODY).capture_id != capture.capture_id
    with pytest.raises(RecordError, match="capture_id"):
        Capture(run_id, action_id, 200, BODY + "tampered", capture.capture_id)

    recorder, run_id = fresh()
    action_id, capture_id = admit_chain(recorder, run_id)
    assert capture_id == make_capture(run_id, action_id, 200, BODY).capture_id
    forged = {"run_id": run_id, "action_id": action_id, "status": 200, "body": "other", "capture_id": capture_id}
    assert recorder.record("capture", forged)["recorded"] is False
    assert [c["capture_id"] for c in recorder.snapshot()["captures"]] == [capture_id]


def test_undeclared_tool_and_unauthorized_destination_are_refused_with_reasons():
    """A tool missing from the catalogue and a destination outside the authorized origins are each refused with a ledger event that states why."""
    policy = build_policy()
    assert policy.allows_destination("https://other.example/").to_dict() == {
        "allowed": False,
        "reason": "destination https://other.example:443 is outside the explicit authorized origins",
    }
    assert policy.knows_tool("shell").to_dict() == {
        "allowed": False,
        "reason": "tool 'shell' is not declared in the catalogue",
    }
    recorder, run_id = fresh()
    outside = recorder.record("action", action(run_id, destination="https://other.example/"))
    undeclared = recorder.record("action", action(run_id, tool="shell"))
    assert outside == {
        "recorded": False,
        "reason": "destination https://other.example:443 is outside the explicit authorized origins",
    }
    assert undeclared == {"recorded": False, "reason": "tool 'shell' is not declared in the catalogue"}
    assert [(e["seq"], e["kind"], e["status"], e["reason"]) for e in recorder.events] == [
        (1, "action", "refused", outside["reason"]),
        (2, "action", "refused", undeclared["reason"]),
    ]
    assert recorder.snapshot()["actions"] == []


def test_refusal_changes_nothing_and_shares_the_ledger():
    """A refused operation changes no store and has its reason written into the same ledger as the admitted work."""
    recorder, run_id = fresh()
    action_id, _ = admit_chain(recorder, run_id)
    before = stores(recorder)
    refused = recorder.record("action", action(run_id, destination="https://other.example/"))
    refused_id = "inspect_headers -> https://other.example:443/"
    follow_up = recorder.record("capture", {"run_id": run_id, "action_id": refused_id, "status": 200, "body": BODY})
    assert refused["recorded"] is False and follow_up["recorded"] is False
    assert stores(recorder) == before
    assert all(c["action_id"] == action_id for c in recorder.snapshot()["captures"])
    admitted_later = recorder.record("observation", {"run_id": run_id, "field": "server", "value": "lab-fixture/1.0"})
    assert admitted_later["recorded"] is True
    assert [(e["kind"], e["status"]) for e in recorder.events] == [
        ("action", "admitted"),
        ("capture", "admitted"),
        ("action", "refused"),
        ("capture", "refused"),
        ("observation", "admitted"),
    ]
    assert recorder.events[2]["reason"] == refused["reason"]
    assert recorder.snapshot()["counts"] == {"admitted": 3, "refusals": 2}


def test_other_runs_identity_is_refused_first():
    """A payload that carries a different run's identifier is refused before any store is touched."""
    recorder, run_id = fresh()
    action_id, capture_id = admit_chain(recorder, run_id)
    other = make_run(build_policy().snapshot(), {"world": "someone-else"}).run_id
    before = stores(recorder)
    payloads = {
        "observation": {"run_id": other, "field": "server", "value": "x"},
        # Aimed outside the origins too: the run binding answers before the policy is asked.
        "action": {"run_id": other, "tool": "shell", "destination": "https://other.example/", "arguments": {}},
        "capture": {"run_id": other, "action_id": action_id, "status": 200, "body": BODY},
        "outcome": {"run_id": other, "action_id": action_id, "status": "succeeded"},
        "finding": {"run_id": other, "capture_id": capture_id, "quote": "hello", "claim": "c"},
        "review": {"run_id": other, "subject_id": action_id, "decision": "approved", "reviewer": "r", "reason": "ok"},
    }
    for kind, payload in payloads.items():
        assert recorder.record(kind, payload) == {
            "recorded": False,
            "reason": "payload run_id does not belong to this run",
        }, kind
        assert last_event(recorder)["status"] == "refused"
    assert stores(recorder) == before


def test_malformed_payload_is_recorded_not_raised():
    """A malformed payload becomes a recorded refusal instead of an exception escaping the door."""
    recorder, run_id = fresh()
    assert recorder.record("outcome", {"run_id": run_id}) == {
        "recorded": False,
        "reason": "malformed payload: KeyError('action_id')",
    }
    assert recorder.record("action", [run_id]) == {
        "recorded": False,
        "reason": "malformed payload: payload must be an object, got list",
    }
    assert recorder.record("telepathy", {"run_id": run_id}) == {
        "recorded": False,
        "reason": "unknown record kind 'telepathy'",
    }
    odd = [
        ("action", {"run_id": run_id, "tool": "inspect_headers", "destination": LAB, "arguments": "rm -rf"}),
        ("observation", {"run_id": run_id, "field": "f", "value": float("nan")}),
        ("observation", {"run_id": run_id, "field": "f", "value": "\ud800"}),
        ("capture", {"run_id": run_id, "action_id": ["not", "hashable"], "status": 200, "body": ""}),
        ("action", {"run_id": run_id, "tool": "inspect_headers", "destination": LAB, "arguments": {}, "sudo": True}),
        ("action", None),
    ]
    for kind, payload in odd:
        answer = recorder.record(kind, payload)
        assert answer["recorded"] is False and answer["reason"], (kind, payload)
    assert len(recorder.events) == 3 + len(odd)
    assert all(event["status"] == "refused" and event["reason"] for event in recorder.events)
    assert recorder.snapshot()["counts"]["refusals"] == 3 + len(odd)


def test_finding_must_quote_a_held_capture_verbatim():
    """The door refuses a finding whose quote is not found word for word in the capture it cites. A finding can only cite a capture this run holds."""
    recorder, run_id = fresh()
    _, capture_id = admit_chain(recorder, run_id)
    fabricated = {"run_id": run_id, "capture_id": capture_id, "quote": "Server: nginx", "claim": "c"}
    assert recorder.record("finding", fabricated) == {
        "recorded": False,
        "reason": f"finding quote does not occur verbatim in capture '{capture_id}'",
    }
    unknown = "0" * 64
    unheld = {"run_id": run_id, "capture_id": unknown, "quote": "Server: lab-fixture/1.0", "claim": "c"}
    assert recorder.record("finding", unheld) == {
        "recorded": False,
        "reason": f"finding cites capture '{unknown}' that this run does not hold",
    }
    assert recorder.snapshot()["findings"] == []
    genuine = {"run_id": run_id, "capture_id": capture_id, "quote": "Server: lab-fixture/1.0", "claim": "c"}
    answer = recorder.record("finding", genuine)
    assert answer["recorded"] is True
    assert recorder.snapshot()["findings"][0]["capture_id"] == capture_id


def test_settled_outcome_cannot_change():
    """An unresolved outcome can be settled later, but once an action's outcome is settled a second terminal outcome is refused."""
    recorder, run_id = fresh()
    action_id, capture_id = admit_chain(recorder, run_id)

    def outcome(status: str) -> dict:
        return {"run_id": run_id, "action_id": action_id, "status": status, "capture_id": capture_id, "detail": ""}

    assert recorder.record("outcome", {**outcome("unresolved"), "capture_id": "", "detail": "timeout"})["recorded"]
    assert recorder.record("outcome", outcome("succeeded"))["recorded"]
    settled = f"outcome for '{action_id}' is already settled"
    assert recorder.record("outcome", outcome("failed")) == {"recorded": False, "reason": settled}
    assert recorder.record("outcome", outcome("unresolved")) == {"recorded": False, "reason": settled}
    assert [o["status"] for o in recorder.snapshot()["outcomes"]] == ["unresolved", "succeeded"]


def test_capture_or_outcome_for_unauthorized_action_is_refused():
    """The door refuses any capture or outcome that names an action this run did not authorize."""
    recorder, run_id = fresh()
    admit_chain(recorder, run_id)
    before = stores(recorder)
    stranger = "inspect_headers -> https://lab.example:443/admin"
    capture = {"run_id": run_id, "action_id": stranger, "status": 200, "body": BODY}
    outcome = {"run_id": run_id, "action_id": stranger, "status": "succeeded"}
    assert recorder.record("capture", capture) == {
        "recorded": False,
        "reason": f"capture names action '{stranger}' that this run never authorized",
    }
    assert recorder.record("outcome", outcome) == {
        "recorded": False,
        "reason": f"outcome names action '{stranger}' that this run never authorized",
    }
    assert stores(recorder) == before
