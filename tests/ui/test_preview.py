"""The analyze-without-saving page: htmx partial vs full page, errors, CSRF."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.ui.conftest import read_fixture
from tests.ui.html import parse

QUERY = "SELECT e.emp_no, e.last_name, d.dept_name FROM employees e JOIN departments d ON d.dept_no = e.dept_no"


def test_get_shows_the_form_with_the_api_field_names(client):
    response = client.get("/preview/")
    assert response.status_code == 200
    doc = parse(response.content)
    form = doc.find_all("form", cls="analyze-form")[0]
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == "/preview/"
    assert form.attrs["hx-post"] == "/preview/"
    assert form.attrs["hx-trigger"] == "submit, preview" and form.attrs["data-live-preview"] == "600"
    assert form.find_all("textarea", name="explain")
    assert form.find_all("textarea", name="query")
    assert [b.text.strip() for b in form.find_all("button")] == ["Analyze"]
    assert form.find_all("input", name="csrfmiddlewaretoken")


def test_htmx_post_returns_only_the_partial(client, htmx_headers):
    response = client.post(
        "/preview/", {"explain": read_fixture("analyze_table.txt"), "query": QUERY}, headers=htmx_headers
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    doc = parse(body)
    assert [form.attrs["class"] for form in doc.find_all("form")] == ["misread-form"]  # "This was read wrong"
    assert doc.find_all("section", cls="analysis")
    assert doc.by_id("row-0") is not None and doc.by_id("row-1") is not None
    assert "HX-Request" in response.headers["Vary"]
    status = doc.by_id("result-status")
    assert status.attrs["hx-swap-oob"] == "true" and status.attrs["role"] == "status"
    assert status.text == "Analysis updated: 2 rows, 0 findings."


def test_plain_post_returns_the_full_page_with_the_paste_kept(client):
    paste = read_fixture("analyze_table.txt")
    response = client.post("/preview/", {"explain": paste, "query": QUERY})
    assert response.status_code == 200
    doc = parse(response.content)
    assert doc.find_all("html") and doc.find_all("form", cls="analyze-form")
    assert doc.find_all("section", cls="analysis")
    assert doc.find_all("textarea", name="explain")[0].text.strip() == paste.strip()
    assert doc.find_all("textarea", name="query")[0].text.strip() == QUERY


def test_mangled_paste_is_repaired_and_shown(client):
    response = client.post("/preview/", {"explain": read_fixture("mangled_email72.txt")})
    assert response.status_code == 200
    doc = parse(response.content)
    header = [th.text.strip() for th in doc.find_all("table", cls="plan")[0].find_all("th", scope="col")]
    assert header[1:] == [
        "id",
        "select_type",
        "table",
        "type",
        "possible_keys",
        "key",
        "key_len",
        "ref",
        "rows",
        "extra",
    ]
    body = doc.find_all("table", cls="plan")[0].find_all("tbody")[0]
    assert len(body.find_all("tr")) == 2


@pytest.mark.parametrize("text", ["hello, this is not an explain", "SELECT 1;"])
def test_no_explain_shows_the_parser_message(client, htmx_headers, text):
    partial = client.post("/preview/", {"explain": text}, headers=htmx_headers)
    assert partial.status_code == 200
    alert = parse(partial.content).find_all(role="alert")
    assert alert and "EXPLAIN" in alert[0].text

    page = client.post("/preview/", {"explain": text})
    assert page.status_code == 400
    assert parse(page.content).find_all(role="alert")


def test_empty_paste(client, htmx_headers):
    partial = client.post("/preview/", {"explain": "  \n"}, headers=htmx_headers)
    assert partial.status_code == 200
    assert parse(partial.content).find_all("p", cls="empty-state")
    page = client.post("/preview/", {"explain": ""})
    assert page.status_code == 400
    assert "Paste the output of EXPLAIN" in page.content.decode()


def test_too_large_paste(client, settings, htmx_headers):
    settings.EXPLAIN_MAX_BYTES = 2000
    paste = read_fixture("analyze_table.txt") * 3
    assert client.post("/preview/", {"explain": paste}).status_code == 413
    partial = client.post("/preview/", {"explain": paste}, headers=htmx_headers)
    assert partial.status_code == 200
    assert "2000" in parse(partial.content).find_all(role="alert")[0].text
    assert not parse(partial.content).find_all(cls="hint")  # how to get EXPLAIN output is not the point here


def test_too_complex_paste(client, settings, htmx_headers):
    settings.EXPLAIN_DEADLINE_MS = 0
    paste = read_fixture("analyze_table.txt")
    assert client.post("/preview/", {"explain": paste}).status_code == 422
    partial = client.post("/preview/", {"explain": paste}, headers=htmx_headers)
    assert partial.status_code == 200
    assert "too complex to read within 0 ms" in parse(partial.content).find_all(role="alert")[0].text
    assert client.post("/preview/profile.svg", {"explain": paste}).status_code == 422


def test_post_needs_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/preview/", {"explain": read_fixture("analyze_table.txt")})
    assert response.status_code == 403

    page = client.get("/preview/")
    token = parse(page.content).find_all("input", name="csrfmiddlewaretoken")[0].attrs["value"]
    live_form = [f for f in parse(page.content).find_all("form") if "hx-post" in f.attrs][0]
    assert token and live_form.find_all("input", name="csrfmiddlewaretoken")  # htmx posts the form's own token
    ok = client.post("/preview/", {"explain": read_fixture("analyze_table.txt"), "csrfmiddlewaretoken": token})
    assert ok.status_code == 200


def test_other_methods_are_refused(client):
    assert client.put("/preview/").status_code == 405
