"""Random permalink slugs: 14 characters from an unambiguous 55-letter alphabet (about 81 bits)."""

from __future__ import annotations

import re
import secrets

# No 0/O, 1/l/I, so a slug read aloud or retyped from a screenshot still works.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 14
SLUG_RE = re.compile(rf"^[{ALPHABET}]{{{LENGTH}}}$")


def new_slug() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
