"""CACHE_URL=redis://…: permalink sections and rate-limit counts in a real Redis that every worker
shares, and a Redis that is down costing the cache, not the pages."""

from __future__ import annotations

import os
import uuid

import pytest
import redis
from django.core.cache import caches

from bench.pastes import explain_table
from config.settings import caches as caches_for
from pastebin import permalink
from pastebin.saving import save_explain
from tests.reliability.servers import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


@pytest.fixture
def on_redis(settings):
    """The caches on REDIS_URL, under prefixes of this test's own (a user's Redis keeps its keys)."""
    url = os.environ["REDIS_URL"]
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        name: {**entry, "KEY_PREFIX": f"{prefix}-{entry['KEY_PREFIX']}"} for name, entry in caches_for(url).items()
    }
    server = redis.Redis.from_url(url)
    yield server, prefix
    for key in server.scan_iter(f"{prefix}-*"):
        server.delete(key)


def test_a_permalink_section_is_kept_in_redis_for_every_worker(client, on_redis):
    server, prefix = on_redis
    explain = save_explain(explain_table(5)).explain
    assert client.get(explain.get_absolute_url()).status_code == 200
    stored = [key.decode() for key in server.scan_iter(f"{prefix}-cache*")]
    assert any(permalink.cache_key(explain.slug, explain.parser_version) in key for key in stored)
    caches["default"].close()  # another worker: a new connection, the same entries
    html, paste_format = caches["default"].get(permalink.cache_key(explain.slug, explain.parser_version))
    assert paste_format == "table" and "Full table scan" in html


def test_rate_limit_counts_are_shared_in_redis(client, on_redis, settings):
    settings.API_CREATE_RATE = "2/minute"
    answers = [
        client.post("/api/v1/explains/", explain_table(1), content_type="text/plain").status_code for _ in range(3)
    ]
    assert answers == [201, 201, 429]
    server, prefix = on_redis
    assert list(server.scan_iter(f"{prefix}-throttle*"))


def test_a_redis_that_is_down_costs_the_cache_not_the_page(client, settings):
    settings.CACHES = caches_for(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    explain = save_explain(explain_table(2)).explain
    page = client.get(explain.get_absolute_url())
    assert page.status_code == 200 and b"Full table scan" in page.content
    saved = client.post("/api/v1/explains/", explain_table(1), content_type="text/plain")
    assert saved.status_code == 503 and saved["Retry-After"].isdigit()
    assert "cache" in saved.json()["error"]
