"""Replay: decide a sealed run again and list every decision that comes out differently.

The seal (lesson 9) proves a report was not edited. It does not prove the
decisions in it were right: a buggy or bent door would seal its mistakes just
as faithfully. Replay checks the decisions themselves. Every event kept the
payload it was asked with, so a fresh door, built from the report's own run,
policy and gating, can be asked the same questions in the same order:

* a record event: its payload goes to ``record`` again;
* a stage move: ``advance`` to the stage it asked for;
* a close: ``close`` with the same ending and reason.

Each answer is compared with the sealed one (status, id and reason). The
gating names the taxonomy version the run was sealed with, and the door is
built under that version's table (taxonomy.carried_taxonomy), never today's:
a report is judged by the rules it ran under. Replaying it under another
version is how one sees what a change of rules would have changed.

Some refusals have nothing to ask again: a refusal a caller wrote for its own
reasons (a model reply that did not parse), a payload with no JSON form, a
kind the door does not know. Those are copied into the fresh ledger as they
stand, so the sequence numbers stay in step; an *admitted* event of that sort
cannot be explained, and shows as a divergence.

    python3 -m core.audit.replay PATH
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from core.run.canon import CanonError, digest
from core.run.commandline import OneLineParser
from core.run.policy import Policy, PolicyError
from core.run.recorder import CLOSE_KIND, UNREPRESENTABLE, Recorder
from core.run.records import RecordError, Run, shown
from core.run.seal import SealError, load_report, verify
from core.run.stages import TRANSITION_KIND

# Builds the door a run ran through, from the report's run, policy and gating section.
DoorFactory = Callable[[Run, Policy, dict], Recorder]

RUN_FIELDS = ("policy_digest", "run_id", "world_digest")


class ReplayError(ValueError):
    """The report's run, policy or gating cannot be rebuilt into a door; the message says why."""


@dataclass(frozen=True)
class Decision:
    """What the door answered to one question: admitted with an id, or refused with a reason."""

    status: str
    id: str
    reason: str

    def __str__(self) -> str:
        if self.status == "admitted":
            return f"admitted {self.id!r}"
        return f"{self.status}: {self.reason}"


@dataclass(frozen=True)
class Divergence:
    """One event whose replayed decision differs from the sealed one."""

    seq: int
    kind: str
    sealed: Decision
    replayed: Decision

    def describe(self) -> str:
        return f"event {self.seq} ({self.kind}): the report says {self.sealed}; the replay decided {self.replayed}"


def replay(report: dict, make_recorder: DoorFactory) -> list[Divergence]:
    """Every divergence between the sealed decisions of ``report`` and a fresh door's, in ledger order.

    ``report`` is a sealed report (check it with seal.verify first: replay
    trusts the ledger's order and payloads, not its decisions).
    ``make_recorder(run, policy, gating)`` builds a staged door from the
    report's run, policy and gating section, under the taxonomy table that
    ``gating["taxonomy_version"]`` names; ``harness_door`` builds the
    reference run's.
    """
    run, policy, gating = _setting(report)
    try:
        door = make_recorder(run, policy, gating)
    except ValueError as exc:  # the policy or gating does not hold under the sealed rules
        raise ReplayError(f"cannot rebuild the run's door: {exc}") from None
    for event in report["events"]:
        _ask_again(door, event)  # each question adds exactly one event to the fresh ledger
    divergences = []
    for event, fresh in zip(report["events"], door.events):
        sealed, replayed = _decision(event), _decision(fresh)
        if replayed != sealed:
            divergences.append(Divergence(event.get("seq"), event.get("kind"), sealed, replayed))
    return divergences


def _setting(report: dict) -> tuple[Run, Policy, dict]:
    """The run, policy and gating section a report was made under, each checked."""
    raw_run, gating = report.get("run"), report.get("gating")
    if not isinstance(raw_run, dict) or set(raw_run) != set(RUN_FIELDS):
        raise ReplayError(f"the report's run must have exactly the fields {', '.join(RUN_FIELDS)}")
    if not isinstance(gating, dict):
        raise ReplayError("the report has no gating section to rebuild its door with")
    try:
        run = Run(**raw_run)
        policy = Policy.from_dict(report.get("policy"))
        policy_digest = digest(policy.snapshot())
    except (RecordError, PolicyError, CanonError) as exc:
        raise ReplayError(f"the report's run or policy cannot be rebuilt: {exc}") from None
    if policy_digest != run.policy_digest:
        raise ReplayError("the report's policy is not the one its run identifier was made from")
    return run, policy, gating


def _ask_again(door: Recorder, event: dict) -> None:
    """Ask ``door`` the question ``event`` recorded; the door writes its own answer into its ledger."""
    kind, payload = event.get("kind"), event.get("payload")
    if kind == TRANSITION_KIND and _has_exactly(payload, "to"):
        door.advance(payload["to"])
    elif kind == CLOSE_KIND and _has_exactly(payload, "how", "reason"):
        door.close(payload["how"], payload["reason"])
    elif kind in door.record_kinds and _was_asked(payload):
        door.record(kind, payload)
    else:
        _copy_refusal(door, event)


def _has_exactly(payload: object, *fields: str) -> bool:
    return isinstance(payload, dict) and set(payload) == set(fields)


def _was_asked(payload: object) -> bool:
    """Did the door get this payload as it stands? Not so for none, or for a note of one with no JSON form."""
    return payload is not None and not (isinstance(payload, dict) and list(payload) == [UNREPRESENTABLE])


def _copy_refusal(door: Recorder, event: dict) -> None:
    """Write a refusal there is nothing to ask again about into the fresh ledger, as it stands."""
    kind, reason = event.get("kind"), event.get("reason")
    if event.get("status") == "refused" and isinstance(reason, str) and reason.strip():
        door.refuse(kind, reason)
    else:
        door.refuse(kind, f"replay cannot ask this {shown(kind)} event again: it kept no payload to ask with")


def _decision(event: dict) -> Decision:
    return Decision(event.get("status"), event.get("id"), event.get("reason"))


# --- the command line ------------------------------------------------------------------


def harness_door(run: Run, policy: Policy, gating: dict) -> Recorder:
    """The reference run's door, gated under the taxonomy version the report's gating names.

    Gating.from_dict loads that version's table with taxonomy.carried_taxonomy,
    which refuses a version that is not carried or a carried table that has
    changed since it shipped. The harness is imported here, not at the top:
    replay() works with any door factory, and only the command line needs
    the reference harness.
    """
    from core.run.harness import Gating, make_recorder

    return make_recorder(run, policy, Gating.from_dict(gating))


def main(argv: list[str] | None = None) -> int:
    """Verify the seal, then replay: exit 0 when every decision agrees, 1 when not, 2 on bad input."""
    parser = OneLineParser("replay", prog="python3 -m core.audit.replay",
                           description="Re-decide every event of a sealed report and list the divergences.")
    parser.add_argument("path", metavar="PATH", help="the sealed report (JSON)")
    args = parser.parse_args(argv)
    try:
        report = load_report(args.path)
        verification = verify(report)
    except SealError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    if not verification.ok:
        print(f"not replayed, the seal does not hold: {verification.message}")
        return 1
    try:
        divergences = replay(report, harness_door)
    except ReplayError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    count = len(report["events"])
    if not divergences:
        print(f"replayed {count} events: every decision agrees")
        return 0
    print(f"replayed {count} events: decisions diverge at {len(divergences)} of them")
    for divergence in divergences:
        print(divergence.describe())
    return 1


if __name__ == "__main__":
    sys.exit(main())
