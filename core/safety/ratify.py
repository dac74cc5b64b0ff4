"""Ratify the safety pack: seal a companion report and bind the pack to it.

    python3 -m core.safety.ratify [--pack-dir DIR] [PACK_ID]

Ratifying is a person's act, done after reading every boundary: run this
command, review the diff, commit the pack and its report together. The
command writes ``<pack_id>.ratification.json`` (sealed with the digest of
its own content) and puts that report's digest into the pack, which is what
pack.load_safety_pack checks at start-up.

Both files are written as deterministic artifacts, so running the command
twice changes nothing, and anyone can run it on a clean checkout to confirm
the committed files are what ratifying the committed boundaries gives.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.run.canon import digest, write_artifact
from core.run.commandline import OneLineParser
from core.safety.pack import (
    DEFAULT_SAFETY_PACK,
    PACK_DIR,
    SafetyPackError,
    pack_digest,
    pack_path,
    read_pack,
    report_path,
    seal_of,
)

STATEMENT = (
    "These boundaries were read and accepted as the ones this harness keeps in every run. "
    "Any change to the pack breaks this ratification until the pack is ratified again."
)


def ratification_report(document: dict) -> dict:
    """The sealed report for a pack document: what was ratified, and the seal over it."""
    report = {
        "pack_id": document["pack_id"],
        "pack_digest": pack_digest(document),
        "boundary_ids": sorted(document["boundaries"]),
        "statement": STATEMENT,
    }
    return {**report, "seal": seal_of(report)}


def ratify(pack_dir: Path, pack_id: str) -> str:
    """Write the report and bind the pack to it; returns the report's digest."""
    document = read_pack(pack_dir, pack_id)
    report = ratification_report(document)
    report_digest = digest(report)
    write_artifact(report_path(pack_dir, pack_id), report)
    write_artifact(pack_path(pack_dir, pack_id), {**document, "ratification_digest": report_digest})
    return report_digest


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(
        "ratify",
        prog="python3 -m core.safety.ratify",
        description="Seal the safety pack's ratification report and embed its digest in the pack.",
    )
    parser.add_argument("pack_id", nargs="?", default=DEFAULT_SAFETY_PACK, metavar="PACK_ID",
                        help=f"the pack to ratify (default {DEFAULT_SAFETY_PACK})")
    parser.add_argument("--pack-dir", type=Path, default=PACK_DIR, metavar="DIR",
                        help="the folder holding the pack (default data/packs/safety)")
    args = parser.parse_args(argv)
    try:
        report_digest = ratify(args.pack_dir, args.pack_id)
    except SafetyPackError as exc:
        print(f"ratify: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"ratify: cannot write the pack {args.pack_id}: {exc.strerror or exc.__class__.__name__}",
              file=sys.stderr)
        return 1
    print(f"ratified {args.pack_id}: report digest {report_digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
