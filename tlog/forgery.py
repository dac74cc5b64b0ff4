"""The forger's rewrite: the attack lesson 9's seal cannot catch, made here so that the log can.

Someone who holds a sealed report and the course's code wants the run to
look cleaner than it was. They delete three stories from its ledger:

* the refusal of the injected instruction (each proposal aimed at another origin);
* the round in which a probe was held and the engagement lead rejected it;
* the refuted finding, with the acts that verified it and its verdict.

Then they feed what is left through a fresh final door (core's rederive.redo
asks it every question again, so every sequence number, store and count is
the door's own), build the report from that door exactly as a run does, and
seal it. The result keeps the genuine run identifier, and ``seal verify``
(chain, seal, every derived section), replay and the safety check all pass
it: everything in the file agrees with everything else, because every part
of it was made to. Only its head differs from the genuine report's. That is
what a log that published the genuine head catches.

``approve_the_rejection`` is the same attack told another way: the
engagement lead's rejection of the probe rewritten as an approval, and the
ledger fed through a fresh door, which now admits the probe.
"""

from __future__ import annotations

from core.run.rederive import SECTIONS, given_by, redo
from core.run.report import build_report
from core.run.seal import seal, unchained


class ForgeryError(ValueError):
    """The report does not hold the three stories the forger deletes."""


def stories(report: dict) -> dict[str, list[int]]:
    """The sequence numbers of the events each story holds, found by what they say, not by position."""
    events = report["events"]
    injected = [e["seq"] for e in events if e["kind"] == "proposal" and e["status"] == "refused"
                and "outside the explicit authorized origins" in e["reason"]]
    rejected = [e for e in events if e["kind"] == "review" and e["payload"].get("decision") == "rejected"]
    refuted = [v for v in report.get("verdicts", []) if v.get("verdict") == "refuted"]
    if not injected or len(rejected) != 1 or len(refuted) != 1:
        raise ForgeryError("the report holds no injection refusal, single rejected review and refuted finding")
    at = {e["seq"]: e for e in events}
    # The rejected probe's round: from the selection that chose it to the next selection (not included).
    review = rejected[0]["seq"]
    start = max(seq for seq, e in at.items() if e["kind"] == "selection" and seq < review)
    end = min(seq for seq, e in at.items() if e["kind"] == "selection" and seq > review)
    # The refuted finding: from the finding to its verdict, with everything verification did between.
    finding = next(e["seq"] for e in events if e["kind"] == "finding" and e["id"] == refuted[0]["finding_id"])
    verdict = next(e["seq"] for e in events if e["kind"] == "verdict" and e["id"] == refuted[0]["verdict_id"])
    return {"the injection's refusal": injected, "the held-then-rejected probe": list(range(start, end)),
            "the refuted finding": list(range(finding, verdict + 1))}


def forge(report: dict) -> dict:
    """``report`` without its three stories, its ledger fed through a fresh door, rebuilt and sealed."""
    dropped = {seq for seqs in stories(report).values() for seq in seqs}
    return through_a_fresh_door(report, [unchained(e) for e in report["events"] if e["seq"] not in dropped])


def approve_the_rejection(report: dict) -> dict:
    """``report`` with the engagement lead's rejection rewritten as an approval, rebuilt and sealed."""
    events = [unchained(event) for event in report["events"]]
    rejected = [e for e in events if e["kind"] == "review" and e["payload"].get("decision") == "rejected"]
    if len(rejected) != 1:
        raise ForgeryError("the report holds no single rejected review")
    rejected[0]["payload"] = {**rejected[0]["payload"], "decision": "approved",
                              "reason": "Approved: one GET with this marker is a light probe."}
    return through_a_fresh_door(report, events)


def through_a_fresh_door(report: dict, events: list[dict]) -> dict:
    """A fresh final door asked every question of ``events``, its report built as a run builds it, and sealed."""
    lie = {**report, "events": events}
    door = redo(lie)
    rebuilt = build_report(door, SECTIONS, given_by(lie))
    return seal(rebuilt)
