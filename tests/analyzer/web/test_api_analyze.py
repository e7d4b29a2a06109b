"""`POST /api/v1/analyze/` over HTTP through Django's test client."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest

from bench.pastes import explain_table

CLEAN = """\
+------+-------------+-----------+-------+---------------+---------+---------+-------+------+-------+
| id   | select_type | table     | type  | possible_keys | key     | key_len | ref   | rows | Extra |
+------+-------------+-----------+-------+---------------+---------+---------+-------+------+-------+
|    1 | SIMPLE      | employees | const | PRIMARY       | PRIMARY | 4       | const | 1    |       |
+------+-------------+-----------+-------+---------------+---------+---------+-------+------+-------+
"""


@pytest.mark.parametrize("url", ["/api/v1/analyze/", "/api/v1/analyze"])
def test_plain_text_body_gives_rows(client, url):
    response = client.post(url, CLEAN, content_type="text/plain; charset=utf-8")
    assert response.status_code == 200
    data = response.json()
    assert data["format"] == "table"
    assert data["columns"][-1] == "extra"
    assert data["rows"][0]["table"] == "employees"
    assert data["rows"][0]["extra"] == ""
    assert data["plan"] is None
    assert data["tables"] == ["employees"]
    assert (data["truncated"], data["uncertain"]) == (False, False)


def test_tree_key_holds_the_typed_plan_model(client):
    data = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain").json()
    tree = data["tree"]
    assert (tree["operation"], tree["row"]) == ("query", None)
    [select] = tree["children"]
    assert (select["operation"], select["select_id"], select["select_type"]) == ("select", 1, "SIMPLE")
    [table] = select["children"]
    assert (table["operation"], table["table"], table["access_type"], table["key"]) == (
        "table",
        "employees",
        "const",
        "PRIMARY",
    )
    assert (table["key_length"], table["ref"], table["rows_estimated"], table["extra"], table["row"]) == (
        4,
        ["const"],
        1.0,
        [],
        0,
    )


def test_mysql_explain_analyze_tree_numbers_are_numbers(client):
    paste = "-> Table scan on t  (cost=1.25 rows=10) (actual time=0.02..0.05 rows=10 loops=1)\n"
    data = client.post("/api/v1/analyze/", paste, content_type="text/plain").json()
    [scan] = data["tree"]["children"]
    assert (scan["cost"], scan["rows_estimated"], scan["rows_actual"], scan["loops"]) == (1.25, 10.0, 10.0, 1)
    assert (scan["time_first_ms"], scan["time_last_ms"], scan["row"]) == (0.02, 0.05, 0)


def test_json_body_with_query(client):
    response = client.post(
        "/api/v1/analyze/", {"explain": CLEAN, "query": "SELECT * FROM employees"}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json()["query"] == "SELECT * FROM employees"


def test_no_explain_is_400_with_error(client):
    response = client.post("/api/v1/analyze/", "hello, how are you?", content_type="text/plain")
    assert response.status_code == 400
    assert "EXPLAIN" in response.json()["error"]


def test_too_large_is_413(client, settings):
    settings.EXPLAIN_MAX_BYTES = 1000
    response = client.post("/api/v1/analyze/", CLEAN * 5, content_type="text/plain")
    assert response.status_code == 413
    assert "limit" in response.json()["error"]


def test_too_large_json_is_413(client, settings):
    settings.EXPLAIN_MAX_BYTES = 1000
    response = client.post("/api/v1/analyze/", {"explain": CLEAN * 5}, content_type="application/json")
    assert response.status_code == 413


def test_too_complex_is_422(client, settings):
    settings.EXPLAIN_DEADLINE_MS = 0  # no time at all: every paste is too complex to read in time
    response = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain")
    assert response.status_code == 422
    assert response.json()["error"] == "This paste is too complex to read within 0 ms."


def test_other_content_type_is_415(client):
    response = client.post("/api/v1/analyze/", {"explain": CLEAN})  # multipart form
    assert response.status_code == 415
    assert "error" in response.json()


def test_invalid_utf8_is_400(client):
    response = client.post("/api/v1/analyze/", b"\xff\xfe+--+", content_type="text/plain")
    assert response.status_code == 400


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/analyze/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()


def test_accept_text_plain_gives_clean_table(client):
    response = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain", HTTP_ACCEPT="text/plain")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert "| employees |" in body
    assert "findings" in body


def test_get_is_405(client):
    assert client.get("/api/v1/analyze/").status_code == 405


def test_curl_default_form_content_type_is_read_as_the_paste(client):
    # curl --data-binary sends application/x-www-form-urlencoded unless told otherwise.
    response = client.post("/api/v1/analyze/", CLEAN, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert response.json()["rows"][0]["table"] == "employees"


def test_real_form_with_explain_field(client):
    from urllib.parse import urlencode

    body = urlencode({"explain": CLEAN, "query": "SELECT 1"})
    response = client.post("/api/v1/analyze/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert response.json()["query"] == "SELECT 1"


@pytest.mark.parametrize("content_type", ["application/xml", "application/octet-stream", "image/png"])
def test_unsupported_content_types_are_415(client, content_type):
    response = client.post("/api/v1/analyze/", CLEAN, content_type=content_type)
    assert response.status_code == 415
    assert "error" in response.json()


@pytest.mark.django_db
def test_unknown_api_object_404_has_error_shape(client):
    response = client.get("/api/v1/notes/no-such-note/")
    assert response.status_code == 404
    assert set(response.json()) == {"error"}


def test_unexpected_error_is_a_json_500(client, monkeypatch):
    import analyzer.web.api

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(analyzer.web.api, "analyze", broken)
    client.raise_request_exception = False
    response = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert "boom" not in response.json()["error"]


PROFILE_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "profile"


def test_profile_key_says_where_the_time_went(client):
    paste = (PROFILE_FIXTURES / "mysql80_manual_hash_join.txt").read_text(encoding="utf-8")
    data = client.post("/api/v1/analyze/", paste, content_type="text/plain").json()
    profile = data["profile"]
    # Hash join 0.035 ms, t2 0.005, t1 0.022 under the untimed Hash node: join self 0.008.
    assert profile["total_ms"] == pytest.approx(0.035)
    assert [node["path"] for node in profile["nodes"]] == [[0, 1, 0], [0], [0, 0]]
    assert profile["nodes"][0] == {
        "path": [0, 1, 0],
        "label": "Table scan on t1",
        "table": "t1",
        "loops": 1,
        "total_ms": 0.022,
        "self_ms": 0.022,
        "share": pytest.approx(0.628571, rel=1e-5),  # 0.022 / 0.035
        "rows_estimated": 6.0,
        "rows_actual": 6.0,
        "estimate_factor": 1.0,
    }
    assert profile["nodes"][1]["self_ms"] == pytest.approx(0.008)
    step = data["tree"]
    for index in profile["nodes"][0]["path"]:
        step = step["children"][index]
    assert step["label"] == "Table scan on t1"
    [hotspot] = [f for f in data["findings"] if f["kind"] == "time-hotspot"]
    assert (hotspot["path"], hotspot["rows"]) == ([0, 1, 0], [1])


def test_profile_is_null_without_times_and_findings_carry_a_path(client):
    data = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain").json()
    assert data["profile"] is None
    assert all("path" in finding for finding in data["findings"])


def test_text_answer_has_the_profile_table(client):
    paste = (PROFILE_FIXTURES / "mysql80_manual_hash_join.txt").read_text(encoding="utf-8")
    body = client.post("/api/v1/analyze/", paste, content_type="text/plain", HTTP_ACCEPT="text/plain").content.decode()
    assert "profile: 0.035 ms in all, the slowest step first" in body
    assert "  Table scan on t1                     1     0.022    0.022  62.9%" in body


def test_schema_describes_the_profile_and_finding_paths(client):
    schemas = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["components"][
        "schemas"
    ]
    assert "profile" in schemas["AnalysisOutput"]["properties"]
    assert set(schemas["ProfileOutput"]["properties"]) == {"total_ms", "nodes"}
    assert set(schemas["ProfileNodeOutput"]["properties"]) == {
        "path",
        "label",
        "table",
        "loops",
        "total_ms",
        "self_ms",
        "share",
        "rows_estimated",
        "rows_actual",
        "estimate_factor",
    }
    assert "path" in schemas["FindingOutput"]["properties"]


SCAN = """\
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows  | Extra       |
|  1 | SIMPLE      | o     | ALL  | NULL          | NULL | NULL    | NULL | 60000 | Using where |
"""
ORDERS = "CREATE TABLE `orders` (`id` int NOT NULL, `customer_id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB"
SCAN_QUERY = "SELECT * FROM orders o WHERE o.customer_id = 7"


def test_advice_key_with_schema_in_json_and_query_string_and_text_output(client):
    body = {"explain": SCAN, "query": SCAN_QUERY, "schema": ORDERS}
    [advice] = client.post("/api/v1/analyze/", body, content_type="application/json").json()["advice"]
    assert advice == {
        "table": "orders",
        "columns": ["customer_id"],
        "statement": "ALTER TABLE `orders` ADD INDEX `idx_customer_id` (`customer_id`)",
        "reason": advice["reason"],
        "rows": [0],
        "redundant": [],
    }
    assert "Not checked" not in advice["reason"]
    url = "/api/v1/analyze/?" + urlencode({"query": SCAN_QUERY, "schema": ORDERS})
    plain = client.post(url, SCAN, content_type="text/plain", HTTP_ACCEPT="text/plain").content.decode()
    assert "index advice:\n  ALTER TABLE `orders` ADD INDEX `idx_customer_id` (`customer_id`); (row 1)" in plain
    assert client.post("/api/v1/analyze/", CLEAN, content_type="text/plain").json()["advice"] == []


def test_schema_must_be_text_and_under_its_limit(client, settings):
    bad = client.post("/api/v1/analyze/", {"explain": SCAN, "schema": ["x"]}, content_type="application/json")
    assert bad.status_code == 400 and "schema" in bad.json()["error"]
    settings.SCHEMA_MAX_BYTES = 100
    big = client.post("/api/v1/analyze/", {"explain": SCAN, "schema": "x" * 101}, content_type="application/json")
    assert big.status_code == 413 and "schema" in big.json()["error"]


def test_the_same_request_gets_the_same_bytes_without_analyzing_again(client, monkeypatch):
    import analyzer.web.api as api

    calls = []
    real = api.analyze
    monkeypatch.setattr(api, "analyze", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    first = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain")
    again = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and first["Content-Type"] == again["Content-Type"] == "application/json"
    assert len(calls) == 1
    text = client.post("/api/v1/analyze/", CLEAN, content_type="text/plain", HTTP_ACCEPT="text/plain")
    assert text["Content-Type"] == "text/plain; charset=utf-8" and not text.content.startswith(b"{")
    with_query = client.post("/api/v1/analyze/?query=SELECT+1", CLEAN, content_type="text/plain")
    assert with_query.json()["query"] == "SELECT 1"
    assert len(calls) == 3


def test_refusals_are_not_kept_and_the_budget_holds(client, settings):
    from analyzer.web.answers import answers

    settings.ANALYZE_CACHE_BYTES = 40_000 * 16
    assert client.post("/api/v1/analyze/", "nothing here", content_type="text/plain").status_code == 400
    assert answers._size == 0
    for rows in range(1, 40):
        client.post("/api/v1/analyze/", explain_table(rows), content_type="text/plain")
    assert 0 < answers._size <= settings.ANALYZE_CACHE_BYTES
    settings.ANALYZE_CACHE_BYTES = 0
    answers.clear()
    assert client.post("/api/v1/analyze/", CLEAN, content_type="text/plain").status_code == 200
    assert answers._size == 0
