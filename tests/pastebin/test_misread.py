"""The "This was read wrong" form under every analysis: filing a report, bad input, throttling, privacy."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.test import Client

import analyzer
from pastebin.anonymize import AnonymizeError
from pastebin.models import AbuseReport, Explain, MisreadReport, MisreadStatus
from tests.pastebin.factories import explain_table
from tests.ui.html import parse

pytestmark = pytest.mark.django_db

THANKS = "Thank you: the paste was sent to the maintainers"


def misread_form(markup: bytes):
    forms = parse(markup).find_all("form", cls="misread-form")
    assert len(forms) == 1, "one misread form under the analysis"
    return forms[0]


def fields(**values) -> dict[str, str]:
    """Form data under the form's prefix: fields(comment="x") posts `misread-comment`."""
    return {f"misread-{name}": value for name, value in values.items()}


def hidden_paste(form) -> str | None:
    found = form.find_all("input", name="misread-explain")
    return found[0].attrs["value"] if found else None


# --- the form under every analysis ---------------------------------------------------------------


def test_the_permalink_page_loads_the_form_for_its_saved_paste_when_opened(client, create):
    slug = create()["slug"]
    page = parse(client.get(f"/e/{slug}/").content)
    section = page.find_all("section", cls="misread")[0]
    assert not section.find_all("form") and b"csrfmiddlewaretoken" not in client.get(f"/e/{slug}/").content
    details = section.find_all("details")[0]
    assert details.attrs["hx-get"] == f"/e/{slug}/misread/" and details.attrs["hx-trigger"] == "toggle once"
    assert details.find_all("summary")[0].text == "This was read wrong"
    assert details.find_all("a")[0].attrs["href"] == f"/e/{slug}/misread/"  # without JavaScript
    fragment = client.get(f"/e/{slug}/misread/", HTTP_HX_REQUEST="true")
    assert "no-store" in fragment["Cache-Control"]
    form = misread_form(fragment.content)
    assert b"<html" not in fragment.content
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == f"/e/{slug}/misread/"
    assert hidden_paste(form) is None  # the stored paste is reported, nothing is sent back
    assert form.find_all("input", name="csrfmiddlewaretoken")
    assert form.find_all("textarea", name="misread-comment")
    assert form.find_all("input", name="misread-anonymize", type="checkbox")


def test_without_javascript_the_form_opens_on_a_page_of_its_own(client, create):
    slug = create()["slug"]
    response = client.get(f"/e/{slug}/misread/")
    assert response.status_code == 200 and b"<html" in response.content
    assert b"was not sent" not in response.content and f'href="/e/{slug}/"'.encode() in response.content
    form = misread_form(response.content)
    assert "open" in form.parent.attrs
    assert client.post(form.attrs["action"], fields(comment="from the page")).status_code == 302
    assert MisreadReport.objects.get().comment == "from the page"
    assert client.head(f"/e/{slug}/misread/").status_code == 200
    assert MisreadReport.objects.count() == 1  # showing the form files nothing


def test_the_home_pages_live_preview_has_the_form_with_the_paste_as_analyzed(client):
    paste = explain_table(newline="\r\n")  # a browser sends the text box's line breaks as CRLF
    response = client.post("/preview/", {"explain": paste}, HTTP_HX_REQUEST="true")
    form = misread_form(response.content)
    assert form.attrs["action"] == form.attrs["hx-post"] == "/misread/"
    assert hidden_paste(form) == paste.replace("\r\n", "\n")  # the text box's own text, as analyzed


@pytest.mark.parametrize(
    ("url", "data"),
    [("/analyze/", {"raw_explain": explain_table()}), ("/preview/", {"explain": explain_table()})],
    ids=["analyze-without-javascript", "preview-page"],
)
def test_the_analysis_pages_without_javascript_have_the_form_too(client, url, data):
    response = client.post(url, data)
    assert response.status_code == 200
    assert hidden_paste(misread_form(response.content)) == explain_table()


@pytest.mark.parametrize("text", ["", "  \n\t"])
def test_no_form_without_a_paste(client, text):
    response = client.post("/preview/", {"explain": text}, HTTP_HX_REQUEST="true")
    assert not parse(response.content).find_all("form", cls="misread-form")


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_paste_offers_the_form_and_its_report_is_filed(client, htmx):
    text = "id  select_type  tabel\n1 SIMPLE <table> t ALL\n"
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post("/preview/", {"explain": text}, **headers)
    assert "No EXPLAIN could be read" in response.content.decode()
    assert hidden_paste(misread_form(response.content)) == text
    sent = client.post("/misread/", fields(explain=text, comment="this is an explain"))
    assert sent.status_code == 302
    report = MisreadReport.objects.get()
    assert report.text == text and report.read_format == "" and report.read_rows == 0


def test_a_refused_paste_cannot_be_sent_anonymized(client):
    response = client.post("/misread/", fields(explain="nothing to read here", anonymize="on"))
    assert response.status_code == 400
    assert "cannot be anonymized" in response.content.decode()
    assert not MisreadReport.objects.exists()


# --- filing a report -----------------------------------------------------------------------------


def test_a_report_on_a_permalink_stores_its_paste_and_what_was_read(client, create):
    data = create(title="saved")
    response = client.post(f"/e/{data['slug']}/misread/", fields(comment="the rows are wrong"))
    assert response.status_code == 302
    assert response["Location"] == f"/e/{data['slug']}/"
    assert THANKS in client.get(response["Location"]).content.decode()
    report = MisreadReport.objects.get()
    explain = Explain.objects.get(slug=data["slug"])
    assert report.explain == explain
    assert report.text == explain.raw_explain
    assert report.comment == "the rows are wrong"
    assert not report.anonymized
    assert report.status == MisreadStatus.NEW
    assert (report.parser_version, report.read_format, report.read_rows, report.read_truncated) == (
        explain.parser_version,
        "table",
        1,
        False,
    )


def test_a_report_from_the_preview_stores_the_paste_exactly_as_analyzed(client):
    paste = "mysql> EXPLAIN SELECT * FROM employees;\n" + explain_table(table="Straße_表") + "1 row in set\n\n  "
    response = client.post("/misread/", fields(explain=paste.replace("\n", "\r\n")))
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert THANKS in client.get("/").content.decode()
    report = MisreadReport.objects.get()
    assert report.text == paste
    assert report.explain is None
    assert report.comment == ""
    assert report.parser_version == analyzer.PARSER_VERSION
    assert (report.read_format, report.read_rows, report.read_truncated) == ("table", 1, False)


def test_a_cut_paste_is_recorded_as_read_truncated(client):
    paste = explain_table(extra="Using where; Using temporary; Using filesort")
    lines = paste.splitlines(keepends=True)
    lines[3] = lines[3][:60] + "\n"  # the data row cut short
    client.post("/misread/", fields(explain="".join(lines)))
    assert MisreadReport.objects.get().read_truncated


@pytest.mark.parametrize("saved", [True, False], ids=["permalink", "preview"])
def test_anonymize_replaces_the_names_before_anything_is_stored(client, create, saved):
    paste = explain_table(table="customer_secrets", key="idx_secret_email")
    if saved:
        url, data = f"/e/{create(paste)['slug']}/misread/", fields(anonymize="on")
    else:
        url, data = "/misread/", fields(explain=paste, anonymize="on")
    assert client.post(url, data).status_code == 302
    report = MisreadReport.objects.get()
    assert report.anonymized
    assert "customer_secrets" not in report.text and "idx_secret_email" not in report.text
    assert "t1" in report.text and "idx1" in report.text


def test_a_paste_that_cannot_be_anonymized_is_a_400_and_nothing_is_stored(client):
    with mock.patch("pastebin.misread.anonymize", side_effect=AnonymizeError("There are no rows to anonymize.")):
        response = client.post("/misread/", fields(explain=explain_table(), anonymize="on"))
    assert response.status_code == 400
    assert "could not be anonymized" in response.content.decode()
    assert not MisreadReport.objects.exists()


def test_with_htmx_the_thanks_and_the_errors_replace_the_form_in_place(client):
    sent = client.post("/misread/", fields(explain=explain_table()), HTTP_HX_REQUEST="true")
    assert sent.status_code == 200
    body = sent.content.decode()
    assert THANKS in body and "<html" not in body and "<form" not in body
    refused = client.post("/misread/", fields(explain="   "), HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "There is no paste to send" in body and "<html" not in body
    assert misread_form(refused.content)  # to try again
    assert MisreadReport.objects.count() == 1


def test_deleting_the_explain_keeps_the_report_and_its_own_copy_of_the_paste(client, create):
    data = create()
    client.post(f"/e/{data['slug']}/misread/", fields(comment="keep me"))
    text = Explain.objects.get(slug=data["slug"]).raw_explain
    assert client.delete(data["api_url"], HTTP_X_DELETE_TOKEN=data["delete_token"]).status_code == 204
    report = MisreadReport.objects.get()
    assert report.explain is None
    assert report.text == text and report.comment == "keep me"


def test_the_form_needs_csrf(create):
    client = Client(enforce_csrf_checks=True)
    slug = create()["slug"]
    assert client.post("/misread/", fields(explain=explain_table())).status_code == 403
    assert client.post(f"/e/{slug}/misread/", {}).status_code == 403
    form = client.get(f"/e/{slug}/misread/", HTTP_HX_REQUEST="true").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    assert client.post(f"/e/{slug}/misread/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert MisreadReport.objects.count() == 1


# --- bad input: a clear 4xx, never a 500, nothing stored -------------------------------------------


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({}, 400, "There is no paste to send"),
        (fields(explain=""), 400, "There is no paste to send"),
        (fields(explain=" \n\t\n"), 400, "There is no paste to send"),
        (fields(explain="a\x00b"), 400, "NUL"),
        (fields(explain=explain_table(), comment="x" * 2001), 400, "at most 2000 characters"),
        (fields(explain=explain_table(), comment="a\x00b"), 400, "NUL"),
    ],
    ids=["nothing", "empty", "blank", "nul", "long-comment", "nul-comment"],
)
def test_bad_input_is_a_clear_4xx_page(client, data, status, message):
    response = client.post("/misread/", data)
    assert response.status_code == status
    body = response.content.decode()
    assert message in body
    assert "The report was not sent" in body
    assert not MisreadReport.objects.exists()


def test_a_paste_over_the_size_limit_is_413(client, settings):
    settings.EXPLAIN_MAX_BYTES = 2000
    response = client.post("/misread/", fields(explain=explain_table() + "x" * 2000))
    assert response.status_code == 413
    assert "larger than the limit of 2000 bytes" in response.content.decode()
    assert not MisreadReport.objects.exists()


def test_a_bad_comment_on_a_permalink_keeps_the_form_with_its_text(client, create):
    slug = create()["slug"]
    response = client.post(f"/e/{slug}/misread/", fields(comment="y" * 2001, anonymize="on"))
    assert response.status_code == 400
    form = misread_form(response.content)
    assert form.find_all("textarea")[0].text.strip() == "y" * 2001
    assert "checked" in form.find_all("input", name="misread-anonymize")[0].attrs
    assert f'href="/e/{slug}/"' in response.content.decode()  # the way back


def test_unknown_gone_and_hidden_explains(client, create):
    assert client.post("/e/neverexisted/misread/", {}).status_code == 404
    assert client.get("/e/neverexisted/misread/").status_code == 404
    gone = create()
    client.delete(gone["api_url"], HTTP_X_DELETE_TOKEN=gone["delete_token"])
    assert client.post(f"/e/{gone['slug']}/misread/", {}).status_code == 410
    hidden = create()["slug"]
    Explain.objects.filter(slug=hidden).update(hidden=True)
    assert client.post(f"/e/{hidden}/misread/", {}).status_code == 410
    assert client.get(f"/e/{hidden}/misread/", HTTP_HX_REQUEST="true").status_code == 410
    assert not MisreadReport.objects.exists()


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_only_post_files_a_report(client, create, method):
    slug = create()["slug"]
    assert getattr(client, method)("/misread/").status_code == 405
    assert getattr(client, method)(f"/e/{slug}/misread/").status_code == 405
    assert client.get("/misread/").status_code == 405
    assert not MisreadReport.objects.exists()


# --- throttling ----------------------------------------------------------------------------------


def test_reports_over_the_rate_are_429_and_not_stored(client, settings, create):
    settings.MISREAD_REPORT_RATE = "2/hour"
    slug = create()["slug"]
    statuses = [client.post(f"/e/{slug}/misread/", fields(comment=f"{i}")).status_code for i in range(2)]
    statuses.append(client.post("/misread/", fields(explain=explain_table())).status_code)
    assert statuses == [302, 302, 429]
    refused = client.post(f"/e/{slug}/misread/", {})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many reports" in refused.content.decode()
    htmx = client.post("/misread/", fields(explain=explain_table()), HTTP_HX_REQUEST="true")
    assert htmx.status_code == 429 and "Too many reports" in htmx.content.decode()
    assert MisreadReport.objects.count() == 2
    assert client.post(f"/e/{slug}/misread/", {}, REMOTE_ADDR="192.0.2.7").status_code == 302
    assert client.post(f"/e/{slug}/report/", {"reason": "spam"}).status_code == 302  # abuse reports count apart
    assert AbuseReport.objects.count() == 1


# --- never public --------------------------------------------------------------------------------


def test_reports_appear_on_no_public_page_or_api(client, create):
    data = create(visibility="public", title="zzpublic")
    client.post(f"/e/{data['slug']}/misread/", fields(comment="zzcomment"))
    client.post("/misread/", fields(explain=explain_table(table="zzunsaved"), comment="zzcomment"))
    assert MisreadReport.objects.count() == 2
    urls = [
        "/", "/recent/", "/search/?q=zzpublic", data["url"], f"/e/{data['slug']}/raw/", data["api_url"],
        "/api/v1/explains/", "/api/v1/schema/", "/notes/feed/",
    ]  # fmt: skip
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert "zzcomment" not in body and "zzunsaved" not in body, url
    for words in ("zzunsaved", "zzcomment"):  # the search page repeats the words, and finds nothing
        assert client.get("/search/", {"q": words}).context["items"] == []
    assert "misread" not in client.get("/api/v1/schema/").content.decode()
    assert not [key for key in client.get(data["api_url"]).json() if "misread" in key or "report" in key]
