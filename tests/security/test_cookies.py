"""Cookies: none readable by scripts (the CSRF token reaches htmx through the page, not the cookie)."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_every_cookie_is_http_only(client, paste):
    responses = [client.get("/"), client.post("/", {"explain": paste, "expires": "1d", "visibility": "unlisted"})]
    slug = responses[-1]["Location"].strip("/").split("/")[-1]
    responses.append(client.get(f"/e/{slug}/"))
    responses.append(client.post(f"/e/{slug}/delete/"))  # sets a message
    cookies = [morsel for response in responses for morsel in response.cookies.values()]
    assert {m.key for m in cookies} >= {"csrftoken", "sessionid"}
    for morsel in cookies:
        assert morsel["httponly"], f"cookie {morsel.key} is readable by scripts"
        assert morsel["samesite"].lower() in ("lax", "strict"), morsel.key
