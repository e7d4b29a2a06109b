"""Anonymous creation is throttled per client address: 429 with Retry-After."""

from __future__ import annotations

import pytest

from pastebin.models import Explain

pytestmark = pytest.mark.django_db


def post(client, paste, **extra):
    return client.post("/api/v1/explains/", paste, content_type="text/plain", **extra)


def test_over_the_rate_is_429_with_retry_after(client, settings, paste):
    settings.API_CREATE_RATE = "3/minute"
    assert [post(client, paste).status_code for _ in range(3)] == [201, 201, 201]
    response = post(client, paste)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    assert "throttled" in response.json()["error"]
    assert Explain.objects.count() == 3


def test_each_address_has_its_own_budget(client, settings, paste):
    settings.API_CREATE_RATE = "1/minute"
    assert post(client, paste, REMOTE_ADDR="192.0.2.1").status_code == 201
    assert post(client, paste, REMOTE_ADDR="192.0.2.1").status_code == 429
    assert post(client, paste, REMOTE_ADDR="192.0.2.2").status_code == 201


def test_a_forged_forwarded_for_header_does_not_escape_the_limit(client, settings, paste):
    settings.API_CREATE_RATE = "1/minute"
    assert post(client, paste, HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 201
    assert post(client, paste, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 429


def test_reading_is_not_throttled(client, settings, create):
    data = create()
    settings.API_CREATE_RATE = "1/minute"
    for _ in range(5):
        assert client.get(data["api_url"]).status_code == 200
        assert client.get("/api/v1/explains/").status_code == 200


def test_counts_live_in_the_shared_database_cache(settings, client, paste):
    """The throttle's cache is the database one, so gunicorn workers share the counts."""
    from django.core.cache import caches
    from django.core.cache.backends.db import DatabaseCache

    assert isinstance(caches["throttle"], DatabaseCache)
    settings.API_CREATE_RATE = "5/minute"
    post(client, paste)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {caches['throttle']._table}")
        assert cursor.fetchone()[0] >= 1


def test_a_request_is_counted_in_one_statement_however_high_the_limit(settings, client, paste):
    """The state of a limit is one time per address, not a list of every request's time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.API_CREATE_RATE = "1000000/hour"
    for _ in range(3):
        post(client, paste)
    with CaptureQueriesContext(connection) as queries:
        assert post(client, paste).status_code == 201
    counting = [q["sql"] for q in queries.captured_queries if "throttle_cache" in q["sql"] and "DELETE" not in q["sql"]]
    assert len(counting) == 1 and "ON CONFLICT" in counting[0]
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM pastebin_throttle_cache WHERE cache_key LIKE %s", ["%explain_create%"])
        assert len(cursor.fetchall()) == 1


def test_after_a_burst_one_request_per_step(settings, client, paste, monkeypatch):
    """4 a minute: 4 at once, then one every 15 s, and Retry-After says when."""
    import time

    settings.API_CREATE_RATE = "4/minute"
    clock = {"now": 1_800_000_000.0}
    monkeypatch.setattr(time, "time", lambda: clock["now"])
    assert [post(client, paste).status_code for _ in range(5)] == [201, 201, 201, 201, 429]
    clock["now"] += 5
    refused = post(client, paste)
    assert refused.status_code == 429 and refused["Retry-After"] == "10"
    clock["now"] += 10
    assert [post(client, paste).status_code for _ in range(2)] == [201, 429]
    clock["now"] += 60
    assert [post(client, paste).status_code for _ in range(5)] == [201, 201, 201, 201, 429]
    assert Explain.objects.count() == 9
