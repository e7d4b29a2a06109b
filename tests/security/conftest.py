"""Shared helpers for the hostile-input tests: a valid paste and checks every answer must pass."""

from __future__ import annotations

import json

import pytest

from tests.pastebin.factories import create_via_api, explain_table


@pytest.fixture(autouse=True)
def _generous_rate(settings):
    """Fuzzing creates many explains and reports; the throttles have their own tests."""
    settings.API_CREATE_RATE = "100000/minute"
    settings.REPORT_RATE = "100000/minute"
    settings.MISREAD_REPORT_RATE = "100000/minute"
    settings.MANAGE_RATE = "100000/minute"


@pytest.fixture
def paste() -> str:
    return explain_table()


def assert_no_server_error(response) -> None:
    assert response.status_code < 500, response.content[:2000]


def assert_json_error(response) -> str:
    """A 4xx API answer whose body is `{"error": "<readable sentence>"}`; returns the message."""
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:2000])
    body = json.loads(response.content)
    assert isinstance(body, dict) and set(body) == {"error"}, body
    message = body["error"]
    assert isinstance(message, str) and len(message) >= 8, body
    assert "Traceback" not in message and "object at 0x" not in message, message
    return message


@pytest.fixture
def create_explain(client, paste):
    """Save a paste through the API (text/plain, options as query parameters) and return the JSON."""

    def _create(text: str | None = None, **params) -> dict:
        return create_via_api(client, text if text is not None else paste, **params)

    return _create
