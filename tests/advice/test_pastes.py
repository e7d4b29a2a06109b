"""The schema pastes the advice tests write are the `mariadb` client's own output, byte for byte."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.advice import pastes
from tests.advice.scenarios import SERVED, Scenario
from tests.advice.server import URL_VARIABLE, settings

pytestmark = pytest.mark.mariadb

TABLE = Scenario(
    "pastes", SERVED,
    ("CREATE TABLE k (id INT NOT NULL PRIMARY KEY, a VARCHAR(20), b TEXT, n DECIMAL(6,2), KEY ab (a, b(10))) "
     "DEFAULT CHARSET=utf8mb4",),
    "SELECT 1",
)
STATEMENTS = "SHOW CREATE TABLE k; SHOW INDEX FROM k"


def client(db, *options: str) -> str:
    if not shutil.which("mariadb"):
        pytest.skip("needs the mariadb client (apt-get install mariadb-client)")
    server = settings(os.environ[URL_VARIABLE])
    command = ["mariadb", "--no-defaults", f"-h{server['host']}", f"-P{server['port']}", f"-u{server['user']}", *options]
    env = {**os.environ, "MYSQL_PWD": server["password"]}
    return subprocess.run([*command, db.name], input=STATEMENTS, env=env, capture_output=True, text=True, check=True).stdout


def test_box_is_the_clients_table(database):
    db = database(TABLE)
    ours = [pastes.box(*db.result(statement)) for statement in STATEMENTS.split("; ")]
    assert client(db, "--table") == "\n".join(ours) + "\n"


def test_vertical_is_the_clients_backslash_g(database):
    db = database(TABLE)
    ours = [pastes.vertical(*db.result(statement)) for statement in STATEMENTS.split("; ")]
    assert client(db, "--vertical") == "\n".join(ours) + "\n"


def test_schema_pastes_name_every_table(database):
    db = database(TABLE)
    for how in ("create", "create-box", "create-vertical", "create+index"):
        assert "CREATE TABLE `k`" in db.schema(how)
    assert db.schema("create").endswith(";")
    assert "| k     |          1 | ab       |            2 | b" in db.schema("index-box")
