"""python -m signoff: see what a run waits for, make a reviewer's key, and sign a decision on one exact act.

    python -m signoff waiting JOURNAL [--config FILE]
    python -m signoff keygen NAME --out PREFIX
    python -m signoff sign --run RUN --act SUBJECT --role ROLE (--approve | --reject)
                           --reason TEXT --key KEYFILE --out FILE

Bad input gets one line on stderr and exit status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from core.run import decisions, drive, journal
from signoff import decision, keys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m signoff", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    waits = commands.add_parser("waiting", help="list the acts a journaled run waits for a decision on")
    waits.add_argument("journal", type=Path)
    waits.add_argument("--config", type=Path, default=drive.DEFAULT_CONFIG, help="the run's configuration")
    keygen = commands.add_parser("keygen", help="make a reviewer's key pair")
    keygen.add_argument("name", help="the key's name, e.g. reviewer.example/alice")
    keygen.add_argument("--out", required=True, help="PREFIX: writes PREFIX.key (mode 600) and PREFIX.pub")
    sign = commands.add_parser("sign", help="sign a decision on one exact act")
    sign.add_argument("--run", required=True, help="the run's id")
    sign.add_argument("--act", required=True, help="the held act's review subject")
    sign.add_argument("--role", required=True, help="the approver role the act waits for")
    verdict = sign.add_mutually_exclusive_group(required=True)
    verdict.add_argument("--approve", action="store_const", const="approved", dest="decision")
    verdict.add_argument("--reject", action="store_const", const="rejected", dest="decision")
    sign.add_argument("--reason", required=True)
    sign.add_argument("--key", required=True, type=Path, help="your signer key (readable by you alone)")
    sign.add_argument("--out", required=True, type=Path, help="the signed decision's file (never overwritten)")
    args = parser.parse_args(argv)
    try:
        if args.command == "waiting":
            return show_waiting(args.journal, args.config)
        if args.command == "keygen":
            private, public = keys.make(args.name, args.out)
            print(f"wrote {private} (keep it to yourself) and {public}; the operator lists this line under "
                  f"your role:\n{public.read_text(encoding='utf-8').strip()}")
            return 0
        signer = keys.read_signer(args.key)
        signed = decision.sign(signer, args.run, args.act, args.role, args.decision, args.reason)
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(signed)
    except (ValueError, OSError, journal.JournalError) as exc:
        print(f"python -m signoff: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {args.decision} by {signer.name} for {args.act}")
    return 0


def show_waiting(path: Path, config_path: Path) -> int:
    """Print each act the journal's run waits for, exactly as it would be sent, and how to decide it."""
    config = drive.load_configuration(config_path)
    read = journal.read(path)
    held = decisions.waiting(read.events, config.policy, config.gating)
    run_id = read.run["run_id"]
    if not held:
        print(f"run {run_id[:12]} waits for no decision")
        return 0
    for act in held.values():
        identity, _, digest = act.subject.partition(" with arguments ")
        print(f"run      {run_id}\n"
              f"act      {identity}\n"
              f"with     {json.dumps(act.arguments, sort_keys=True, ensure_ascii=True)}\n"
              f"digest   {digest}\n"
              f"class    {act.action_class}, waits for {act.role}\n"
              f"decide   python -m signoff sign --run RUN --act 'ACT with arguments DIGEST' \\\n"
              f"           --role {act.role} (--approve | --reject) --reason TEXT \\\n"
              "           --key KEYFILE --out DIR/FILE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
