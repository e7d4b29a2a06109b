"""`/analyze/`: hand-off from other tools, by GET or a cross-site POST; nothing saved until asked."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from pastebin.models import Explain
from tests.pastebin.factories import explain_table, fixture

pytestmark = pytest.mark.django_db


def test_get_with_raw_explain_shows_the_analysis_and_a_save_form(client):
    text = fixture("hr_dept_join_an_table_clean.txt")
    response = client.get("/analyze/", {"raw_explain": text})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="analysis"' in html
    assert "idx_hire" in html
    assert 'action="/"' in html
    assert ">Save &amp; share</button>" in html
    assert "noindex" in response["X-Robots-Tag"]
    assert not Explain.objects.exists()


@pytest.mark.parametrize("field", ["raw_explain", "explain"])
def test_cross_site_post_without_csrf_token_works(field):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/analyze/", {field: explain_table(table="salaries")}, HTTP_ORIGIN="https://tool.example")
    assert response.status_code == 200
    assert "salaries" in response.content.decode()
    assert not Explain.objects.exists()


def test_the_save_form_shown_after_handoff_needs_csrf_and_keeps_the_paste():
    client = Client(enforce_csrf_checks=True)
    text = explain_table(newline="\r\n")
    page = client.post("/analyze/", {"raw_explain": text, "title": "from a tool"}).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert 'value="from a tool"' in page
    fields = {"explain": text, "title": "from a tool", "expires": "1d", "visibility": "unlisted"}
    assert client.post("/", fields).status_code == 403
    response = client.post("/", {**fields, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    saved = Explain.objects.get()
    assert saved.raw_explain == text.replace("\r\n", "\n")  # the form's line breaks, as its textarea had them
    assert saved.title == "from a tool"


def test_no_explain_is_400_with_the_form(client):
    response = client.post("/analyze/", {"raw_explain": "just words"})
    assert response.status_code == 400
    assert 'name="explain"' in response.content.decode()
    assert client.post("/analyze/", {}).status_code == 400


def test_get_without_text_goes_home(client):
    response = client.get("/analyze/")
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_home_form_analyze_button_posts_here(client):
    data = {"explain": explain_table(), "expires": "1w", "visibility": "public", "action": "analyze"}
    response = client.post("/analyze/", data)
    assert response.status_code == 200
    assert re.search(r'value="public"[^>]*checked', response.content.decode())
    assert not Explain.objects.exists()
