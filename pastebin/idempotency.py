"""`Idempotency-Key` for `POST /api/v1/explains/`: a retried request gets the first answer back.

A client that sends the same key with the same request (paste, query, options and content type)
within `LIFETIME` gets the answer of the first request instead of a second explain; the same key
with another request is refused. The record of the first answer is written in the transaction
that stores the explain (see `Attempt.remember`), so both are stored or neither, and the unique
`key_hash` column lets only one of two concurrent requests with a key commit.

Nothing stored reveals the key or the delete token:

- `key_hash` is SHA-256 of the key (with a label of its own), enough to find the record.
- `request_hash` is an HMAC of the request under a secret derived from the key, so it cannot
  confirm a guess at the paste either (an anonymized explain keeps no trace of the original).
- The delete token, which the replay must show since the retrying client may never have seen the
  first answer, is XORed with a SHAKE-256 keystream derived from the key under a third label. Only
  a holder of the key can unmask it; a key is used for one record, so a keystream is never reused.

The key is therefore as much a secret as the delete token: clients should send a random one
(a UUID, as `pastebin.cli` does). Whoever holds the key and the paste gets the first answer again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from pastebin import clock
from pastebin.models import Explain, IdempotencyRecord

KEY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
LIFETIME = timedelta(hours=24)
KEY_RE = re.compile(r"[\x20-\x7e]{1,255}")
KEY_ERROR = f"The {KEY_HEADER} header must be 1 to 255 printable ASCII characters (a random UUID is a good key)."


class DifferentRequest(Exception):
    """The key was used for another request."""


class KeyTaken(Exception):
    """Another request stored an answer under this key while this one was being saved."""


def valid_key(value: str) -> bool:
    return KEY_RE.fullmatch(value) is not None


def _derive(label: bytes, key: str) -> bytes:
    return hashlib.sha256(b"explain-analyzer idempotency " + label + b"\0" + key.encode("ascii")).digest()


def _key_hash(key: str) -> str:
    return _derive(b"key", key).hex()


def _xor_keystream(data: bytes, key: str) -> bytes:
    stream = hashlib.shake_256(_derive(b"delete token mask", key)).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def cutoff(now: datetime | None = None) -> datetime:
    """Records created at or before this time are expired."""
    return (now or clock.now()) - LIFETIME


def find(value: str | None) -> IdempotencyRecord | None:
    """The live record of the key in a header's value (None when absent or not a valid key)."""
    if value is None or not valid_key(value):
        return None
    return IdempotencyRecord.objects.filter(key_hash=_key_hash(value), created_at__gt=cutoff()).first()


@dataclass(frozen=True)
class Attempt:
    """One request sent with a valid key, and what identifies the request."""

    key: str
    request_hash: str

    @classmethod
    def start(cls, key: str, request: dict[str, Any]) -> Attempt:
        canonical = json.dumps(request, sort_keys=True, separators=(",", ":")).encode("ascii")
        return cls(key, hmac.new(_derive(b"request", key), canonical, hashlib.sha256).hexdigest())

    def replay(self, record: IdempotencyRecord) -> str:
        """The first answer's delete token, unmasked; `DifferentRequest` if the request differs.
        The rest of the answer is built again from the stored explain (a copy of its analysis
        here would double what a save writes)."""
        if not hmac.compare_digest(record.request_hash, self.request_hash):
            raise DifferentRequest
        return _xor_keystream(bytes.fromhex(record.masked_delete_token), self.key).decode("ascii")

    def remember(self, explain: Explain, delete_token: str) -> None:
        """Store the record of the answer, in the caller's transaction (the one that saved `explain`).

        An expired record of the key goes first; `KeyTaken` when a live one holds the key. On
        PostgreSQL the insert waits for a concurrent transaction holding the key to end, so the
        caller sees `KeyTaken` only once the other answer is committed.
        """
        IdempotencyRecord.objects.filter(key_hash=_key_hash(self.key), created_at__lte=cutoff()).delete()
        record = IdempotencyRecord(
            key_hash=_key_hash(self.key),
            request_hash=self.request_hash,
            explain=explain,
            created_at=clock.now(),
            masked_delete_token=_xor_keystream(delete_token.encode("ascii"), self.key).hex(),
        )
        try:
            with transaction.atomic():
                record.save(force_insert=True)
        except IntegrityError as exc:
            raise KeyTaken from exc
