"""The paste comes back exactly as sent: CRLF, emoji, CJK, trailing spaces (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from pastebin.models import Explain
from tests.pastebin.factories import explain_table, fixture

pytestmark = pytest.mark.django_db

PASTES = {
    "crlf": explain_table(newline="\r\n"),
    "emoji": explain_table(table="orders_🚀", extra="Using where"),
    "cjk": explain_table(table="社員", extra="Using where"),
    "trailing_space_and_blank_lines": "\n\n  " + explain_table() + "   \n\n\n",
    "mixed_newlines": explain_table().replace("\n", "\r\n", 2),
    "sample": fixture("hr_union_names_plain_table_clean.txt"),
}


@pytest.mark.parametrize("name", PASTES)
def test_api_text_body_reads_back_byte_for_byte(client, create, name):
    text = PASTES[name]
    data = create(text)
    raw = client.get(data["raw_url"])
    assert raw.status_code == 200
    assert raw["Content-Type"] == "text/plain; charset=utf-8"
    assert raw["X-Content-Type-Options"] == "nosniff"
    assert raw.content == text.encode("utf-8")
    assert client.get(data["api_url"]).json()["explain"] == text


@pytest.mark.parametrize("name", PASTES)
def test_api_json_body_reads_back_byte_for_byte(client, name):
    text = PASTES[name]
    response = client.post("/api/v1/explains/", {"explain": text}, content_type="application/json")
    assert response.status_code == 201
    assert client.get(response.json()["raw_url"]).content == text.encode("utf-8")


@pytest.mark.parametrize("name", PASTES)
def test_form_reads_back_as_the_textarea_held_it(client, name):
    # A browser sends a textarea's line breaks as CRLF; the text in the textarea had LF.
    text = PASTES[name]
    response = client.post("/", {"explain": text, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302
    slug = response["Location"].split("/")[2]
    typed = text.replace("\r\n", "\n")
    assert client.get(f"/e/{slug}/raw/").content == typed.encode("utf-8")
    assert Explain.objects.get(slug=slug).raw_explain == typed


def test_a_form_post_makes_no_line_ending_repair(client):
    browser_sent = explain_table(newline="\r\n")
    response = client.post("/", {"explain": browser_sent, "expires": "1d", "visibility": "unlisted"})
    notices = Explain.objects.get(slug=response["Location"].split("/")[2]).analysis["notices"]
    assert not any("CRLF" in notice for notice in notices), notices
    preview = client.post("/preview/", {"explain": browser_sent}).content.decode()
    assert "CRLF" not in preview and "employees" in preview
