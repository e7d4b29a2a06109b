"""`python -m pastebin.cli` against a live server: standard library client, real HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from pastebin import cli
from pastebin.models import Explain
from tests.pastebin.factories import explain_table

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pastebin.cli", *args],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


@pytest.mark.django_db(transaction=True)
def test_stdin_prints_the_permalink_and_the_paste_reads_back(live_server):
    text = explain_table(newline="\r\n", table="社員")
    done = run_cli("--server", live_server.url, "--title", "from cli", "--expires", "1w", stdin=text)
    assert done.returncode == 0, done.stderr
    url = done.stdout.decode().strip()
    assert url.startswith(f"{live_server.url}/e/")
    with urllib.request.urlopen(url + "raw/") as response:
        assert response.read() == text.encode()
    assert Explain.objects.get().title == "from cli"


@pytest.mark.django_db(transaction=True)
def test_files_json_public_anonymize_and_env_server(live_server, tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(explain_table(table="payroll"), encoding="utf-8")
    second.write_text(explain_table(table="badges"), encoding="utf-8")
    done = run_cli(
        "--json", "--public", "--anonymize", str(first), str(second), env={"EXPLAIN_SERVER": live_server.url}
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [a["visibility"] for a in answers] == ["public", "public"]
    assert all(a["delete_token"] for a in answers)
    assert not Explain.objects.filter(raw_explain__contains="payroll").exists()


@pytest.mark.django_db(transaction=True)
def test_errors_go_to_stderr_with_status_1(live_server):
    done = run_cli("--server", live_server.url, stdin="this is not an explain")
    assert done.returncode == 1
    assert "HTTP 400" in done.stderr.decode()
    assert done.stdout == b""


def test_unreachable_server_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(explain_table()))
    assert cli.main(["--server", "http://127.0.0.1:9"]) == 1
    assert "cannot reach" in capsys.readouterr().err


def test_cli_needs_no_django():
    code = "import sys, pastebin.cli; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0
