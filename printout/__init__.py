"""`make run`'s report for a terminal: the sealed report, read for a newcomer, within 80 columns.

    python -m printout build/report.json

It reads the sealed JSON (defensively: a section it does not find is said to be
missing, not guessed), then runs the course's own checks on the same file,
``python -m core.run.seal verify`` and ``python -m core.audit.replay``, and
says in one line each what their answer proves. It never re-implements them:
what it prints about the seal and the replay is what those commands said.

The reviews in the reference run were decided in advance, standing in for a
person: written into the operator's configuration (``reviewers``), or signed
and kept in the folder it names (``signed_reviews``, under the keys it
lists); the renderer finds each one there and says so. It lives outside
``core/`` because it uses rich, and ``core/`` is the standard library only;
and outside ``course/``, which is the student's tool.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from core.run.jsonfile import read_json
from core.run.records import printable
from course import manifest

WIDTH = 80
POLICY_FOLDER = "data/policy"


def _console() -> Console:
    width = min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns)
    return Console(width=width, highlight=False, soft_wrap=False, emoji=False)


def _get(data: object, *keys: str, default: object = None) -> object:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


def _list(data: object) -> list:
    return data if isinstance(data, list) else []


def _short(value: object, size: int = 12) -> str:
    return str(value)[:size] if value else "-"


def plain(*parts: object) -> Text:
    """A report's words as rich text that is only text: markup shown as written, escapes shown, never obeyed.

    Much of a report was written outside the harness (a page, a model's
    reply) or by whoever handed the file over; rich would read ``[...]`` in
    it as markup and a terminal would obey escape sequences and
    bidirectional controls, so every such value passes through here.
    """
    return Text(printable("".join(str(part) for part in parts)))


def scripted_reviews(report: dict, root: Path) -> dict[str, str]:
    """review_id -> the configuration file that scripted it, for reviews decided in advance.

    A review counts as scripted when an operator configuration with the report's
    policy reference lists the same subject, reviewer and decision under ``reviewers``,
    or its ``signed_reviews`` folder holds a decision saying so that its keys admit.
    """
    reference = _get(report, "policy", "reference")
    found: dict[str, str] = {}
    for path in sorted((root / POLICY_FOLDER).glob("*.json")):
        try:
            config = read_json(path, error=ValueError)
        except ValueError:
            continue
        if _get(config, "policy", "reference") != reference:
            continue
        written = _configured(_list(_get(config, "reviewers"))) | _signed(path, _get(report, "run", "run_id"))
        for review in _list(_get(report, "reviews")):
            if (_get(review, "subject_id"), _get(review, "reviewer"), _get(review, "decision")) in written:
                found[str(_get(review, "review_id"))] = path.relative_to(root).as_posix()
    return found


def _boundary_verdict(result: object) -> str:
    if _get(result, "runtime_checkable") is False:
        return "declared only"
    upheld = _get(result, "upheld")
    return "upheld" if upheld is True else "VIOLATED" if upheld is False else "not judged"


def _configured(reviewers: list) -> set[tuple]:
    """(subject, reviewer, decision) of each scripted review, the subject named as the run names it.

    The harness's own loader (``load_reviews``) turns a configured entry into the subject a
    review record carries; it is used as it is, not re-implemented here.
    """
    for module in ("core.run.drive", "core.run.harness"):
        try:
            load = importlib.import_module(module).load_reviews
        except (ImportError, AttributeError):
            continue
        try:
            return {(subject, _get(r, "reviewer"), _get(r, "decision")) for subject, r in load(reviewers).items()}
        except Exception:  # noqa: BLE001  a configuration the loader refuses scripts nothing
            return set()
    return {(_get(r, "subject"), _get(r, "reviewer"), _get(r, "decision")) for r in reviewers}


def _signed(path: Path, run_id: object) -> set[tuple]:
    """(subject, reviewer, decision) of each decision the configuration at ``path`` signs in advance, for ``run_id``.

    The harness's own loader and check (drive.in_advance) admit them, as the
    run does; nothing of it is re-implemented here.
    """
    try:
        drive = importlib.import_module("core.run.drive")
        config = drive.load_configuration(path)
        if not config.signed or not isinstance(run_id, str):
            return set()
        reviews = drive.in_advance(config, run_id)[0].reviews
    except Exception:  # noqa: BLE001  a configuration the harness refuses signs nothing
        return set()
    return {(subject, _get(r, "reviewer"), _get(r, "decision")) for subject, r in reviews.items() if "note" in r}


def operator_configuration(report: dict, root: Path) -> Path | None:
    """The operator's configuration the report names by its policy reference, if data/policy holds exactly one.

    The reference is only a name (a report made under another policy can
    carry it too), which is why the checks compare the whole setting with
    the file found here, and say so when it differs.
    """
    reference = _get(report, "policy", "reference")
    found = []
    for path in sorted((root / POLICY_FOLDER).glob("*.json")):
        try:
            config = read_json(path, error=ValueError)
        except ValueError:
            continue
        if isinstance(reference, str) and _get(config, "policy", "reference") == reference:
            found.append(path)
    return found[0] if len(found) == 1 else None


def run_check(module: str, report_path: Path, root: Path, config: Path | None = None) -> tuple[int, str]:
    """Run ``python -m MODULE [verify] PATH [--config FILE]`` and return its exit status and its output."""
    argv = [sys.executable, "-m", module, *(["verify"] if module == "core.run.seal" else []), str(report_path),
            *(["--config", str(config)] if config is not None else [])]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True)
    return done.returncode, (done.stdout + done.stderr).strip()


def render(report: dict, report_path: Path, root: Path, out: Console) -> int:
    """Print the report; return 0 if the seal and the replay both hold, else 1."""
    reference = _get(report, "policy", "reference", default="(no policy reference)")
    closed = _get(report, "closed")
    events = _list(_get(report, "events"))
    refused = [e for e in events if _get(e, "status") == "refused"]
    outcome = (f"{_get(closed, 'how')} at event {_get(closed, 'seq')}: {_get(closed, 'reason')}"
               if isinstance(closed, dict) else "not closed")
    head = Text()
    head.append("Run ", style="bold").append(plain(_short(_get(report, "run", "run_id"), 16)))
    head.append(f"  ({len(events)} events, {len(refused)} refused)\n")
    head.append("Outcome ", style="bold").append(plain(outcome))
    head.append("\nLast stage ", style="bold").append(plain(_get(report, "stage", default="-") or "-"))
    out.print(Panel(head, title=plain("Reference run under ", reference), title_align="left"))

    findings = Table(title="Findings and their verdicts", title_justify="left", expand=True, show_lines=True)
    findings.add_column("Verdict", no_wrap=True)
    findings.add_column("Claim, and the quote it cites", ratio=1, overflow="fold")
    verdicts = {_get(v, "finding_id"): v for v in _list(_get(report, "verdicts"))}
    for finding in _list(_get(report, "findings")):
        verdict = verdicts.get(_get(finding, "finding_id"), {})
        findings.add_row(plain(_get(verdict, "verdict", default="not verified")),
                         Text("\n").join([plain(_get(finding, "claim")),
                                           plain("quote: ", _get(finding, "quote"), " (capture ",
                                                 _short(_get(finding, "capture_id")), ")"),
                                           plain("why: ", _get(verdict, "reason", default="no verdict was recorded"))]))
    out.print(findings if findings.row_count else "No findings.")

    scripted = scripted_reviews(report, root)
    reviews = Table(title="Decisions a person makes (here: scripted stand-ins)", title_justify="left",
                    expand=True, show_lines=True)
    reviews.add_column("Action held for review, and the decision", ratio=1, overflow="fold")
    for review in _list(_get(report, "reviews")):
        source = scripted.get(str(_get(review, "review_id")))
        who = "scripted, standing in for a person" if source else "not found in any configuration"
        reviews.add_row(Text("\n").join([plain(_get(review, "subject_id")),
                                          plain(_get(review, "decision"), " by ", _get(review, "reviewer"),
                                                f" ({who}): ", _get(review, "reason"))]))
    out.print(reviews if reviews.row_count else "No action was held for review.")
    for source in sorted(set(scripted.values())):
        out.print(plain(f"Scripted: {sum(v == source for v in scripted.values())} decision(s) above were made "
                        f"before the run, as {source} says ('reviewers', 'signed_reviews'), because no person is "
                        "at the keyboard. The gate still held each action until its review was in the ledger. "
                        "A signed one counts only under a key the configuration lists; the reference run's is a "
                        "demo key derived from a public phrase, so its signatures prove nothing about who "
                        "decided."))

    refusals = Table(title=f"Refusals ({len(refused)}): what the door turned away, and why",
                     title_justify="left", expand=True)
    refusals.add_column("#", justify="right", no_wrap=True)
    refusals.add_column("Kind", no_wrap=True)
    refusals.add_column("Reason", ratio=1, overflow="fold")
    for event in refused:
        refusals.add_row(plain(_get(event, "seq")), plain(_get(event, "kind")), plain(_get(event, "reason")))
    out.print(refusals)

    safety = _get(report, "safety")
    if isinstance(safety, dict):
        table = Table(title=plain("Safety pack ", _get(safety, "pack_id")), title_justify="left", expand=True)
        table.add_column("Boundary", no_wrap=True)
        table.add_column("Verdict", ratio=1, overflow="fold")
        for result in _list(_get(safety, "results")):
            table.add_row(plain(_get(result, "boundary_id")), plain(_boundary_verdict(result), ": ",
                                                                   _get(result, "reason")))
        out.print(table)
        out.print("'Declared only' means the pack states the boundary but no run can show it held "
                  "(it is a property of the code or the deployment); the report says so rather than "
                  "claim a check it did not make.")

    seal = _get(report, "seal")
    out.print(Text("Seal", style="bold"))
    others = sorted(k for k in (seal if isinstance(seal, dict) else {}) if k not in ("algorithm", "events", "head"))
    out.print(plain(f"{_get(seal, 'algorithm')}: a hash chain (SHA-256 over canonical JSON) runs through the "
                    f"events in order, each hash covering its event and the hash before it, so the head, "
                    f"{_short(_get(seal, 'head'), 16)}..., commits to all {_get(seal, 'events')} events; "
                    f"the seal's other digests ({', '.join(map(str, others)) or 'none'}) cover the rest of the "
                    "report. Keep the head somewhere the report's owner cannot edit."))

    status = 0
    out.print(Text("Checked just now, by the course's own commands", style="bold"))
    checks = (
        ("core.run.seal", "seal verify", "the chain holds and every section is what the ledger derives, "
                                         "checked against the report itself."),
        ("core.audit.replay", "replay", "the rules it was sealed under give every decision again."),
    )
    config = operator_configuration(report, root)  # compared whole, so a borrowed reference name shows
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True, min_width=11)
    grid.add_column(ratio=1, overflow="fold")
    for module, name, proves in checks:
        code, said = run_check(module, report_path, root, config)
        first = said.splitlines()[0] if said else "(no output)"
        if code == 0:
            grid.add_row(name, plain(first))
            grid.add_row("", Text(f"proves: {proves}"))
        else:
            status = 1
            grid.add_row(name, plain(f"FAILED (exit {code}): {' '.join(said.split())}"))
    out.print(grid)

    lesson = next((l for l in manifest.load(root) if l.number == 1), None)
    if lesson:
        where = lesson.page if lesson.ready else f"{lesson.page}, being written"
        out.print(f"Next: lesson 1, {lesson.title}, reads this report section by section ({where}).",
                  markup=False)
    return status


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m printout REPORT.json", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        report = read_json(path, error=ValueError, what="report")  # as strict as the harness's own readers
    except ValueError as exc:
        print(f"printout: cannot read {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if not isinstance(report, dict):
        print(f"printout: {path} is not a report (its top level is not an object)", file=sys.stderr)
        return 2
    return render(report, path.resolve(), manifest.course_root(), _console())

