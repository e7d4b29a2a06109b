"""Anonymization: names replaced consistently in the explain and the query, none kept anywhere."""

from __future__ import annotations

import json
import re

import pytest

from analyzer import ParseError, analyze
from pastebin.anonymize import (
    AnonymizeError,
    Renamer,
    anonymize,
    collect_qualified,
    collect_query,
    mask_literals,
    read_query,
    rename_query,
)
from pastebin.models import Explain
from tests.pastebin.factories import explain_table, fixture

QUERY = (
    "SELECT e.emp_no, e.last_name, d.dept_name FROM hr.employees e "
    "JOIN departments AS d ON d.dept_no = e.dept_no WHERE e.hire_date > '2019-06-01' AND YEAR(e.birth) = 1970"
)
ORIGINAL_NAMES = [
    "employees",
    "departments",
    "emp_no",
    "last_name",
    "dept_name",
    "dept_no",
    "hire_date",
    "birth",
    "idx_dept",
    "idx_hire",
    "hr.e",
    "2019-06-01",
    "1970",
]


def _renamed(query: str) -> str:
    renamer = Renamer()
    read = read_query(query)
    collect_query(renamer, read)
    return rename_query(renamer, read)


def test_query_names_and_literals_get_placeholders_keywords_and_functions_stay():
    assert _renamed(QUERY) == (
        "SELECT a1.col1, a1.col2, a2.col3 FROM db1.t1 a1 "
        "JOIN t2 AS a2 ON a2.col4 = a1.col4 WHERE a1.col5 > 'str1' AND YEAR(a1.col6) = 1"
    )


def test_quoted_names_and_comments_are_renamed():
    renamed = _renamed("SELECT `order`.`total` /* from orders */ FROM `orders` `order` WHERE `total` > 10 -- orders")
    assert "orders" not in renamed
    assert "total" not in renamed
    assert renamed.startswith("SELECT `a1`.`col1`")
    assert "> 1 --" in renamed


def test_same_literal_gets_the_same_placeholder_and_counts_stay():
    renamed = _renamed(
        "SELECT name FROM people WHERE email = 'bob@example.com' OR backup_email = \"bob@example.com\" "
        "OR id IN (42, 43) OR parent_id = 42 OR created BETWEEN '2024-01-01' AND '2024-02-01' "
        "ORDER BY 1 LIMIT 20, 10"
    )
    assert renamed == (
        "SELECT col1 FROM t1 WHERE col2 = 'str1' OR col3 = \"str1\" OR col4 IN (1, 2) OR col5 = 1 "
        "OR col6 BETWEEN 'str2' AND 'str3' ORDER BY 1 LIMIT 20, 10"
    )


def test_variables_and_functions_are_not_names():
    renamed = _renamed("SELECT COUNT(*), @total, @@session.sql_mode FROM orders WHERE DATE(created) > @since")
    assert renamed == "SELECT COUNT(*), @total, @@session.sql_mode FROM t1 WHERE DATE(col1) > @since"


def test_explain_prefix_and_unparsable_queries_still_lose_every_name_and_literal():
    assert _renamed("EXPLAIN FORMAT=JSON SELECT a FROM t WHERE b = 'x'") == (
        "EXPLAIN FORMAT=JSON SELECT col1 FROM t1 WHERE col2 = 'str1'"
    )
    renamed = _renamed("SELECT salary FROM payroll WHERE ssn = '078-05-1120' AND (((")
    assert "salary" not in renamed and "payroll" not in renamed and "078-05-1120" not in renamed


def test_a_query_that_cannot_be_tokenized_is_refused_not_leaked():
    with pytest.raises(AnonymizeError, match="could not be read as SQL"):
        read_query("SELECT * FROM people WHERE email = 'bob@exa")


def test_plan_conditions_lose_literals_and_keep_their_figures():
    renamer = Renamer()
    masked = mask_literals(
        renamer,
        "-> Filter: ((p.email = 'bob@example.com') and (p.id in (7,8)) and (p.age > -3)) "
        "(cost=1.25 rows=10) (actual time=0.010..0.020 rows=3 loops=1)\n"
        "    -> Limit: 10 row(s)\n        -> Index range scan on p using idx over (5 < id <= 9)\n",
    )
    assert masked == (
        "-> Filter: ((p.email = 'str1') and (p.id in (1,2)) and (p.age > -3)) "
        "(cost=1.25 rows=10) (actual time=0.010..0.020 rows=3 loops=1)\n"
        "    -> Limit: 10 row(s)\n        -> Index range scan on p using idx over (5 < id <= 4)\n"
    )


def test_explain_and_query_share_one_mapping():
    text = fixture("hr_dept_join_an_table_clean.txt")
    result = anonymize(text, analyze(text).to_dict(), QUERY)
    again = analyze(result.explain, query=result.query).to_dict()
    tables = [row["table"] for row in again["rows"]]
    assert tables == ["a1", "a2"]
    assert " a1 " in result.query and " a2 " in result.query
    assert again["rows"][0]["possible_keys"] == "idx1,idx2"
    assert again["rows"][0]["key"] == "idx2"
    assert again["rows"][1]["key"] == "PRIMARY"
    assert again["rows"][1]["ref"] == "db1.a1.col4"
    for name in ORIGINAL_NAMES:
        assert name not in result.explain
        assert name not in result.query


def test_rows_and_types_are_kept():
    text = fixture("hr_dept_join_an_table_clean.txt")
    before = analyze(text).to_dict()
    after = analyze(anonymize(text, before).explain).to_dict()
    for old, new in zip(before["rows"], after["rows"], strict=True):
        for column in ("id", "select_type", "type", "key_len", "rows", "extra"):
            assert old[column] == new[column]


def test_json_plan_names_are_renamed_in_values_not_keys():
    text = json.dumps(
        {
            "query_block": {
                "select_id": 1,
                "table": {
                    "table_name": "employees",
                    "access_type": "ref",
                    "possible_keys": ["idx_dept"],
                    "key": "idx_dept",
                    "used_key_parts": ["dept_no"],
                    "ref": ["const"],
                    "rows": 936,
                    "attached_condition": "`hr`.`employees`.`hire_date` > '2019-06-01' and `emp_no` = 10017",
                },
            }
        },
        indent=2,
    )
    analysis = analyze(text).to_dict()
    result = anonymize(text, analysis, "SELECT * FROM employees WHERE dept_no = 'd001'")
    assert '"table_name": "t1"' in result.explain
    assert '"key": "idx1"' in result.explain
    for name in ("employees", "idx_dept", "dept_no", "hire_date", "`hr`", "2019-06-01", "10017"):
        assert name not in result.explain
    assert "'str2'" in result.explain and result.query == "SELECT * FROM t1 WHERE col1 = 'str1'"
    assert analyze(result.explain).to_dict()["format"] == "json"


@pytest.mark.django_db
def test_nothing_original_survives_in_the_record_or_the_api(client):
    text = fixture("hr_dept_join_an_table_clean.txt")
    response = client.post(
        "/api/v1/explains/",
        {"explain": text, "query": QUERY, "anonymize": True, "title": "anonymous join", "visibility": "public"},
        content_type="application/json",
    )
    assert response.status_code == 201
    created = response.content.decode()
    slug = response.json()["slug"]
    stored = Explain.objects.get(slug=slug)
    record = json.dumps({k: str(v) for k, v in stored.__dict__.items() if not k.startswith("_")})
    detail = client.get(f"/api/v1/explains/{slug}/").content.decode()
    page = client.get(f"/e/{slug}/").content.decode()
    raw = client.get(f"/e/{slug}/raw/").content.decode()
    listing = client.get("/api/v1/explains/").content.decode()
    for name in ORIGINAL_NAMES:
        for where, body in (
            ("record", record),
            ("created", created),
            ("detail", detail),
            ("page", page),
            ("raw", raw),
            ("list", listing),
        ):
            assert not re.search(rf"\b{re.escape(name)}\b", body), (name, where)
    assert stored.anonymized
    assert response.json()["rows"][0]["table"] == "a1"


@pytest.mark.django_db
def test_form_anonymize_checkbox(client):
    text = explain_table(table="payroll_secret", key="idx_salary")
    response = client.post("/", {"explain": text, "expires": "1d", "visibility": "unlisted", "anonymize": "on"})
    assert response.status_code == 302
    stored = Explain.objects.get()
    assert "payroll_secret" not in stored.raw_explain
    assert "idx_salary" not in stored.raw_explain
    assert "t1" in stored.raw_explain and "idx1" in stored.raw_explain


HR_NAMES = [
    "hr",
    "employees",
    "departments",
    "salaries",
    "badges",
    "emp_no",
    "dept_no",
    "last_name",
    "dept_name",
    "hire_date",
    "salary",
    "to_date",
    "avg_sal",
    "idx_dept",
    "idx_hire",
    "price",
    "shop_id",
]
SAMPLES = [
    "hr_dept_join_json_json_table_clean.txt",
    "hr_no_badge_plain_vertical_prompt.txt",
    "hr_no_badge_ext_transcript_w250_ext_show_warnings.txt",
    "hr_count_star_plain_tsv_fence_crlf.txt",
    "hr_salary_group_plain_transcript_w80_terminal_wrap.txt",
    "hr_union_names_plain_table_clean.txt",
    "tree_join_analyze.txt",
    "json_range_checked_analyze.txt",
]


@pytest.mark.django_db
@pytest.mark.parametrize("name", SAMPLES)
def test_real_pastes_of_every_format_anonymize_without_leaks(client, name):
    text = fixture(name)
    original = analyze(text).to_dict()
    response = client.post("/api/v1/explains/", {"explain": text, "anonymize": True}, content_type="application/json")
    assert response.status_code == 201, response.content
    data = response.json()
    stored = Explain.objects.get(slug=data["slug"])
    everything = "\n".join([stored.raw_explain, stored.query, json.dumps(stored.analysis), response.content.decode()])
    for word in HR_NAMES:
        assert not re.search(rf"\b{word}\b", everything), word
    assert len(data["rows"]) == len(original["rows"])
    for row in data["rows"]:
        assert re.fullmatch(r"(t|a)\d+|<.*>", row["table"] or "<none>"), row["table"]
    for old, new in zip(original["rows"], data["rows"], strict=True):
        assert (old.get("type"), old.get("rows")) == (new.get("type"), new.get("rows"))


def test_anonymizing_has_the_analysis_time_budget():
    text = explain_table()
    analysis = analyze(text).to_dict()
    with pytest.raises(ParseError) as info:
        anonymize(text, analysis, deadline_ms=0)
    assert info.value.too_complex
    assert anonymize(text, analysis).explain


def test_a_query_over_64_kib_is_not_anonymized_but_refused_at_once():
    text = explain_table()
    query = "SELECT a FROM t1 WHERE " + " AND ".join(f"b{n} = {n}" for n in range(8000))
    with pytest.raises(AnonymizeError, match="longer than 64 KiB"):
        anonymize(text, analyze(text).to_dict(), query)


def test_qualified_names_are_found_from_the_start_of_each_word():
    renamer = Renamer()
    renamer.add("table", "orders")
    collect_qualified(renamer, "1orders.total, x.orders.id, " + "a" * 100_000 + " orders.day")
    assert {"total", "day"} <= set(renamer.names)
