"""The web pages over HTTP: home form, permalink, delete paths, report, recent, search, escaping."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from pastebin import listing
from pastebin.models import AbuseReport, Explain
from pastebin.views import encode_cursor
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'


def save(client, **fields) -> str:
    data = {"explain": explain_table(), "expires": "1d", "visibility": "unlisted", **fields}
    response = client.post("/", data)
    assert response.status_code == 302, response.content
    match = re.fullmatch(r"/e/([A-Za-z0-9]+)/", response["Location"])
    assert match
    return match.group(1)


def test_home_has_the_form_and_says_what_is_stored(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("explain", "query", "title", "expires", "visibility", "anonymize"):
        assert f'name="{name}"' in html
    assert ">Analyze</button>" in html
    assert ">Save &amp; share</button>" in html
    assert 'formaction="/analyze/"' in html
    assert "What is stored, and who can see it" in html
    assert "Unlisted" in html


def test_save_redirects_to_permalink_with_analysis_and_links(client):
    slug = save(client, title="My join", query="SELECT * FROM employees")
    page = client.get(f"/e/{slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "My join" in html
    assert "SELECT * FROM employees" in html
    assert "employees" in html.split('class="analysis"', 1)[1]
    assert f'href="/e/{slug}/raw/"' in html
    assert f'href="/api/v1/explains/{slug}"' in html or f'href="/api/v1/explains/{slug}/"' in html
    assert f'href="/e/{slug}/delete/"' in html and f'href="/e/{slug}/edit/"' in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"explain": ""}, "Paste the output of EXPLAIN"),
        ({"explain": "hello there"}, "EXPLAIN"),
        ({"expires": "2d"}, "1h, 1d, 1w, 1m, 1y, never"),
        ({"visibility": "secret"}, "unlisted or public"),
        ({"explain": explain_table() + "\x00"}, "NUL"),
        ({"improves_on": "NoSuchSlug2345"}, "NoSuchSlug2345"),
    ],
)
def test_invalid_form_is_400_with_a_clear_error_and_nothing_saved(client, fields, message):
    data = {"explain": explain_table(), "expires": "1d", "visibility": "unlisted", **fields}
    response = client.post("/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert 'name="explain"' in response.content.decode()
    assert not Explain.objects.exists()


def test_too_large_form_is_413(client, settings):
    settings.EXPLAIN_MAX_BYTES = 1000
    response = client.post("/", {"explain": explain_table() * 5, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 413
    assert not Explain.objects.exists()


def test_too_complex_form_is_422(client, settings):
    settings.EXPLAIN_DEADLINE_MS = 0
    response = client.post("/", {"explain": explain_table(), "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 422
    assert "too complex to read" in response.content.decode()
    assert not Explain.objects.exists()


def test_form_requires_csrf():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/", {"explain": explain_table(), "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 403
    assert not Explain.objects.exists()
    page = client.get("/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    data = {"explain": explain_table(), "expires": "1d", "visibility": "unlisted", "csrfmiddlewaretoken": token}
    assert client.post("/", data).status_code == 302


def test_saved_pages_are_noindex(client):
    slug = save(client)
    for url in (f"/e/{slug}/", f"/e/{slug}/raw/", f"/e/{slug}/report/"):
        response = client.get(url)
        assert response.status_code == 200
        assert "noindex" in response["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex' in client.get(f"/e/{slug}/").content.decode()


def test_unknown_slug_is_404_and_odd_slugs_too(client):
    assert client.get("/e/NoSuchSlug2345/").status_code == 404
    assert client.get("/e/NoSuchSlug2345/raw/").status_code == 404
    assert client.get("/e/%3Cscript%3E/").status_code == 404


def test_creator_sees_the_token_once_and_a_delete_button(client):
    slug = save(client)
    first_response = client.get(f"/e/{slug}/")
    assert "no-store" in first_response["Cache-Control"]
    first = first_response.content.decode()
    assert "shown only this once" in first
    assert "You created this explain in this browser" in first
    second = client.get(f"/e/{slug}/").content.decode()
    assert "shown only this once" not in second
    assert "You created this explain in this browser" in second
    stranger = Client().get(f"/e/{slug}/").content.decode()
    assert "You created this explain" not in stranger
    assert '<details class="manage">' in stranger
    assert f'href="/e/{slug}/delete/"' in stranger and f'href="/e/{slug}/edit/"' in stranger


def test_delete_with_the_session_token(client):
    slug = save(client)
    response = client.post(f"/e/{slug}/delete/")
    assert response.status_code == 302
    assert not Explain.objects.filter(slug=slug).exists()
    gone = client.get(f"/e/{slug}/")
    assert gone.status_code == 410
    assert "deleted" in gone.content.decode()


def test_delete_with_a_typed_token_from_another_browser(client, create):
    data = create()
    other = Client()
    assert other.post(f"/e/{data['slug']}/delete/", {"token": "wrong"}).status_code == 403
    assert other.post(f"/e/{data['slug']}/delete/").status_code == 403
    assert Explain.objects.filter(slug=data["slug"]).exists()
    assert other.post(f"/e/{data['slug']}/delete/", {"token": data["delete_token"]}).status_code == 302
    assert not Explain.objects.filter(slug=data["slug"]).exists()


def test_get_never_deletes_it_asks_first(client):
    slug = save(client)
    page = client.get(f"/e/{slug}/delete/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    html = page.content.decode()
    assert "Delete this explain?" in html and "Yes, delete it" in html
    assert 'name="token"' not in html  # this browser keeps the token
    assert Explain.objects.filter(slug=slug).exists()
    stranger = Client().get(f"/e/{slug}/delete/").content.decode()
    assert 'name="token"' in stranger
    assert Client().get("/e/NoSuchSlug2345/delete/").status_code == 404


def test_a_wrong_token_is_said_beside_the_field(client, create):
    data = create()
    page = Client().post(f"/e/{data['slug']}/delete/", {"token": "wrong"})
    assert page.status_code == 403
    html = page.content.decode()
    assert 'id="token-error"' in html and "The delete token is wrong." in html
    assert 'aria-describedby="token-error"' in html


def test_delete_needs_csrf():
    client = Client(enforce_csrf_checks=True)
    page = client.get("/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    slug = save(client, csrfmiddlewaretoken=token)
    assert client.post(f"/e/{slug}/delete/").status_code == 403
    assert Explain.objects.filter(slug=slug).exists()


def test_hostile_strings_are_escaped_everywhere(client):
    table = "<img src=x onerror=alert(1)>"
    slug = save(
        client, title=HOSTILE, query=f"SELECT '{HOSTILE}'", visibility="public", explain=explain_table(table=table)
    )
    pages = [
        client.get(f"/e/{slug}/"),
        client.get("/recent/"),
        client.get("/search/", {"q": "script"}),
        client.get(f"/e/{slug}/report/"),
        client.get("/analyze/", {"raw_explain": explain_table(table=table), "title": HOSTILE}),
    ]
    for page in pages:
        html = page.content.decode()
        assert "<script>alert" not in html
        assert "<img src=x" not in html
    detail = pages[0].content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in detail
    assert "&lt;img src=x onerror=alert(1)&gt;" in detail


def test_report_abuse_files_a_report(client):
    slug = save(client)
    assert client.get(f"/e/{slug}/report/").status_code == 200
    assert client.post(f"/e/{slug}/report/", {"reason": ""}).status_code == 400
    response = client.post(f"/e/{slug}/report/", {"reason": "Contains customer names", "contact": "a@example.org"})
    assert response.status_code == 302
    report = AbuseReport.objects.get()
    assert report.explain.slug == slug
    assert report.reason == "Contains customer names"


def test_recent_lists_public_only_newest_first_with_cursor(client):
    slugs = [save(client, title=f"public {i:02d}", visibility="public") for i in range(23)]
    save(client, title="unlisted one")
    first = client.get("/recent/").content.decode()
    assert "unlisted one" not in first
    titles = re.findall(r"public (\d\d)", first)
    assert titles == [f"{i:02d}" for i in range(22, 2, -1)]
    cursor = re.search(r'href="\?after=([^"]+)"', first).group(1)
    second = client.get(f"/recent/?after={cursor}").content.decode()
    assert re.findall(r"public (\d\d)", second) == ["02", "01", "00"]
    assert 'rel="next"' not in second
    assert len(slugs) == 23
    assert client.get("/recent/?after=not-a-cursor!").status_code == 400


def test_recent_cursor_handles_equal_times(client, create):
    from datetime import UTC, datetime
    from unittest import mock

    with mock.patch("pastebin.clock.now", return_value=datetime(2030, 1, 1, tzinfo=UTC)):
        made = {
            create(explain_table(table=f"same_{i}"), visibility="public", expires="never")["slug"] for i in range(25)
        }
    first = client.get("/recent/").content.decode()
    cursor = re.search(r'href="\?after=([^"]+)"', first).group(1)
    second = client.get(f"/recent/?after={cursor}").content.decode()
    seen = re.findall(r'href="/e/([A-Za-z0-9]+)/"', first + second)
    assert len(seen) == 25
    assert set(seen) == made


def test_search_finds_public_by_title_query_and_table(client):
    save(client, title="Slow payroll", visibility="public", explain=explain_table(table="salaries"))
    save(client, title="Secret payroll", explain=explain_table(table="salaries"))
    save(
        client, title="Other", query="SELECT * FROM badges", visibility="public", explain=explain_table(table="badges")
    )
    for q, expected in (("payroll", ["Slow payroll"]), ("salaries", ["Slow payroll"]), ("badges", ["Other"])):
        html = client.get("/search/", {"q": q}).content.decode()
        found = [title for title in ("Slow payroll", "Secret payroll", "Other") if title in html]
        assert found == expected, q
    assert "No public explain matches" in client.get("/search/", {"q": "nothing-like-this"}).content.decode()
    assert client.get("/search/").status_code == 200


def test_search_pages_through_every_match(client, create):
    """Twenty matches a page, newest first, an "Older matches" link keeping the search (escaped)."""
    from datetime import UTC, datetime, timedelta
    from unittest import mock

    start = datetime(2030, 1, 1, tzinfo=UTC)
    for number in range(45):
        with mock.patch("pastebin.clock.now", return_value=start + timedelta(minutes=number)):
            create(title=f"pay&roll <b>{number:02d}</b>", visibility="public", expires="never")
    create(title="pay&roll unlisted", expires="never")
    pages, path = [], "/search/?" + urlencode({"q": "pay&roll"})
    while path:
        html = client.get(path).content.decode()
        assert "<b>" not in html and "pay&amp;roll &lt;b&gt;" in html
        pages.append(re.findall(r"pay&amp;roll &lt;b&gt;(\d\d)", html))
        found = re.search(r'href="(\?q=[^"]+&amp;after=[^"]+)" *>Older matches', html.replace('rel="next" ', ""))
        path = "/search/" + found.group(1).replace("&amp;", "&") if found else None
        if found:
            assert found.group(1).startswith("?q=pay%26roll&amp;after=")
    assert pages == [[f"{n:02d}" for n in range(top, max(top - 20, -1), -1)] for top in (44, 24, 4)]
    assert "Older matches of" in html and "unlisted" not in html
    assert client.get("/search/?q=pay&after=not-a-cursor!").status_code == 400
    oldest = encode_cursor(Explain.objects.get(title="pay&roll <b>00</b>"))
    html = client.get("/search/?" + urlencode({"q": "pay&roll", "after": oldest})).content.decode()
    assert "No older public explain matches" in html


@pytest.mark.parametrize(
    ("moment", "status", "listed"),
    [
        ("0001-01-01T00:00:00+14:00", 400, False),  # before the year 1 in UTC
        ("9999-12-31T23:59:59-14:00", 400, False),  # after the year 9999 in UTC
        ("0001-01-01T00:00:00+00:00", 200, False),
        ("9999-12-31T23:59:59+00:00", 200, True),
        ("2030-01-01T00:00:00.000001+05:30", 200, True),
    ],
)
@pytest.mark.parametrize("path", ["/search/", "/recent/"])
def test_cursors_at_the_ends_of_time_are_answered(client, create, path, moment, status, listed):
    """A cursor at any time the site could have made is answered with what is older than it; one
    outside the years 1 to 9999 in UTC is refused, never a server error."""
    create(title="payroll", visibility="public", expires="never")
    cursor = base64.urlsafe_b64encode(f"{moment}|abcdefghjkmnpq".encode()).decode().rstrip("=")
    response = client.get(path, {"q": "payroll", "after": cursor})
    assert response.status_code == status
    assert ('class="explain-title"' in response.content.decode()) == listed


def test_lists_use_a_fixed_number_of_queries(client, create, django_assert_max_num_queries):
    for i in range(30):
        create(explain_table(table=f"many_{i}"), visibility="public", title=f"many {i}")
    with django_assert_max_num_queries(4):
        assert client.get("/recent/").status_code == 200
    # Search: its statement timeout; on PostgreSQL the planner's estimate, then (with few matches
    # expected, so no walk down the newest explains nor windows of recent ones) the GIN step, which
    # reads the explains it finds in the same statement, between its planner settings and their
    # restoring.
    with django_assert_max_num_queries(9):
        assert client.get("/search/", {"q": "many"}).status_code == 200
    with django_assert_max_num_queries(4):
        assert client.get("/api/v1/explains/").status_code == 200


def test_list_items_show_each_explain_escaped(client, create):
    """Recent and search show each explain's link, title (or "Untitled explain"), creation time,
    tables and the start of its query, escaped; of the analysis only the tables are read."""
    long_query = "SELECT <b>" + "x" * 300
    untitled = create(visibility="public", query=long_query)
    titled = create(explain_table(table="t<i>"), visibility="public", title="payroll <script>alert(1)</script>")
    titled_slug, untitled_slug = titled["slug"], untitled["slug"]
    stored = Explain.objects.get(slug=titled_slug)
    with CaptureQueriesContext(connection) as queries:
        pages = [client.get("/recent/").content.decode(), client.get("/search/", {"q": "payroll"}).content.decode()]
    listing = [query["sql"] for query in queries.captured_queries if "pastebin_explain.title" in query["sql"].replace('"', "")]
    assert listing and all("tables" in sql and "format" not in sql for sql in listing)
    for html in pages:
        assert f'href="/e/{titled_slug}/">payroll &lt;script&gt;alert(1)&lt;/script&gt;</a>' in html
        assert f'<time datetime="{stored.created_at.isoformat()}">{stored.created_at:%Y-%m-%d %H:%M}</time>' in html
        assert "<code>t&lt;i&gt;</code>" in html and "<script>" not in html and "<i>" not in html
    assert f'href="/e/{untitled_slug}/">Untitled explain</a>' in pages[0]
    assert f'<code class="query-snippet">SELECT &lt;b&gt;{"x" * 149}…</code>' in pages[0]


@pytest.mark.parametrize(
    ("tables", "shown"),
    [
        (["a&b", "<t>"], '<code>a&amp;b</code><code>&lt;t&gt;</code>'),
        ([1, None], "<code>1</code><code>None</code>"),
        ([], None),
        (None, None),
        ({"t": 1}, None),
        ("orders", None),
    ],
)
def test_list_items_take_tables_of_any_shape(tables, shown):
    """An analysis's tables are read as stored: a list is shown (each escaped), anything else is
    left out, never an error nor a string shown letter by letter."""
    explain = listing.Listed("abcdefghjkmnpq", "t", "", datetime(2030, 1, 1, tzinfo=UTC), tables)
    [item] = listing.items([explain])
    assert ('class="tables"' in item) == (shown is not None)
    if shown is not None:
        assert f'<span class="visually-hidden">Tables: </span>{shown}</p>' in item


@pytest.mark.parametrize(
    "cursor", ["%00", "bm90IGEgY3Vyc29y", "MjAzMC0wMS0wMVQwMDowMDowMHxhYmM", "MjAzMC0wMS0wMVQwMDowMDowMCswMDowMHwAAA"]
)
def test_forged_recent_cursors_are_400(client, cursor):
    assert client.get(f"/recent/?after={cursor}").status_code == 400


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "cD0yMDMwLTAxLTAxJTAwJTAw",
        "cD0lMDA%3D",
        "cD0wMDAxLTAxLTAxKzAwJTNBMDAlM0EwMCUyQjE0JTNBMDA=",
        "cD05OTk5LTEyLTMxKzIzJTNBNTklM0E1OS0xNCUzQTAw",
        "cD0yMDMwLTAxLTAxKzAwJTNBMDAlM0EwMA==",
    ],
)  # the last three: before the year 1 and after 9999 in UTC, and a time without its offset
def test_forged_api_cursors_are_clean_4xx(client, create, cursor):
    create(visibility="public")
    response = client.get(f"/api/v1/explains/?cursor={cursor}")
    assert 400 <= response.status_code < 500
    assert response.json()["error"]
