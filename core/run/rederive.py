"""Rederive: a sealed report's questions asked again of a fresh door, and the report judged by the answers.

A sealed report carries its ledger and the setting it was made under (its
run, policy, gating, verification plan and safety pack). ``setting_of``
rebuilds that setting, each part checked as it is read; ``redo`` builds a
fresh final door from it (doors.final_door, or another builder of the same
shape) and asks it every question of the ledger again (``ask_again``).
Lesson 9's verify (``verify``: the chain and seal, then every section
derived again) and lesson 10's replay (core.audit.replay: every answer
compared) share it; ``render`` is the Markdown report, headed by what
verifying it found. ``against`` compares a report's setting with the one
an operator's own configuration says (``Setting``, drive.operator_setting).

It reads the whole door, so like doors.py it is the assembly's, not a
lesson's: no lesson's module imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from core.run import gate, report, seal, verify as verifying
from core.run.canon import CanonError, digest
from core.run.doors import FinalDoor, final_door
from core.run.policy import Policy, PolicyError
from core.run.recorder import BOUNDED, BY_CALLER, UNREPRESENTABLE, Recorder
from core.run.records import RecordError, Run, shown
from core.run.seal import Verification
from core.run.verify import CheckError, Plan
from core.safety import SafetyPackError, pack_as_sealed, safety_sections

RUN_FIELDS = ("policy_digest", "run_id", "world_digest")

# Each section of a report, derived from a door: lesson 9's, lesson 7's plan, lesson 10's safety verdict.
SECTIONS = (*report.SECTIONS, verifying.plan_sections, safety_sections)


class DoorError(report.ReportError):
    """A report's door cannot be rebuilt from its run, policy, gating or pack; the message says why."""


def setting_of(report: dict, taxonomy_dir: str | Path | None = None) -> tuple[Run, Policy, gate.Gating, Plan]:
    """The run, policy, gating and verification plan a report was made under, each checked as it is read.

    The gating names the taxonomy version; the table is loaded as that
    version shipped (taxonomy.carried_taxonomy, from ``taxonomy_dir`` if
    given, else the harness's own folder) and its digest compared with the
    one the report recorded, so an edit to the table is named as such.
    """
    raw_run, taxonomy = report.get("run"), report.get("taxonomy")
    if not isinstance(raw_run, dict) or set(raw_run) != set(RUN_FIELDS):
        raise DoorError(f"the report's run must have exactly the fields {', '.join(RUN_FIELDS)}")
    try:
        run = Run(**raw_run)
        policy = Policy.from_dict(report.get("policy"))
        policy_digest = digest(policy.snapshot())
        gating = gate.Gating.from_dict(report.get("gating"), taxonomy_dir)
        plan = Plan.from_dict(report.get("plan"), "the report's plan")
    except (RecordError, PolicyError, CanonError, gate.GatingError, CheckError) as exc:
        raise DoorError(f"the report's run, policy, gating or plan cannot be rebuilt: {exc}") from None
    if policy_digest != run.policy_digest:
        raise DoorError("the report's policy is not the one its run identifier was made from")
    if not isinstance(taxonomy, dict) or taxonomy.get("version") != gating.taxonomy_version:
        raise DoorError("the report's taxonomy section does not name its gating's taxonomy version")
    if taxonomy.get("digest") != gating.table.digest:
        raise DoorError(f"the taxonomy table, version {gating.taxonomy_version}, has changed since the report "
                        f"was sealed (its digest is now {gating.table.digest[:12]}, the report recorded "
                        f"{str(taxonomy.get('digest'))[:12]}): the table changed, not the report")
    return run, policy, gating, plan


@dataclass(frozen=True)
class Setting:
    """What an operator's configuration says a report of theirs was made under (drive.operator_setting builds it).

    A report carries its own policy, gating, reviews and pack, and verify
    and replay on their own judge it by those: a report made under another
    policy with the same reference name agrees with itself. Only the
    operator's own configuration, kept apart from the report, can say the
    report was made under it (``against``).
    """

    where: str  # how a message names the configuration
    policy: dict  # the policy's snapshot
    gating: dict  # the gating's snapshot
    minimum_taxonomy_version: int
    reviews: Mapping[str, dict]  # review subject -> the reviewer, decision and reason written down for it
    plan: list  # the verification plan's snapshot (verify.Plan)
    safety_pack: dict  # the summary of the ratified pack the harness loads
    run_id: str  # what the configuration's policy and world name a run
    world_digest: str


def against(report: dict, setting: Setting) -> str:
    """The first part of ``report``'s setting that is not the operator's, as one line; "" when every part is.

    The parts are compared in order: the taxonomy version (not below the
    operator's minimum: an older table may let run what today's holds), the
    policy, the gating, the reviews (each one the
    configuration wrote down), the verification plan, the safety pack (the one the harness loads,
    ratified) and the world (the lab as found and the rest of the
    configuration, through the run identifier they give).
    """
    where = setting.where
    version = _dict(report.get("gating")).get("taxonomy_version")
    if isinstance(version, int) and not isinstance(version, bool) and version < setting.minimum_taxonomy_version:
        return (f"the report was sealed under taxonomy version {version}, below the minimum version "
                f"{setting.minimum_taxonomy_version} that {where} accepts")
    policy = report.get("policy")
    if policy != setting.policy:
        return f"the report's policy is not the one in {where}: {_first_difference(policy, setting.policy)}"
    if report.get("gating") != setting.gating:
        return f"the report's gating is not the one in {where}: {_first_difference(report.get('gating'), setting.gating)}"
    for review in report.get("reviews") if isinstance(report.get("reviews"), list) else [None]:
        review = _dict(review)
        written = setting.reviews.get(review.get("subject_id")) if isinstance(review.get("subject_id"), str) else None
        said = {key: review.get(key) for key in ("reviewer", "decision", "reason")}
        if written is None:
            return f"the report holds a review of {shown(review.get('subject_id'))}, and {where} wrote down none"
        if written != said:
            return (f"the report's review of {shown(review.get('subject_id'))} is not the one {where} wrote down: "
                    f"{_first_difference(said, written)}")
    if report.get("plan") != setting.plan:
        found, wanted = report.get("plan"), setting.plan
        if isinstance(found, list) and len(found) == len(wanted):
            index = next(i for i, (a, b) in enumerate(zip(found, wanted)) if a != b)
            where_ = f"its check {index}: {_first_difference(found[index], wanted[index])}"
        else:
            where_ = f"it holds {len(found) if isinstance(found, list) else 'no list of'} checks, the configuration {len(wanted)}"
        return f"the report's verification plan is not the one in {where}: {where_}"
    pack = report.get("safety_pack")
    if pack != setting.safety_pack:
        return (f"the report's safety pack is not the ratified pack the harness loads: "
                f"{_first_difference(pack, setting.safety_pack)}")
    run = _dict(report.get("run"))
    if run.get("world_digest") != setting.world_digest or run.get("run_id") != setting.run_id:
        return (f"the report's run was not made in the world of {where} and its lab (its world digest is "
                f"{str(run.get('world_digest'))[:12]}, theirs {setting.world_digest[:12]}): a fixture, the "
                "model's script or another part of the configuration differs")
    return ""


def _first_difference(found: object, wanted: object) -> str:
    """Where two JSON values first differ: ``<field> is X in the report and Y in the configuration``."""
    if isinstance(found, dict) and isinstance(wanted, dict):
        for key in [*wanted, *sorted(set(found) - set(wanted), key=str)]:
            if found.get(key, _ABSENT) != wanted.get(key, _ABSENT):
                return (f"{key if isinstance(key, str) else shown(key)} is {_shown(found.get(key, _ABSENT))} "
                        f"in the report and {_shown(wanted.get(key, _ABSENT))} in the configuration")
    return f"it is {_shown(found)} in the report and {_shown(wanted)} in the configuration"


_ABSENT = object()


def _shown(value: object) -> str:
    return "absent" if value is _ABSENT else "absent" if value is None else shown(value)


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def redecidable(event: dict) -> bool:
    """Whether a fresh door can be asked ``event``'s question: the door decided it and kept its whole payload."""
    payload = event.get("payload")
    by_caller = isinstance(event.get("by"), str) and event["by"].startswith(BY_CALLER)
    kept_whole = not (isinstance(payload, dict) and list(payload) in ([UNREPRESENTABLE], [BOUNDED]))
    return not by_caller and payload is not None and kept_whole


def ask_again(door: Recorder, event: dict) -> None:
    """Ask ``door`` the question ``event`` recorded; the door writes its own answer into its ledger.

    A refusal with nothing to ask again (a caller's own refusal, a payload
    kept only as a note) is copied as it stands, so the sequence numbers stay
    in step; replay reports such events as not re-decided.
    """
    if redecidable(event) and isinstance(event.get("kind"), str):
        door.record(event["kind"], event["payload"])
        return
    code = event.get("code") if isinstance(event.get("code"), str) and event.get("code") else "not_redecided"
    if event.get("status") == "refused" and isinstance(event.get("reason"), str) and event["reason"].strip():
        by = event.get("by") if isinstance(event.get("by"), str) else ""
        door.refuse(event.get("kind"), event["reason"], code=code, by=by.removeprefix(BY_CALLER) or "unknown")
    else:
        door.refuse(event.get("kind"), "this event kept no payload to ask again with", code="not_redecided",
                    by="rederive.ask_again")


def redo(report: dict, door: FinalDoor = final_door, taxonomy_dir: str | Path | None = None) -> Recorder:
    """A fresh final door (``door``), rebuilt from the report's setting (``setting_of``), asked every question of
    its ledger again."""
    run, policy, gating, plan = setting_of(report, taxonomy_dir)
    door = door(run, policy, gating, plan=plan)
    for event in report["events"]:
        ask_again(door, event)
    return door


def given_by(report: dict) -> dict:
    """What the report's run was given besides its door, rebuilt from the report (its safety pack)."""
    try:
        return {"pack": pack_as_sealed(report.get("safety_pack"))}
    except SafetyPackError as exc:
        raise DoorError(f"the report's safety pack cannot be rebuilt: {exc}") from None


def verify(sealed: dict, *, door: FinalDoor = final_door,
           chain: Callable[[dict], Verification] = seal.verify_chain) -> Verification:
    """A sealed report checked whole: its chain and seal (``chain``), then every section derived again from
    its ledger through a fresh ``door``."""
    return report.verify_report(sealed, lambda sealed: redo(sealed, door), SECTIONS, given_by, chain=chain)


def render(sealed: dict) -> str:
    """The Markdown report of ``sealed``, headed by what verifying it whole found (report.render_markdown)."""
    return report.render_markdown(sealed, verify(sealed))


def verdicts(sealed: dict) -> dict:
    """What the chain alone says of ``sealed`` (seal.verify_chain), and what verifying it whole says (``verify``).

    Each as data: ``ok``, the ``seq`` of the first event that disagrees and the
    ``message``; the whole verify also names the ``section`` that disagrees.
    """
    chain, whole = seal.verify_chain(sealed), verify(sealed)
    return {"chain": {"ok": chain.ok, "seq": chain.seq, "message": chain.message},
            "verify": {"ok": whole.ok, "seq": whole.seq, "section": whole.section, "message": whole.message}}
