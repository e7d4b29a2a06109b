"""`python -m analyzer explain --dsn …` against the real server: the plan and the tables' definitions
fetched, advice printed, `--analyze` measured inside a rolled-back transaction, `--share` saved to a
live site, and the password taken from MYSQL_PWD only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from tests.advice.scenarios import SCENARIOS
from tests.analyzer.test_cli import ROOT

pytestmark = pytest.mark.mariadb
EQUALITY = next(s for s in SCENARIOS if s.name == "equality")


def explain(*args: str, password: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | {"MYSQL_PWD": password}
    return subprocess.run(
        [sys.executable, "-m", "analyzer", "explain", *args],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def dsn(database: str) -> str:
    parts = urlsplit(os.environ["MARIADB_URL"])
    return f"mysql://{parts.username or 'root'}@{parts.hostname}:{parts.port or 3306}/{database}"


def test_explain_prints_the_analysis_with_advice_checked_against_the_live_tables(database):
    db = database(EQUALITY, "_cli")
    done = explain("--dsn", dsn(db.name), EQUALITY.query)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "index advice:\n  ALTER TABLE `orders` ADD INDEX" in out and "`customer_id`" in out
    assert "Not checked against" not in out  # SHOW CREATE TABLE was fetched
    data = json.loads(explain("--json", "--dsn", dsn(db.name), EQUALITY.query).stdout)
    assert data["format"] == "json" and data["advice"][0]["columns"][0] == "customer_id"


def test_analyze_measures_and_rolls_back_what_the_statement_changed(database):
    db = database(EQUALITY, "_cli_analyze")
    before = db.run("SELECT COUNT(*) FROM orders")[0][0]
    done = explain("--analyze", "--json", "--dsn", dsn(db.name), "DELETE FROM orders WHERE customer_id = 2424")
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["variant"].startswith("MariaDB ANALYZE")
    assert db.run("SELECT COUNT(*) FROM orders")[0][0] == before


@pytest.mark.django_db(transaction=True)
def test_share_saves_it_and_prints_the_permalink(database, live_server):
    db = database(EQUALITY, "_cli_share")
    done = explain("--share", "--server", live_server.url, "--dsn", dsn(db.name), EQUALITY.query)
    assert done.returncode == 0, done.stderr.decode()
    permalink = done.stdout.decode().strip().splitlines()[-1]
    assert permalink.startswith(f"permalink: {live_server.url}/e/")
    from pastebin.models import Explain

    saved = Explain.objects.get(slug=permalink.rstrip("/").rsplit("/", 1)[-1])
    assert "CREATE TABLE `orders`" in saved.schema and saved.analysis["advice"]


def test_a_wrong_password_or_server_is_a_clean_error(database):
    db = database(EQUALITY, "_cli_errors")
    wrong = explain("--dsn", dsn(db.name), EQUALITY.query, password="not-the-password")
    assert wrong.returncode == 1 and wrong.stderr.decode().startswith("error: cannot connect")
    assert "not-the-password" not in wrong.stderr.decode() + wrong.stdout.decode()
    bad_sql = explain("--dsn", dsn(db.name), "SELEC oops")
    assert bad_sql.returncode == 1 and "the server said" in bad_sql.stderr.decode()
