"""Lesson 11's demo: five sealed runs in a log, published and witnessed, and a forger who fails against it.

    python -m tlog.demo --out data/course/tlog-demo.json
    python -m tlog.demo --file NAME --out PATH     one file of the demo's log folder, data/course/tlog/
    python -m tlog.demo --files DIR                every file of that folder

The story, in the order the demo plays it:

1. Five sealed reports are appended to one log, one leaf each: lesson 9's
   finished, aborted and twin runs, the reference run behind lesson 1, and
   a later run. After each append the log publishes a checkpoint signed with
   its key, and the witness cosigns it once the consistency proof from the
   last one it cosigned holds.
2. A client of the reference run keeps the witnessed checkpoint of size 4,
   the one that first held its report's head.
3. The forger rewrites the reference run through a fresh door and reseals
   it (forgery.py): ``seal verify`` and replay pass it. Against the log it
   fails, because the log holds the genuine head for that run.
4. The forger has the log's key, so he builds a log of his own, the genuine
   leaf swapped for his, and signs its checkpoint. ``verify`` alone passes
   it. ``--witness`` does not (he has no witness key, and the witness
   refuses his checkpoint as a fork), nor does the kept checkpoint (no
   consistency proof joins it to his tree).

Every key is a committed demo key and the witness's clock is fixed, so every
file is byte-identical on every run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from core.audit.replay import replay
from core.run.canon import artifact_text, write_artifact
from core.run.demo_seal import aborted_run, finished_run, sealed
from core.run.rederive import verify as verify_report
from tlog import audit, keys
from tlog.checkpoint import Checkpoint, sign_checkpoint
from tlog.forgery import forge, stories
from tlog.logfile import Log
from tlog.proofs import ConsistencyProof, InclusionProof
from tlog.witness import WitnessError, cosign, proof_for_witness

REFERENCE_REPORT = Path(__file__).resolve().parent.parent / "data" / "course" / "report.json"
DEMO_TIME = 1767225600  # the witness's clock in the demo: 2026-01-01, midnight UTC, plus a minute per cosign
KEPT_SIZE = 4  # the checkpoint the reference run's client keeps: the first that holds its head

# The log folder the demo writes (data/course/tlog/): each file's name and what it is.
FILES = {
    "heads.log": "the log: one line per sealed run",
    "heads.log.checkpoint": "the checkpoint the log published last, signed by the log and cosigned by the witness",
    "kept.checkpoint": "the witnessed checkpoint of size 4, kept by the reference run's client",
    "witness.state": "the witness's own state: the last checkpoint it cosigned, as it cosigned it",
    "forged-report.json": "the reference run, rewritten through a fresh door and resealed",
    "forger/heads.log": "the forger's log: the genuine leaf of the reference run swapped for the forged one",
    "forger/heads.log.checkpoint": "the forger's checkpoint, signed with the log's key",
}


def reports() -> list[tuple[str, dict]]:
    """The five sealed reports the demo logs, in order, each with what it is."""
    reference = json.loads(REFERENCE_REPORT.read_text(encoding="utf-8"))
    return [
        ("lesson 9's finished run", sealed(finished_run())),
        ("lesson 9's aborted run", sealed(aborted_run())),
        ("lesson 9's twin run, made in another world", sealed(finished_run("seal-demo-twin"))),
        ("the reference run behind lesson 1 (data/course/report.json)", reference),
        ("a later run, logged after the client kept its checkpoint", sealed(finished_run("tlog-demo-later"))),
    ]


def publish(log: Log) -> str:
    return sign_checkpoint(Checkpoint(log.origin, log.size, log.root()), keys.demo_signer("log"))


def witness_cosigns(log: Log, signed: str, state: Path, minute: int) -> tuple[str, str]:
    """The witness's answer to ``signed``: the log hands it the proof from the size it last cosigned."""
    log_key, witness = keys.demo_signer("log").verifier(), keys.demo_signer("witness")
    proof = proof_for_witness(log, signed, state, log_key, witness.verifier())
    return cosign(signed, proof, log_key=log_key, witness=witness, state=state, timestamp=DEMO_TIME + 60 * minute)


def build() -> tuple[dict, dict[str, str]]:
    """The artifact and the text of every file of the log folder."""
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder) / "witness.state"
        return _play(state)


def _play(state: Path) -> tuple[dict, dict[str, str]]:
    log = Log(keys.LOG_ORIGIN)
    leaves, witnessed, kept = [], [], ""
    logged = reports()
    for what, report in logged:
        entry = audit.report_entry(report)
        index, _ = log.append(entry)
        published, why = witness_cosigns(log, publish(log), state, log.size)
        witnessed.append({"size": log.size, "witness": why})
        leaves.append({"index": index, "run_id": entry.run_id, "head": entry.head, "what": what})
        if log.size == KEPT_SIZE:
            kept = published
    reference = logged[3][1]
    genuine = audit.report_entry(reference)
    index = log.index_of(genuine.run_id)
    inclusion = InclusionProof(index, log.size, log.root(), genuine.leaf_hash(), tuple(log.inclusion_path(index)))
    consistency = ConsistencyProof(KEPT_SIZE, log.size, log.root(KEPT_SIZE), log.root(),
                                   tuple(log.consistency_path(KEPT_SIZE)))

    forged = forge(reference)
    fake = audit.report_entry(forged)
    checked = verify_report(forged)
    replayed = replay(forged)
    forger_log = Log(log.origin, [fake if e.run_id == fake.run_id else e for e in log.entries])
    his_proof = InclusionProof(index, forger_log.size, forger_log.root(), fake.leaf_hash(),
                               tuple(forger_log.inclusion_path(index)))
    witness_line = published.split("\n\n", 1)[1].splitlines()[1] + "\n"
    forger_published = publish(forger_log) + witness_line  # he copies the witness's line across: it cannot fit
    try:
        witness_cosigns(forger_log, publish(forger_log), state, log.size + 1)
        to_the_witness = "cosigned"
    except WitnessError as exc:
        to_the_witness = f"refused: {exc}"

    log_key = keys.demo_signer("log").verifier()
    options = audit.Options(log_key=log_key)
    witness_options = audit.Options(log_key=log_key, witness_key=keys.demo_signer("witness").verifier())
    kept_options = audit.Options(log_key=log_key, kept=kept)
    demo = {
        "about": "lesson 11's demo, written by python -m tlog.demo: a log of sealed runs and a forger against it",
        "origin": log.origin,
        "log_key": log_key.encode(),
        "witness_key": keys.demo_signer("witness").verifier().encode(),
        "leaves": leaves,
        "witness": witnessed,
        "published": published,
        "kept": kept,
        "inclusion": {"of": "the reference run", **inclusion.to_json()},
        "consistency": {"from": "the kept checkpoint", **consistency.to_json()},
        "genuine": {"verify": _verdict(log, published, reference, options),
                    "verify --witness": _verdict(log, published, reference, witness_options),
                    "verify --checkpoint kept": _verdict(log, published, reference, kept_options)},
        "forgery": {
            "deleted": stories(reference),
            "run_id": fake.run_id,
            "head": fake.head,
            "seal verify": checked.message,
            "replay": "every decision agrees" if not replayed.divergences else "decisions diverge",
            "against the log": _verdict(log, published, forged, options),
        },
        "forger": {
            "inclusion": {"of": "the forged report, in his log", **his_proof.to_json()},
            "his log, his checkpoint: verify": _verdict(forger_log, forger_published, forged, options),
            "verify --witness": _verdict(forger_log, forger_published, forged, witness_options),
            "verify --checkpoint kept": _verdict(forger_log, forger_published, forged, kept_options),
            "the witness, handed his checkpoint": to_the_witness,
        },
    }
    files = {
        "heads.log": log.text(),
        "heads.log.checkpoint": published,
        "kept.checkpoint": kept,
        "witness.state": state.read_text(encoding="utf-8"),
        "forged-report.json": artifact_text(forged),
        "forger/heads.log": forger_log.text(),
        "forger/heads.log.checkpoint": forger_published,
    }
    return demo, files


def _verdict(log: Log, published: str, report: dict, options: audit.Options) -> str:
    try:
        return audit.judge(log, published, report, options)
    except audit.Refused as exc:
        return f"refused: {exc}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tlog.demo", description="Write lesson 11's demo artifact.")
    parser.add_argument("--out", metavar="PATH", help="where to write the JSON artifact (or, with --file, the file)")
    parser.add_argument("--file", choices=list(FILES), metavar="NAME",
                        help=f"write this file of the log folder instead ({', '.join(FILES)})")
    parser.add_argument("--files", metavar="DIR", help="write every file of the log folder into DIR")
    args = parser.parse_args(argv)
    if (args.out is None) == (args.files is None) or (args.file and not args.out):
        print("tlog.demo: give --out PATH (with --file NAME for one file), or --files DIR (see --help)",
              file=sys.stderr)
        return 2
    try:
        demo, files = build()
        if args.files:
            for name, text in files.items():
                _write(Path(args.files) / name, text)
        elif args.file:
            _write(Path(args.out), files[args.file])
        else:
            write_artifact(args.out, demo)
    except OSError as exc:
        print(f"tlog.demo: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
