"""Browsers send the paste form URL-encoded, which can triple every byte: a paste under the limit
must still reach the form (and one over it get the form's own 413), not Django's bare 400."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.conf import settings

ROW = "│  1 │ SIMPLE      │ t1    │ ALL  │ NULL          │ NULL│ NULL    │ NULL│   10 │ NULL  │\n"
BORDER = "┼────┼─────────────┼───────┼──────┼───────────────┼─────┼─────────┼─────┼──────┼───────┼\n"
HEADER = "│ id │ select_type │ table │ type │ possible_keys │ key │ key_len │ ref │ rows │ Extra │\n"


def box_paste(size: int) -> str:
    """A Unicode box-drawing table of about `size` UTF-8 bytes (three bytes per box character)."""
    rows = size // len(ROW.encode("utf-8"))
    return BORDER + HEADER + BORDER + ROW * rows + BORDER


def post_form(client, url, fields):
    return client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")


@pytest.mark.django_db
def test_a_paste_just_under_the_limit_is_saved_and_previewed(client):
    paste = box_paste(settings.EXPLAIN_MAX_BYTES - 20_000)
    query = "SELECT * FROM t1 WHERE a = '│'" * 1000
    fields = {"explain": paste, "query": query, "expires": "1d", "visibility": "unlisted"}
    assert len(urlencode(fields)) > 1.5 * settings.EXPLAIN_MAX_BYTES  # well over the paste limit
    assert post_form(client, "/", fields).status_code == 302
    assert post_form(client, "/preview/", fields).status_code == 200
    assert post_form(client, "/analyze/", {"raw_explain": paste}).status_code == 200


@pytest.mark.django_db
def test_a_paste_over_the_limit_gets_the_form_back_with_a_clear_413(client):
    paste = box_paste(settings.EXPLAIN_MAX_BYTES + 10_000)
    response = post_form(client, "/", {"explain": paste, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 413
    assert f"limit of {settings.EXPLAIN_MAX_BYTES} bytes" in response.content.decode()
