"""Search of public explains: by title, query and table words on every database; on PostgreSQL the
stored `search_vector` kept by its trigger, its GIN index, and each of the search's steps."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pastebin import clock, search
from pastebin.models import Explain
from pastebin.search import search_public
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db
postgres = pytest.mark.postgres
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def titles(text: str, limit: int = 50) -> list[str]:
    return [e.title for e in search_public(text, limit)]


@pytest.fixture
def three(create):
    """Two public explains and an unlisted one, with words in their titles, queries and tables."""
    create(explain_table(table="salaries"), title="Slow payroll reports", visibility="public")
    create(explain_table(table="salaries"), title="Unlisted payroll")
    create(explain_table(table="badges"), query="SELECT * FROM badges WHERE issued > NOW()", visibility="public")


def test_search_finds_public_explains_by_title_query_and_table_words(three, client):
    assert titles("payroll") == ["Slow payroll reports"]
    assert titles("salaries") == ["Slow payroll reports"]
    assert titles("SLOW Reports") == ["Slow payroll reports"]
    assert titles("issued") == [""]
    assert titles("badges issued") == [""]
    assert titles("payroll badges") == []
    assert titles("unlisted") == []
    assert titles("employees") == []
    page = client.get("/search/", {"q": "payroll"}).content.decode()
    assert "Slow payroll reports" in page and "Unlisted payroll" not in page


def test_search_leaves_out_expired_and_hidden_explains(create):
    with mock.patch("pastebin.clock.now", return_value=START):
        create(title="soon gone payroll", visibility="public", expires="1h")
        hidden = create(title="hidden payroll", visibility="public")
        create(title="kept payroll", visibility="public")
    Explain.objects.filter(slug=hidden["slug"]).update(hidden=True)
    with mock.patch("pastebin.clock.now", return_value=START + timedelta(hours=2)):
        assert titles("payroll") == ["kept payroll"]


@postgres
def test_full_text_syntax(three):
    assert len(search_public('"payroll reports"', 50)) == 1
    assert len(search_public("payroll -reports", 50)) == 0
    assert len(search_public("payroll or badges", 50)) == 2
    assert len(search_public("!!! & ''' (", 50)) == 0  # websearch syntax never raises


def stored_vector(slug: str) -> tuple[str, str]:
    """The stored `search_vector` and the one its `search_text` gives now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_vector::text, to_tsvector('simple', search_text)::text FROM pastebin_explain WHERE slug = %s",
            [slug],
        )
        return cursor.fetchone()


@postgres
def test_the_stored_vector_follows_saves_and_reanalysis(create):
    slug = create(explain_table(table="salaries"), title="payroll", visibility="public")["slug"]
    stored, expected = stored_vector(slug)
    assert stored == expected and "'payroll'" in stored and "'salaries'" in stored
    explain = Explain.objects.get(slug=slug)
    explain.title = "nightly export"
    explain.save()
    stored, expected = stored_vector(slug)
    assert stored == expected and "'nightly'" in stored and "'payroll'" not in stored
    assert titles("export") == ["nightly export"]
    Explain.objects.filter(slug=slug).update(analysis={"format": "table", "rows": [], "tables": ["old_name"]})
    call_command("reanalyze", "--all", "--jobs", "1")
    stored, expected = stored_vector(slug)
    assert stored == expected and "'salaries'" in stored
    assert titles("salaries") == ["nightly export"]


@pytest.fixture
def numbered(create):
    """Eight public explains titled "payroll 0" (oldest) to "payroll 7", every other one also
    "monthly", and an unlisted "payroll monthly"."""
    for number in range(8):
        with mock.patch("pastebin.clock.now", return_value=START + timedelta(minutes=number)):
            words = "payroll monthly" if number % 2 else "payroll"
            create(title=f"{words} {number}", visibility="public", expires="never")
    create(title="payroll monthly", expires="never")


@postgres
@pytest.mark.parametrize(("gin_first", "window"), [(10**9, 1000), (0, 1000), (0, 3)])
def test_every_way_finds_the_newest_matches(numbered, monkeypatch, gin_first, window):
    """From the GIN index (few matches expected), from the newest explains (many expected, and
    found), or from the GIN index after all (many expected, too few found): the same answers."""
    monkeypatch.setattr(search, "GIN_FIRST", gin_first)
    monkeypatch.setattr(search, "WINDOW", window)
    assert titles("payroll", 3) == ["payroll monthly 7", "payroll 6", "payroll monthly 5"]
    assert titles("monthly", 3) == ["payroll monthly 7", "payroll monthly 5", "payroll monthly 3"]
    assert titles("payroll", 50)[-1] == "payroll 0"
    assert titles("monthly payroll", 50) == [f"payroll monthly {n}" for n in (7, 5, 3, 1)]
    assert titles("weekly", 3) == []


@postgres
@pytest.mark.parametrize("fraction", [0.2, 0.45])
def test_windows_of_recent_explains_find_the_newest_matches(numbered, monkeypatch, fraction):
    """Among the explains created since a cutoff from the statistics of creation times (the newest
    two or four of the eight public explains here, so too few matches, or enough): the same answers."""
    monkeypatch.setattr(search, "SPARE", 0)
    monkeypatch.setattr(search, "NEWEST_FRACTION", fraction)
    monkeypatch.setattr(search, "RECENT_PER_MATCH", 10**9)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
        assert len(search.recent_cutoffs(8, 3)) == 1
    assert titles("payroll", 3) == ["payroll monthly 7", "payroll 6", "payroll monthly 5"]
    assert titles("monthly", 3) == ["payroll monthly 7", "payroll monthly 5", "payroll monthly 3"]
    assert titles("payroll", 50)[-1] == "payroll 0"
    assert titles("weekly", 3) == []


@postgres
def test_no_window_without_statistics_or_when_reading_every_match_costs_less(numbered, monkeypatch):
    """Before ANALYZE nothing tells when explains were created; with few matches expected among
    many explains, reading them all costs less than finding the recent explains."""
    monkeypatch.setattr(search, "SPARE", 0)
    monkeypatch.setattr(search, "NEWEST_FRACTION", 0.2)
    with connection.cursor() as cursor:
        assert search.recent_cutoffs(8, 3) == []
        cursor.execute("ANALYZE pastebin_explain")
        assert len(search.recent_cutoffs(8, 3)) == 1
        assert search.recent_cutoffs(0.01, 3) == []


WHOLE_COLUMN = re.compile(r'"pastebin_explain"\."(raw_explain|analysis)"(, "| FROM)')


def explain_queries(client, path: str) -> list[str]:
    """The statements reading explains that the page at `path` ran."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return [query["sql"] for query in queries.captured_queries if "pastebin_explain" in query["sql"]]


@pytest.mark.parametrize("path", ["/recent/", "/search/?q=payroll", "/api/v1/explains/"])
def test_lists_read_neither_pastes_nor_whole_analyses(client, create, path):
    """What lists show, in as many statements for three explains as for one."""
    create(explain_table(table="salaries"), title="payroll", visibility="public")
    one = explain_queries(client, path)
    for _ in range(2):
        create(explain_table(table="salaries"), title="payroll", visibility="public")
    three = explain_queries(client, path)
    assert len(three) == len(one)
    assert not any(WHOLE_COLUMN.search(sql) for sql in three)
    page = client.get(path).content.decode()
    assert page.count("salaries") >= 3


@postgres
def test_the_estimate_tells_frequent_words_from_rare_ones(create):
    """The planner's estimate comes from the statistics of public explains' words only."""
    for n in range(40):
        create(title=f"common {n}", visibility="public")
        create(title=f"hidden common internal {n}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
        assert search.estimated_matches(cursor, "common") > 30
        assert search.estimated_matches(cursor, "internal") < 5


@postgres
def test_the_gin_step_is_planned_with_bitmap_scans_only(create):
    """Never a walk down an index testing every row: bitmap scans only, the GIN index of public
    explains for words the statistics say are rare."""
    stored = Explain.objects.get(slug=create(title="needle", visibility="public")["slug"])
    fields = {field.attname: getattr(stored, field.attname) for field in Explain._meta.concrete_fields}
    Explain.objects.bulk_create(  # without save(), so the search text is set here
        Explain(**{**fields, "slug": f"copy{n:010d}", "title": f"hay {n}", "search_text": f"hay {n}"})
        for n in range(200)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
        plan = search.bitmap_scans_only(cursor, search.gin_matches("needle", clock.now(), 50), explain=True)
        cursor.execute("SHOW enable_seqscan")
        assert cursor.fetchone()[0] == "on"  # the setting did not outlive the statement
    plan_text = "\n".join(row[0] for row in plan)
    assert "Bitmap Index Scan on pastebin_explain_search_vector" in plan_text
    assert "Seq Scan" not in plan_text and "Index Scan using" not in plan_text
