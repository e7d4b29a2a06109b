"""Rate limits per client IP: creating explains (API and form), changing or deleting them with the
delete token, filing abuse and misread reports."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle


class CreateRateThrottle(AnonRateThrottle):
    """`API_CREATE_RATE` (e.g. "30/minute") per client address.

    Counts live in the `throttle` cache (Redis with CACHE_URL=redis://…, else the database), which
    every worker on every app server shares, so the limit holds across them all.
    """

    scope = "explain_create"

    def __init__(self) -> None:
        self.cache = caches["throttle"] if "throttle" in settings.CACHES else caches["default"]
        super().__init__()

    def get_rate(self) -> str:
        return getattr(settings, "API_CREATE_RATE", "30/minute")

    def get_ident(self, request) -> str:
        # DRF trusts X-Forwarded-For unless NUM_PROXIES is set; a client could then pick its own
        # address. Count by the socket address unless the deployment declares its proxies.
        if api_settings.NUM_PROXIES is None:
            return request.META.get("REMOTE_ADDR", "")
        return super().get_ident(request)


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
