"""`POST /api/v1/explains/` over HTTP: text and JSON bodies, the answer's shape, and every refusal."""

from __future__ import annotations

import json
import re

import pytest
from django.http import QueryDict
from django.urls import reverse, set_script_prefix

from pastebin import serializers
from pastebin.models import Explain
from pastebin.slugs import SLUG_RE
from tests.pastebin.factories import explain_table, fixture

pytestmark = pytest.mark.django_db

ANALYSIS_FIELDS = {"format", "columns", "rows", "plan", "query", "annotations", "findings", "notices"}


@pytest.mark.parametrize("url", ["/api/v1/explains/", "/api/v1/explains"])
def test_text_body_gives_201_with_links_token_and_analysis(client, paste, url):
    response = client.post(url, paste, content_type="text/plain", HTTP_ACCEPT="application/json")
    assert response.status_code == 201
    data = response.json()
    assert SLUG_RE.match(data["slug"])
    assert data["url"] == f"http://testserver/e/{data['slug']}/"
    assert data["raw_url"] == f"http://testserver/e/{data['slug']}/raw/"
    assert data["api_url"].startswith(f"http://testserver/api/v1/explains/{data['slug']}")
    assert response["Location"] == data["url"]
    assert len(data["delete_token"]) >= 40
    assert data["visibility"] == "unlisted"
    assert data["expires_at"]
    assert data.keys() >= ANALYSIS_FIELDS
    assert data["rows"][0]["table"] == "employees"
    assert Explain.objects.get(slug=data["slug"]).raw_explain == paste


@pytest.mark.parametrize("prefix", ["/", "/explains/", "/ünï code/"])
def test_links_are_those_django_reverses_under_any_script_prefix(client, paste, prefix):
    """A site served under a path (its proxy's SCRIPT_NAME) links there, as `reverse` would."""
    set_script_prefix(prefix)  # as the WSGI handler does from SCRIPT_NAME (the test client does not)
    try:
        data = client.post("/api/v1/explains/", paste, content_type="text/plain").json()
        for key, name in [("url", "pastebin:detail"), ("raw_url", "pastebin:raw"), ("api_url", "pastebin:api-detail")]:
            assert data[key] == "http://testserver" + reverse(name, args=[data["slug"]]), key
    finally:
        set_script_prefix("/")
    if prefix == "/explains/":
        assert data["raw_url"] == f"http://testserver/explains/e/{data['slug']}/raw/"


def _no_repeated_key(pairs: list[tuple[str, object]]) -> dict:
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)


@pytest.mark.parametrize(
    "path",
    [
        None,
        "hr_dept_join_json_json_table_clean.txt",
        "tree_join_analyze.txt",
        "json_range_checked_analyze.txt",
        "hr_no_badge_plain_vertical_prompt.txt",
    ],
)
def test_the_answer_holds_each_key_once(client, path):
    """The answer's own fields and the analysis's, joined as kept text: no key of one is in the
    other (a repeated key would be read as either), for every format of paste, the first save of
    a paste and the next, which reads its analysis back from the recent answers."""
    paste = explain_table() if path is None else fixture(path)
    for _ in range(2):
        response = client.post("/api/v1/explains/", paste, content_type="text/plain")
        assert response.status_code == 201
        data = json.loads(response.content, object_pairs_hook=_no_repeated_key)
        assert data.keys() >= ANALYSIS_FIELDS - {"plan"} and data["slug"]


def test_options_as_query_parameters(create):
    data = create(title="Nightly report", expires="never", visibility="public", query="SELECT * FROM employees")
    assert data["visibility"] == "public"
    assert data["expires_at"] is None
    assert data["title"] == "Nightly report"
    assert data["query"] == "SELECT * FROM employees"


@pytest.mark.parametrize("source", [{}, {"explain": "x", "query": "SELECT 1", "schema": ""}, QueryDict("q=1&titles=a")])
def test_no_options_given_are_the_serializers_defaults(source):
    """Saving skips the serializer when no option is given: what it would have made of that."""
    options = serializers.ExplainOptions(data=source)
    assert options.is_valid()
    assert serializers.read_options(source) == options.validated_data
    assert serializers.read_options(source) is not serializers.read_options(source)


@pytest.mark.parametrize("url", ["/api/v1/explains/", "/api/v1/explains"])
def test_json_body(client, url):
    text = fixture("hr_dept_join_an_table_clean.txt")
    body = {"explain": text, "query": "SELECT 1", "title": "join", "expires": "1h", "visibility": "public"}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 201
    data = response.json()
    assert [row["table"] for row in data["rows"]] == ["e", "d"]
    assert data["query"] == "SELECT 1"
    assert data["visibility"] == "public"
    assert Explain.objects.get(slug=data["slug"]).title == "join"


def test_accept_text_plain_gives_the_permalink_and_a_newline(client, paste):
    response = client.post("/api/v1/explains/", paste, content_type="text/plain", HTTP_ACCEPT="text/plain")
    assert response.status_code == 201
    assert response["Content-Type"].startswith("text/plain")
    link = response.content.decode()
    assert re.fullmatch(r"http://testserver/e/[A-Za-z0-9]{14}/\n", link)


def test_curl_default_request_prints_the_permalink(client, paste):
    """`curl --data-binary @plan.txt URL` sends a form content type and `Accept: */*`."""
    response = client.post(
        "/api/v1/explains/", paste, content_type="application/x-www-form-urlencoded", HTTP_ACCEPT="*/*"
    )
    assert response.status_code == 201
    slug = response.content.decode().strip().rstrip("/").rsplit("/", 1)[1]
    assert Explain.objects.get(slug=slug).raw_explain == paste


def test_json_client_accepting_anything_gets_json(client, paste):
    response = client.post("/api/v1/explains/", {"explain": paste}, content_type="application/json", HTTP_ACCEPT="*/*")
    assert response.status_code == 201
    assert response.json()["slug"]


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("hello, how are you?", "text/plain"),
        ("", "text/plain"),
        ('{"explain": ""}', "application/json"),
        ('{"title": "no paste"}', "application/json"),
        ("[1, 2]", "application/json"),
    ],
)
def test_no_explain_is_400_and_nothing_saved(client, body, content_type):
    response = client.post("/api/v1/explains/", body, content_type=content_type)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not Explain.objects.exists()


def test_too_large_is_413_and_nothing_saved(client, settings, paste):
    settings.EXPLAIN_MAX_BYTES = 2000
    big = paste * 10
    for body, content_type in ((big, "text/plain"), ({"explain": big}, "application/json")):
        response = client.post("/api/v1/explains/", body, content_type=content_type)
        assert response.status_code == 413
        assert "limit" in response.json()["error"]
    assert not Explain.objects.exists()


def test_too_complex_is_422_and_nothing_saved(client, settings, paste):
    settings.EXPLAIN_DEADLINE_MS = 0
    response = client.post("/api/v1/explains/", paste, content_type="text/plain")
    assert response.status_code == 422
    assert response.json()["error"] == "This paste is too complex to read within 0 ms."
    assert not Explain.objects.exists()


@pytest.mark.parametrize(
    ("params", "names"),
    [
        ({"expires": "2d"}, ["1h", "1d", "1w", "1m", "1y", "never"]),
        ({"visibility": "secret"}, ["unlisted", "public"]),
        ({"anonymize": "perhaps"}, ["anonymize"]),
        ({"improves_on": "NoSuchSlug2345"}, ["NoSuchSlug2345"]),
    ],
)
def test_bad_options_are_400_naming_what_is_allowed(client, paste, params, names):
    response = client.post("/api/v1/explains/", paste, content_type="text/plain", query_params=params)
    assert response.status_code == 400
    error = response.json()["error"]
    for name in names:
        assert name in error
    json_response = client.post("/api/v1/explains/", {"explain": paste, **params}, content_type="application/json")
    assert json_response.status_code == 400
    assert not Explain.objects.exists()


@pytest.mark.parametrize("where", ["explain", "query", "title"])
def test_nul_is_refused_with_400(client, paste, where):
    body = {"explain": paste, "query": "SELECT 1", "title": "t"}
    body[where] = body[where] + "\x00"
    response = client.post("/api/v1/explains/", body, content_type="application/json")
    assert response.status_code == 400
    assert re.search(r"\bnull? character", response.json()["error"], re.IGNORECASE)
    assert not Explain.objects.exists()


def test_nul_in_a_text_body_is_refused_with_400(client, paste):
    response = client.post("/api/v1/explains/", paste + "\x00", content_type="text/plain")
    assert response.status_code == 400
    assert "NUL" in response.json()["error"]
    assert not Explain.objects.exists()


def test_invalid_utf8_is_400(client):
    response = client.post("/api/v1/explains/", b"\xff\xfe bad", content_type="text/plain")
    assert response.status_code == 400
    assert "UTF-8" in response.json()["error"]


def test_improves_on_links_the_chain(client, create):
    before = create(title="before")
    after = create(explain_table(key="idx_dept", rows="12"), improves_on=before["slug"], title="after")
    assert after["improves_on"] == before["slug"]
    detail = client.get(f"/api/v1/explains/{before['slug']}/").json()
    assert detail["improved_by"] == [after["slug"]]
    assert client.get(f"/api/v1/explains/{after['slug']}/").json()["improves_on"] == before["slug"]


def test_no_database_id_in_answers(client, create):
    data = create(visibility="public")
    listing = client.get("/api/v1/explains/").json()
    detail = client.get(f"/api/v1/explains/{data['slug']}/").json()
    for payload in (data, listing["results"][0], detail):
        assert "id" not in payload
        assert "pk" not in payload
    # The primary key is the random slug itself.
    assert Explain.objects.get().pk == data["slug"]


def test_form_fields_from_curl_dash_d(client, paste):
    """`curl -d explain=… -d title=…` sends real form fields."""
    from urllib.parse import urlencode

    body = urlencode({"explain": paste, "title": "via form", "visibility": "public"})
    response = client.post(
        "/api/v1/explains/", body, content_type="application/x-www-form-urlencoded", HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 201
    assert response.json()["visibility"] == "public"
    assert Explain.objects.get().title == "via form"


@pytest.mark.parametrize("content_type", ["", "application/octet-stream"])
def test_body_without_a_usual_type_is_the_paste(client, paste, content_type):
    response = client.post("/api/v1/explains/", paste, content_type=content_type, HTTP_ACCEPT="*/*")
    assert response.status_code == 201
    assert response.json()["slug"]
    assert Explain.objects.get().raw_explain == paste


@pytest.mark.parametrize("where", ["explain", "query", "title", "improves_on"])
def test_lone_surrogates_are_400_not_500(client, paste, where):
    body = {"explain": paste, "query": "SELECT 1", "title": "t", "improves_on": ""}
    raw = json.dumps(body).replace(f'"{where}": "', f'"{where}": "\\ud800', 1)
    response = client.post("/api/v1/explains/", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert not Explain.objects.exists()


def test_query_over_the_limit_is_413(client, settings, paste):
    settings.EXPLAIN_MAX_BYTES = len(paste.encode()) + 100
    query = "SELECT " + "x" * settings.EXPLAIN_MAX_BYTES
    response = client.post("/api/v1/explains/", {"explain": paste, "query": query}, content_type="application/json")
    assert response.status_code == 413


SCAN_ROWS = """\
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows  | Extra       |
|  1 | SIMPLE      | o     | ALL  | NULL          | NULL | NULL    | NULL | 60000 | Using where |
"""
ORDERS_TABLE = "CREATE TABLE `orders` (`id` int NOT NULL, `shop_id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB"


@pytest.mark.django_db
def test_schema_is_kept_with_the_explain_and_its_advice_checked_against_it(client):
    body = {"explain": SCAN_ROWS, "query": "SELECT * FROM orders o WHERE o.shop_id = 2", "schema": ORDERS_TABLE}
    created = client.post("/api/v1/explains/", body, content_type="application/json").json()
    [advice] = created["advice"]
    assert advice["statement"] == "ALTER TABLE `orders` ADD INDEX `idx_shop_id` (`shop_id`)"
    assert "Not checked" not in advice["reason"]
    detail = client.get(f"/api/v1/explains/{created['slug']}/").json()
    assert detail["schema"] == ORDERS_TABLE
    page = client.get(f"/e/{created['slug']}/").content.decode()
    assert "Index advice" in page and "ALTER TABLE `orders` ADD INDEX `idx_shop_id` (`shop_id`);" in page
    anonymous = client.post("/api/v1/explains/", body | {"anonymize": True}, content_type="application/json").json()
    assert client.get(f"/api/v1/explains/{anonymous['slug']}/").json()["schema"] == ""
