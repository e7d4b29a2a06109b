"""Hostile form posts and query strings against the HTML pages: a 4xx page or a normal page, never a 5xx."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import assert_no_server_error

FORM_FIELDS = ["explain", "raw_explain", "query", "title", "expires", "visibility", "anonymize", "improves_on"]
ODD_VALUES = [
    "", " ", "\x00", "a\x00b", "\ud800", "\u202e", "\u2028", "x" * 300, "<script>alert(1)</script>", "%00",
    "../../etc/passwd", "never", "public", "on", "1", "-1", "A" * 64, "0" * 5000,
]  # fmt: skip
FORM_URLS = ["/", "/preview/", "/analyze/", "/misread/"]


def form_value(value: str) -> str:
    """The test client encodes form values as UTF-8; a lone surrogate would fail there, not in the site."""
    return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


@pytest.mark.django_db
@pytest.mark.parametrize("url", FORM_URLS)
@pytest.mark.parametrize("field", FORM_FIELDS)
@pytest.mark.parametrize("value", ODD_VALUES)
def test_odd_field_values(client, paste, url, field, value):
    data = {"explain": paste, field: form_value(value)}
    response = client.post(url, data)
    assert_no_server_error(response)
    htmx = client.post(url, data, HTTP_HX_REQUEST="true")
    assert_no_server_error(htmx)


@pytest.mark.django_db
@pytest.mark.parametrize("url", FORM_URLS)
@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", b"explain=%ff%fe%fd"),
        ("application/x-www-form-urlencoded", b"explain=%ed%a0%80"),
        ("application/x-www-form-urlencoded", b"\xff\xfe=\xff"),
        ("application/x-www-form-urlencoded", b"explain=a&explain=b&explain=c"),
        ("application/x-www-form-urlencoded", b"x=1&" * 1500),
        ("application/x-www-form-urlencoded; charset=latin-1", b"explain=%e9"),
        ("application/x-www-form-urlencoded; charset=no-such-charset", b"explain=a"),
        ("multipart/form-data", b"garbage"),
        ("multipart/form-data; boundary=", b"garbage"),
        ("multipart/form-data; boundary=xx", b"--xx\r\nContent-Disposition: form-data\r\n\r\nabc\r\n--xx--\r\n"),
        ("application/json", b'{"explain": "x"}'),
        ("text/plain", b"\xff\xfe"),
        ("", b""),
    ],
)
def test_malformed_form_bodies(client, url, content_type, body):
    response = client.generic("POST", url, body, content_type=content_type)
    assert_no_server_error(response)


@pytest.mark.django_db
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    url=st.sampled_from(FORM_URLS),
    data=st.dictionaries(st.sampled_from(FORM_FIELDS), st.text(max_size=80).map(form_value), max_size=6),
    htmx=st.booleans(),
)
def test_random_form_posts(client, url, data, htmx):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    assert_no_server_error(client.post(url, data, **extra))


GET_URLS = [
    "/analyze/?raw_explain=", "/analyze/?raw_explain=%00", "/analyze/?raw_explain=%ff", "/analyze/?raw_explain=x",
    "/analyze/?raw_explain=x&expires=bogus&visibility=bogus&improves_on=%00&anonymize=1",
    "/search/?q=", "/search/?q=%00", "/search/?q=%ff%fe", "/search/?q=" + "a" * 5000, "/search/?q=%25%5F%5C",
    "/search/?q=%22", "/search/?q=-", "/search/?q=a%20OR%20b", "/search/?q=%27%3B%20DROP%20TABLE", "/search/?q=%3A*",
    "/search/?q=!!!&q=2", "/recent/?after=", "/recent/?after=!!!", "/recent/?after=%00", "/recent/?after=" + "A" * 5000,
    "/recent/?after=MjAyNC0wMS0wMVQwMDowMDowMHxhYmM", "/recent/?after=MjAyNC0wMS0wMVQwMDowMDowMCswMDowMHw8Pg",
    "/recent/?after=OTk5OTktMDEtMDFUMDA6MDA6MDArMDA6MDB8YWJj", "/recent/?cursor=!!!", "/recent/?page=-1",
    "/?improves_on=%00", "/?improves_on=" + "a" * 5000, "/preview/", "/terms/?x=%00", "/compare/",
    "/compare/?a=&b=", "/compare/?a=%00&b=%00", "/compare/?a=x&b=y", "/compare/?a=x&b=x", "/compare/?a=x/e/&b=/e/",
    "/compare/?a=http://evil.example/e/abc/&b=abc", "/compare/a/b/", "/compare/" + "a" * 64 + "/b/",
    "/e/x/", "/e/x/raw/", "/e/x/report/", "/e/" + "a" * 64 + "/", "/e/%3Cscript%3E/", "/e/../../etc/passwd",
    "/notes/", "/notes/no-such-note/", "/notes/releases/?x=%00", "/notes/feed/", "/notes/x/tables/0.csv",
    "/notes/x/tables/99999999999999999999999.csv", "/no/such/page/", "/%00", "/static/../config/settings.py",
    "/api/v1/docs/", "/api/v1/docs/?url=javascript:alert(1)",
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("url", GET_URLS)
def test_odd_get_urls(client, url):
    response = client.get(url)
    assert_no_server_error(response)
    head = client.head(url)
    assert_no_server_error(head)


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(["/search/", "/recent/", "/analyze/", "/compare/", "/", "/preview/", "/terms/"]),
    params=st.dictionaries(
        st.sampled_from(["q", "after", "cursor", "raw_explain", "a", "b", "improves_on", "expires"]),
        st.text(max_size=60).map(form_value),
        max_size=3,
    ),
)
def test_random_query_strings(client, path, params):
    assert_no_server_error(client.get(path, params))


@pytest.mark.django_db
@pytest.mark.parametrize("suffix", ["", "raw/", "report/", "misread/", "delete/", "edit/"])
@pytest.mark.parametrize("method", ["get", "post", "put", "delete", "patch", "options"])
def test_every_method_on_saved_explain_pages(client, create_explain, suffix, method):
    slug = create_explain(title="kept")["slug"]
    response = getattr(client, method)(f"/e/{slug}/{suffix}")
    assert_no_server_error(response)
    if method == "get" and suffix in ("delete/", "edit/", "misread/"):
        assert response.status_code == 200  # the confirmation and the forms: they change nothing
    assert client.get(f"/e/{slug}/").status_code == 200
    assert client.get(f"/api/v1/explains/{slug}/").json()["title"] == "kept"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [{}, {"reason": ""}, {"reason": "x" * 5000}, {"reason": "a\x00b"}, {"reason": "ok", "contact": "c" * 500},
     {"reason": "ok", "contact": "\x00"}],
)  # fmt: skip
def test_odd_abuse_reports(client, create_explain, data):
    slug = create_explain()["slug"]
    assert_no_server_error(client.post(f"/e/{slug}/report/", data))


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["explain", "comment", "anonymize"])
@pytest.mark.parametrize("value", ODD_VALUES)
@pytest.mark.parametrize("htmx", [False, True])
def test_odd_misread_reports(client, create_explain, paste, field, value, htmx):
    slug = create_explain()["slug"]
    data = {"misread-explain": paste, f"misread-{field}": form_value(value)}
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    assert_no_server_error(client.post("/misread/", data, **extra))
    assert_no_server_error(client.post(f"/e/{slug}/misread/", data, **extra))


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["", "x", "x" * 100_000, "\x00", "\ud800"])
def test_odd_delete_tokens_in_the_form(client, create_explain, token):
    slug = create_explain()["slug"]
    response = client.post(f"/e/{slug}/delete/", {"token": form_value(token)})
    assert response.status_code == 403
    edit = client.post(f"/e/{slug}/edit/", {"token": form_value(token), "title": "x", "visibility": "public"})
    assert edit.status_code == 403
    assert client.get(f"/e/{slug}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["title", "visibility", "expires"])
@pytest.mark.parametrize("value", ODD_VALUES)
def test_odd_edits_in_the_form_and_the_api(client, create_explain, field, value):
    created = create_explain()
    slug, token = created["slug"], created["delete_token"]
    fields = {"title": "t", "visibility": "unlisted", "expires": "", "token": token, field: form_value(value)}
    assert_no_server_error(client.post(f"/e/{slug}/edit/", fields))
    body = {field: value}
    response = client.patch(f"/api/v1/explains/{slug}/", body, content_type="application/json", HTTP_X_DELETE_TOKEN=token)
    assert_no_server_error(response)
    assert response.status_code in (200, 400)
    assert client.get(f"/e/{slug}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/", "/preview/", "/analyze/", "/recent/", "/search/", "/terms/", "/notes/", "/notes/releases/", "/notes/feed/",
     "/compare/", "/compare/a/b/", "/api/v1/docs/", "/no/such/page/"],
)  # fmt: skip
@pytest.mark.parametrize("method", ["OPTIONS", "HEAD", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND"])
def test_every_method_on_every_page(client, url, method):
    assert_no_server_error(client.generic(method, url, b"x", content_type="text/plain"))
