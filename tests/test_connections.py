"""How pooled PostgreSQL connections are checked (config/connections.py) and hot reads prepared
(config/prepared.py)."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from psycopg_pool import ConnectionPool

from config import connections, prepared


def _round_trip_in(method: str) -> bool:
    seen = []
    middleware = connections.read_only_checks(lambda request: seen.append(connections._round_trip.get()))
    middleware(RequestFactory().generic(method, "/"))
    return seen[0]


def test_only_reads_skip_the_round_trip():
    assert [_round_trip_in(method) for method in ("GET", "HEAD", "POST", "PUT", "DELETE")] == [False, False, True, True, True]
    assert connections._round_trip.get() is True  # outside requests (commands, shells): always


def _connect() -> psycopg.Connection:
    """A connection of its own to the test database, outside Django and its pool."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=True)


@pytest.fixture
def raw_connection():
    with _connect() as conn:
        yield conn


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_read_s_check_drops_a_connection_the_server_closed(raw_connection, monkeypatch):
    round_trips = []
    original = ConnectionPool.check_connection
    monkeypatch.setattr(ConnectionPool, "check_connection", lambda conn: round_trips.append(conn) or original(conn))
    token = connections._round_trip.set(False)
    try:
        connections.check_connection(raw_connection)  # alive and silent: no round trip
        assert round_trips == []
        with _connect() as other:
            other.execute("SELECT pg_terminate_backend(%s)", [raw_connection.info.backend_pid])
        time.sleep(0.2)
        with pytest.raises(psycopg.OperationalError):
            connections.check_connection(raw_connection)
        assert round_trips == [raw_connection]
    finally:
        connections._round_trip.reset(token)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_write_s_check_is_a_round_trip(raw_connection, monkeypatch):
    round_trips = []
    monkeypatch.setattr(ConnectionPool, "check_connection", round_trips.append)
    connections.check_connection(raw_connection)
    assert round_trips == [raw_connection]


@pytest.mark.django_db
def test_a_hot_read_is_prepared_on_postgresql_and_logged_while_queries_are():
    assert prepared.rows("SELECT %s || 'b'", ["a"]) == [("ab",)]
    if connection.vendor == "postgresql":
        statements = prepared.rows("SELECT statement FROM pg_prepared_statements", [])
        assert ("SELECT $1 || 'b'",) in statements
    with CaptureQueriesContext(connection) as queries:
        assert prepared.rows("SELECT %s || 'c'", ["a"]) == [("ac",)]
    assert [query["sql"] for query in queries.captured_queries] == ["SELECT 'a' || 'c'"]
