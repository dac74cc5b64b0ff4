"""Signed notes (C2SP signed-note): a text, a blank line, then one signature line per key.

    lab.example/harness-course/log
    5
    mrVFgj8D2tP6...=

    — lab.example/harness-course/log qDZ0vK1c...

A signature line is an em dash (U+2014), a space, the key's name, a space,
and base64 of the 4-byte key id followed by the signature. The key id is the
first 4 bytes of SHA-256(name || 0x0A || type byte || public key), so a
verifier that holds (name, public key) knows which lines are its key's and
ignores every other line, whatever it holds after the name, so long as it is
base64 (as golang.org/x/mod/sumdb/note reads it: padded, the unused bits of
its last character not checked). A line that names a known key and id must
verify, or the whole note is refused; a note with no line that verifies is
refused. A note may carry up to 100 signature lines, as Go's reader accepts
(the spec asks for at least 16).

Keys are written the way golang.org/x/mod/sumdb/note writes them:

    verifier key  NAME+KEYID+base64(type || public key)
    signer key    PRIVATE+KEY+NAME+KEYID+base64(type || private seed)

Type 0x01 is an Ed25519 signature over the note text (RFC 8032, through the
``cryptography`` package). Ed25519 is deterministic: one key and one text
give one signature, which is what keeps the course's artifacts byte-identical.
Type 0x04 (a witness's timestamped cosignature) reuses these keys and lines;
witness.py says what it signs.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01  # a signature over the note text
COSIGNATURE_V1 = 0x04  # a witness's timestamped Ed25519 cosignature (C2SP tlog-cosignature)
KEY_TYPES = (ED25519, COSIGNATURE_V1)
EM_DASH = "\u2014"
MAX_NOTE_BYTES = 1 << 20  # far beyond any checkpoint; a bigger "note" is refused unread
MAX_SIGNATURES = 100  # as many as golang.org/x/mod/sumdb/note accepts; the spec asks for at least 16
_NAME = re.compile(r"[^\s+]+")  # non-empty, no Unicode space, no plus
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")


class NoteError(ValueError):
    """A note, a key or a signature is malformed or does not verify; the message says which."""


def key_id(name: str, key_type: int, public: bytes) -> bytes:
    """The 4-byte id of a key: the first 4 bytes of SHA-256(name || 0x0A || type || public key)."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([key_type]) + public).digest()[:4]


def _b64decode(text: str, what: str, *, canonical: bool = True) -> bytes:
    """The bytes ``text`` encodes; with ``canonical``, only in base64's one standard spelling."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"{what} is not base64") from None
    if canonical and base64.b64encode(raw).decode("ascii") != text:
        raise NoteError(f"{what} is not base64 in its one standard spelling")
    return raw


def _check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise NoteError(f"a key name is non-empty, with no spaces or '+', not {name!r}")
    return name


@dataclass(frozen=True)
class Verifier:
    """A public key: its name, type and 32 bytes; it checks the signature lines made by its Signer."""

    name: str
    key_type: int
    public: bytes

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.key_type, self.public)

    def encode(self) -> str:
        packed = base64.b64encode(bytes([self.key_type]) + self.public).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{packed}"

    def check(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass(frozen=True)
class Signer:
    """A private key (its 32-byte Ed25519 seed), with the name and type its signature lines carry."""

    name: str
    key_type: int
    seed: bytes = field(repr=False)  # never printed

    def verifier(self) -> Verifier:
        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key()
        return Verifier(self.name, self.key_type, public.public_bytes(serialization.Encoding.Raw,
                                                                       serialization.PublicFormat.Raw))

    def encode(self) -> str:
        packed = base64.b64encode(bytes([self.key_type]) + self.seed).decode("ascii")
        return f"PRIVATE+KEY+{self.name}+{self.verifier().key_id.hex()}+{packed}"

    def sign(self, message: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(self.seed).sign(message)


def _key_parts(text: str, what: str) -> tuple[str, bytes, int, bytes]:
    parts = text.strip().split("+", 2)  # base64 may itself hold "+"
    if len(parts) != 3:
        raise NoteError(f"{what} is NAME+KEYID+BASE64")
    name, hex_id, packed = parts
    _check_name(name)
    if not re.fullmatch(r"[0-9a-f]{8}", hex_id):
        raise NoteError(f"{what}'s key id is 8 hex digits, not {hex_id!r}")
    raw = _b64decode(packed, f"{what}'s key")
    if len(raw) != 33 or raw[0] not in KEY_TYPES:
        raise NoteError(f"{what} holds no Ed25519 key (a type byte {KEY_TYPES} and 32 bytes)")
    return name, bytes.fromhex(hex_id), raw[0], raw[1:]


def parse_verifier(text: str) -> Verifier:
    """A verifier key, ``NAME+KEYID+base64(type || public key)``; its key id must be the one its key has."""
    name, stated, key_type, public = _key_parts(text, "a verifier key")
    verifier = Verifier(name, key_type, public)
    if verifier.key_id != stated:
        raise NoteError(f"the verifier key {name} states key id {stated.hex()}, but its key's id is "
                        f"{verifier.key_id.hex()}")
    return verifier


def parse_signer(text: str) -> Signer:
    """A signer key, ``PRIVATE+KEY+NAME+KEYID+base64(type || seed)``; its key id must match its public key."""
    if not text.startswith("PRIVATE+KEY+"):
        raise NoteError("a signer key starts with PRIVATE+KEY+")
    name, stated, key_type, seed = _key_parts(text[len("PRIVATE+KEY+"):], "a signer key")
    signer = Signer(name, key_type, seed)
    if signer.verifier().key_id != stated:
        raise NoteError(f"the signer key {name} states key id {stated.hex()}, which is not its key's")
    return signer


# --- notes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Signature:
    """One signature line: the key's name, its 4-byte id, and what follows the id."""

    name: str
    key_id: bytes
    data: bytes

    def line(self) -> str:
        return f"{EM_DASH} {self.name} {base64.b64encode(self.key_id + self.data).decode('ascii')}\n"


def check_text(text: str) -> str:
    """A note's text: valid, ending in a newline, no control characters but newlines."""
    if not isinstance(text, str) or not text.endswith("\n"):
        raise NoteError("a note's text ends with a newline")
    if _CONTROL.search(text):
        raise NoteError("a note holds no control characters other than newlines")
    return text


def signature_line(text: str, signer: Signer) -> str:
    """The signature line of ``signer`` over ``text`` (type 0x01: Ed25519 over the text's bytes)."""
    if signer.key_type != ED25519:
        raise NoteError(f"the key {signer.name} is a type {signer.key_type} key, not a note-signing key")
    data = signer.sign(check_text(text).encode("utf-8"))
    return Signature(signer.name, signer.verifier().key_id, data).line()


def sign(text: str, signer: Signer) -> str:
    """``text`` as a signed note: the text, a blank line, and ``signer``'s signature line."""
    return check_text(text) + "\n" + signature_line(text, signer)


def parse(note: str) -> tuple[str, list[Signature]]:
    """A note's text and its signature lines, or NoteError saying what is malformed."""
    if not isinstance(note, str):
        raise NoteError("a note is text")
    if len(note.encode("utf-8", "surrogatepass")) > MAX_NOTE_BYTES:
        raise NoteError(f"a note is at most {MAX_NOTE_BYTES} bytes")
    if _CONTROL.search(note):
        raise NoteError("a note holds no control characters other than newlines")
    text, blank, block = note.rpartition("\n\n")
    if not blank or not text:
        raise NoteError("a note is its text, a blank line, then signature lines")
    text += "\n"
    if not block.endswith("\n"):
        raise NoteError("a note's last signature line ends with a newline")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"a note carries at most {MAX_SIGNATURES} signatures")
    signatures = []
    for number, line in enumerate(lines, start=1):
        match = re.fullmatch(rf"{EM_DASH} (\S+) (\S+)", line)
        if not match:
            raise NoteError(f"signature line {number} is not '{EM_DASH} NAME SIGNATURE'")
        # Read as Go reads it, spelling unchecked: another key's line is ignored, a known key's line judged by
        # its signature (the bytes, not their spelling, are what was signed).
        name = _check_name(match.group(1))
        raw = _b64decode(match.group(2), f"signature line {number}", canonical=False)
        if len(raw) < 5:
            raise NoteError(f"signature line {number} is too short for a key id and a signature")
        signatures.append(Signature(name, raw[:4], raw[4:]))
    return text, signatures


def signatures_of(note: str, verifier: Verifier) -> tuple[str, list[Signature]]:
    """The note's text and the signature lines that name ``verifier`` (its name and id); others are ignored."""
    text, signatures = parse(note)
    return text, [s for s in signatures if s.name == verifier.name and s.key_id == verifier.key_id]


def open_note(note: str, verifier: Verifier) -> str:
    """The note's text, once ``verifier``'s Ed25519 signature on it holds; NoteError otherwise."""
    if verifier.key_type != ED25519:
        raise NoteError(f"the key {verifier.name} is a type {verifier.key_type} key, not a note-signing key")
    text, mine = signatures_of(note, verifier)
    if not mine:
        raise NoteError(f"the note carries no signature by {verifier.name} (key id {verifier.key_id.hex()})")
    for signature in mine:
        if not verifier.check(text.encode("utf-8"), signature.data):
            raise NoteError(f"the signature by {verifier.name} does not verify: the note was altered, "
                            "or signed by another key under this name")
    return text


def add_signature(note: str, line: str) -> str:
    """``note`` with one more signature line; an earlier line of the same key and id is replaced."""
    text, signatures = parse(note)
    (new,) = parse("x\n\n" + line)[1]
    kept = [s for s in signatures if (s.name, s.key_id) != (new.name, new.key_id)]
    return text + "\n" + "".join(s.line() for s in kept + [new])
