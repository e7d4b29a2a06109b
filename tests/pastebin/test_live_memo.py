"""What a worker process remembers of live explains (pastebin/live.py): read once, then served
without the database, and forgotten as soon as PostgreSQL announces a change, whoever made it."""

from __future__ import annotations

import time
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.pastes import explain_table
from pastebin import clock, live
from pastebin.models import Explain
from pastebin.saving import save_explain

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def memo_on(settings):
    settings.LIVE_MEMO_BYTES = 1 << 20
    live.listener.trusted()  # starts the listener
    wait_for(live.listener.trusted, "the listener to hear its own notice")
    yield
    live.listener.stop()
    live.memo.forget(None)


def wait_for(condition, what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def queries(client, url: str) -> tuple[int, int]:
    """The status of GET `url` and the count of SQL queries it ran."""
    with CaptureQueriesContext(connection) as captured:
        status = client.get(url).status_code
    return status, len(captured)


def by_another_process(sql: str, params: list) -> None:
    """A change committed as another worker, the admin or a script would: this process's own code
    does not forget anything for it, only PostgreSQL's notice can tell."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def saved(**options) -> Explain:
    return save_explain(explain_table(5), **options).explain


@pytest.mark.parametrize("page", ["permalink", "raw"])
@pytest.mark.parametrize(
    "change",
    [
        "UPDATE pastebin_explain SET hidden = true WHERE slug = %s",
        "DELETE FROM pastebin_explain WHERE slug = %s",
        "UPDATE pastebin_explain SET expires_at = now() - interval '1 second' WHERE slug = %s",
    ],
)
def test_a_page_read_once_is_served_without_the_database_until_a_change_is_announced(client, memo_on, page, change):
    explain = saved()
    url = explain.get_absolute_url() if page == "permalink" else f"/e/{explain.slug}/raw/"
    assert queries(client, url)[0] == 200
    assert queries(client, url) == (200, 0)
    by_another_process(change, [explain.slug])
    wait_for(lambda: client.get(url).status_code in (404, 410), "the change to be heard")
    assert client.get(url).status_code in (404, 410)


def test_an_explain_is_forgotten_when_it_expires_without_any_notice(client, memo_on):
    explain = saved(expires="1h")
    url = f"/e/{explain.slug}/raw/"
    assert queries(client, url)[0] == 200
    assert queries(client, url) == (200, 0)
    with mock.patch("pastebin.clock.now", return_value=explain.expires_at + timedelta(seconds=1)):
        assert client.get(url).status_code == 410
        assert client.get(explain.get_absolute_url()).status_code == 410


def test_a_new_improvement_shows_on_the_page_it_improves_on(client, memo_on):
    older = saved(title="before the index")
    assert b"Improved by" not in client.get(older.get_absolute_url()).content
    assert queries(client, older.get_absolute_url()) == (200, 0)
    save_explain(explain_table(3), title="after the index", improves_on=older)
    wait_for(lambda: b"after the index" in client.get(older.get_absolute_url()).content, "the improvement to show")


def test_an_improvement_that_expires_leaves_the_page_it_improves_on(client, memo_on):
    older = saved()
    newer = save_explain(explain_table(3), title="short-lived fix", improves_on=older, expires="1h").explain
    wait_for(lambda: b"short-lived fix" in client.get(older.get_absolute_url()).content, "the improvement to show")
    # the page may have been read before the insert's notice came, and forgotten then: once more
    wait_for(lambda: queries(client, older.get_absolute_url()) == (200, 0), "the page to be remembered")
    with mock.patch("pastebin.clock.now", return_value=newer.expires_at + timedelta(seconds=1)):
        assert b"short-lived fix" not in client.get(older.get_absolute_url()).content


def test_nothing_is_used_while_the_listener_is_not_connected(client, memo_on):
    explain = saved()
    url = f"/e/{explain.slug}/raw/"
    assert queries(client, url) == (200, 1)
    assert queries(client, url) == (200, 0)
    with connection.cursor() as cursor:  # the listener's connection dies; a change is not announced to it
        cursor.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'explain-changes'"
        )
        cursor.execute("ALTER TABLE pastebin_explain DISABLE TRIGGER pastebin_explain_updated")
        try:
            cursor.execute("UPDATE pastebin_explain SET hidden = true WHERE slug = %s", [explain.slug])
        finally:
            cursor.execute("ALTER TABLE pastebin_explain ENABLE TRIGGER pastebin_explain_updated")
    assert client.get(url).status_code == 410  # read anew, though no notice came
    wait_for(live.listener.trusted, "the listener to reconnect")
    assert queries(client, url) == (410, 2)  # what is gone is never remembered


def test_nothing_is_used_when_the_listener_has_not_heard_its_own_notice_lately(client, memo_on, monkeypatch):
    explain = saved()
    url = f"/e/{explain.slug}/raw/"
    client.get(url)
    assert queries(client, url) == (200, 0)
    monkeypatch.setattr(live, "HEARD_WITHIN", -1.0)  # as if notices had stopped coming (a pooler dropping them)
    assert queries(client, url) == (200, 1)


def test_a_read_that_raced_a_change_is_not_kept():
    memo = live.Memo()
    generation = memo.generation
    memo.forget("some-other-slug")  # a notice handled while the rows were read
    memo.put(("raw", "abc"), live.Rows([("paste",)], None, 10), generation, 1 << 20)
    assert memo.get(("raw", "abc"), clock.now()) is None
    memo.put(("raw", "abc"), live.Rows([("paste",)], None, 10), memo.generation, 1 << 20)
    assert memo.get(("raw", "abc"), clock.now()) is not None


def test_the_memo_keeps_to_its_byte_budget_least_recently_used_first():
    memo = live.Memo()
    for number in range(20):  # 16 fit in the budget; s0 is used after each
        memo.put(("raw", f"s{number}"), live.Rows([("x" * 90,)], None, 100), memo.generation, 1600)
        memo.get(("raw", "s0"), clock.now())
    kept = [number for number in range(20) if memo.get(("raw", f"s{number}"), clock.now())]
    assert kept == [0, *range(5, 20)]
    memo.put(("raw", "big"), live.Rows([("x" * 200,)], None, 101), memo.generation, 1600)
    assert memo.get(("raw", "big"), clock.now()) is None  # over a sixteenth of the budget
