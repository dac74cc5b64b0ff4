"""The reference run's reviews, signed in advance under a demo key: keys that prove nothing, on purpose.

    python -m signoff.demo --files DIR            every signed decision into DIR (data/course/reviews/)
    python -m signoff.demo --file NAME --out PATH one of them, for course verify
    python -m signoff.demo --approvers            the verifier key the configuration lists, one line

The reference run is scripted: no person is at the keyboard when the gate
holds its probes. The engagement lead's four decisions are signed in
advance, here, and the operator's configuration names the folder they sit
in (``signed_reviews``) and lists the verifier key they are signed under
(``approvers``). The key's seed is the SHA-256 of a phrase printed below,
as tlog's demo keys are (tlog/keys.py), so anyone can derive it: that keeps
every decision byte-identical (Ed25519 signatures are deterministic), and
it is also why such a signature proves nothing about who decided. A
decision counts as a person's only under a key that person alone holds
(``python -m signoff keygen``).

Each decision names the run, so the run must be known before it is signed:
the run's identifier is made from the configuration without its reviews
(drive.world_of), and the demo finds it as the run does (drive.identify).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from core.run import drive
from core.run.gate import subject_of
from core.run.jsonfile import read_json
from signoff import decision
from tlog import note

ROLE = "engagement-lead"
KEY_NAME = "reviewer.example/engagement-lead-demo"
PHRASE = "harness-course demo reviewer key: public on purpose, proves nothing"

# file name: (the act's identity, its exact arguments, the decision, the reason)
DECISIONS = {
    "1-debug-probe.note": (
        "probe_reflection -> https://lab.example:443/debug", {"marker": "lab-probe-<i>7</i>", "parameter": "q"},
        "approved", "The debug page is in scope; one GET with this harmless marker in q is a light probe the "
                    "authorization covers."),
    "2-search-probe.note": (
        "probe_reflection -> https://lab.example:443/search", {"marker": "lab-probe-<i>8</i>", "parameter": "q"},
        "rejected", "The search page is the negative control for the debug page; probing it now would spoil the "
                    "control."),
    "3-debug-confirm.note": (
        "probe_reflection -> https://lab.example:443/debug?q=lab-probe-<i>7</i>", {},
        "approved", "Confirming the reflection sends the approved marker once more, in a request of its own."),
    "4-search-control.note": (
        "probe_reflection -> https://lab.example:443/search?q=lab-probe-<i>7</i>", {},
        "approved", "The search page is the debug page's look-alike control; one GET with the same marker."),
}


def demo_signer() -> note.Signer:
    """The engagement lead's demo key: its seed is the SHA-256 of ``PHRASE``, which anyone can read."""
    return note.Signer(KEY_NAME, note.ED25519, hashlib.sha256(PHRASE.encode("utf-8")).digest())


def reference_run_id() -> str:
    """The reference run's identifier, found as the run finds it, from the configuration without its reviews."""
    raw = read_json(drive.DEFAULT_CONFIG, error=drive.ConfigError, what="configuration file")
    unsigned = {key: value for key, value in raw.items() if key != "signed_reviews"}
    return drive.identify(drive.configuration(unsigned, "the reference configuration")).run_id


def signed(name: str, run_id: str) -> str:
    """The decision ``name`` of ``DECISIONS``, signed under the demo key for run ``run_id``."""
    identity, arguments, verdict, reason = DECISIONS[name]
    return decision.sign(demo_signer(), run_id, subject_of(identity, arguments), ROLE, verdict, reason)


def written_down(raw: dict) -> dict:
    """``raw`` (the reference configuration's data) with the same decisions written down (``reviewers``), unsigned.

    A signed decision names its run, so it decides nothing in a run of
    another lab or another setting (the attack suite's, a test's): such a
    run is given the engagement lead's decisions as a scripted review, as
    the operator would write them down.
    """
    reviewers = [{"subject": identity, "arguments": arguments, "reviewer": ROLE, "decision": verdict, "reason": reason}
                 for identity, arguments, verdict, reason in DECISIONS.values()]
    return {**{key: value for key, value in raw.items() if key != "signed_reviews"}, "reviewers": reviewers}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m signoff.demo", description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--files", type=Path, metavar="DIR", help="write every signed decision into DIR")
    what.add_argument("--file", choices=sorted(DECISIONS), help="with --out: write this one decision")
    what.add_argument("--approvers", action="store_true", help="print the verifier key the configuration lists")
    parser.add_argument("--out", type=Path, metavar="PATH", help="with --file: where to write it")
    args = parser.parse_args(argv)
    if args.approvers:
        print(demo_signer().verifier().encode())
        return 0
    if args.file is not None and args.out is None:
        parser.error("--file needs --out PATH")
    run_id = reference_run_id()
    targets = {args.file: args.out} if args.file else {name: args.files / name for name in DECISIONS}
    for name, path in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(signed(name, run_id).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
