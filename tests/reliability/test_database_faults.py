"""The site under database faults, as `make serve` runs it against a real PostgreSQL cluster that
the tests restart, crash and freeze while clients save explains and read them back."""

from __future__ import annotations

import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from tests.reliability.client import Answer, explain, request

pytestmark = pytest.mark.reliability

CLIENTS = 4
ONE_MIB_ROWS = 15_000  # about 0.95 MiB of tab-separated EXPLAIN


class Saver:
    """Clients saving explains until told to stop, each retried with its Idempotency-Key on a 503
    or a failed connection, as the CLI does; every answer is kept."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.answers: list[Answer] = []
        self.saved: dict[str, str] = {}  # slug -> the paste, for every save the server acknowledged
        self.big = threading.Event()
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._one_big = threading.Lock()
        self._numbers = iter(range(1, 10**9))

    def run(self) -> None:
        while not self.stop.is_set():
            with self._lock:
                number = next(self._numbers)
            if self.big.is_set() and self._one_big.acquire(blocking=False):
                try:  # one 1 MiB save at a time: each takes seconds of CPU on a 2-core machine
                    self.save(explain(number, ONE_MIB_ROWS))
                finally:
                    self._one_big.release()
            else:
                self.save(explain(number))

    def save(self, text: str) -> None:
        headers = {"Content-Type": "text/plain", "Idempotency-Key": str(uuid.uuid4())}
        for _ in range(60):
            answer = request(f"{self.url}/api/v1/explains/?title=reliability", "POST", text.encode(), headers)
            with self._lock:
                self.answers.append(answer)
            if answer.status == 201:
                with self._lock:
                    self.saved[json.loads(answer.body)["slug"]] = text
                return
            if answer.status not in (0, 503):
                return  # a wrong answer: the test reports it
            time.sleep(0.3)


def healthy(site) -> None:
    """Wait until every worker answers from the database again (a test's starting point)."""
    deadline, served = time.monotonic() + 20, 0
    while served < 8:
        assert time.monotonic() < deadline, "the site did not come back"
        served = served + 1 if request(f"{site.url}/api/v1/explains/?page_size=1").status == 200 else 0


def test_restarts_and_crashes_lose_nothing(cluster, site):
    healthy(site)
    saver = Saver(site.url)
    outages: list[tuple[float, float]] = []

    def outage(mode: str) -> None:
        down = time.monotonic()
        cluster.stop(mode)
        time.sleep(1.5)
        cluster.start()
        outages.append((down, time.monotonic()))

    with ThreadPoolExecutor(CLIENTS) as pool:
        for _ in range(CLIENTS):
            pool.submit(saver.run)
        time.sleep(2)
        outage("fast")
        time.sleep(2)
        outage("immediate")
        time.sleep(2)
        saver.big.set()
        time.sleep(2.5)
        outage("immediate")  # a crash while 1 MiB saves are on their way
        time.sleep(6)
        saver.stop.set()

    statuses = {answer.status for answer in saver.answers}
    assert statuses <= {201, 503}, [(a.status, a.error, a.body[:200]) for a in saver.answers if a.status not in (201, 503)]
    unavailable = [a for a in saver.answers if a.status == 503]
    assert unavailable, "no request met an outage: the faults were not exercised"
    assert all(a.headers.get("retry-after", "").isdigit() for a in unavailable)
    after = [a for a in saver.answers if a.status != 201 and not any(down <= a.started + a.seconds and a.started <= up for down, up in outages)]
    assert after == [], "errors while the database was up"
    assert len(saver.saved) >= 20 and any(len(text) > 500_000 for text in saver.saved.values())

    for slug, text in saver.saved.items():
        raw = request(f"{site.url}/e/{slug}/raw/")
        assert raw.status == 200 and raw.body == text.encode(), slug
    with psycopg.connect(cluster.url) as connection:
        stored = connection.execute("SELECT count(*) FROM pastebin_explain WHERE title = 'reliability'").fetchone()
    assert stored is not None and stored[0] == len(saver.saved), "an explain was stored twice or without an acknowledgement"
    assert "Traceback" not in site.output()


def test_outage_is_answered_503_in_the_client_s_shape(cluster, site):
    healthy(site)
    created = request(f"{site.url}/api/v1/explains/", "POST", explain(7).encode(), {"Content-Type": "text/plain"})
    slug = json.loads(created.body)["slug"]
    cluster.stop("fast")
    try:
        api = request(f"{site.url}/api/v1/explains/{slug}")
        raw = request(f"{site.url}/e/{slug}/raw/")
        page = request(f"{site.url}/e/{slug}/")
        home = request(f"{site.url}/")
        preview = request(f"{site.url}/api/v1/analyze", "POST", explain(8).encode(), {"Content-Type": "text/plain"})
    finally:
        cluster.start()
    assert (api.status, api.headers["content-type"]) == (503, "application/json")
    assert json.loads(api.body)["error"].startswith("The database is not answering")
    assert (raw.status, raw.headers["content-type"]) == (503, "text/plain; charset=utf-8")
    assert page.status == 503 and page.headers["content-type"].startswith("text/html") and b"<html" in page.body
    assert all(a.headers["retry-after"] == "5" for a in (api, raw, page))
    assert home.status == 200 and preview.status == 200, "pages that need no database must keep working"
    healthy(site)  # the pools reconnect (test_restarts_and_crashes_lose_nothing times how soon)
    assert request(f"{site.url}/e/{slug}/raw/").body == explain(7).encode()


def test_frozen_database_costs_seconds_and_spares_other_pages(cluster, site):
    healthy(site)
    created = request(f"{site.url}/api/v1/explains/", "POST", explain(9).encode(), {"Content-Type": "text/plain"})
    slug = json.loads(created.body)["slug"]
    frozen = cluster.freeze()
    try:
        with ThreadPoolExecutor(8) as pool:
            # The site answers at REQUEST_TIMEOUT (30 s) at the latest: the client waits longer.
            reads = [pool.submit(request, f"{site.url}/e/{slug}/", timeout=40) for _ in range(4)]
            time.sleep(0.5)
            homes = [request(f"{site.url}/") for _ in range(5)]
            answers = [future.result() for future in reads]
    finally:
        cluster.thaw(frozen)
    assert all(home.status == 200 and home.seconds < 1 for home in homes), [(h.status, h.seconds) for h in homes]
    assert all(a.status == 503 and a.seconds < 30 + 3 and a.headers["retry-after"] for a in answers), [
        (a.status, a.seconds) for a in answers
    ]
    deadline = time.monotonic() + 20
    while request(f"{site.url}/e/{slug}/").status != 200:
        assert time.monotonic() < deadline, "the site did not recover after the database thawed"
        time.sleep(0.5)


def test_failures_are_logged_one_line_each_not_tracebacks(cluster, site):
    healthy(site)
    before = len(site.output())
    cluster.stop("fast")
    started = time.monotonic()
    try:
        with ThreadPoolExecutor(30) as pool:
            answers = list(pool.map(lambda _: request(f"{site.url}/api/v1/explains/?page_size=1"), range(90)))
    finally:
        seconds = time.monotonic() - started
        cluster.start()
    output = site.output()[before:]
    assert [a.status for a in answers] == [503] * 90
    assert "Traceback" not in output
    lines = output.count("database unavailable, answered 503")
    assert 1 <= lines <= 2 * (seconds + 1) < 90, output[-3000:]  # at most a line a second per worker
