"""What `make serve`'s worker processes remember of live explains (pastebin/live.py), against a real
PostgreSQL cluster: a change made through one worker, or behind the site's back, is seen by all."""

from __future__ import annotations

import json
import time

import psycopg
import pytest

from tests.reliability.client import explain, request

pytestmark = pytest.mark.reliability


def save(site) -> dict:
    answer = request(f"{site.url}/api/v1/explains/", "POST", explain(1).encode(), {"Content-Type": "text/plain"})
    assert answer.status == 201, answer.body[:300]
    return json.loads(answer.body)


def statuses(url: str, count: int = 20) -> list[int]:
    return [request(url).status for _ in range(count)]


def gone_within(url: str, seconds: float = 2.0) -> float:
    """How long until `url` answers 410 on every one of 20 requests in a row (both workers)."""
    start = time.monotonic()
    while set(statuses(url)) != {410}:
        assert time.monotonic() - start < seconds, f"{url} was still served {seconds} s after the change"
    return time.monotonic() - start


@pytest.mark.parametrize("path", ["raw_url", "url"])
def test_a_deletion_through_one_worker_reaches_every_worker(site, path):
    saved = save(site)
    url = saved[path]
    assert statuses(url) == [200] * 20  # read, then remembered, by both workers
    deleted = request(saved["api_url"], "DELETE", headers={"X-Delete-Token": saved["delete_token"]})
    assert deleted.status == 204
    assert gone_within(url) < 0.5


def test_a_change_behind_the_site_s_back_reaches_every_worker(cluster, site):
    saved = save(site)
    assert statuses(saved["raw_url"]) == [200] * 20
    with psycopg.connect(cluster.url, autocommit=True) as conn:  # a moderator in psql
        conn.execute("UPDATE pastebin_explain SET hidden = true WHERE slug = %s", [saved["slug"]])
    assert gone_within(saved["raw_url"]) < 0.5


def test_every_worker_listens_on_a_connection_of_its_own(cluster, site):
    save(site)
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        deadline = time.monotonic() + 10
        while True:
            listeners = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'explain-changes'"
            ).fetchone()[0]
            if listeners == 2 or time.monotonic() > deadline:
                break
            statuses(save(site)["raw_url"], 10)
    assert listeners == 2
