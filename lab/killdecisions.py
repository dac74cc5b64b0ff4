"""The kill matrix with a person in the loop: decisions that arrive after a kill, judged by the lab's record.

    python -m lab.killmatrix --decisions            every kill point
    python -m lab.killmatrix --decisions --sample   the first point of each kind (the test suite's)
    python -m lab.killmatrix --decisions --points 91,s8

The configuration is the reference one with no review written down: each
held probe waits for a person. It lists one approver key for the probes'
approver role (``approvers``, a demo key derived from a public phrase, as
tlog/keys.py derives the log's: it proves nothing, and keeps every figure
reproducible) and names the signature check
(``plugins.review_signature``: signoff.plugin:check_decision).

The person (``Person``) decides as the reference configuration's reviews
do (the debug probe and its confirmations approved, the search probe
rejected), one signed decision per file in a reviews folder, and only
when they see an act waiting: when a run stops waiting (exit status 5,
decisions.Waiting), and when they read a killed run's journal
(decisions.waiting, as ``python -m signoff waiting`` lists it).

Uninterrupted, the run is a chain of processes: run, wait, sign, resume
with ``--reviews``, wait again... until the report. A kill point is the
n-th ledger write or the n-th request of that whole chain, whichever
process makes it. At each point the chain is driven again against a lab
served for it alone, killed with SIGKILL there, and carried on:

1. the person reads the killed journal and signs what waits in it;
2. the run is resumed with the reviews folder, and killed a second time
   right after it records a decision, if it records one;
3. then ``python -m core.run.main --resume FILE --reviews DIR`` (the
   operator's command), the person signing whenever it waits, until it
   ends.

Judged by the lab's own record and the final report:

* a **duplicated act**: a consequential act that acted twice by the lab's
  record (two requests under its key not answered as replays);
* a **lost approval**: one of the uninterrupted chain's approvals that the
  final report lacks, or whose act never reached the lab;
* an **unapproved act**: a consequential request the person had not
  approved before it reached the lab, or whose act the final ledger does
  not show approved before it was admitted, or a request no act of the
  run accounts for;
* a **rejected act that ran**: a request that acted for an act the person
  rejected;
* a point **resumed** when the last resume exited 0 and its report passes
  ``seal verify`` and ``python -m core.audit.replay`` with ``--config``
  and ``--reviews``, with the uninterrupted chain's findings and verdicts.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import tempfile
from contextlib import closing, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

from core.audit import replay
from core.run import decisions, drive, journal, main
from core.run.canon import write_artifact
from core.run.doors import FinalDoor, final_door
from core.run.gate import subject_of
from core.run.jsonfile import read_json
from lab import server
from lab.killpoints import (SEND, WRITE, Point, Stopping, Tally, finished, forked, in_doubt, is_consequential,
                            lab_served)
from lab.plugin import make_adapter
from signoff import decision, demo
from tlog import note

REVIEWER = "reviewer.example/harness-course-lead"
PHRASE = "harness-course demo reviewer key: public on purpose, never for real use"
CHECK = "signoff.plugin:check_decision"
MOST_RESUMES = 12  # a chain that waits more often than this waits for ever: the point fails


def demo_reviewer() -> note.Signer:
    """The person's key: its seed is SHA-256 of a phrase printed above, so anyone can derive it (and sign with it)."""
    return note.Signer(REVIEWER, note.ED25519, hashlib.sha256(PHRASE.encode("utf-8")).digest())


def configuration(folder: Path) -> Path:
    """The reference configuration with no review written down, the person's key listed for each role that
    approves, and the signature check named; its file in ``folder``."""
    raw = json.loads(drive.DEFAULT_CONFIG.read_text(encoding="utf-8"))
    roles = [demo.ROLE]
    raw["reviewers"] = []
    raw.pop("signed_reviews", None)  # the person decides as the run waits, not in advance
    raw["approvers"] = {role: [demo_reviewer().verifier().encode()] for role in roles}
    raw["plugins"] = {**raw["plugins"], "review_signature": CHECK}
    path = folder / "config.json"
    path.write_text(json.dumps(raw, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


# What the reference run's engagement lead decides (signoff.demo): the act's subject -> the decision and reason.
SCRIPT = {subject_of(identity, arguments): {"decision": verdict, "reason": reason}
          for identity, arguments, verdict, reason in demo.DECISIONS.values()}


@dataclass
class Person:
    """The reviewer: signs the reference configuration's decision on each act they see waiting, once, into ``folder``."""

    folder: Path
    config: drive.Configuration
    run_id: str
    signed: dict[str, tuple[str, int]] = field(default_factory=dict)  # subject -> (decision, requests before it)
    after_kill: int = 0  # decisions signed from a killed run's journal

    def decide(self, kept: Path, record: Path, killed: bool = False) -> list[str]:
        """Sign every act the journal ``kept`` shows waiting that this person has not decided; the acts signed."""
        script = SCRIPT  # what the reference run's engagement lead decides
        waiting = decisions.waiting(journal.read(kept).events, self.config.policy, self.config.gating)
        new = [subject for subject in waiting if subject not in self.signed]
        for subject in new:
            review = script[subject]
            text = decision.sign(demo_reviewer(), self.run_id, subject, waiting[subject].role, review["decision"],
                                 review["reason"])
            (self.folder / f"decision-{len(self.signed) + 1:02d}.note").write_text(text, encoding="utf-8")
            self.signed[subject] = (review["decision"], len(server.read_record(record)))
        self.after_kill += len(new) if killed else 0
        return new

    def decided(self, verdict: str) -> set[str]:
        return {subject for subject, (said, _) in self.signed.items() if said == verdict}


# --- one process of the chain -------------------------------------------------------------


@dataclass(frozen=True)
class Leg:
    """What one harness process of the chain did: its exit status ("killed" if killed), its writes and requests."""

    status: int | str
    writes: int
    sends: int
    kinds: tuple[tuple, ...] = ()  # each write's event: kind, status, code and, for an outcome, its status


def leg(first: bool, kept: Path, config_path: Path, reviews: Path, port: int, out: Path,
        point: Point | None = None, after_decision: bool = False, door: FinalDoor = final_door) -> Leg:
    """One harness process: the run started (``first``) or resumed with the decisions in ``reviews``, killed
    with SIGKILL right after its ``point`` (counted within this process) or, ``after_decision``, right after
    it records a decision; its doors built by ``door``."""
    said_r, said_w = os.pipe()
    wait_r, wait_w = os.pipe()
    told_r, told_w = os.pipe()

    def stop() -> None:
        os.write(said_w, b"!")
        os.read(wait_r, 1)  # nobody writes: the harness waits here until it is killed

    def harness() -> int:
        os.close(said_r)
        os.close(told_r)
        kinds: list[tuple] = []

        class Watched(journal.Journal):
            def __call__(self, event: bytes) -> None:
                super().__call__(event)
                seen = json.loads(event)
                payload = seen["payload"] if isinstance(seen["payload"], dict) else {}
                kinds.append((seen["kind"], seen["status"], seen["code"],
                              payload.get("status", "") if seen["kind"] == "outcome" else ""))
                if point == Point(WRITE, len(kinds)) or (after_decision and seen["kind"] == "review"
                                                         and seen["status"] == "admitted"):
                    stop()

        adapter = Stopping(make_adapter("http", None, port), point or Point(SEND, 0), stop)
        config = drive.load_configuration(config_path)
        status = 0
        try:
            if first:
                with closing(Watched.start(kept, drive.identify(config).to_dict())) as sink:
                    report = drive.run(config, drive.DEFAULT_LAB, "http", adapter=adapter, sink=sink,
                                       door=door).report
            else:
                report = drive.resume(config, kept, drive.DEFAULT_LAB, "http", adapter=adapter, door=door,
                                      signed=decisions.read_folder(reviews), journal_class=Watched).driven.report
            write_artifact(out, report)
        except decisions.Waiting:
            status = main.WAITING
        os.write(told_w, json.dumps([len(kinds), adapter.sent, kinds]).encode() + b"\n")
        return status

    pid = forked(harness)
    os.close(said_w)
    os.close(told_w)
    said = os.read(said_r, 1)
    os.close(said_r)
    if said:
        os.kill(pid, signal.SIGKILL)
    status = finished(pid)
    with os.fdopen(told_r, "rb") as told:
        data = told.read()
    os.close(wait_r)
    os.close(wait_w)
    if said:
        return Leg("killed", 0, 0)
    writes, sends, kinds = json.loads(data) if data else (0, 0, [])
    return Leg(status, writes, sends, tuple(map(tuple, kinds)))


def operator_resume(kept: Path, config_path: Path, reviews: Path, port: int, out: Path, notes: Path) -> int:
    """``python -m core.run.main --resume FILE --reviews DIR --config FILE``, in a process of its own."""

    def command() -> int:
        descriptor = os.open(notes, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(descriptor, 2)
        return main.main(["--config", str(config_path), "--resume", str(kept), "--reviews", str(reviews),
                          "--out", str(out), "--transport", "http", "--lab-url", f"http://127.0.0.1:{port}"])

    return finished(forked(command))


# --- the chain ----------------------------------------------------------------------------


@dataclass
class Chain:
    """Where one chain of processes ran: its folder, the journal, the reviews folder, the report and the lab's record."""

    here: Path
    config_path: Path

    def __post_init__(self) -> None:
        self.kept, self.reviews = self.here / "journal.jsonl", self.here / "reviews"
        self.out, self.record, self.notes = self.here / "report.json", self.here / "record.jsonl", self.here / "notes"
        self.reviews.mkdir(exist_ok=True)

    def person(self) -> Person:
        config = drive.load_configuration(self.config_path)
        return Person(self.reviews, config, drive.identify(config).run_id)


@dataclass(frozen=True)
class Reference:
    """The uninterrupted chain: its report, its lab record, its writes and requests, what each write was, its legs."""

    report: dict
    record: tuple[dict, ...]
    kinds: tuple[tuple, ...]
    sends: int
    legs: int
    approved: frozenset[str]
    rejected: frozenset[str]
    consequential: dict[str, bool]  # each act's idempotency key (its execution's) -> whether it needs a review
    firsts: tuple[int, ...] = ()  # the first write of each resumed process, counted over the chain

    @property
    def writes(self) -> int:
        return len(self.kinds)


def uninterrupted(chain: Chain) -> Reference:
    """Run, wait, sign, resume ... to the report, never killed: what every point is judged by."""
    person, kinds, sends, legs, firsts = chain.person(), [], 0, 0, []
    with lab_served(chain.record) as port:
        status: int | str = main.WAITING
        while status == main.WAITING:
            if legs > MOST_RESUMES:
                raise RuntimeError("the uninterrupted chain waits for ever")
            done = leg(legs == 0, chain.kept, chain.config_path, chain.reviews, port, chain.out)
            firsts += [len(kinds) + 1] if legs and done.kinds else []
            legs, status, sends = legs + 1, done.status, sends + done.sends
            kinds.extend(done.kinds)
            if status == main.WAITING and not person.decide(chain.kept, chain.record):
                raise RuntimeError("the uninterrupted chain waits for an act the person does not see")
    if status != 0:
        raise RuntimeError(f"the uninterrupted chain failed (its last process exited {status})")
    report = read_json(chain.out, error=RuntimeError)
    problem = checked(chain, report)
    if problem:
        raise RuntimeError(f"the uninterrupted chain's report: {problem}")
    execution, run_id = journal.read(chain.kept).execution, report["run"]["run_id"]
    consequential = {drive.idempotency_key(execution, run_id, subject_of(a["tool"], a["arguments"], a["destination"])):
                     is_consequential(person.config, a["tool"]) for a in report["actions"]}
    return Reference(report, tuple(server.read_record(chain.record)), tuple(kinds), sends, legs,
                     frozenset(person.decided("approved")), frozenset(person.decided("rejected")), consequential,
                     tuple(firsts))


def checked(chain: Chain, report: dict) -> str:
    """Why ``seal verify`` or the replay, each with ``--config`` and ``--reviews``, does not pass ``report`` ("")."""
    given = [str(chain.out), "--config", str(chain.config_path), "--reviews", str(chain.reviews)]
    for name, command in (("seal verify", lambda: main.seal_command(["verify", *given])),
                          ("replay", lambda: replay.main(given))):
        said = io.StringIO()
        with redirect_stdout(said), redirect_stderr(said):
            status = command()
        if status != 0:
            return f"{name} exits {status}: {' '.join(said.getvalue().split())[:300]}"
    return ""


def summary(tally: Tally, ref: Reference) -> list[str]:
    """The matrix's findings in a few lines, with the uninterrupted chain ``ref``'s size and decisions."""
    k = tally.points
    return [
        f"{k} kill points with a person in the loop: {tally.duplicated} duplicated acts, {tally.lost} lost "
        f"approvals, {tally.unapproved} unapproved acts, {tally.rejected_ran} rejected acts that ran; "
        f"{tally.resumed} of {k} resumed to a report that seal verify and replay pass with --config and --reviews",
        f"{tally.after_kill} decisions signed after a kill; {tally.killed_twice} points killed again right after "
        "the resumed run recorded a decision",
        f"{tally.consequential_again} consequential acts sent again under their key, {tally.replayed} of them "
        "answered from the lab's first response without acting again",
        f"{tally.not_in_doubt} acts sent again that were not in doubt when the run was killed",
        f"{tally.identical} of {k} resumed reports byte-identical to the uninterrupted chain's",
        f"(the uninterrupted chain: {ref.writes} ledger writes, {ref.sends} requests, {ref.legs} processes; "
        f"{len(ref.approved)} acts approved and {len(ref.rejected)} rejected by signed decisions)",
    ]


@dataclass(frozen=True)
class Carried:
    """A chain killed and carried on: its last exit status, the acts in doubt at each kill, its execution, the person."""

    status: int | str
    doubt: set[str]
    execution: str
    person: Person


def killed_chain(chain: Chain, point: Point, port: int, tally: Tally, door: FinalDoor | None = None) -> Carried:
    """The chain killed at ``point``, then carried on as the module's docstring says (steps 1 to 3); by a harness
    whose doors ``door`` builds, if given, in place of the operator's command (a harness broken on purpose, for
    the matrix to show it counts what goes wrong)."""
    person, writes, sends, legs = chain.person(), 0, 0, 0
    while True:  # the chain as uninterrupted, until the process that holds the point
        local = Point(point.what, point.n - (writes if point.what == WRITE else sends))
        done = leg(legs == 0, chain.kept, chain.config_path, chain.reviews, port, chain.out, local)
        legs += 1
        if done.status == "killed":
            break
        if done.status != main.WAITING or legs > MOST_RESUMES:
            raise RuntimeError(f"the chain ended (exit {done.status}) before kill point {point}")
        writes, sends = writes + done.writes, sends + done.sends
        person.decide(chain.kept, chain.record)
    doubt = in_doubt(journal.read(chain.kept))
    person.decide(chain.kept, chain.record, killed=True)
    status = leg(False, chain.kept, chain.config_path, chain.reviews, port, chain.out, after_decision=True,
                 door=door or final_door).status
    must_decide = status == main.WAITING
    if status == "killed":
        tally.killed_twice += 1
        doubt |= in_doubt(journal.read(chain.kept))
        person.decide(chain.kept, chain.record, killed=True)
        status = main.WAITING
    for _ in range(MOST_RESUMES):
        if status != main.WAITING:
            break
        if must_decide and not person.decide(chain.kept, chain.record):
            break  # it waits for an act the person has decided already: the point is not resumed
        status = operator_resume(chain.kept, chain.config_path, chain.reviews, port, chain.out, chain.notes) \
            if door is None else leg(False, chain.kept, chain.config_path, chain.reviews, port, chain.out,
                                     door=door).status
        must_decide = True
    tally.after_kill += person.after_kill
    return Carried(status, doubt, journal.read(chain.kept).execution, person)


def judge(tally: Tally, point: Point, ref: Reference, chain: Chain, carried: Carried) -> None:
    """Add what the lab's record and the final report show at ``point`` to ``tally``."""
    status, doubt, execution, person = carried.status, carried.doubt, carried.execution, carried.person
    config = drive.load_configuration(chain.config_path)
    tally.points += 1
    report = read_json(chain.out, error=RuntimeError) if status == 0 and chain.out.exists() else None
    run_id = ref.report["run"]["run_id"]
    acts = {}  # idempotency key -> (the act's subject, whether it is consequential, its action id)
    for action in (report or ref.report)["actions"]:
        subject = subject_of(action["tool"], action["arguments"], action["destination"])
        acts[drive.idempotency_key(execution, run_id, subject)] = (subject, is_consequential(config, action["tool"]),
                                                                   action["action_id"])
    events = (report or {}).get("events", [])
    record = server.read_record(chain.record)
    by_key: dict[str, list[tuple[int, dict]]] = {}
    for index, entry in enumerate(record):
        key = entry.get("idempotency_key")
        if key not in acts:
            tally.unapproved += 1
            tally.failures.append(f"{point}: a request no act of the run accounts for: {entry}")
            continue
        by_key.setdefault(key, []).append((index, entry))
    for key, entries in by_key.items():
        subject, needs_review, action_id = acts[key]
        acted = [index for index, entry in entries if not entry.get("replayed")]
        if len(entries) > 1 and action_id not in doubt:
            tally.not_in_doubt += 1
            tally.failures.append(f"{point}: {subject} was sent again though it was not in doubt")
        if not needs_review:
            continue
        tally.consequential_again += len(entries) - 1
        tally.replayed += len(entries) - len(acted)
        if len(acted) > 1:
            tally.duplicated += 1
            tally.failures.append(f"{point}: {subject} acted {len(acted)} times")
        if not acted:
            continue
        said, before = person.signed.get(subject, ("", len(record)))
        if said == "rejected":
            tally.rejected_ran += 1
            tally.failures.append(f"{point}: {subject}, rejected, acted")
        elif said != "approved" or before > acted[0] or not approved_first(events, subject, action_id):
            tally.unapproved += 1
            tally.failures.append(f"{point}: {subject} acted without an approval recorded before it")
    reached = {acts[key][0] for key, entries in by_key.items() if any(not e.get("replayed") for _, e in entries)}
    held = {(review["subject_id"], review["decision"]) for review in (report or {}).get("reviews", [])}
    for subject in sorted(ref.approved):
        if (subject, "approved") not in held or subject not in reached:
            tally.lost += 1
            tally.failures.append(f"{point}: the approval of {subject} was lost")
    problem = f"the last resume exited {status}" if report is None else checked(chain, report)
    if not problem:
        for section in ("findings", "verdicts"):
            if report[section] != ref.report[section]:
                problem = f"its {section} are not the uninterrupted chain's"
    if problem:
        tally.failures.append(f"{point}: {problem}")
    else:
        tally.resumed += 1
    tally.identical += report == ref.report


def approved_first(events: list[dict], subject: str, action_id: str) -> bool:
    """Whether the ledger ``events`` admit an approval of ``subject`` before they first admit its act."""
    for event in events:
        payload = event["payload"] if isinstance(event["payload"], dict) else {}
        if event["status"] != "admitted":
            continue
        if event["kind"] == "review" and payload.get("subject_id") == subject:
            return payload.get("decision") == "approved"
        if event["kind"] == "action" and event["id"] == action_id:
            return False
    return False


def kill_points(ref: Reference, sample: bool) -> list[Point]:
    """Every write and every request of the uninterrupted chain; sampled, the first point of each kind: a write by
    its event's kind, status, code and outcome status, a request by whether its act is consequential; and the
    first write of each resumed process (the moment after a resume cut its journal back)."""
    points = [Point(WRITE, n) for n in range(1, ref.writes + 1)] + [Point(SEND, n) for n in range(1, ref.sends + 1)]
    if not sample:
        return points
    kinds: dict[tuple, Point] = {}
    for point in points:
        kind = (WRITE, *ref.kinds[point.n - 1]) if point.what == WRITE \
            else (SEND, ref.consequential[ref.record[point.n - 1].get("idempotency_key")])
        kinds.setdefault(kind, point)
    firsts = [Point(WRITE, n) for n in ref.firsts if Point(WRITE, n) not in kinds.values()]
    return sorted([*kinds.values(), *firsts], key=points.index)


def kill_matrix(points: str | None = None, sample: bool = False, folder: Path | None = None,
                door: FinalDoor | None = None) -> tuple[Tally, Reference]:
    """Every kill point of the chain (or those ``points`` name, or the sample), each carried on by the operator's
    command (or by a harness whose doors ``door`` builds); the tally and the uninterrupted chain."""
    with tempfile.TemporaryDirectory(prefix="killdecisions-", dir=folder) as temporary:
        root = Path(temporary)
        config_path = configuration(root)
        (root / "reference").mkdir()
        ref = uninterrupted(Chain(root / "reference", config_path))
        chosen = kill_points(ref, sample) if points is None else parse_points(points, ref)
        tally = Tally()
        for point in chosen:
            (root / str(point)).mkdir()
            chain = Chain(root / str(point), config_path)
            with lab_served(chain.record) as port:
                carried = killed_chain(chain, point, port, tally, door)
            judge(tally, point, ref, chain, carried)
    return tally, ref


def parse_points(text: str, ref: Reference) -> list[Point]:
    """``91,s8``: after write 91 and after request 8 of the chain; each within the uninterrupted chain's."""
    chosen = []
    for part in text.split(","):
        what, digits = (SEND, part[1:]) if part.startswith("s") else (WRITE, part)
        limit = ref.sends if what == SEND else ref.writes
        if not digits.isdigit() or not 1 <= int(digits) <= limit:
            raise ValueError(f"kill point {part!r} is not a write 1-{ref.writes} or a send s1-s{ref.sends}")
        chosen.append(Point(what, int(digits)))
    return chosen
