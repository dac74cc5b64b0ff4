"""``python -m lab serve [--port N] [--lab DIR]``: the lab on a real loopback server.

Bad command-line input gets one line on stderr and exit status 2, never a
traceback: a student should read what went wrong, not where.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from lab import DEFAULT_LAB_DIR, server
from lab.fixtures import FixtureError, check_lab_dir


@click.group(no_args_is_help=False)
def cli() -> None:
    """The fixture lab: a fictional target for authorized-testing lessons."""


@cli.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port on 127.0.0.1; 0 picks a free one.")
@click.option("--lab", "lab_dir", type=click.Path(file_okay=False, path_type=Path), help="Fixture folder to serve.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Append one JSON line per request that reaches the lab to this file.")
def serve(port: int, lab_dir: Path | None, record: Path | None) -> None:
    """Serve the lab on 127.0.0.1 until interrupted (SIGINT or SIGTERM)."""
    lab_dir = DEFAULT_LAB_DIR if lab_dir is None else lab_dir
    if record is not None and os.path.lexists(record) and not record.is_file():
        # appended to as requests arrive: a FIFO would hang the request that met it, a loop would fail it
        raise click.BadParameter(f"{record.name} is not a regular file (a FIFO, device or a link that loops)",
                                 param_hint="'--record'")
    try:
        check_lab_dir(lab_dir)
    except FixtureError as error:
        raise click.BadParameter(str(error), param_hint="'--lab'") from None
    try:
        server.serve(port, lab_dir, record)
    except OSError as error:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {error.strerror}") from None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status instead of raising."""
    try:
        status = cli.main(args=argv, prog_name="python -m lab", standalone_mode=False)
    except click.ClickException as error:
        message = " ".join(error.format_message().split())  # always exactly one line
        print(f"lab: {message}", file=sys.stderr)
        return 2 if isinstance(error, click.UsageError) else 1
    except click.Abort:
        return 1
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
