"""Delete tokens: 32 random bytes shown once to the creator, stored only as a SHA-256 digest.

The token carries 256 bits of randomness, so a plain hash is enough (no salt, no slow hasher).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, digest: str) -> bool:
    """Constant-time check of a presented token against the stored digest."""
    if not token or not digest:
        return False
    return hmac.compare_digest(hash_token(token), digest)
