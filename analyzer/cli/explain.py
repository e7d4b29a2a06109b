"""`python -m analyzer explain --dsn mysql://user@host:port/db "SELECT …"`: ask a live MySQL or
MariaDB server for the plan (`EXPLAIN FORMAT=JSON`) and for `SHOW CREATE TABLE` of the query's
tables, then print the analysis with index advice. `--analyze` runs the query (MariaDB `ANALYZE
FORMAT=JSON`, MySQL `EXPLAIN ANALYZE`) inside a transaction that is rolled back; `--share` saves the
result to an Explain Analyzer server and prints its permalink.

The password never goes on the command line: `MYSQL_PWD`, or `--password-prompt` (not echoed).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import urllib.parse
from dataclasses import dataclass
from typing import Any

CONNECT_TIMEOUT = 10
SCHEMES = ("mysql", "mariadb")


@dataclass
class Target:
    host: str
    port: int
    user: str
    database: str | None
    unix_socket: str | None


class ExplainError(Exception):
    """What stopped the command, said for the terminal."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m analyzer explain",
        description="Explain a query on a live MySQL or MariaDB server and analyze the plan, with index advice.",
    )
    parser.add_argument("query", help="the SQL statement (- to read it from standard input)")
    parser.add_argument(
        "--dsn",
        required=True,
        help="mysql://user@host:port/db (or mariadb://…; ?unix_socket=/path for a socket). No password here.",
    )
    parser.add_argument("--password-prompt", action="store_true", help="ask for the password (else MYSQL_PWD)")
    parser.add_argument(
        "--analyze",
        action="store_true",
        help="EXECUTE the query to measure it (MariaDB ANALYZE FORMAT=JSON, MySQL EXPLAIN ANALYZE). It runs "
        "inside a transaction that is rolled back, but it still takes the time and the locks the query takes.",
    )
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument("--share", action="store_true", help="save it to the server and print its permalink")
    parser.add_argument("--server", default=os.environ.get("EXPLAIN_SERVER", "http://127.0.0.1:8000"))
    return parser


def parse_dsn(dsn: str) -> Target:
    """The connection target of a `mysql://user@host:port/db` URL; a password in it is refused."""
    parts = urllib.parse.urlsplit(dsn)
    if parts.scheme not in SCHEMES:
        raise ExplainError(f"the DSN must start with mysql:// or mariadb://, not {parts.scheme or dsn!r}")
    if parts.password is not None:
        raise ExplainError(
            "put no password in the DSN (it shows in the process list): use MYSQL_PWD or --password-prompt"
        )
    options = urllib.parse.parse_qs(parts.query)
    try:
        port = parts.port or 3306
    except ValueError as exc:
        raise ExplainError(f"bad port in the DSN: {exc}") from exc
    return Target(
        host=parts.hostname or "127.0.0.1",
        port=port,
        user=urllib.parse.unquote(parts.username or "root"),
        database=urllib.parse.unquote(parts.path.lstrip("/")) or None,
        unix_socket=options["unix_socket"][0] if options.get("unix_socket") else None,
    )


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    query = sys.stdin.read() if args.query == "-" else args.query
    try:
        target = parse_dsn(args.dsn)
        password = getpass.getpass("Password: ") if args.password_prompt else os.environ.get("MYSQL_PWD", "")
        text, schema = fetch(target, password, query, args.analyze)
        return report(text, query, schema, args)
    except ExplainError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def fetch(target: Target, password: str, query: str, measure: bool) -> tuple[str, str]:
    """The plan's text and the tables' `SHOW CREATE TABLE` output, from the server."""
    import pymysql

    try:
        connection = pymysql.connect(
            host=target.host,
            port=target.port,
            user=target.user,
            password=password,
            database=target.database,
            unix_socket=target.unix_socket,
            connect_timeout=CONNECT_TIMEOUT,
            charset="utf8mb4",
        )
    except pymysql.MySQLError as exc:
        raise ExplainError(f"cannot connect: {exc.args[-1] if exc.args else exc}") from exc
    try:
        with connection.cursor() as cursor:
            plan = _plan(cursor, query, measure)
            schema = _create_statements(cursor, query)
        return plan, schema
    except pymysql.MySQLError as exc:
        raise ExplainError(f"the server said: {exc.args[-1] if exc.args else exc}") from exc
    finally:
        connection.close()


def _plan(cursor: Any, query: str, measure: bool) -> str:
    cursor.execute("SELECT VERSION()")
    mariadb = "mariadb" in str(cursor.fetchone()[0]).lower()
    if not measure:
        cursor.execute(f"EXPLAIN FORMAT=JSON {query}")
        return str(cursor.fetchone()[0])
    cursor.execute("START TRANSACTION")
    try:
        cursor.execute(f"{'ANALYZE FORMAT=JSON' if mariadb else 'EXPLAIN ANALYZE'} {query}")
        return str(cursor.fetchone()[0])
    finally:
        cursor.execute("ROLLBACK")


def _create_statements(cursor: Any, query: str) -> str:
    """`SHOW CREATE TABLE` of every table the query names (views and missing tables are skipped)."""
    import pymysql

    from analyzer.insight.query_shape import query_shape

    shape = query_shape(query)
    names = {(use.database, use.table) for use in shape.tables.values()} if shape is not None else set()
    statements = []
    for database, table in sorted(names, key=lambda n: (n[0] or "", n[1])):
        name = f"{_quote(database)}.{_quote(table)}" if database else _quote(table)
        try:
            cursor.execute(f"SHOW CREATE TABLE {name}")
        except pymysql.MySQLError as exc:
            print(f"note: no definition of {name}: {exc.args[-1] if exc.args else exc}", file=sys.stderr)
            continue
        statements.append(str(cursor.fetchone()[1]) + ";")
    return "\n\n".join(statements)


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def report(text: str, query: str, schema: str, args: argparse.Namespace) -> int:
    """Analyze the server's plan and print it (with `--share`, saved first: its permalink is the
    last line, or the JSON's `permalink`)."""
    from analyzer.model import ParseError
    from analyzer.pipeline import analyze
    from analyzer.render.text import format_report

    try:
        analysis = analyze(text, query=query, schema=schema or None)
    except ParseError as exc:
        raise ExplainError(f"the server's plan could not be read: {exc.message}") from exc
    permalink = share(args.server, text, query, schema) if args.share else None
    if args.json:
        data = analysis.to_dict() | ({"permalink": permalink} if permalink else {})
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(format_report(analysis), end="")
        if permalink:
            print(f"\npermalink: {permalink}")
    return 0


def share(server: str, text: str, query: str, schema: str) -> str:
    from pastebin.cli import UploadError, upload_with_retries

    try:
        saved = upload_with_retries(server, text, {"query": query, "schema": schema}, retries=4, label="share")
    except UploadError as exc:
        raise ExplainError(f"could not share: {exc}") from exc
    return str(saved["url"])
