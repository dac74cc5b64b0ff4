"""tlog: a transparency log of sealed report heads (lesson 11).

Lesson 9's seal is a keyless hash chain: it shows a report is the one whose
head you hold, and nothing more, because whoever can rewrite a report can
reseal it. This package keeps the heads somewhere else, in the shape
Certificate Transparency, Trillian and sigstore's Rekor use: an append-only
Merkle tree (RFC 6962 / RFC 9162), signed checkpoints (C2SP tlog-checkpoint
and signed-note, Ed25519), and a witness that cosigns a checkpoint only
after checking the log only grew (C2SP tlog-cosignature).

Read it in this order: merkle.py (the tree and its two proofs), logfile.py
(the file a person reads), note.py and checkpoint.py (what the log signs),
witness.py (the second key), audit.py (is this the report that was
published?), cli.py (the commands), then forgery.py and demo.py (the attack
and the lesson's demo). vectors.py checks merkle.py against the vectors
other projects publish.

Unlike core/, tlog may use third-party libraries (``cryptography``); it
imports core, and core never imports it.
"""
