"""Rate limits per client IP: creating explains (API and form), changing or deleting them with the
delete token, filing abuse and misread reports.

A limit of N per period lets N requests through at once, then one per period/N; a refused
request is told in Retry-After when the next one fits (at most one period later). Its cost does
not grow with N: see `config.throttle_cache`. (DRF's own throttles keep the time of every request
of the last period and store the whole list again on each one.)
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import caches
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config.throttle_cache import take

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """"30/minute" -> (30, 60): requests allowed, and the period in seconds."""
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0].lower()]


class CreateRateThrottle(BaseThrottle):
    """`API_CREATE_RATE` (e.g. "30/minute") per client address.

    Its state lives in the `throttle` cache (Redis with CACHE_URL=redis://…, else the database), which
    every worker on every app server shares, so the limit holds across them all. When it is
    down, the request is answered 503 (config/unavailable.py), as it was without a limit.
    """

    scope = "explain_create"

    def __init__(self) -> None:
        self.cache = caches["throttle"] if "throttle" in settings.CACHES else caches["default"]
        self.retry_after: float | None = None

    def get_rate(self) -> str:
        return settings.API_CREATE_RATE

    def get_ident(self, request) -> str:
        # DRF trusts X-Forwarded-For unless NUM_PROXIES is set; a client could then pick its own
        # address. Count by the socket address unless the deployment declares its proxies.
        if api_settings.NUM_PROXIES is None:
            return request.META.get("REMOTE_ADDR", "")
        return super().get_ident(request)

    def allow_request(self, request, view) -> bool:
        limit, period = parse_rate(self.get_rate())
        if limit < 1:
            self.retry_after = float(period)
            return False
        self.retry_after = take(self.cache, f"{self.scope}:{self.get_ident(request)}", limit, period, time.time())
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after


class ReportRateThrottle(CreateRateThrottle):
    """`REPORT_RATE` (e.g. "10/hour") abuse reports per client address, so nobody can flood
    the moderators' queue."""

    scope = "abuse_report"

    def get_rate(self) -> str:
        return settings.REPORT_RATE


class MisreadRateThrottle(CreateRateThrottle):
    """`MISREAD_REPORT_RATE` (e.g. "10/hour") "This was read wrong" reports per client address."""

    scope = "misread_report"

    def get_rate(self) -> str:
        return settings.MISREAD_REPORT_RATE


class ManageRateThrottle(CreateRateThrottle):
    """`MANAGE_RATE` (e.g. "30/minute") attempts per client address to change or delete an explain
    with its delete token, through the API or the pages, whether the token is right or not."""

    scope = "explain_manage"

    def get_rate(self) -> str:
        return settings.MANAGE_RATE

