"""`python -m analyzer`, run as a real subprocess without Django settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLEAN = """\
+------+-------------+-------+------+---------------+------+---------+------+-------+-------------+
| id   | select_type | table | type | possible_keys | key  | key_len | ref  | rows  | Extra       |
+------+-------------+-------+------+---------------+------+---------+------+-------+-------------+
|    1 | SIMPLE      | s     | ALL  | NULL          | NULL | NULL    | NULL | 60000 | Using where |
+------+-------------+-------+------+---------------+------+---------+------+-------+-------------+
"""


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-m", "analyzer", *args],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_stdin_prints_table_and_findings():
    result = run_cli(stdin=CLEAN)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "| s     | ALL  |" in out
    assert "findings" in out


def test_json_flag_prints_api_json(tmp_path):
    path = tmp_path / "plan.txt"
    path.write_text(CLEAN)
    result = run_cli("--json", str(path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == "table"
    assert data["rows"][0]["rows"] == "60000"


def test_garbage_exits_1_with_message():
    result = run_cli(stdin="just some chat text\n")
    assert result.returncode == 1
    assert b"EXPLAIN" in result.stderr


def test_missing_file_exits_1(tmp_path):
    result = run_cli(str(tmp_path / "nope.txt"))
    assert result.returncode == 1
    assert b"nope.txt" in result.stderr


def test_no_django_import():
    code = "import sys, analyzer; analyzer.analyze(sys.stdin.read()); print('django' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], input=CLEAN.encode(), capture_output=True, cwd=ROOT, timeout=60
    )
    assert result.stdout.strip() == b"False", result.stderr


ARGVS = [
    [],
    ["a.txt"],
    ["-"],
    ["a.txt", "b.txt"],
    ["--json", "a.txt"],
    ["a.txt", "--json"],
    ["--query", "SELECT 1", "--max-bytes", "100", "a.txt", "b.txt"],
    ["a.txt", "--query", ""],
    ["--json", "--json", "--query", "x", "--query", "y"],
    ["--max-bytes", "007"],
]


def test_plain_command_lines_are_read_as_argparse_reads_them(monkeypatch):
    from analyzer import __main__ as cli

    for argv in ARGVS:
        plain = cli._plain_arguments(argv, 1024 * 1024)
        assert plain is not None, argv
        monkeypatch.setattr(cli, "_plain_arguments", lambda args, default: None)
        assert vars(cli._parse_arguments(argv)) == vars(plain), argv
        monkeypatch.undo()


def test_other_command_lines_are_left_to_argparse():
    from analyzer import __main__ as cli

    others = [
        ["--help"],
        ["--js", "a.txt"],
        ["--query=x"],
        ["--query"],
        ["--query", "-x"],
        ["--max-bytes", "ten"],
        ["--max-bytes", "-1"],
        ["--", "a.txt"],
        ["a.txt", "--json", "b.txt"],
        ["-x"],
    ]
    for argv in others:
        assert cli._plain_arguments(argv, 1) is None, argv


def test_a_mistake_is_a_usage_error():
    result = run_cli("a.txt", "--json", "b.txt")
    assert result.returncode == 2
    assert b"usage:" in result.stderr
