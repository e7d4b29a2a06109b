"""`python -m analyzer check` and `python -m analyzer mcp`, run as real subprocesses (`explain`,
which needs a MariaDB server, is tested in tests/advice/)."""

from __future__ import annotations

import asyncio
import json
import sys
import threading

import pytest

from analyzer.cli.explain import ExplainError, parse_dsn
from tests.analyzer.test_cli import CLEAN, ROOT, run_cli

GOOD = CLEAN.replace("| ALL  |", "| ref  |").replace("60000", "   12").replace("Using where", "           ")
QUERY = "SELECT * FROM sales s WHERE s.shop_id = 3"
SCHEMA = "CREATE TABLE `sales` (`id` int NOT NULL, `shop_id` int NOT NULL, PRIMARY KEY (`id`))"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("bad.txt", CLEAN), ("good.txt", GOOD), ("junk.txt", "hello\n"), ("schema.sql", SCHEMA)):
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def test_check_exit_status_follows_the_threshold(files):
    assert run_cli("check", str(files["good.txt"])).returncode == 0
    bad = run_cli("check", str(files["bad.txt"]))
    assert bad.returncode == 1
    assert "[bad] Full table scan" in bad.stdout.decode()
    assert run_cli("check", "--fail-on", "bad", str(files["good.txt"]), str(files["bad.txt"])).returncode == 1
    assert run_cli("check", str(files["bad.txt"]), str(files["junk.txt"])).returncode == 2
    assert run_cli("check", str(files["good.txt"]), str(files["bad.txt"]) + ".missing").returncode == 2


def test_check_json_is_one_object_per_file_with_advice(files):
    done = run_cli("check", "--json", "--query", QUERY, "--schema", str(files["schema.sql"]), *map(str, files.values()))
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [line["status"] for line in lines] == ["fail", "ok", "error", "error"]
    assert lines[0]["counts"]["bad"] == 1 and lines[0]["failing"][0]["severity"] == "bad"
    assert lines[0]["advice"][0]["statement"] == "ALTER TABLE `sales` ADD INDEX `idx_shop_id` (`shop_id`)"
    assert "no EXPLAIN" in lines[2]["error"] or lines[2]["error"]
    assert done.returncode == 2


def test_legacy_command_line_still_works_and_shows_advice(files):
    done = run_cli("--query", QUERY, "--schema", str(files["schema.sql"]), str(files["bad.txt"]))
    assert done.returncode == 0
    assert "index advice:\n  ALTER TABLE `sales` ADD INDEX `idx_shop_id` (`shop_id`);" in done.stdout.decode()


@pytest.mark.parametrize(
    ("dsn", "message"),
    [
        ("postgres://u@h/db", "must start with mysql://"),
        ("mysql://u:secret@h/db", "no password in the DSN"),
        ("mysql://u@h:99999/db", "bad port"),
    ],
)
def test_explain_refuses_bad_dsns_before_connecting(dsn, message):
    with pytest.raises(ExplainError, match=message):
        parse_dsn(dsn)
    target = parse_dsn("mariadb://app%40x@db.example:3307/shop?unix_socket=/tmp/m.sock")
    assert (target.user, target.host, target.port, target.database, target.unix_socket) == (
        "app@x",
        "db.example",
        3307,
        "shop",
        "/tmp/m.sock",
    )


def test_explain_help_says_analyze_executes_the_query():
    text = run_cli("explain", "--help").stdout.decode()
    assert "EXECUTE the query" in text and "MYSQL_PWD" in text


def _mcp_session(calls):
    """Start `python -m analyzer mcp` over stdio with the official client; run `calls` on it."""
    from mcp import Client, StdioServerParameters

    async def run():
        params = StdioServerParameters(command=sys.executable, args=["-m", "analyzer", "mcp"], cwd=str(ROOT))
        async with Client(params) as client:
            return await calls(client)

    result: dict = {}
    # Playwright may leave an event loop in this thread: run asyncio in a thread of its own.
    thread = threading.Thread(target=lambda: result.update(value=asyncio.run(run())))
    thread.start()
    thread.join(60)
    return result["value"]


def test_mcp_server_lists_its_tools_and_analyzes_a_paste():
    async def calls(client):
        tools = await client.list_tools()
        analyzed = await client.call_tool("analyze_explain", {"explain": CLEAN, "query": QUERY, "schema": SCHEMA})
        term = await client.call_tool("explain_term", {"term": "Using filesort"})
        refused = await client.call_tool("analyze_explain", {"explain": "hello"})
        return tools, analyzed, term, refused

    tools, analyzed, term, refused = _mcp_session(calls)
    assert {tool.name for tool in tools.tools} == {"analyze_explain", "explain_term"}
    data = analyzed.structured_content or json.loads(analyzed.content[0].text)
    assert data["findings"][0]["severity"] == "bad"
    assert data["advice"][0]["statement"] == "ALTER TABLE `sales` ADD INDEX `idx_shop_id` (`shop_id`)"
    about = term.structured_content or json.loads(term.content[0].text)
    assert about["term"].lower().startswith("using filesort") and about["url"].startswith("https://")
    assert "error" in (refused.structured_content or json.loads(refused.content[0].text))
