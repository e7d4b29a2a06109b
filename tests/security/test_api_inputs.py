"""Hostile bodies, content types, headers and parameters against the JSON API: never a 5xx,
and every error is `{"error": "<readable sentence>"}`."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import assert_json_error, assert_no_server_error

POST_URLS = ["/api/v1/analyze/", "/api/v1/analyze", "/api/v1/explains/", "/api/v1/explains"]

# (content type, body) pairs that are malformed or not what the API documents.
BAD_BODIES = [
    ("application/json", b"[]"),
    ("application/json", b'"a string"'),
    ("application/json", b"1"),
    ("application/json", b"null"),
    ("application/json", b"NaN"),
    ("application/json", b""),
    ("application/json", b"\xff\xfe"),
    ("application/json", b"{"),
    ("application/json", b'{"explain": 1}'),
    ("application/json", b'{"explain": []}'),
    ("application/json", b'{"explain": null}'),
    ("application/json", b'{"explain": {"a": 1}}'),
    ("application/json", b'{"explain": "\\ud800"}'),
    ("application/json", b'{"explain": "x\\u0000y"}'),
    ("application/json", b'{"explain": "x", "query": "\\udfff"}'),
    ("application/json", b'{"explain": "x", "query": 5}'),
    ("application/json", b'{"explain": "x", "query": ["a"]}'),
    ("application/json", b'{"query": "SELECT 1"}'),
    ("application/json", b"[" * 100_000),
    ("application/json", b'{"a":' * 50_000),
    ("application/json", b'{"explain": ' + b"[" * 50_000),
    ("application/json; charset=latin-1", b'{"explain": "\xe9"}'),
    ("application/json; charset=utf-16", b'{"explain": "x"}'),
    ("application/json; charset=no-such-charset", b'{"explain": "x"}'),
    ("text/plain; charset=latin-1", b"\xe9\xe9"),
    ("text/plain; charset=no-such-charset", b"abc"),
    ("text/plain", b"\xff\xfe\x00"),
    ("text/plain", b"abc\x00def"),
    ("text/plain", b""),
    ("text/plain", b"\xed\xa0\x80"),  # a surrogate encoded as UTF-8 (CESU): invalid UTF-8
    ("", b"abc"),
    ("application/octet-stream", b"abc"),
    (
        "multipart/form-data; boundary=xx",
        b'--xx\r\nContent-Disposition: form-data; name="explain"\r\n\r\nabc\r\n--xx--\r\n',
    ),
    ("multipart/form-data", b"abc"),
    ("application/x-www-form-urlencoded", b"explain=%ff%fe"),
    ("application/x-www-form-urlencoded", b"explain=a&" + b"x=1&" * 2000),
    ("application/x-www-form-urlencoded", b"explain=a%00b"),
    ("application/x-www-form-urlencoded", b"explain="),
    ("application/x-www-form-urlencoded", b"\xff"),
    ("text/html", b"<b>bold</b>"),
    ("application/xml", b"<a/>"),
    ("text/plain;;;", b"abc"),
    ("te/xt/plain", b"abc"),
]


def post(client, url, body, content_type, **extra):
    extra.setdefault("HTTP_ACCEPT", "application/json")
    return client.generic("POST", url, body, content_type=content_type, **extra)


@pytest.mark.django_db
@pytest.mark.parametrize("url", POST_URLS)
@pytest.mark.parametrize(("content_type", "body"), BAD_BODIES)
def test_bad_bodies_get_a_json_4xx(client, url, content_type, body):
    response = post(client, url, body, content_type)
    assert_no_server_error(response)
    if response.status_code >= 400:
        assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/analyze/", "/api/v1/explains/"])
def test_deeply_nested_json_is_a_400(client, url):
    response = post(client, url, b"[" * 100_000 + b"]" * 100_000, "application/json")
    assert response.status_code == 400
    assert "nested" in assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/analyze/", "/api/v1/explains/"])
@pytest.mark.parametrize(
    "accept",
    ["", "*/*", "text/plain", "application/json", "text/html", "image/png", "text/*;q=0.1, */*;q=0",
     "application/json; indent=9999", "application/json; indent=-1", "application/json; indent=abc",
     "text/plain; charset=latin-1", "\x00", "a" * 5000],
)  # fmt: skip
def test_accept_variants(client, url, paste, accept):
    ok = post(client, url, paste.encode(), "text/plain", HTTP_ACCEPT=accept)
    assert_no_server_error(ok)
    bad = post(client, url, b"no explain here", "text/plain", HTTP_ACCEPT=accept)
    assert_no_server_error(bad)
    assert bad.status_code >= 400


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params",
    [
        {"expires": "forever"}, {"expires": ""}, {"expires": "1 day"}, {"visibility": "secret"},
        {"visibility": ""}, {"anonymize": "maybe"}, {"anonymize": ""}, {"improves_on": "nope"},
        {"improves_on": "../../etc/passwd"}, {"improves_on": "\x00"}, {"improves_on": "a" * 10_000},
        {"title": "t" * 100_000}, {"title": "a\x00b"}, {"query": "q" * 2_000_000}, {"query": "a\x00b"},
        {"page_size": "-1"}, {"cursor": "!!!"},
    ],
)  # fmt: skip
def test_bad_options_as_query_parameters(client, paste, params):
    response = client.post(
        "/api/v1/explains/", paste, content_type="text/plain", query_params=params, HTTP_ACCEPT="application/json"
    )
    assert_no_server_error(response)
    if response.status_code >= 400:
        assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "options",
    [
        {"title": None}, {"title": ["a"]}, {"title": "\ud800"}, {"title": "a\x00"},
        {"title": "t" * 100_000}, {"expires": None}, {"expires": []}, {"expires": {}}, {"expires": 1},
        {"visibility": 1}, {"visibility": ["public"]}, {"anonymize": "maybe"}, {"anonymize": None},
        {"anonymize": {}}, {"improves_on": 5}, {"improves_on": ["a"]}, {"improves_on": "\x00"},
        {"improves_on": "\ud800"}, {"query": "\ud800"}, {"query": {"a": 1}}, {"explain": "\ud800"},
        {"explain": "x" * (1024 * 1024 + 1)}, {"query": "q" * (1024 * 1024 + 1)},
    ],
)  # fmt: skip
def test_bad_json_options(client, paste, options):
    body = json.dumps({"explain": paste, **options})
    response = post(client, "/api/v1/explains/", body.encode(), "application/json")
    assert_no_server_error(response)
    assert response.status_code in (400, 413), response.content[:500]
    assert_json_error(response)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
FIELDS = ["explain", "query", "title", "expires", "visibility", "anonymize", "improves_on"]


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), JSON_VALUES, max_size=7) | JSON_VALUES,
    url=st.sampled_from(["/api/v1/analyze/", "/api/v1/explains/"]),
)
def test_random_json_bodies(client, body, url):
    response = post(client, url, json.dumps(body).encode(), "application/json")
    assert_no_server_error(response)
    if response.status_code >= 400:
        assert_json_error(response)


CONTENT_TYPES = st.sampled_from(
    ["text/plain", "application/json", "application/x-www-form-urlencoded", "", "text/csv", "application/xml"]
) | st.text(max_size=40)
CHARSETS = st.sampled_from(["", "; charset=utf-8", "; charset=latin-1", "; charset=utf-16", "; charset=x"])


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    content_type=CONTENT_TYPES,
    charset=CHARSETS,
    params=st.dictionaries(st.sampled_from(FIELDS + ["cursor", "format"]), st.text(max_size=20), max_size=4),
    url=st.sampled_from(POST_URLS),
)
def test_random_bytes_content_types_and_parameters(client, body, content_type, charset, params, url):
    try:
        response = client.generic(
            "POST", url, body, content_type=content_type + charset, query_params=params, HTTP_ACCEPT="application/json"
        )
    except UnicodeEncodeError:
        return  # the test client itself cannot send a header that is not Latin-1
    assert_no_server_error(response)
    if response.status_code >= 400 and response["Content-Type"].startswith("application/json"):
        assert_json_error(response)


@pytest.mark.django_db
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    params=st.dictionaries(
        st.sampled_from(["cursor", "page_size", "format", "q"]),
        st.text(max_size=60) | st.sampled_from(["cD0yMDI0", "cj0xJnA9MjAyNA", "-1", "0", "999999999999"]),
        max_size=3,
    )
)
def test_list_query_parameters(client, params):
    response = client.get("/api/v1/explains/", query_params=params)
    assert_no_server_error(response)
    if response.status_code >= 400:
        assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "cursor",
    ["", "!!!", "cD0x", "bz0xJnA9eA", "cD0yMDI0LTAxLTAxVDAwOjAwOjAwKzAwOjAw", "cj0xJnA9MjAyNC0wMS0wMQ",
     "cD1ub3QgYSBkYXRl", "cD0yMDI0LTEzLTQ1VDk5Ojk5Ojk5", "bz0tNSZwPTIwMjQtMDEtMDE", "bz05OTk5OTk5OTk5OTk5OTk5OTk"],
)  # fmt: skip
def test_forged_cursors(client, cursor):
    response = client.get("/api/v1/explains/", {"cursor": cursor})
    assert_no_server_error(response)
    if response.status_code >= 400:
        assert_json_error(response)


SLUGS = ["x", "A" * 64, "-", "_", "nosuchslug12345", "..", "%00", "a%2fb", "\u00e9", "a b", "<script>"]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("suffix", ["/", ""])
def test_unknown_slugs_in_the_api(client, slug, suffix):
    url = f"/api/v1/explains/{slug}{suffix}"
    for response in (
        client.get(url),
        client.delete(url),
        client.delete(url, HTTP_X_DELETE_TOKEN="x" * 10_000),
        client.put(url, b"{}", content_type="application/json"),
    ):
        assert_no_server_error(response)
        assert response.status_code >= 400
        if response["Content-Type"].startswith("application/json"):
            assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["", " ", "x" * 100_000, "\u00e9", "\x7f", "a\tb"])
def test_delete_with_odd_tokens_is_refused(client, create_explain, token):
    slug = create_explain()["slug"]
    response = client.delete(f"/api/v1/explains/{slug}/", HTTP_X_DELETE_TOKEN=token)
    assert response.status_code == 403
    assert_json_error(response)
    assert client.get(f"/api/v1/explains/{slug}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/api/v1/notes/", "/api/v1/notes", "/api/v1/notes/?kind=x", "/api/v1/notes/?kind=", "/api/v1/notes/?kind=%00",
     "/api/v1/notes/no-such-note/", "/api/v1/notes/%3Cscript%3E/", "/api/v1/notes/?format=xml",
     "/api/v1/notes/?format=api", "/api/v1/notes/?page=-1", "/api/v1/schema/", "/api/v1/schema/?format=json",
     "/api/v1/schema/?format=nope", "/api/v1/schema/?lang=zz", "/api/v1/schema/?version=%00"],
)  # fmt: skip
def test_read_only_api_urls(client, url):
    response = client.get(url)
    assert_no_server_error(response)
    if response.status_code >= 400 and response["Content-Type"].startswith("application/json"):
        assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
@pytest.mark.parametrize("url", ["/api/v1/notes/", "/api/v1/analyze/", "/api/v1/explains/"])
def test_unsupported_methods_are_405_with_json(client, method, url):
    response = getattr(client, method)(url, b"{}", content_type="application/json")
    assert response.status_code == 405
    assert_json_error(response)


@pytest.mark.django_db
def test_detail_asked_for_text_is_a_json_406(client, create_explain):
    slug = create_explain()["slug"]
    response = client.get(f"/api/v1/explains/{slug}/", HTTP_ACCEPT="text/plain")
    assert response.status_code in (200, 406)
    if response.status_code == 406:
        assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["evil.example", "a" * 300, "localhost:99999", "[::1", "x@y", ""])
def test_unknown_host_headers_are_refused_without_a_5xx(client, paste, host):
    for response in (
        client.get("/", HTTP_HOST=host),
        client.post("/api/v1/explains/", paste, content_type="text/plain", HTTP_HOST=host),
    ):
        assert_no_server_error(response)
        assert "evil.example" not in response.get("Location", "")


@pytest.mark.django_db
def test_throttled_creation_is_a_json_429_with_retry_after(client, settings, paste):
    settings.API_CREATE_RATE = "2/minute"
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    statuses = []
    for _ in range(4):
        response = client.post("/api/v1/explains/", paste, content_type="text/plain", HTTP_ACCEPT="application/json")
        statuses.append(response.status_code)
    assert statuses[-1] == 429, statuses
    assert int(response["Retry-After"]) > 0
    assert_json_error(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/api/v1/explains/", "/api/v1/explains", "/api/v1/analyze/", "/api/v1/notes/", "/api/v1/explains/abc/",
     "/api/v1/notes/x/", "/api/v1/schema/"],
)  # fmt: skip
@pytest.mark.parametrize("method", ["OPTIONS", "HEAD", "TRACE"])
def test_options_head_and_trace(client, url, method):
    response = client.generic(method, url)
    assert_no_server_error(response)
    if response.status_code >= 400 and response.content and response["Content-Type"].startswith("application/json"):
        assert_json_error(response)
