"""Doors: each lesson's door, assembled in one place from the rows and guards the lessons add.

A door is data (recorder.py): a table of record kinds and an ordered list of
guards. Each lesson's module contributes its own rows and guards, and this
module is the one place that puts them together, so a reader can see the
whole door, and each lesson's tests and pages can build the door of their
own lesson:

    door = door_for(5, run, policy)
    print(door)    # its kinds and its guards, in order

``GUARDS`` lists every guard in the order the door asks them, each with the
lesson that adds it; ``KINDS`` lists each lesson's rows. A door for lesson N
has every row and guard of lessons up to N, nothing later.
"""

from __future__ import annotations

from core.run import gate, propose, recorder, seal, select, stages, verify
from core.run.canon import CanonError, digest
from core.run.policy import Policy, PolicyError
from core.run.recorder import BOUNDED, UNREPRESENTABLE, Recorder
from core.run.records import RecordError, Run

RUN_FIELDS = ("policy_digest", "run_id", "world_digest")


class DoorError(ValueError):
    """A report's run, policy or gating cannot be rebuilt into its door; the message says which and why."""

LAST_LESSON = 10  # the reference run's door: every part of the harness

# Every guard, in the order the door asks them, with the lesson that adds it.
GUARDS = (
    (9, seal.run_is_open),  # a closed run admits nothing (and appends nothing)
    (2, recorder.payload_is_object),
    (2, recorder.run_binding),  # another run's payload is turned away before anything else is read
    (2, recorder.kind_is_known),
    (3, stages.in_its_stage),
    (2, recorder.fields_are_declared),
    (5, select.is_the_selection),  # in the execute stage, only the chosen act
    (2, recorder.kinds_contract),  # the kind's own builder: the policy for an action
    (8, gate.the_gate),  # last: an authorized act runs now, is held for review, or is denied
)

# Each lesson's rows of the kind table.
KINDS = (
    (2, recorder.KINDS),
    (3, (stages.TRANSITION,)),
    (4, propose.KINDS),
    (5, select.KINDS),
    (7, verify.KINDS),
    (9, (seal.CLOSE,)),
)


def door_for(lesson: int, run: Run, policy: Policy, gating: gate.Gating | None = None,
             stage_table: stages.StageTable | None = None) -> Recorder:
    """The door of ``lesson`` for ``run`` under ``policy``; from lesson 8 on it needs the run's ``gating``.

    From lesson 3 on, the rows carry the stages of ``stage_table`` (the
    reference run's unless another is given), the door keeps that table among
    its parts, and the run starts in its first stage; from lesson 5 on, each
    proposal is noted as open for selection; from lesson 8 on, the action
    and review rows are the gate's (gate.gated), and a catalogue the gate
    cannot judge is refused here, before the run starts.
    """
    if not 2 <= lesson <= LAST_LESSON:
        raise ValueError(f"lessons 2 to {LAST_LESSON} have doors, not {lesson!r}")
    kinds = [row for added, rows in KINDS if added <= lesson for row in rows]
    guards = [guard for added, guard in GUARDS if added <= lesson]
    parts = {}
    table = stages.REFERENCE_TABLE if stage_table is None else stage_table
    if lesson >= 3:
        kinds = stages.staged(kinds, table)
        parts["stage_table"] = table
    elif stage_table is not None:
        raise ValueError(f"the door of lesson {lesson} has no stages, so it takes no stage table")
    if lesson >= 5:
        kinds = select.ranked(kinds)
    if lesson >= 8:
        if gating is None:
            raise ValueError(f"the door of lesson {lesson} gates actions, so it needs the run's gating")
        gate.require_gateable(policy, gating)
        kinds = gate.gated(kinds)
        parts["gating"] = gating
    door = Recorder(run, policy, kinds, guards, **parts)
    if lesson >= 3:
        door.stage = table.start
    return door


def final_door(run: Run, policy: Policy, gating: gate.Gating) -> Recorder:
    """The reference run's door: every row and every guard."""
    return door_for(LAST_LESSON, run, policy, gating)


# --- asking a sealed ledger's questions again ----------------------------------------------


def setting_of(report: dict) -> tuple[Run, Policy, gate.Gating]:
    """The run, policy and gating a report was made under, each checked against what the report recorded.

    The gating names the taxonomy version; the table is loaded as that
    version shipped (taxonomy.carried_taxonomy) and its digest compared with
    the one the report recorded, so an edit to the table is named as such.
    """
    raw_run, taxonomy = report.get("run"), report.get("taxonomy")
    if not isinstance(raw_run, dict) or set(raw_run) != set(RUN_FIELDS):
        raise DoorError(f"the report's run must have exactly the fields {', '.join(RUN_FIELDS)}")
    try:
        run = Run(**raw_run)
        policy = Policy.from_dict(report.get("policy"))
        policy_digest = digest(policy.snapshot())
        gating = gate.Gating.from_dict(report.get("gating"))
    except (RecordError, PolicyError, CanonError, gate.GatingError) as exc:
        raise DoorError(f"the report's run, policy or gating cannot be rebuilt: {exc}") from None
    if policy_digest != run.policy_digest:
        raise DoorError("the report's policy is not the one its run identifier was made from")
    if not isinstance(taxonomy, dict) or taxonomy.get("version") != gating.taxonomy_version:
        raise DoorError("the report's taxonomy section does not name its gating's taxonomy version")
    if taxonomy.get("digest") != gating.table.digest:
        raise DoorError(f"the taxonomy table, version {gating.taxonomy_version}, has changed since the report "
                        f"was sealed (its digest is now {gating.table.digest[:12]}, the report recorded "
                        f"{str(taxonomy.get('digest'))[:12]}): the table changed, not the report")
    return run, policy, gating


def redecidable(event: dict) -> bool:
    """Whether a fresh door can be asked ``event``'s question: it kept its whole payload, and one was asked."""
    payload = event.get("payload")
    return payload is not None and not (isinstance(payload, dict) and list(payload) in ([UNREPRESENTABLE], [BOUNDED]))


def ask_again(door: Recorder, event: dict) -> None:
    """Ask ``door`` the question ``event`` recorded; the door writes its own answer into its ledger.

    A refusal with nothing to ask again (a caller's own refusal, a payload
    kept only as a note) is copied as it stands, so the sequence numbers stay
    in step; replay reports such events as not re-decided.
    """
    if redecidable(event) and isinstance(event.get("kind"), str):
        door.record(event["kind"], event["payload"])
    elif event.get("status") == "refused" and isinstance(event.get("reason"), str) and event["reason"].strip():
        door.refuse(event.get("kind"), event["reason"])
    else:
        door.refuse(event.get("kind"), "this event kept no payload to ask again with")


def redo(report: dict) -> Recorder:
    """A fresh final door, rebuilt from the report's setting, asked every question of its ledger again."""
    run, policy, gating = setting_of(report)
    door = final_door(run, policy, gating)
    for event in report["events"]:
        ask_again(door, event)
    return door
