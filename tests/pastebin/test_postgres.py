"""PostgreSQL only: NUL refused, many explains saved in parallel, and parallel requests with one
Idempotency-Key saving once (search is in test_search)."""

from __future__ import annotations

import json
import random
import string
import threading
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from pastebin.models import Explain, IdempotencyRecord
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.postgres


@pytest.mark.django_db
def test_nul_is_refused_before_reaching_postgresql(client, paste):
    for body, content_type in (
        (paste + "\x00", "text/plain"),
        ({"explain": paste, "title": "a\x00"}, "application/json"),
    ):
        response = client.post("/api/v1/explains/", body, content_type=content_type)
        assert response.status_code == 400
    response = client.post("/", {"explain": paste + "\x00", "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 400


def _random_paste(rng: random.Random) -> str:
    name = "".join(rng.choices(string.ascii_lowercase, k=8)) + rng.choice(["", "_é", "_表", "_🚀"])
    newline = rng.choice(["\n", "\r\n"])
    text = explain_table(table=name, rows=str(rng.randint(1, 10**7)), newline=newline)
    return rng.choice(["", "mysql> EXPLAIN SELECT 1;" + newline]) + text + rng.choice(["", "  \n", "\n\n"])


def _post(url: str, text: str, headers: dict | None = None) -> tuple[int, dict]:
    status, _, body = _post_raw(url, text, headers)
    return status, json.loads(body) if status == 201 else {}


def _post_raw(url: str, text: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """Status, headers and body of a text/plain POST to the create API."""
    request = urllib.request.Request(
        url + "/api/v1/explains/",
        data=text.encode(),
        method="POST",
        headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.mark.django_db(transaction=True)
def test_many_parallel_creations_all_read_back_byte_for_byte(live_server):
    rng = random.Random()
    pastes = [_random_paste(rng) for _ in range(50)]
    assert len(set(pastes)) == 50
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda text: _post(live_server.url, text), pastes))
    created = [(text, data) for text, (status, data) in zip(pastes, results, strict=True) if status == 201]
    assert len(created) == 50, [status for status, _ in results]
    assert len({data["slug"] for _, data in created}) == 50
    for text, data in created:
        with urllib.request.urlopen(data["raw_url"], timeout=60) as response:
            assert response.read() == text.encode("utf-8")


@pytest.mark.django_db(transaction=True)
def test_parallel_requests_with_one_key_save_once_and_all_get_the_first_answer(live_server):
    """Eight clients send the same request with the same key at the same moment, for five keys:
    the unique key hash lets one transaction commit; the others wait for it, roll back their
    explain and replay its answer."""
    keys = [str(uuid.uuid4()) for _ in range(5)]
    pastes = {key: explain_table(table=f"t_{key[:8]}") for key in keys}
    start = threading.Barrier(8)

    def send(key: str) -> tuple[int, dict, bytes]:
        start.wait(timeout=30)
        return _post_raw(live_server.url, pastes[key], {"Idempotency-Key": key})

    for key in keys:
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(send, [key] * 8))
        assert [status for status, _, _ in results] == [201] * 8, results
        assert len({body for _, _, body in results}) == 1
        assert sum(headers.get("Idempotent-Replayed") == "true" for _, headers, _ in results) == 7
    assert Explain.objects.count() == len(keys)
    assert IdempotencyRecord.objects.count() == len(keys)
