"""Logging filters named in settings.LOGGING (kept free of Django imports: logging is set up
before the apps are loaded)."""

from __future__ import annotations

import logging


class SkipServiceUnavailable(logging.Filter):
    """Drops django.request's record of a 503: the database failure behind it is already logged
    as one sampled line (config/unavailable.py), and django.request would add one per request."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503
