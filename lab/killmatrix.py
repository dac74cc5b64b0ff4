"""The kill matrix: kill the harness at every ledger write of the reference run, carry it on, and judge.

    python -m lab.killmatrix                 every kill point (make killmatrix, make bench)
    python -m lab.killmatrix --sample        a few of each kind (the test suite's)
    python -m lab.killmatrix --points 10,s3  the writes and sends named (s3: after the third send)
    python -m lab.killmatrix --kill s7 --journal FILE --lab-url URL
                                             one run killed there, its journal kept, nothing resumed
    python -m lab.killmatrix --decisions     the same with a person in the loop (lab/killdecisions.py):
                                             no review written down, signed decisions arriving after a kill

For each kill point the reference run is driven over real loopback HTTP, with
a journal (core/run/journal.py), against a lab served in a process of its
own with a record of every request that reached it (``python -m lab serve
--record``: lab.server.serve, here in a forked process). The harness runs
in another process, and is killed with SIGKILL right after its kill point:

* after each ledger write: the journal's line is on disk, the door has not
  answered (the harness stops inside the sink and waits to be killed);
* after each request the lab answered, before the harness wrote what came
  back: the moment an act has had its effect and the ledger does not know.

These include every moment between an approval and its execution: after the
held act, after its review, after the approved action, after its start, after
its request. Then ``python -m core.run.main --resume`` carries the run on (in
a process of its own), and the point is judged by the lab's own record and
the final report, never by what the harness says about itself:

* a **duplicated act** is a consequential act (its tool's class needs a
  review) that acted twice by the lab's record: two requests under its key
  that the lab did not answer as replays;
* a **lost approval** is one of the uninterrupted run's approvals that the
  final report lacks, or whose act never reached the lab;
* an **unapproved act** is a consequential request in the lab's record whose
  exact act the operator's configuration does not approve, or a request the
  report does not account for (no act of the run has its key);
* a point **resumed** when the resume exited 0 and its report verifies
  (rederive.verify), replays with every decision agreeing (core.audit.replay),
  and has the uninterrupted run's findings and verdicts.

It prints one line, then what was sent again:

    K kill points: D duplicated acts, L lost approvals, X unapproved acts; R of K resumed to a report that verifies and replays

A request sent again is delivery at least once; it acts once only because
the lab still holds its key (lab.app.FirstAnswers), and the harness sends a
consequential act again only when the lab shows the memory its key went
to. A passive read sent again is counted on a line of its own. Keys are an
execution's (drive.idempotency_key): the matrix reads each run's from its
journal.

Processes are forked from this one (it starts no threads), so a kill point
costs a fork and a run, not three interpreters.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from core.audit.replay import replay
from core.run import drive, main
from core.run.canon import write_artifact
from core.run.doors import FinalDoor, final_door
from core.run.rederive import verify
from core.run.gate import subject_of
from core.run import journal
from core.run.journal import Journal
from core.run.jsonfile import read_json
from lab import killdecisions, server
from lab.killpoints import (SEND, WRITE, Point, Stopping, Tally, finished, forked, in_doubt, is_consequential,
                            lab_served)
from lab.plugin import make_adapter


def summary(tally: Tally) -> list[str]:
    """The matrix's findings in a few lines, as ``make killmatrix`` prints them."""
    k = tally.points
    return [
        f"{k} kill points: {tally.duplicated} duplicated acts, {tally.lost} lost approvals, "
        f"{tally.unapproved} unapproved acts; {tally.resumed} of {k} resumed to a report that verifies and replays",
        f"{tally.passive_again} passive reads sent again after a restart (delivery at least once)",
        f"{tally.consequential_again} consequential acts sent again under their key, {tally.replayed} of them "
        "answered from the lab's first response without acting again",
        f"{tally.not_in_doubt} acts sent again that were not in doubt when the run was killed",
        f"{tally.identical} of {k} resumed reports byte-identical to the uninterrupted run's "
        "(each other one had an act in doubt)",
        f"(the uninterrupted run: {tally.writes} ledger writes, {tally.sends} requests)",
    ]


def killed_run(point: Point, journal: Path, port: int) -> str:
    """The reference run with a journal, killed with SIGKILL at ``point``; "" or why the point was never reached."""
    said_r, said_w = os.pipe()
    wait_r, wait_w = os.pipe()

    def stop() -> None:
        os.write(said_w, b"!")
        os.read(wait_r, 1)  # nobody writes: the harness waits here until it is killed

    def harness() -> int:
        os.close(said_r)
        config = drive.load_configuration()
        sink = Journal.start(journal, drive.identify(config).to_dict())
        writes = 0

        def write(event: bytes) -> None:
            nonlocal writes
            sink(event)
            writes += 1
            if point == Point(WRITE, writes):
                stop()

        adapter = Stopping(make_adapter("http", None, port), point, stop)
        drive.run(config, drive.DEFAULT_LAB, "http", adapter=adapter, sink=write, keys=sink)
        return 0

    pid = forked(harness)
    os.close(said_w)
    said = os.read(said_r, 1)
    os.close(said_r)
    if said:
        os.kill(pid, signal.SIGKILL)
    status = finished(pid)
    os.close(wait_r)
    os.close(wait_w)
    if not said:
        return f"the run ended (exit {status}) before kill point {point}"
    return ""


Resume = Callable[[Path, Path, int], int]  # (journal, report to write, the lab's port) -> exit status


def resume_command(journal: Path, out: Path, port: int) -> int:
    """``python -m core.run.main --resume`` against the lab served on ``port``: how an operator resumes a run."""
    return main.main(["--resume", str(journal), "--out", str(out), "--transport", "http",
                      "--lab-url", f"http://127.0.0.1:{port}"])


def resuming(change: Callable[[drive.Configuration], drive.Configuration] = lambda config: config,
             door: FinalDoor = final_door, start_over: bool = False) -> Resume:
    """A resume by a harness assembled otherwise, for the matrix to show it can fail: the matrix must count it.

    ``change`` alters the configuration it resumes with (one that forgets
    the operator's reviews), ``door`` builds its doors (a gate left out:
    doors.final_door_with), and ``start_over`` keeps nothing of the journal
    but its execution: the journal is cut back to its header and the run
    goes again from the start, under the same keys.
    """

    def resume(path: Path, out: Path, port: int) -> int:
        config = change(drive.load_configuration())
        with closing(make_adapter("http", None, port)) as adapter:
            if start_over:
                sink, read = Journal.reopen(path)
                with sink:
                    sink.cut_back(read, 0)
                    report = drive.run(config, drive.DEFAULT_LAB, "http", adapter=adapter, sink=sink,
                                       door=door).report
            else:
                report = drive.resume(config, path, drive.DEFAULT_LAB, "http", adapter=adapter,
                                      door=door).driven.report
        write_artifact(out, report)
        return 0

    return resume


def resumed_run(journal: Path, out: Path, port: int, notes: Path, resume: Resume = resume_command) -> int:
    """``resume`` (``python -m core.run.main --resume``), in a process of its own; its exit status (its lines go to
    ``notes``)."""

    def command() -> int:
        descriptor = os.open(notes, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(descriptor, 2)
        return resume(journal, out, port)

    return finished(forked(command))


# --- judging ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """The uninterrupted run: its report, its journal's writes and its requests, and its execution."""

    report: dict
    writes: int
    record: tuple[dict, ...]  # what reached the lab, in order: one entry per send
    execution: str = ""  # what its keys are made with (its journal's header)

    @property
    def sends(self) -> int:
        return len(self.record)


def reference(folder: Path) -> Reference:
    """The reference run, uninterrupted, over HTTP against its own lab, with a journal: what points are judged by."""
    record, journal_path, out = folder / "record.jsonl", folder / "journal.jsonl", folder / "report.json"
    with lab_served(record) as port:

        def run() -> int:
            return main.main(["--out", str(out), "--journal", str(journal_path), "--transport", "http",
                              "--lab-url", f"http://127.0.0.1:{port}"])

        status = finished(forked(run))
    if status != 0:
        raise RuntimeError(f"the uninterrupted reference run failed (exit {status})")
    kept = journal.read(journal_path)
    return Reference(read_json(out, error=RuntimeError), len(kept.events), tuple(server.read_record(record)),
                     kept.execution)


def kill_points(ref: Reference, config: drive.Configuration, sample: bool) -> list[Point]:
    """Every write and every send of the reference run; or, sampled, the first point of each kind (``kind_of``)."""
    points = [Point(WRITE, n) for n in range(1, ref.writes + 1)] + [Point(SEND, n) for n in range(1, ref.sends + 1)]
    if not sample:
        return points
    kinds: dict[tuple, Point] = {}
    for point in points:
        kinds.setdefault(kind_of(point, ref, config), point)
    return list(kinds.values())


def kind_of(point: Point, ref: Reference, config: drive.Configuration) -> tuple:
    """What a point follows: a send of a passive or a consequential act; or a write, by its event's kind, status,
    outcome status, and for an act's events whether the act is consequential."""
    if point.what == SEND:
        return SEND, consequential_key(ref, config)[ref.record[point.n - 1].get("idempotency_key")]
    event = ref.report["events"][point.n - 1]
    payload = event["payload"] if isinstance(event["payload"], dict) else {}
    tool = payload.get("tool") or str(payload.get("action_id", "")).partition(" -> ")[0]
    act = event["kind"] in ("action", "outcome", "capture") and is_consequential(config, tool)
    return WRITE, event["kind"], event["status"], payload.get("status") if event["kind"] == "outcome" else "", act


def consequential_key(ref: Reference, config: drive.Configuration) -> dict[str, bool]:
    """Each act of the reference run's idempotency key, and whether the act is consequential."""
    run_id = ref.report["run"]["run_id"]
    return {drive.idempotency_key(ref.execution, run_id, subject_of(a["tool"], a["arguments"], a["destination"])):
            is_consequential(config, a["tool"]) for a in ref.report["actions"]}


def judge(tally: Tally, point: Point, ref: Reference, config: drive.Configuration, status: int,
          report: dict | None, record: list[dict], doubt: set[str], execution: str) -> None:
    """Add what the lab's record and the final report show at ``point`` to ``tally``.

    ``doubt`` names the acts the killed run's journal shows in doubt: only
    those may reach the lab twice, and only their points may end in a
    report that is not byte for byte the uninterrupted run's. ``execution``
    is the killed run's (its journal's), which its keys are made with.
    """
    tally.points += 1
    run_id = ref.report["run"]["run_id"]
    approved = {subject for subject, review in drive.in_advance(config, run_id)[0].reviews.items()
                if review["decision"] == "approved"}  # written down, or signed in advance
    acts = {}  # idempotency key -> (the act's subject, whether it is consequential)
    for action in (report or ref.report)["actions"]:
        subject = subject_of(action["tool"], action["arguments"], action["destination"])
        acts[drive.idempotency_key(execution, run_id, subject)] = (subject, is_consequential(config, action["tool"]),
                                                        action["action_id"])
    by_key: dict[str, list[dict]] = {}
    for entry in record:
        key = entry.get("idempotency_key")
        if key not in acts:
            tally.unapproved += 1  # the report does not account for this request
            tally.failures.append(f"{point}: a request no act of the run accounts for: {entry}")
            continue
        by_key.setdefault(key, []).append(entry)
    for key, entries in by_key.items():
        subject, needs_review, action_id = acts[key]
        acted = [entry for entry in entries if not entry.get("replayed")]
        if len(entries) > 1 and action_id not in doubt:
            tally.not_in_doubt += 1
            tally.failures.append(f"{point}: {subject} was sent again though it was not in doubt")
        if not needs_review:
            tally.passive_again += len(entries) - 1
            continue
        tally.consequential_again += len(entries) - 1
        tally.replayed += len(entries) - len(acted)
        if len(acted) > 1:
            tally.duplicated += 1
            tally.failures.append(f"{point}: {subject} acted {len(acted)} times")
        if acted and subject not in approved:
            tally.unapproved += 1
            tally.failures.append(f"{point}: {subject} acted without the operator's approval")
    reached = {acts[key][0] for key, entries in by_key.items() if any(not e.get("replayed") for e in entries)}
    held = {(review["subject_id"], review["decision"]) for review in (report or {}).get("reviews", [])}
    for review in ref.report["reviews"]:
        if review["decision"] == "approved" and ((review["subject_id"], "approved") not in held
                                                 or review["subject_id"] not in reached):
            tally.lost += 1
            tally.failures.append(f"{point}: the approval of {review['subject_id']} was lost")
    problem = resumed_problem(status, report, ref.report)
    if problem:
        tally.failures.append(f"{point}: {problem}")
    else:
        tally.resumed += 1
    if report == ref.report:
        tally.identical += 1
    elif not doubt:
        tally.failures.append(f"{point}: the resumed report is not the uninterrupted run's, and no act was in doubt")


def resumed_problem(status: int, report: dict | None, uninterrupted: dict) -> str:
    """Why the resumed run does not count as resumed ("" when it does)."""
    if status != 0 or report is None:
        return f"the resume exited {status}"
    verification = verify(report)
    if not verification.ok:
        return f"its report does not verify: {verification.message}"
    divergences = replay(report).divergences
    if divergences:
        return f"its report does not replay: {divergences[0].describe()}"
    for section in ("findings", "verdicts"):
        if report[section] != uninterrupted[section]:
            return f"its {section} are not the uninterrupted run's"
    return ""


def kill_matrix(points: str | None = None, sample: bool = False, folder: Path | None = None,
                resume: Resume = resume_command) -> Tally:
    """Run every kill point (or those ``points`` names, or the sample), each resumed by ``resume``; the tally."""
    config = drive.load_configuration()
    with tempfile.TemporaryDirectory(prefix="killmatrix-", dir=folder) as temporary:
        root = Path(temporary)
        (root / "reference").mkdir()
        ref = reference(root / "reference")
        chosen = kill_points(ref, config, sample) if points is None else parse_points(points, ref)
        tally = Tally(writes=ref.writes, sends=ref.sends)
        for point in chosen:
            here = root / str(point)
            here.mkdir()
            kept, out, record = here / "journal.jsonl", here / "report.json", here / "record.jsonl"
            with lab_served(record) as port:
                missed = killed_run(point, kept, port)
                if missed:
                    raise RuntimeError(missed)
                killed = journal.read(kept)
                status = resumed_run(kept, out, port, here / "notes.txt", resume)
            report = read_json(out, error=RuntimeError) if out.exists() else None
            judge(tally, point, ref, config, status, report, server.read_record(record), in_doubt(killed),
                  killed.execution)
    return tally


def parse_points(text: str, ref: Reference) -> list[Point]:
    """``10,s3``: after write 10 and after send 3; each within the reference run's."""
    chosen = []
    for part in text.split(","):
        what, digits = (SEND, part[1:]) if part.startswith("s") else (WRITE, part)
        limit = ref.sends if what == SEND else ref.writes
        if not digits.isdigit() or not 1 <= int(digits) <= limit:
            raise ValueError(f"kill point {part!r} is not a write 1-{ref.writes} or a send s1-s{ref.sends}")
        chosen.append(Point(what, int(digits)))
    return chosen


def kill_once(spec: str, kept: Path, url: str) -> str:
    """The reference run with its journal at ``kept``, against the lab served at ``url``, killed at ``spec``.

    Nothing is resumed: the journal is left as the kill left it, for
    ``python -m core.run.main --resume``. Returns one line saying where the kill fell.
    """
    scheme, _, rest = url.partition("://")
    host, _, port = rest.rstrip("/").partition(":")
    if scheme != "http" or host != "127.0.0.1" or not port.isdigit():
        raise ValueError(f"--lab-url must be http://127.0.0.1:PORT, not {url!r}")
    what, digits = (SEND, spec[1:]) if spec.startswith("s") else (WRITE, spec)
    if not digits.isdigit() or int(digits) < 1:
        raise ValueError(f"kill point {spec!r} is not a write (10) or a send (s3)")
    point = Point(what, int(digits))
    missed = killed_run(point, kept, int(port))
    if missed:
        raise RuntimeError(missed)
    last = journal.read(kept).events[-1]
    payload = last["payload"] if isinstance(last["payload"], dict) else {}
    act = payload.get("action_id", "")
    said = f"{last['kind']} {last['status']}" + (f" ({payload['detail']})" if payload.get("detail") else "")
    when = (f"after the lab answered request {point.n}, before the run wrote what came back"
            if what == SEND else f"right after ledger write {point.n}")
    return (f"killed with SIGKILL {when}; the journal's last event, {last['seq']}: {said}"
            + (f" of {act}" if act else ""))


def main_command(argv: list[str] | None = None, resume: Resume = resume_command) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.killmatrix", description=__doc__.splitlines()[0])
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--sample", action="store_true", help="the first point of each kind (the test suite's)")
    choice.add_argument("--points", metavar="LIST", help="kill points by number: 10 is after write 10, s3 after send 3")
    choice.add_argument("--kill", metavar="POINT", help="kill one run at POINT and keep its --journal (needs --lab-url)")
    parser.add_argument("--journal", type=Path, metavar="FILE", help="with --kill: the journal to write (new)")
    parser.add_argument("--lab-url", metavar="URL", help="with --kill: the lab served at http://127.0.0.1:PORT")
    parser.add_argument("--show", action="store_true", help="also print each point that failed, and why")
    parser.add_argument("--decisions", action="store_true",
                        help="no review written down: a person signs each decision when the run waits, after a kill too")
    args = parser.parse_args(argv)
    try:
        if args.decisions:
            if args.kill is not None:
                raise ValueError("--kill kills the reference run once: leave out --decisions")
            decided, ref = killdecisions.kill_matrix(args.points, args.sample)
            print("\n".join(killdecisions.summary(decided, ref) + (decided.failures if args.show else [])))
            return 0 if decided.clean else 1
        if args.kill is not None:
            if args.journal is None or args.lab_url is None:
                raise ValueError("--kill needs --journal FILE and --lab-url URL")
            print(kill_once(args.kill, args.journal, args.lab_url))
            return 0
        tally = kill_matrix(args.points, args.sample, resume=resume)
    except (RuntimeError, ValueError, journal.JournalError) as exc:
        print(f"killmatrix: {exc}", file=sys.stderr)
        return 2
    print("\n".join(summary(tally)))
    if args.show:
        print("\n".join(tally.failures))
    return 0 if tally.clean else 1


if __name__ == "__main__":
    sys.exit(main_command())
