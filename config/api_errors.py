"""One error shape for the whole API: `{"error": "…"}` with the right status code."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.unavailable import is_database_failure, unavailable_response


def _message(detail: Any) -> str:
    if isinstance(detail, dict):
        parts = []
        for field, value in detail.items():
            text = _message(value)
            parts.append(text if field in {"non_field_errors", "detail", "error"} else f"{field}: {text}")
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_message(item) for item in detail)
    return str(detail)


logger = logging.getLogger("config.api")


def exception_handler(exc: Exception, context: dict[str, Any]) -> HttpResponse | None:
    """Wrap DRF's handler so every error body is `{"error": "<one readable sentence>"}`.

    An unexpected exception is logged with its traceback and answered with a JSON 500, so API
    clients never have to read an HTML error page (with DEBUG on, Django's debug page instead).
    """
    if is_database_failure(exc):
        return unavailable_response(context["request"], exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        if settings.DEBUG:
            return None
        view = context.get("view")
        logger.error("Unhandled error in %s", type(view).__name__, exc_info=exc)
        return Response(
            {"error": "The server failed to handle this request. The error has been logged."},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    response.data = {"error": _message(response.data)}
    return response
