from __future__ import annotations

import pytest

from tests.pastebin.factories import create_via_api, explain_table


@pytest.fixture(autouse=True)
def _generous_rate(settings):
    """A rate no ordinary test reaches; the throttling tests set their own."""
    settings.API_CREATE_RATE = "10000/minute"
    settings.MISREAD_REPORT_RATE = "10000/minute"
    settings.MANAGE_RATE = "10000/minute"


@pytest.fixture
def paste() -> str:
    return explain_table()


@pytest.fixture
def create(client, paste):
    """POST a paste to the API (text/plain, options as query parameters) and return the JSON."""

    def _create(text: str | None = None, **params) -> dict:
        return create_via_api(client, text if text is not None else paste, **params)

    return _create


@pytest.fixture
def rendered(monkeypatch) -> list[str]:
    """The names of the templates the permalink's cache renders (its analysis section and parts), as rendered."""
    from pastebin import permalink

    names: list[str] = []
    original = permalink.render_to_string

    def counting(name, context=None, request=None):
        names.append(name)
        return original(name, context, request)

    monkeypatch.setattr(permalink, "render_to_string", counting)
    return names
