"""One error shape for the whole API: `{"error": "…"}` with the right status code."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Wrap DRF's handler so every error body is `{"error": "<one readable sentence>"}`."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    response.data = {"error": _message(response.data)}
    return response
