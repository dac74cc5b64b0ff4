"""The course's demo keys: the log's and the witness's, committed on purpose, and useless for anything real.

    python -m tlog.keys --out data/tlog

writes ``demo-log.key`` and ``demo-log.pub`` (the log's signer and verifier
keys), and ``demo-witness.key`` and ``demo-witness.pub`` (the witness's).
Each seed is SHA-256 of a phrase printed below, so anyone can derive the
same keys: that is what keeps every checkpoint in the course byte-identical,
and it is also why, in the course, anyone with the repository can sign as
the log or as the witness. What a transparency log adds holds only where the
log's key, the witness's key and a kept checkpoint are in different hands.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from core.run import jsonfile
from tlog import note

LOG_ORIGIN = "lab.example/harness-course/log"
WITNESS_NAME = "witness.example/harness-course"
MAX_KEY_BYTES = 4096  # a key file is one line of about 100 bytes
KEY_FOLDER = Path(__file__).resolve().parent.parent / "data" / "tlog"

# role: (file stem, key name, key type, the phrase whose SHA-256 is the seed)
DEMO_KEYS = {
    "log": ("demo-log", LOG_ORIGIN, note.ED25519, "harness-course demo log key: public on purpose, never for real use"),
    "witness": ("demo-witness", WITNESS_NAME, note.COSIGNATURE_V1,
                "harness-course demo witness key: public on purpose, never for real use"),
}


def demo_signer(role: str) -> note.Signer:
    _, name, key_type, phrase = DEMO_KEYS[role]
    return note.Signer(name, key_type, hashlib.sha256(phrase.encode("utf-8")).digest())


def default_path(role: str, private: bool) -> Path:
    return KEY_FOLDER / (DEMO_KEYS[role][0] + (".key" if private else ".pub"))


def read_signer(path: str | Path) -> note.Signer:
    return note.parse_signer(_read(path))


def read_verifier(path: str | Path) -> note.Verifier:
    return note.parse_verifier(_read(path))


def _read(path: str | Path) -> str:
    return jsonfile.read_text(path, error=note.NoteError, what="key file", limit=MAX_KEY_BYTES)


def write_demo_keys(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for role, (stem, *_) in DEMO_KEYS.items():
        signer = demo_signer(role)
        for suffix, text in ((".key", signer.encode()), (".pub", signer.verifier().encode())):
            path = folder / (stem + suffix)
            path.write_text(text + "\n", encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tlog.keys", description="Write the course's demo keys.")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    try:
        write_demo_keys(args.out)
    except OSError as exc:
        print(f"tlog.keys: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
