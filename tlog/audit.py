"""Judging a sealed report against the log: is this the report that was published?

Lesson 9's seal shows a report is the one whose head you hold; it cannot
show which head is the right one, because anyone who rewrites a report can
reseal it. The log answers that, in the order ``judge`` checks:

1. the report verifies on its own (core's chain, seal and derived sections);
2. the log's published checkpoint is signed by the log's key, and the log
   file is exactly the tree it signed (same origin, its root at that size);
3. the log holds a leaf for the report's run, and that leaf's head is this
   report's head: a resealed rewrite of the run has another head, and fails here;
4. the leaf is under the checkpoint, and its inclusion proof leads to the
   checkpoint's root (the one ``prove`` prints, when one is given);
5. asked ``--witness``: the checkpoint carries a valid cosignature by the
   witness's key, which cosigns only a log that grew from what it saw;
6. given a kept checkpoint: it is signed by the log's key, and a consistency
   proof joins it to the published one (the log only grew since it was kept).

What this does not give: steps 2 to 4 hold for anyone with the log's key,
who can build a log of their own around a forged head and sign it. Only
steps 5 and 6 stop that, and only where the witness's key and the kept
checkpoint are in other hands than the log's key. In the course all three
are committed demo keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.run.rederive import verify as verify_report
from core.run.report import ReportError
from core.run.seal import SealError
from tlog import files, merkle, note
from tlog.checkpoint import Checkpoint, CheckpointError, open_checkpoint
from tlog.logfile import Entry, Log, LogError
from tlog.proofs import ConsistencyProof, InclusionProof, ProofFormatError
from tlog.witness import WitnessError, check_cosignature

SHORT = 12  # hex digits of a run id or a head a one-line answer prints


class Refused(Exception):
    """The report is not shown to be the published one; the message says which check failed."""


def published_path(log_path: str | Path) -> Path:
    """Where a log's published checkpoint lives: beside the log, its name plus ``.checkpoint``."""
    return Path(str(log_path) + ".checkpoint")


def report_entry(report: dict) -> Entry:
    """The run identifier and head of a sealed report that verifies on its own; Refused otherwise.

    Raises SealError or ReportError (bad input) for something that is not a
    sealed harness report at all.
    """
    verification = verify_report(report)
    if not verification.ok:
        raise Refused(f"the report does not verify on its own: {verification.message}")
    try:
        return Entry(report["run"]["run_id"], report["seal"]["head"])
    except LogError as exc:
        raise Refused(f"the report cannot be a leaf: {exc}") from None


@dataclass(frozen=True)
class Options:
    """What ``verify`` is asked besides the log's own signature."""

    log_key: note.Verifier
    witness_key: note.Verifier | None = None  # set: a valid cosignature by this key is required
    kept: str | None = None  # a signed checkpoint kept elsewhere, that the log must have grown from
    proof: InclusionProof | None = None  # an inclusion proof to check, instead of one made from the log
    consistency: ConsistencyProof | None = None  # a consistency proof from the kept checkpoint to check


def judge(log: Log, published: str, report: dict, options: Options) -> str:
    """One line saying what holds, when every check holds; Refused naming the first that does not."""
    entry = report_entry(report)
    checkpoint = _published(log, published, options.log_key)
    index = _leaf_of(log, entry)
    if index >= checkpoint.size:
        raise Refused(f"run {entry.run_id[:SHORT]} is leaf {index}, not yet under the published checkpoint "
                      f"({checkpoint.short()}): publish a new checkpoint")
    _inclusion(log, entry, index, checkpoint, options.proof)
    said = [f"verified: run {entry.run_id[:SHORT]}'s head {entry.head[:SHORT]} is leaf {index} of "
            f"{log.origin}, under its checkpoint of size {checkpoint.size} signed by {options.log_key.name}"]
    if options.witness_key is not None:
        try:
            check_cosignature(published, options.witness_key)
        except WitnessError as exc:
            raise Refused(f"the published checkpoint is not witnessed: {exc}") from None
        said.append(f"cosigned by {options.witness_key.name}")
    if options.kept is not None:
        kept = _kept(log, options.kept, options.log_key, checkpoint, options.consistency)
        said.append(f"consistent with the kept checkpoint of size {kept.size}")
    elif options.consistency is not None:
        raise Refused("a consistency proof is checked against a kept checkpoint: give --checkpoint KEPT")
    return "; ".join(said)


def _published(log: Log, published: str, log_key: note.Verifier) -> Checkpoint:
    try:
        checkpoint = open_checkpoint(published, log_key)
    except CheckpointError as exc:
        raise Refused(f"the published checkpoint: {exc}") from None
    if checkpoint.origin != log.origin:
        raise Refused(f"the published checkpoint is of the log {checkpoint.origin}, the log file of {log.origin}")
    if checkpoint.size > log.size:
        raise Refused(f"the published checkpoint is of size {checkpoint.size}; the log file holds {log.size} leaves")
    if log.root(checkpoint.size) != checkpoint.root:
        raise Refused(f"the log file is not the tree its checkpoint signed: its root at size {checkpoint.size} "
                      f"is {log.root(checkpoint.size).hex()[:SHORT]}, the checkpoint's {checkpoint.root.hex()[:SHORT]}")
    return checkpoint


def _leaf_of(log: Log, entry: Entry) -> int:
    index = log.index_of(entry.run_id)
    if index is None:
        raise Refused(f"the log holds no leaf for run {entry.run_id[:SHORT]}")
    held = log.entries[index].head
    if held != entry.head:
        raise Refused(f"the log's leaf {index} for run {entry.run_id[:SHORT]} holds head {held[:SHORT]}, "
                      f"not this report's {entry.head[:SHORT]}: this is not the report that was published")
    return index


def _inclusion(log: Log, entry: Entry, index: int, checkpoint: Checkpoint, proof: InclusionProof | None) -> None:
    if proof is None:
        proof = InclusionProof(index, checkpoint.size, checkpoint.root, entry.leaf_hash(),
                               tuple(log.inclusion_path(index, checkpoint.size)))
    expected = {"leaf_index": index, "tree_size": checkpoint.size, "root_hash": checkpoint.root,
                "leaf_hash": entry.leaf_hash()}
    for name, value in expected.items():
        if getattr(proof, name) != value:
            raise Refused(f"the inclusion proof's {name} is not this report's leaf under the published checkpoint")
    try:
        merkle.verify_inclusion(proof.leaf_index, proof.tree_size, proof.leaf_hash, proof.inclusion_path,
                                proof.root_hash)
    except merkle.ProofError as exc:
        raise Refused(f"the inclusion proof does not hold: {exc}") from None


def _kept(log: Log, kept_note: str, log_key: note.Verifier, checkpoint: Checkpoint,
          proof: ConsistencyProof | None) -> Checkpoint:
    try:
        kept = open_checkpoint(kept_note, log_key)
    except CheckpointError as exc:
        raise Refused(f"the kept checkpoint: {exc}") from None
    if kept.size > checkpoint.size:
        raise Refused(f"the log went back: the kept checkpoint is of size {kept.size}, the published of "
                      f"size {checkpoint.size}")
    if proof is None:
        proof = ConsistencyProof(kept.size, checkpoint.size, kept.root, checkpoint.root,
                                 tuple(log.consistency_path(kept.size, checkpoint.size)))
    expected = {"old_size": kept.size, "new_size": checkpoint.size, "old_root": kept.root, "new_root": checkpoint.root}
    for name, value in expected.items():
        if getattr(proof, name) != value:
            raise Refused(f"the consistency proof's {name} is not the kept checkpoint's or the published one's")
    try:
        merkle.verify_consistency(proof.old_size, proof.new_size, proof.old_root, proof.new_root,
                                  proof.consistency_path, from_empty=merkle.ACCEPT_FROM_EMPTY)
    except merkle.ProofError as exc:
        raise Refused(f"the log is not consistent with the kept checkpoint ({kept.short()}): {exc}") from None
    return kept


# What a command answers as bad input (exit 2): a file that is not what it should be.
BAD_INPUT = (LogError, CheckpointError, note.NoteError, SealError, ReportError, WitnessError, ProofFormatError,
             files.FileError)
