"""The home form saves explains too: it shares the API's creation budget per client address."""

from __future__ import annotations

import pytest

from pastebin.models import Explain


def save(client, paste, **extra):
    return client.post("/", {"explain": paste, "expires": "1d", "visibility": "unlisted"}, **extra)


@pytest.mark.django_db
def test_the_form_cannot_be_used_to_escape_the_creation_limit(client, settings, paste):
    settings.API_CREATE_RATE = "3/minute"
    api = client.post("/api/v1/explains/", paste, content_type="text/plain", HTTP_ACCEPT="application/json")
    assert api.status_code == 201
    assert [save(client, paste).status_code for _ in range(2)] == [302, 302]
    refused = save(client, paste)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many explains" in refused.content.decode()
    assert 'name="explain"' in refused.content.decode()  # the form comes back with the paste in it
    assert Explain.objects.count() == 3
    assert save(client, paste, REMOTE_ADDR="192.0.2.9").status_code == 302  # another address
