"""The home page form: API field names, in-place Analyze with htmx, Save & share posting to /."""

from __future__ import annotations

import pytest

from tests.ui.conftest import read_fixture
from tests.ui.html import parse

pytestmark = pytest.mark.django_db


def test_home_form_fields_and_buttons(client):
    doc = parse(client.get("/").content)
    form = doc.find_all("form", cls="explain-form")[0]
    assert form.attrs["action"] == "/" and form.attrs["method"] == "post"
    names = {n.attrs.get("name") for n in form.iter() if n.tag in {"input", "textarea", "select"}}
    assert {"explain", "query", "title", "expires", "visibility", "anonymize"} <= names
    analyze, save = form.find_all("button")
    assert analyze.text == "Analyze" and save.text == "Save & share"
    assert analyze.attrs["hx-post"] == "/preview/" and analyze.attrs["formaction"] == "/analyze/"
    assert "hx-post" not in save.attrs and "formaction" not in save.attrs
    # Live preview: typing in the paste, query or table definitions posts to /preview/ after a pause.
    assert form.attrs["hx-post"] == "/preview/" and "delay:" in form.attrs["hx-trigger"]
    assert "from:.live-input" in form.attrs["hx-trigger"]
    live = [n.attrs["name"] for n in form.iter() if "live-input" in n.classes]
    assert live == ["explain", "query", "schema"]
    assert doc.by_id("result") is not None and doc.by_id("result-status") is not None


def test_preview_from_the_home_form_fields(client):
    fields = {
        "explain": read_fixture("analyze_table.txt"),
        "query": "",
        "title": "t",
        "expires": "1d",
        "visibility": "unlisted",
        "action": "analyze",
    }
    response = client.post("/preview/", fields, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert parse(response.content).find_all("table", cls="plan")


def test_handoff_page_shows_the_analysis_in_the_preview_target(client):
    response = client.get("/analyze/", {"raw_explain": read_fixture("analyze_table.txt"), "title": "from a tool"})
    doc = parse(response.content)
    result = doc.by_id("result")
    assert result.find_all("section", cls="analysis")
    assert doc.find_all("form", cls="explain-form")
