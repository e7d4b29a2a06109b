"""Which server printed a paste, and the documentation its terms link to."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import analyze
from analyzer.insight import glossary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ROOT = Path(__file__).resolve().parents[3]

TABLE = """+----+-------------+-------+------+---------------+------+---------+------+------+-------------+
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra       |
+----+-------------+-------+------+---------------+------+---------+------+------+-------------+
|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL | 1000 | Using where |
+----+-------------+-------+------+---------------+------+---------+------+------+-------------+
"""
MYSQL_80 = "https://dev.mysql.com/doc/refman/8.0/en/explain-output.html"
MYSQL_84 = "https://dev.mysql.com/doc/refman/8.4/en/explain-output.html"
MARIADB = "https://www.mariadb.com/kb/en/explain"


def server_of(text: str) -> dict:
    return analyze(text).to_dict()["server"]


def urls_of(text: str) -> set[str]:
    return {a["url"] for a in analyze(text).to_dict()["annotations"]}


@pytest.mark.parametrize(
    ("banner", "flavour", "version"),
    [
        ("Server version: 10.11.6-MariaDB-0+deb12u1 Debian 12", "mariadb", "10.11"),
        ("Server version: 5.5.5-10.6.12-MariaDB-log MariaDB Server", "mariadb", "10.6"),
        ("mysql  Ver 15.1 Distrib 10.5.12-MariaDB, for debian-linux-gnu (x86_64)", "mariadb", "10.5"),
        ("Server version: 8.0.36 MySQL Community Server - GPL", "mysql", "8.0"),
        ("Server version: 8.4.3 MySQL Community Server - GPL", "mysql", "8.4"),
        ("mysql  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)", "mysql", "8.0"),
        ("mysql  Ver 14.14 Distrib 5.7.44, for Linux (x86_64)", "mysql", "5.7"),
        ("Server version: 9.1.0 MySQL Community Server - GPL", "mysql", "9.1"),
    ],
)
def test_a_version_string_names_the_server_and_its_version(banner, flavour, version):
    assert server_of(f"{banner}\n\nmysql> EXPLAIN SELECT * FROM t WHERE a = 1;\n{TABLE}") == {
        "flavour": flavour,
        "version": version,
    }


def test_the_version_decides_which_manual_each_term_links_to():
    assert urls_of(f"Server version: 8.0.36 MySQL Community Server\n{TABLE}") == {MYSQL_80}
    assert urls_of(f"Server version: 8.4.3 MySQL Community Server\n{TABLE}") == {MYSQL_84}
    assert urls_of(f"Server version: 9.1.0 MySQL Community Server\n{TABLE}") == {MYSQL_84}  # the LTS manual
    assert urls_of(f"Server version: 10.11.6-MariaDB\n{TABLE}") == {MARIADB}
    assert urls_of(TABLE) == {MYSQL_84}  # not known: MySQL's current LTS manual


def test_a_mariadb_paste_links_only_to_mariadb_pages_where_they_exist():
    analysis = analyze((FIXTURES / "explain" / "transcript_wrap100_rowid_filter.txt").read_text()).to_dict()
    assert analysis["server"] == {"flavour": "mariadb", "version": None}
    for annotation in analysis["annotations"]:
        term = glossary.BY_SLUG[annotation["slug"]]
        assert annotation["url"] == (term.mariadb_url or term.url), annotation["term"]
        if term.mariadb_url:
            assert "mariadb.com" in annotation["url"], annotation["term"]


def test_the_example_is_mariadb_and_links_no_mysql_manual():
    analysis = analyze((ROOT / "static" / "examples" / "group-by-terminal-80.txt").read_text()).to_dict()
    assert analysis["server"]["flavour"] == "mariadb"
    assert all("mariadb.com" in a["url"] for a in analysis["annotations"])


@pytest.mark.parametrize(
    ("path", "flavour"),
    [
        ("tree/hash_join_compact.txt", "mysql"),  # tree output: MySQL only
        ("json/mysql/mysql57_join.json", "mysql"),  # cost_info
        ("json/mariadb/bka_join.analyze.json", "mariadb"),  # ANALYZE FORMAT=JSON
        ("json/mariadb/bka_join.analyze.tsv", "mariadb"),  # r_rows
        ("explain/mariadb_partitions_quoted_wrap72.txt", "mariadb"),  # "> MariaDB [sales]>" quoted in a mail
        ("json/mysql/mysql56_weedout.json", None),  # nothing only one server writes
    ],
)
def test_the_plan_itself_tells_the_server(path, flavour):
    assert server_of((FIXTURES / path).read_text()) == {"flavour": flavour, "version": None}


@pytest.mark.parametrize(
    ("extra", "flavour"),
    [
        ("Using where; Rowid-ordered scan", "mariadb"),
        ("Using join buffer (flat, BNL join)", "mariadb"),
        ("Using where; Using MRR", "mysql"),
        ("Using join buffer (hash join)", "mysql"),
        ("Backward index scan", "mysql"),
        ("Using where; Using MRR; Rowid-ordered scan", None),  # one of each: not known
    ],
)
def test_terms_only_one_server_prints_tell_it(extra, flavour):
    text = TABLE.replace("| Using where |", f"| {extra} |").replace("-------------+\n", "-" * (len(extra) + 2) + "+\n")
    text = text.replace("| Extra       |", "| Extra" + " " * (len(extra) - 4) + "|")
    assert server_of(text)["flavour"] == flavour


def test_a_mysql_prompt_proves_nothing():
    assert server_of(f"mysql> EXPLAIN SELECT * FROM t;\n{TABLE}") == {"flavour": None, "version": None}


def test_only_mysql_terms_fall_back_to_the_mysql_manual_on_mariadb():
    term = glossary.match("extra", "Using MRR")
    assert term.mariadb_url is None
    assert term.url_for("mariadb", "10.11") == term.url_for("mysql", None)
    hashed = glossary.match("type", "hash_ALL")
    assert hashed.mysql_url is None and hashed.url_for("mysql", "8.0") == hashed.mariadb_url


def test_every_term_links_to_the_right_hosts():
    for term in glossary.TERMS:
        assert term.mysql_url or term.mariadb_url, term.slug
        for flavour, host in (("mysql", "dev.mysql.com"), ("mariadb", "mariadb.com")):
            own = term.mysql_url if flavour == "mysql" else term.mariadb_url
            if own:
                assert host in term.url_for(flavour, "8.0" if flavour == "mysql" else None), term.slug
        for _, url in term.links():
            assert url.startswith("https://") and "{" not in url, term.slug
