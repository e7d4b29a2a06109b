"""Django's `get_token`, with the random characters drawn from one read of the system's randomness.

Django draws each of the 64 characters of a new secret and mask with `secrets.choice`, a system
call each: a quarter of a millisecond per token, more than the rest of a cached permalink page.
Here each string takes one `os.urandom` read, and a character is a byte below 248 taken modulo 62
(bytes from 248 up are dropped, so every character is as likely as the others). The token is the
one Django makes (a new secret in the CSRF cookie when the visitor has none; the secret masked
with a fresh mask), and CsrfViewMiddleware checks it as its own.
"""

from __future__ import annotations

import os

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

_BASE = len(CSRF_ALLOWED_CHARS)  # 62
_UNBIASED = 256 - 256 % _BASE  # 248: bytes below it are uniform modulo 62
_INDEX = {char: index for index, char in enumerate(CSRF_ALLOWED_CHARS)}


def random_chars(length: int = CSRF_SECRET_LENGTH) -> str:
    """`length` characters of CSRF_ALLOWED_CHARS, each uniformly random."""
    chars: list[str] = []
    while len(chars) < length:
        chars += [CSRF_ALLOWED_CHARS[byte % _BASE] for byte in os.urandom(length + 8) if byte < _UNBIASED]
    return "".join(chars[:length])


def get_token(request: HttpRequest) -> str:
    """The masked CSRF token for a form of this response, as `django.middleware.csrf.get_token`."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:
        secret = request.META["CSRF_COOKIE"] = random_chars()
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = random_chars()
    return mask + "".join(CSRF_ALLOWED_CHARS[(_INDEX[s] + _INDEX[m]) % _BASE] for s, m in zip(secret, mask, strict=True))
