"""``python -m tlog``: the transparency log's commands.

    python -m tlog append LOG REPORT           add a sealed report's head (one leaf per run)
    python -m tlog prove LOG REPORT            its inclusion proof, as JSON
    python -m tlog consistency LOG OLD_SIZE    the consistency proof from an earlier size, as JSON
    python -m tlog checkpoint LOG [--publish]  the signed checkpoint (--publish: write LOG.checkpoint)
    python -m tlog cosign LOG --state FILE     the witness: check consistency, then cosign LOG.checkpoint
    python -m tlog verify LOG REPORT [--checkpoint KEPT] [--witness]
    python -m tlog vectors DIR                 the verifier against the published vectors

A log is the file LOG (one line per run, tlog/v1) and the checkpoint it
published, LOG.checkpoint, signed by the log's key and cosigned by the
witness. Keys default to the course's committed demo keys (data/tlog/).

Exit status: 0 when the answer is yes; 1 when it is no (verify refuses, an
append is refused, a witness will not cosign), with one line saying why; 2
for bad input, with one line on stderr. Never a traceback.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click

from core.run.seal import load_report
from tlog import audit, files, keys, merkle, vectors
from tlog.checkpoint import Checkpoint, sign_checkpoint
from tlog.logfile import Entry, Log, LogError, read_log, write_log
from tlog.proofs import ConsistencyProof, InclusionProof, consistency_from_json, inclusion_from_json
from tlog.witness import WitnessError, proof_for_witness
from tlog.witness import cosign as witness_cosign

FILE = click.Path(dir_okay=False, path_type=Path)


class Answer(Exception):
    """A 'no' with its reason: printed as one line, exit status 1."""


def _entry(path: Path) -> Entry:
    """The run and head of the sealed report at ``path``, once it verifies on its own; Answer if it does not."""
    try:
        return audit.report_entry(load_report(path))
    except audit.Refused as exc:
        raise Answer(f"refused: {exc}") from None


def _print_json(value: dict) -> None:
    click.echo(json.dumps(value, indent=2))


def _size(log: Log, size: int | None) -> int:
    if size is not None and size > log.size:
        raise LogError(f"the log has {log.size} leaves; it has no tree of size {size}")
    return log.size if size is None else size


@click.group()
def cli() -> None:
    """The transparency log of sealed runs: append, prove, publish, witness, verify."""


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.argument("report_path", metavar="REPORT", type=FILE)
@click.option("--origin", default=keys.LOG_ORIGIN, show_default=True, help="The origin of a new log.")
def append(log_path: Path, report_path: Path, origin: str) -> None:
    """Add REPORT's head to LOG (created if missing). The same head again changes nothing."""
    entry = _entry(report_path)
    log = read_log(log_path) if os.path.lexists(log_path) else Log(_origin(origin))  # a link that loops is read
    try:
        index, changed = log.append(entry)
    except LogError as exc:
        raise Answer(str(exc)) from None
    if changed:
        write_log(log_path, log)
        leaves = "1 leaf" if log.size == 1 else f"{log.size} leaves"
        click.echo(f"appended run {entry.run_id[:audit.SHORT]} as leaf {index}: the log holds {leaves}")
    else:
        click.echo(f"already in the log: run {entry.run_id[:audit.SHORT]} is leaf {index} with this head; "
                   "nothing changed")


def _origin(origin: str) -> str:
    if not origin or any(c.isspace() or c == "+" for c in origin):
        raise click.BadParameter("an origin is non-empty, with no spaces or '+'", param_hint="'--origin'")
    return origin


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.argument("report_path", metavar="REPORT", type=FILE)
@click.option("--size", type=click.IntRange(1), help="Prove under the tree of this size (default: the whole log).")
def prove(log_path: Path, report_path: Path, size: int | None) -> None:
    """Print the inclusion proof of REPORT's head in LOG, as JSON."""
    log = read_log(log_path)
    entry = _entry(report_path)
    size = _size(log, size)
    index = log.index_of(entry.run_id)
    if index is None or log.entries[index].head != entry.head:
        held = "no leaf" if index is None else f"leaf {index} with another head"
        raise Answer(f"refused: the log holds {held} for run {entry.run_id[:audit.SHORT]}")
    if index >= size:
        raise Answer(f"refused: run {entry.run_id[:audit.SHORT]} is leaf {index}, not in the tree of size {size}")
    proof = InclusionProof(index, size, log.root(size), entry.leaf_hash(), tuple(log.inclusion_path(index, size)))
    _print_json(proof.to_json())


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.argument("old_size", metavar="OLD_SIZE", type=click.IntRange(0))
@click.option("--size", type=click.IntRange(0), help="The newer size (default: the whole log).")
def consistency(log_path: Path, old_size: int, size: int | None) -> None:
    """Print the proof that LOG's tree of OLD_SIZE leaves is a prefix of its tree now, as JSON."""
    log = read_log(log_path)
    size = _size(log, size)
    if old_size > size:
        raise LogError(f"OLD_SIZE {old_size} is bigger than the tree of size {size}")
    proof = ConsistencyProof(old_size, size, log.root(old_size), log.root(size),
                             tuple(log.consistency_path(old_size, size)))
    _print_json(proof.to_json())


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.option("--key", "key_path", type=FILE, default=keys.default_path("log", True),
              help="The log's signer key [default: the demo key, data/tlog/demo-log.key].", show_default=False)
@click.option("--publish", is_flag=True, help="Also write it to LOG.checkpoint, replacing the one published before.")
def checkpoint(log_path: Path, key_path: Path, publish: bool) -> None:
    """Print LOG's checkpoint now, signed with the log's key (C2SP tlog-checkpoint)."""
    log = read_log(log_path)
    signed = sign_checkpoint(Checkpoint(log.origin, log.size, log.root()), keys.read_signer(key_path))
    if publish:
        _write(audit.published_path(log_path), signed)
    click.echo(signed, nl=False)


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.option("--state", "state_path", type=FILE, required=True,
              help="The witness's own file: the last checkpoint it cosigned (created on first use).")
@click.option("--key", "key_path", type=FILE, default=keys.default_path("witness", True),
              help="The witness's signer key [default: the demo key, data/tlog/demo-witness.key].")
@click.option("--log-key", "log_key_path", type=FILE, default=keys.default_path("log", False),
              help="The log's verifier key [default: data/tlog/demo-log.pub].")
@click.option("--time", "timestamp", type=click.IntRange(0, 2**63 - 1),
              help="The witness's clock, in seconds since the epoch [default: now].")
def cosign(log_path: Path, state_path: Path, key_path: Path, log_key_path: Path, timestamp: int | None) -> None:
    """The witness: cosign LOG.checkpoint, once the log's proof shows it grew from the last one cosigned."""
    log = read_log(log_path)
    published = audit.published_path(log_path)
    signed = _read(published)
    log_key, witness = keys.read_verifier(log_key_path), keys.read_signer(key_path)
    proof = proof_for_witness(log, signed, state_path, log_key, witness.verifier())  # an edited state is bad input
    try:
        witnessed, why = witness_cosign(signed, proof, log_key=log_key, witness=witness, state=state_path,
                                        timestamp=int(time.time()) if timestamp is None else timestamp)
    except WitnessError as exc:
        raise Answer(f"refused: {exc}") from None
    _write(published, witnessed)
    click.echo(f"cosigned {published.name}: {why}")


@cli.command()
@click.argument("log_path", metavar="LOG", type=FILE)
@click.argument("report_path", metavar="REPORT", type=FILE)
@click.option("--checkpoint", "kept_path", type=FILE, help="A signed checkpoint kept elsewhere: the log must have grown from it.")
@click.option("--witness", "witnessed", is_flag=True, help="Require the witness's cosignature on the published checkpoint.")
@click.option("--proof", "proof_path", type=FILE, help="Check this inclusion proof (as prove prints it).")
@click.option("--consistency-proof", "consistency_path", type=FILE,
              help="Check this consistency proof from the kept checkpoint (as consistency prints it).")
@click.option("--log-key", "log_key_path", type=FILE, default=keys.default_path("log", False),
              help="The log's verifier key [default: data/tlog/demo-log.pub].")
@click.option("--witness-key", "witness_key_path", type=FILE, default=keys.default_path("witness", False),
              help="The witness's verifier key [default: data/tlog/demo-witness.pub].")
def verify(log_path: Path, report_path: Path, kept_path: Path | None, witnessed: bool, proof_path: Path | None,
           consistency_path: Path | None, log_key_path: Path, witness_key_path: Path) -> None:
    """Pass only a REPORT whose head is in LOG under its signed checkpoint; say what fails."""
    log = read_log(log_path)
    options = audit.Options(
        log_key=keys.read_verifier(log_key_path),
        witness_key=keys.read_verifier(witness_key_path) if witnessed else None,
        kept=_read(kept_path) if kept_path else None,
        proof=inclusion_from_json(_json(proof_path)) if proof_path else None,
        consistency=consistency_from_json(_json(consistency_path)) if consistency_path else None,
    )
    report = load_report(report_path)
    published = audit.published_path(log_path)
    if not os.path.lexists(published):  # a link that loops is there, to be refused by the reader
        click.echo(f"refused: the log has published no checkpoint ({published.name} is missing): "
                   "run checkpoint LOG --publish")
        raise SystemExit(1)
    try:
        click.echo(audit.judge(log, _read(published), report, options))
    except audit.Refused as exc:
        click.echo(f"refused: {exc}")
        raise SystemExit(1) from None


@cli.command("vectors")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--from-empty", type=click.Choice(merkle.FROM_EMPTY_RULES),
              help="Run both sets under this rule for a consistency proof from size 0 (default: each set's own).")
def vectors_command(folder: Path, from_empty: str | None) -> None:
    """Run the proof verifier over the published vectors in DIR and count how many agree."""
    tallies = vectors.run(folder, from_empty)
    for line in vectors.report(tallies, from_empty is not None):
        click.echo(line)
    if any(tally.agree != tally.total for tally in tallies):
        raise SystemExit(1)


def _read(path: Path) -> str:
    return files.read_text(path, "checkpoint file")


def _json(path: Path) -> object:
    return files.read_json(path, "proof file")


def _write(path: Path, text: str) -> None:
    try:
        files.replace(path, text)
    except OSError as exc:
        raise click.FileError(str(path), exc.strerror or str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    """Run a command; return its exit status. Every error is one line, never a traceback."""
    try:
        status = cli.main(args=argv, prog_name="python -m tlog", standalone_mode=False)
    except Answer as exc:
        click.echo(str(exc), err=True)
        return 1
    except click.ClickException as exc:
        click.echo(f"tlog: {' '.join(exc.format_message().split())}", err=True)
        return 2
    except (*audit.BAD_INPUT, vectors.VectorError) as exc:
        click.echo(f"tlog: {' '.join(str(exc).split())}", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("tlog: aborted", err=True)
        return 1
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return status if isinstance(status, int) else 0
