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


def test_the_counts_cache_stores_in_one_statement_and_culls_now_and_then(settings):
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from config.throttle_cache import CULL_EVERY

    cache = caches["throttle"]
    counted = 0
    for number in range(2 * CULL_EVERY):
        with CaptureQueriesContext(connection) as queries:
            cache.set("counts", [number, 1.5], 60)
        sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]  # a test runs in a transaction
        if any("COUNT(*)" in statement for statement in sql):
            counted += 1  # Django's own set, which counts the rows to cull the table
        else:
            assert len(sql) == 1 and "ON CONFLICT" in sql[0]
        assert cache.get("counts") == [number, 1.5]
    assert counted == 2
    cache.set("gone", [1], -1)
    assert cache.get("gone", "expired") == "expired"
    cache.set("kept", [2], None)
    assert cache.get("kept") == [2]
