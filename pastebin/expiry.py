"""How long a saved explain lives: the allowed `expires` values and their durations."""

from __future__ import annotations

from datetime import datetime, timedelta

EXPIRY_CHOICES: dict[str, timedelta | None] = {
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "1w": timedelta(weeks=1),
    "1m": timedelta(days=30),
    "1y": timedelta(days=365),
    "never": None,
}
EXPIRY_LABELS = {
    "1h": "1 hour",
    "1d": "1 day",
    "1w": "1 week",
    "1m": "1 month (30 days)",
    "1y": "1 year (365 days)",
    "never": "never",
}
DEFAULT_EXPIRY = "1m"
ALLOWED_TEXT = ", ".join(EXPIRY_CHOICES)


def expires_at(choice: str, created: datetime) -> datetime | None:
    """The expiry time for an `expires` value; raises KeyError for an unknown one."""
    duration = EXPIRY_CHOICES[choice]
    return None if duration is None else created + duration
