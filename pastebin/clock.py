"""The one clock the pastebin reads, so tests can move time with `mock.patch("pastebin.clock.now")`."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
