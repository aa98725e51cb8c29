"""Signing keys and field-kit encryption.

Every device has an Ed25519 key pair. A device keeps its private key; the other side holds
only its public key. A package is signed with the sender's private key and checked with
the public key the receiver stored at enrolment (the office) or at joining (the laptop).
A device that rotates its key signs an endorsement of the new public key with the old
private key, then deletes the old private key; a receiver takes a new key only through
endorsements that begin at the key it holds.

A field kit is encrypted with a passphrase the office chooses at enrolment: the key comes
from the passphrase by scrypt (memory-hard), and the kit is sealed with AES-256-GCM, so a
wrong passphrase and a changed byte are both refused before anything is read from it.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from ..errors import InputError
from ..json_input import loads

MIN_PASSPHRASE = 10
MAX_PASSPHRASE = 1024
KIT_MAGIC = b"WIKIT1\n"
# scrypt with n = 2**15, r = 8: 32 MiB and about a tenth of a second per attempt.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
# The parameters a kit's header may ask for: those this app writes, and no others, so that
# a kit cannot make the laptop spend seconds and gigabytes before its passphrase is tried.
KIT_KDF_PARAMETERS = frozenset({(SCRYPT_N, SCRYPT_R, SCRYPT_P)})
_MAX_HEADER = 512


class KitLocked(InputError):
    """A field kit that cannot be opened: wrong passphrase, damaged or not a kit."""


def new_private_key() -> str:
    """A new Ed25519 private key, as 64 hex digits."""
    return Ed25519PrivateKey.generate().private_bytes_raw().hex()


def public_key(private_hex: str) -> str:
    """The public key of a private key, as 64 hex digits."""
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return key.public_key().public_bytes_raw().hex()


def sign(data: bytes, private_hex: str) -> str:
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return key.sign(data).hex()


def verify(data: bytes, signature_hex: str, public_hex: str) -> bool:
    """Whether `signature_hex` is the signature of `data` by the key's owner. Anything
    that is not a well-formed signature (wrong length, not hex, not ASCII) is False."""
    try:
        signature = bytes.fromhex(signature_hex)
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
    except ValueError:
        return False
    if len(signature) != 64:
        return False
    try:
        key.verify(signature, data)
    except InvalidSignature:
        return False
    return True


def fingerprint(public_hex: str) -> str:
    """A short, readable fingerprint of a public key: 16 hex digits in four groups
    ("3f2a-91c0-7b44-e01d"), read aloud or compared on screen at enrolment."""
    digest = hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]
    return "-".join(digest[i:i + 4] for i in range(0, 16, 4))


# What a key's endorsement signs: a fixed label, so that no other signature of this app
# (a package's manifest) can pass for one, then the device, the key it replaces, the new
# key and the time, one to a line.
ENDORSEMENT_LABEL = b"watershed-inspector/key-endorsement/1\n"


def endorsement_bytes(device_id: str, previous_key: str, new_key: str, at: str) -> bytes:
    """The bytes the key being replaced signs to vouch for its successor."""
    return ENDORSEMENT_LABEL + "\n".join((device_id, previous_key, new_key, at)).encode()


def endorse(device_id: str, previous_private: str, new_key: str, at: str) -> dict[str, str]:
    """The endorsement of `new_key` by the key it replaces, as a package carries it."""
    previous = public_key(previous_private)
    return {"previous_key": previous, "public_key": new_key, "endorsed_at": at,
            "signature": sign(endorsement_bytes(device_id, previous, new_key, at),
                              previous_private)}


def endorsement_holds(device_id: str, link: dict[str, str]) -> bool:
    """Whether an endorsement was signed by the key it names as the one replaced."""
    data = endorsement_bytes(device_id, link["previous_key"], link["public_key"],
                             link["endorsed_at"])
    return verify(data, link["signature"], link["previous_key"])


def check_passphrase(passphrase: str) -> None:
    if len(passphrase) < MIN_PASSPHRASE:
        raise InputError(f"The field kit passphrase is {len(passphrase)} characters; use at "
                         f"least {MIN_PASSPHRASE}.")
    if len(passphrase) > MAX_PASSPHRASE:
        raise InputError(f"The field kit passphrase is over {MAX_PASSPHRASE} characters.")


def _kdf(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))


def seal(data: bytes, passphrase: str) -> bytes:
    """Encrypt a field kit: magic line, a JSON header (KDF parameters, salt, nonce), a
    newline, then the AES-256-GCM ciphertext. The header is authenticated too."""
    check_passphrase(passphrase)
    salt, nonce = os.urandom(16), os.urandom(12)
    header = json.dumps({"kdf": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
                         "salt": salt.hex(), "cipher": "aes-256-gcm",
                         "nonce": nonce.hex()}, sort_keys=True).encode()
    key = _kdf(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return KIT_MAGIC + header + b"\n" + AESGCM(key).encrypt(nonce, data, KIT_MAGIC + header)


def is_sealed(head: bytes) -> bool:
    return head.startswith(KIT_MAGIC)


_HEADER_KEYS = frozenset({"kdf", "n", "r", "p", "salt", "cipher", "nonce"})


def _power(n: Any) -> str:
    """n as the power of two it is ("2^15"), else as given."""
    if type(n) is int and n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return repr(n)[:20]


def unseal(blob: bytes, passphrase: str, *, source: str) -> bytes:
    """The kit's contents, or KitLocked (a wrong passphrase or a changed byte)."""
    if not blob.startswith(KIT_MAGIC):
        raise KitLocked(f"{source}: is not an encrypted field kit (a kit from this version "
                        "begins with its own header); ask the office for a new kit.")
    rest = blob[len(KIT_MAGIC):]
    end = rest.find(b"\n", 0, _MAX_HEADER)
    damaged = KitLocked(f"{source}: the field kit is damaged (its header cannot be read); "
                        "ask the office for a new kit. Nothing was changed.")
    if end < 0:
        raise damaged
    header_bytes, ciphertext = rest[:end], rest[end + 1:]
    try:
        header: dict[str, Any] = loads(header_bytes)
        if type(header) is not dict or set(header) != _HEADER_KEYS:
            raise damaged
        n, r, p = header["n"], header["r"], header["p"]
        salt, nonce = bytes.fromhex(header["salt"]), bytes.fromhex(header["nonce"])
    except (ValueError, TypeError):
        raise damaged from None
    if header["kdf"] != "scrypt" or header["cipher"] != "aes-256-gcm" or len(
            salt) != 16 or len(nonce) != 12:
        raise damaged
    if not all(type(x) is int for x in (n, r, p)) or (n, r, p) not in KIT_KDF_PARAMETERS:
        raise KitLocked(f"{source}: this kit was not made by this app's enrolment (its header "
                        f"asks for key derivation with scrypt n={_power(n)}, r={r}, p={p}; "
                        f"this app writes n={_power(SCRYPT_N)}, r={SCRYPT_R}, p={SCRYPT_P}); "
                        "ask the office for a new kit. Nothing was changed.")
    try:
        key = _kdf(passphrase, salt, n, r, p)
        return AESGCM(key).decrypt(nonce, ciphertext, KIT_MAGIC + header_bytes)
    except (InvalidTag, ValueError):
        raise KitLocked(f"{source}: the passphrase is wrong, or the kit was changed after "
                        "the office wrote it; nothing was changed. Check the passphrase "
                        "with the office, or ask for a new kit.") from None
