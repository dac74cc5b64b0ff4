"""The main job's command: the reference run behind lesson 1, and the commands that check a report.

    python3 -m core.run.main --out PATH [--config FILE] [--lab DIR] [--transport inprocess|http]
                             [--lab-url URL] [--journal FILE | --resume FILE [--reviews DIR]]
                             [--model-url URL --model NAME]

reads the operator's configuration (data/policy/training-authorization-0001.json
by default), drives one run through every stage with every lesson's part
(drive.run) and writes the sealed report. The run is named by the policy and
everything else it met: the digest of every lab fixture and of the model
script, and the rest of the configuration. Edit one fixture and the run
identifier changes.

``--transport http`` serves the lab from this process for the run;
``--lab-url http://127.0.0.1:PORT`` reaches one served on its own instead
(``python -m lab serve --record FILE``), whose record outlives the run.
``--journal FILE`` writes the run's ledger ahead to FILE as it goes
(journal.py); ``--resume FILE`` carries on the run of that journal after a
kill (drive.resume), with the same configuration and lab, and prints one
line for each note the resumption recorded. Without either, a run is what
it always was, byte for byte. A file that is not a journal is refused
(exit status 3) and left as it was; so is a configuration whose reviews
disagree with a decision the journal records (exit status 4).

With a journal, a run whose gate holds an act that no review decides stops
there (exit status 5), everything on disk and nothing in doubt, and prints
one line naming the act, its class and the role it waits for. A person
reads it (``python -m signoff waiting JOURNAL``), signs a decision on that
exact act, and ``--resume FILE --reviews DIR`` carries the run on with the
signed decisions in DIR (decisions.py: each admitted only under a key the
configuration lists for the act's approver role; every other one recorded
as a refusal with its code).

``--model-url URL --model NAME`` makes the run's model the one named NAME
at an OpenAI-compatible endpoint (``ENDPOINT_MODEL``; its API key comes from
the ``OPENAI_API_KEY`` environment variable alone). They replace the
configuration's ``plugins.model`` with ``{"factory": ..., "url": URL,
"model": NAME}``, so the endpoint and the name are part of the configuration
and name the run: another model is another run. The model is made before
the run starts, so a URL it will not use is refused in one line before
anything is written.

The two commands that read a sealed report verify the whole of it, so they
live here, beside the whole harness, and their modules hand over to them:

    python3 -m core.run.seal verify PATH [--head HEX] [--config FILE [--lab DIR] [--reviews DIR]]
    python3 -m core.run.seal seal IN --out OUT
    python3 -m core.run.report render PATH

A report on its own can only be checked against itself: its chain, its
seal and every section its ledger derives, under the policy, gating and
pack it carries. With ``--config`` the report is first compared with the
operator's configuration (rederive.against): the policy, the taxonomy version
against the operator's minimum, the gating, the reviews, the ratified
safety pack and the world, the first that differs named in one line.
Without it, the answer says the report was checked against itself only.

Bad input is one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os
import sys
from contextlib import closing, nullcontext
from dataclasses import replace
from pathlib import Path

from core.run import decisions, drive, seal
from core.run.canon import write_artifact
from core.run.commandline import OneLineParser
from core.run.journal import Journal, JournalError, NotAJournal
from core.run.rederive import DoorError, Setting, against, verify
from core.run.jsonfile import shown_path
from core.run.plugins import PluginError, load_model, load_plugin
from core.run.records import printable
from core.run.report import ReportError, render_markdown
from core.run.seal import SealError, load_report
from core.safety import SafetyPackError


# The model plugin --model-url selects, named as a configuration names a plugin (core never imports it).
ENDPOINT_MODEL = "lab.endpoint:make_model"

# The exit status of each refusal that has one of its own (every other failure of the run exits 1).
EXIT_STATUS = ((NotAJournal, 3), (drive.DecisionsDisagree, 4))
WAITING = 5  # a journaled run stopped at an act that waits for a person's decision


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser("main", prog="python3 -m core.run.main",
                           description="Run the reference configuration against the lab and write the sealed report.")
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the sealed report (JSON)")
    parser.add_argument("--config", type=Path, default=drive.DEFAULT_CONFIG, metavar="FILE",
                        help="the run configuration (default data/policy/training-authorization-0001.json)")
    parser.add_argument("--lab", type=Path, default=drive.DEFAULT_LAB, metavar="DIR",
                        help="the lab folder (default data/lab)")
    parser.add_argument("--transport", choices=drive.TRANSPORTS, default="inprocess",
                        help="reach the lab in process or over real loopback HTTP (default inprocess)")
    parser.add_argument("--lab-url", metavar="URL",
                        help="with --transport http: the lab already served at http://127.0.0.1:PORT")
    kept = parser.add_mutually_exclusive_group()
    kept.add_argument("--journal", type=Path, metavar="FILE", help="write the run's ledger ahead to FILE (new)")
    kept.add_argument("--resume", type=Path, metavar="FILE", help="carry on the run whose journal is FILE")
    parser.add_argument("--reviews", type=Path, metavar="DIR",
                        help="with --resume: a folder of signed decisions on the acts the run waits for")
    parser.add_argument("--model-url", metavar="URL",
                        help="ask the OpenAI-compatible endpoint at URL (key: OPENAI_API_KEY) as the model")
    parser.add_argument("--model", metavar="NAME", help="with --model-url: the model's name at that endpoint")
    args = parser.parse_args(argv)
    label = "resume" if args.resume else "main"
    if args.reviews is not None and args.resume is None:
        return _fail(label, "--reviews gives a resumed run its signed decisions: give --resume FILE too", 2)
    try:
        config = with_model(drive.load_configuration(args.config), args)
        if not (args.lab / "sites").is_dir():
            raise drive.ConfigError(f"--lab {args.lab.name!r} is not a lab folder (it has no sites/)")
        model = load_model(config.plugins["model"], args.lab, config.policy.snapshot()["tools"])
        with served_at(config, args) as adapter:
            if args.resume:
                signed = decisions.read_folder(args.reviews) if args.reviews is not None else None
                resumed = drive.resume(config, args.resume, args.lab, args.transport, model=model, adapter=adapter,
                                       signed=signed)
                for note in resumed.notes:
                    _fail(label, note)
                report = resumed.driven.report
            else:
                report = journaled_run(config, args, adapter, model)
        write_artifact(args.out, report)
    except decisions.Waiting as exc:
        return _fail(label, decisions.said(exc.held, args.resume or args.journal, args.config), WAITING)
    except tuple(error for error, _ in EXIT_STATUS) as exc:
        return _fail(label, str(exc), next(status for error, status in EXIT_STATUS if isinstance(exc, error)))
    except (drive.ConfigError, PluginError, drive.HarnessError, SafetyPackError, JournalError) as exc:
        return _fail(label, str(exc))
    except OSError as exc:
        return _fail(label, f"{exc.__class__.__name__}: {exc.strerror or exc}")
    except Exception as exc:  # a plugin's own failure (the lab server, a fixture): one line, not a traceback
        return _fail(label, f"the run failed: {exc.__class__.__name__}: {exc}")
    return 0


def journaled_run(config: drive.Configuration, args, adapter, model) -> dict:
    """The run's sealed report; with ``--journal``, every event written ahead to the journal first."""
    if args.journal is None:
        return drive.run(config, args.lab, args.transport, model=model, adapter=adapter).report
    sink = Journal.start(args.journal, drive.identify(config, args.lab).to_dict())
    with closing(sink):
        return drive.run(config, args.lab, args.transport, model=model, adapter=adapter, sink=sink).report


def with_model(config: drive.Configuration, args) -> drive.Configuration:
    """``config`` with its ``plugins.model`` asking the endpoint ``--model-url`` names, or as it is without one.

    A configuration that already names a model plugin by an object keeps its
    factory and other settings; ``url`` and ``model`` are replaced.
    """
    if (args.model_url is None) != (args.model is None):
        raise drive.ConfigError("--model-url and --model go together: the endpoint, and the model's name there")
    if args.model_url is None:
        return config
    entry = config.plugins["model"]
    model = {**(entry if isinstance(entry, dict) else {"factory": ENDPOINT_MODEL}),
             "url": args.model_url, "model": args.model}
    raw = {**config.raw, "plugins": {**config.raw["plugins"], "model": model}}
    return drive.configuration(raw, f"{shown_path(args.config)} with --model-url")


def served_at(config: drive.Configuration, args):
    """The configuration's adapter to the lab served at ``--lab-url`` (closed after the run), or nothing to give."""
    if args.lab_url is None:
        return nullcontext(None)
    if args.transport != "http":
        raise drive.ConfigError("--lab-url names a lab served over HTTP: give --transport http too")
    scheme, _, rest = args.lab_url.partition("://")
    host, _, port = rest.rstrip("/").partition(":")
    if scheme != "http" or host != "127.0.0.1" or not port.isdigit() or not 0 < int(port) < 65536:
        raise drive.ConfigError(f"--lab-url must be http://127.0.0.1:PORT, not {args.lab_url!r}")
    return closing(load_plugin(config.plugins["adapter"])("http", None, int(port)))


def seal_command(argv: list[str] | None = None) -> int:
    """``python3 -m core.run.seal``: verify a sealed report (exit 1 when altered), or reseal one."""
    parser = OneLineParser("seal", prog="python3 -m core.run.seal",
                           description="Verify a sealed report, or seal a report again.")
    parser.add_argument("command", choices=["verify", "seal"],
                        help="verify: check the chain, the seal and every derived section; seal: reseal PATH")
    parser.add_argument("path", metavar="PATH", help="the report (JSON)")
    parser.add_argument("--out", metavar="OUT", help="with seal: where to write the resealed report")
    parser.add_argument("--head", metavar="HEX", help="with verify: the head kept elsewhere, to compare whole")
    add_config_options(parser, "with verify: ")
    args = parser.parse_args(argv)
    try:
        report = load_report(args.path)
        if args.command == "seal":
            if not args.out:
                raise SealError("seal needs --out OUT")
            write_artifact(args.out, seal.reseal(report))
            return 0
        if args.head is not None and not seal.is_head(args.head):
            raise SealError("--head must be a whole head: 64 lower-case hex digits")
        setting = configured(args, report)
        if setting is not None and against(report, setting):
            _say([f"differs from {setting.where}: {against(report, setting)}"])
            return 1
        verification = verify(report)
        if verification.ok:  # what it was checked against: the operator's configuration, or itself only
            verification = replace(verification,
                                   message=f"{verification.message}, {checked_against(setting, report)}")
        if args.head is not None:
            verification = seal.against_kept_head(verification, report, args.head)
    except (SealError, ReportError, DoorError, drive.ConfigError, PluginError, SafetyPackError) as exc:
        return _fail("seal", str(exc), 2)
    except OSError as exc:
        return _fail("seal", f"{exc.__class__.__name__}: {exc.strerror or exc}", 2)
    if not verification.ok:
        _say([verification.message])
        return 1
    _say([verification.message] + ([f"head {report['seal']['head']}"] if args.head is None else []))
    return 0


def add_config_options(parser: OneLineParser, prefix: str = "") -> None:
    """``--config FILE`` and ``--lab DIR``: the operator's configuration a report is compared with."""
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=f"{prefix}the operator's configuration, to compare the report's setting with")
    parser.add_argument("--lab", type=Path, default=drive.DEFAULT_LAB, metavar="DIR",
                        help="with --config: the lab folder the run met (default data/lab)")
    parser.add_argument("--reviews", type=Path, metavar="DIR",
                        help="with --config: the signed decisions the run admitted, each checked again")


def configured(args, report: dict) -> Setting | None:
    """The operator's setting named by ``--config`` (and ``--lab``), or None when no configuration was given.

    Its reviews are those the configuration writes down or signs in advance,
    each signed decision the report's ledger keeps whole that the
    configuration's signature check admits again for an act the report's
    gate held (so a forged or altered one gives no review, and the report's
    review of that act is named as one the configuration did not write
    down), and, with ``--reviews``, each signed decision there admitted so.
    """
    if args.config is None:
        if args.reviews is not None:
            raise drive.ConfigError("--reviews checks signed decisions under the operator's keys: give --config too")
        return None
    if not (args.lab / "sites").is_dir():
        raise drive.ConfigError(f"--lab {args.lab.name!r} is not a lab folder (it has no sites/)")
    config = drive.load_configuration(args.config)
    setting = drive.operator_setting(config, args.lab, shown_path(args.config))
    events = report.get("events") if isinstance(report.get("events"), list) else []
    events = [event for event in events if isinstance(event, dict)]
    roles = decisions.roles_of(decisions.held_in(events, config.policy, config.gating))
    files = {**decisions.recorded_notes(events),
             **(decisions.read_folder(args.reviews) if args.reviews is not None else {})}
    given, _ = decisions.admitted(files, setting.run_id, roles, setting.reviews, config.approvers,
                                  decisions.signature_check(config.plugins))
    return replace(setting, reviews={**{subject: decisions.said_by(review) for subject, review in given.items()},
                                     **setting.reviews})


def checked_against(setting: Setting | None, report: dict) -> str:
    """What a report was checked against, for the answer's first line: the operator's configuration, or itself only."""
    if setting is None:
        unchecked = " and no signed review checked under the operator's keys" if decisions.holds_signed(report) else ""
        return f"checked against itself only (see --config){unchecked}"
    return f"under the setting of {setting.where}"


def report_command(argv: list[str] | None = None) -> int:
    """``python3 -m core.run.report render``: the Markdown report; exit 1 when its seal does not hold."""
    parser = OneLineParser("report", prog="python3 -m core.run.report",
                           description="Render a sealed report as Markdown.")
    parser.add_argument("command", choices=["render"], help="render: print the report as Markdown")
    parser.add_argument("path", metavar="PATH", help="the sealed report (JSON)")
    args = parser.parse_args(argv)
    try:
        sealed = load_report(args.path)
        verification = verify(sealed)
        text = render_markdown(sealed, verification)
    except (SealError, ReportError, DoorError) as exc:
        return _fail("report", str(exc), 2)
    _say([text.rstrip("\n")])
    return 0 if verification.ok else 1


def _say(lines: list[str]) -> None:
    """Print ``lines``, each shown, never obeyed (records.printable); a reader that stops early is not an error."""
    try:
        sys.stdout.write("".join(printable(line) + "\n" for line in "\n".join(lines).split("\n")))
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # nothing more to say, and nowhere to say it


def _fail(label: str, message: str, status: int = 1) -> int:
    """Say what went wrong on one line of stderr, a stranger's text in it shown, never obeyed."""
    print(printable(f"{label}: " + " ".join(message.split())), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
