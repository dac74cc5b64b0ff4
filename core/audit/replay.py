"""Replay: decide a sealed run again and list every decision that comes out differently.

The seal (lesson 9) shows that a report is consistent with itself: its
chain holds and its sections are what its ledger derives (and, against a
head kept elsewhere, that it is the report that was sealed). It does not
show the decisions in the ledger were right: a buggy or bent door would
seal its mistakes just as faithfully. Replay checks the decisions
themselves. Every event kept the
payload it was asked with, so a fresh door, built from the report's own
run, policy and gating, is asked the same questions in the same order
(rederive.redo) and each answer is compared with the sealed one (status, id,
code and reason).

The gating names the taxonomy version the run was sealed with, and the door
is built under that version's table (taxonomy.carried_taxonomy), never
today's: a report is judged by the rules it ran under. The report recorded
that table's digest too, so if the table has been edited in place since,
replay says the table changed instead of blaming the report.

Some events have nothing to ask again: a refusal a caller wrote for its own
reasons (a model that failed to answer), a payload with no JSON form, a
payload too large to keep whole (the ledger kept its digest, size and a
prefix). Those are copied into the fresh ledger as they stand, so the
sequence numbers stay in step, and they are reported as not re-decidable:
never as agreeing.

    python3 -m core.audit.replay PATH [--config FILE [--lab DIR]]

Like seal verify, replay on its own judges a report by the setting it
carries; ``--config`` first compares that setting with the operator's
configuration (rederive.against) and refuses to replay a report that was not
made under it. Without it the answer says the report was checked against
itself only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from core.run.commandline import OneLineParser
from core.run.doors import FinalDoor, final_door
from core.run.rederive import DoorError, against, redecidable, redo, verify
from core.run.drive import ConfigError
from core.run.main import add_config_options, checked_against, configured
from core.run.plugins import PluginError
from core.run.records import printable
from core.run.report import ReportError
from core.run.seal import SealError, load_report
from core.safety import SafetyPackError


@dataclass(frozen=True)
class Answer:
    """What the door answered to one question: admitted with an id, or refused with a code and a reason."""

    status: str
    id: str
    reason: str
    code: str

    def __str__(self) -> str:
        if self.status == "admitted":
            return f"admitted {self.id!r}"
        return f"{self.status}: {self.reason}"


@dataclass(frozen=True)
class Divergence:
    """One event whose replayed answer differs from the sealed one."""

    seq: int
    kind: str
    sealed: Answer
    replayed: Answer

    def describe(self) -> str:
        """One line; a reason the report carries is shown with its escapes, never obeyed (records.printable)."""
        codes = f" (codes {self.sealed.code} and {self.replayed.code})" if self.sealed.code != self.replayed.code else ""
        return printable(f"event {self.seq} ({self.kind}): the report says {self.sealed}; "
                         f"the replay decided {self.replayed}{codes}")


@dataclass(frozen=True)
class Replay:
    """Every divergence, in ledger order, and the events that could not be decided again."""

    divergences: tuple[Divergence, ...]
    not_redecided: tuple[int, ...]  # seqs of events that kept no payload to ask with

    def summary(self) -> dict:
        """As data: each divergence in one line (Divergence.describe), and the seqs not decided again."""
        return {"divergences": [divergence.describe() for divergence in self.divergences],
                "not_redecided": list(self.not_redecided)}


def replay(report: dict, door: FinalDoor = final_door, taxonomy_dir: str | Path | None = None) -> Replay:
    """Ask a fresh door every question of ``report`` again and compare its answers with the sealed ones.

    ``report`` is a sealed report (verify it first: replay trusts the
    ledger's order and payloads, not its decisions). Raises DoorError when
    the report's setting cannot be rebuilt, naming what changed. ``door``
    builds the fresh door in doors.final_door's place; ``taxonomy_dir`` is
    the folder the report's taxonomy table is read from (rederive.setting_of).
    """
    divergences = []
    for event, fresh in zip(report["events"], redo(report, door, taxonomy_dir).events):
        sealed, replayed = _answer(event), _answer(fresh)
        if replayed != sealed:
            divergences.append(Divergence(event.get("seq"), event.get("kind"), sealed, replayed))
    not_redecided = tuple(event.get("seq") for event in report["events"]
                          if not redecidable(event) and event.get("status") == "refused")
    return Replay(tuple(divergences), not_redecided)


def _answer(event: dict) -> Answer:
    return Answer(event.get("status"), event.get("id"), event.get("reason"), event.get("code"))


# --- the command line ------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Verify the seal, then replay: exit 0 when every decision agrees, 1 when not, 2 on bad input."""
    parser = OneLineParser("replay", prog="python3 -m core.audit.replay",
                           description="Re-decide every event of a sealed report and list the divergences.")
    parser.add_argument("path", metavar="PATH", help="the sealed report (JSON)")
    add_config_options(parser)
    args = parser.parse_args(argv)
    try:
        report = load_report(args.path)
        setting = configured(args, report)
        if setting is not None and against(report, setting):
            print(printable(f"not replayed, the report differs from {setting.where}: {against(report, setting)}"))
            return 1
        verification = verify(report)
    except (SealError, ReportError, DoorError, ConfigError, PluginError, SafetyPackError) as exc:
        print(printable(" ".join(f"replay: {exc}".split())), file=sys.stderr)
        return 2
    except OSError as exc:
        print(printable(f"replay: {exc.__class__.__name__}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    if not verification.ok:
        print(printable(f"not replayed, the report changed after it was sealed: {verification.message}"))
        return 1
    try:
        result = replay(report)
    except DoorError as exc:
        print(printable(f"replay: {exc}"), file=sys.stderr)
        return 2
    count = len(report["events"])
    skipped = len(result.not_redecided)
    aside = f" ({skipped} refusals kept no question to ask again, copied as they stand)" if skipped else ""
    if not result.divergences:
        print(f"replayed {count} events: every decision agrees{aside}, {checked_against(setting, report)}")
        return 0
    print(f"replayed {count} events: decisions diverge at {len(result.divergences)} of them{aside}")
    for divergence in result.divergences:
        print(divergence.describe())
    return 1


if __name__ == "__main__":
    sys.exit(main())
