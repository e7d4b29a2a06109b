"""`python -m pastebin.cli` against a live server: standard library client, real HTTP, retries."""

from __future__ import annotations

import email.utils
import io
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
    assert "retry" not in done.stderr.decode()
    assert done.stdout == b""


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    """The CLI's waits between retries, recorded instead of slept (for the in-process tests)."""
    waits: list[float] = []
    monkeypatch.setattr(cli.time, "sleep", waits.append)
    monkeypatch.setattr("sys.stdin", io.StringIO(explain_table()))
    return waits


def test_unreachable_server_is_retried_with_growing_waits_then_a_clear_error(capsys, sleeps):
    assert cli.main(["--server", "http://127.0.0.1:9", "--retries", "3"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4
    assert [line.split(" (")[-1].split(" in ")[0] for line in err[:3]] == ["retry 1/3", "retry 2/3", "retry 3/3"]
    assert "cannot reach" in err[-1]
    assert [0.25 <= sleeps[0] <= 0.5, 0.5 <= sleeps[1] <= 1, 1 <= sleeps[2] <= 2] == [True] * 3


def test_a_server_that_never_answers_times_out_and_is_retried(capsys, sleeps, monkeypatch):
    monkeypatch.setattr(cli, "TIMEOUT", 0.3)
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts connections, never answers
        assert cli.main(["--server", f"http://127.0.0.1:{silent.getsockname()[1]}", "--retries", "1"]) == 1
    err = capsys.readouterr().err
    assert "retry 1/1" in err
    assert "timed out" in err
    assert len(sleeps) == 1


def test_retries_zero_sends_once(capsys, sleeps):
    assert cli.main(["--server", "http://127.0.0.1:9", "--retries", "0"]) == 1
    assert "retry" not in capsys.readouterr().err
    assert sleeps == []


@pytest.mark.parametrize("value", ["-1", "two", "\u00b2"])
def test_retries_must_be_a_count(value, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--retries", value])
    assert exit_info.value.code == 2
    assert "--retries" in capsys.readouterr().err


def test_retry_after_is_honoured_up_to_the_cap_and_backoff_is_capped_too():
    assert cli.retry_delay(0, 2.0) == 2.0
    assert cli.retry_delay(0, 3600.0) == cli.MAX_DELAY
    assert cli.MAX_DELAY / 2 <= cli.retry_delay(20, None) <= cli.MAX_DELAY
    assert cli.parse_retry_after(" 120 ") == 120.0
    later = email.utils.format_datetime(datetime.now(UTC) + timedelta(seconds=90), usegmt=True)
    assert 80 <= cli.parse_retry_after(later) <= 90
    assert cli.parse_retry_after("soon") is None
    assert cli.parse_retry_after("\u00b2") is None
    assert cli.parse_retry_after(None) is None


@contextmanager
def flaky_server(upstream: str, script: list[str]) -> Iterator[tuple[str, list[dict]]]:
    """A stdlib HTTP server in front of `upstream` answering requests in the order of `script`:
    "503" (busy, Retry-After: 1), "400", "forward" (pass it to `upstream`), or "drop" (pass it
    on, then close the connection without answering, as when an answer is lost). Requests after
    the script are forwarded. Yields its URL and a log of each request's key and outcome."""
    log: list[dict] = []
    actions = iter(script)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            action = next(actions, "forward")
            entry = {"key": self.headers.get("Idempotency-Key"), "action": action}
            log.append(entry)
            if action == "503":
                self.answer(503, {"Retry-After": "1"}, b'{"error": "Busy, try again."}')
            elif action == "400":
                self.answer(400, {}, b'{"error": "No, thanks."}')
            else:
                status, headers, content = forward(upstream + self.path, body, self.headers)
                entry["replayed"] = headers.get("Idempotent-Replayed") == "true"
                if action == "drop":
                    self.close_connection = True
                else:
                    self.answer(status, headers, content)

        def answer(self, status: int, headers: dict, content: bytes) -> None:
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, format, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", log
    finally:
        server.shutdown()
        server.server_close()


def forward(url: str, body: bytes, headers) -> tuple[int, dict, bytes]:
    """POST to the live server with the client's headers; its status, answer headers and body."""
    names = ("Content-Type", "Accept", "Idempotency-Key")
    request = urllib.request.Request(url, data=body, method="POST", headers={n: headers[n] for n in names})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, answer_headers, content = response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        status, answer_headers, content = exc.code, exc.headers, exc.read()
    passed = ("Content-Type", "Location", "Idempotent-Replayed")
    return status, {name: answer_headers[name] for name in passed if name in answer_headers}, content


def same_uuid4(log: list[dict]) -> bool:
    keys = {entry["key"] for entry in log}
    return len(keys) == 1 and uuid.UUID(keys.pop()).version == 4


@pytest.mark.django_db(transaction=True)
def test_503_is_retried_after_retry_after_with_the_same_key(live_server):
    with flaky_server(live_server.url, ["503", "503"]) as (url, log):
        done = run_cli("--server", url, stdin=explain_table())
    assert done.returncode == 0, done.stderr
    assert [entry["action"] for entry in log] == ["503", "503", "forward"]
    assert same_uuid4(log)
    err = done.stderr.decode().splitlines()
    assert err == [
        "stdin: HTTP 503: Busy, try again. (retry 1/4 in 1.0s)",
        "stdin: HTTP 503: Busy, try again. (retry 2/4 in 1.0s)",
    ]
    assert done.stdout.decode().strip() == live_server.url + Explain.objects.get().get_absolute_url()


@pytest.mark.django_db(transaction=True)
def test_a_lost_answer_is_retried_and_the_server_saves_once(live_server):
    """The first request is saved but its answer never arrives; the retry, under the same key,
    gets the first answer back, and the one explain is printed."""
    with flaky_server(live_server.url, ["drop"]) as (url, log):
        done = run_cli("--server", url, "--json", stdin=explain_table())
    assert done.returncode == 0, done.stderr
    assert [(entry["action"], entry["replayed"]) for entry in log] == [("drop", False), ("forward", True)]
    assert same_uuid4(log)
    assert "retry 1/4" in done.stderr.decode()
    assert len(done.stderr.decode().splitlines()) == 1
    explain = Explain.objects.get()
    answer = json.loads(done.stdout)
    assert answer["slug"] == explain.slug
    assert answer["delete_token"]


@pytest.mark.django_db(transaction=True)
def test_a_4xx_is_not_retried(live_server):
    with flaky_server(live_server.url, ["400"]) as (url, log):
        done = run_cli("--server", url, stdin=explain_table())
    assert done.returncode == 1
    assert len(log) == 1
    assert done.stderr.decode().splitlines() == ["error: stdin: HTTP 400: No, thanks."]


def test_a_503_to_the_last_retry_fails(capsys, sleeps):
    with flaky_server("http://127.0.0.1:9", ["503"] * 3) as (url, log):
        assert cli.main(["--server", url, "--retries", "2"]) == 1
    assert len(log) == 3
    assert same_uuid4(log)
    assert sleeps == [1.0, 1.0]
    assert capsys.readouterr().err.splitlines()[-1] == "error: stdin: HTTP 503: Busy, try again."


@pytest.mark.django_db(transaction=True)
def test_each_file_has_its_own_key(live_server, tmp_path):
    files = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for path, table in zip(files, ("payroll", "badges"), strict=True):
        path.write_text(explain_table(table=table), encoding="utf-8")
    with flaky_server(live_server.url, []) as (url, log):
        done = run_cli("--server", url, *map(str, files))
    assert done.returncode == 0, done.stderr
    assert len({entry["key"] for entry in log}) == 2
    assert Explain.objects.count() == 2


def test_cli_needs_no_django():
    code = "import sys, pastebin.cli; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0
