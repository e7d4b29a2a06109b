"""Search of public explains: by title, query and table words on every database; on PostgreSQL the
stored `search_vector` kept by its trigger, its GIN index, and each of the search's steps."""

from __future__ import annotations

import importlib
import random
import re
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config import prepared
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
    """The stored `search_vector` and the one its `search_text` and creation time give now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_vector::text, pastebin_search_words(search_text, created_at)::text "
            "FROM pastebin_explain WHERE slug = %s",
            [slug],
        )
        return cursor.fetchone()


@postgres
def test_the_stored_vector_follows_saves_and_reanalysis(create):
    slug = create(explain_table(table="salaries"), title="payroll", visibility="public")["slug"]
    created = search.day(Explain.objects.get(slug=slug).created_at)
    stored, expected = stored_vector(slug)
    assert stored == expected == f"'payroll':1 'payroll {created}':1 'salaries':2 'salaries {created}':2"
    explain = Explain.objects.get(slug=slug)
    explain.title = "nightly export"
    explain.save()
    stored, expected = stored_vector(slug)
    assert stored == expected and f"'nightly {created}'" in stored and "'payroll" not in stored
    assert titles("export") == ["nightly export"]
    Explain.objects.filter(slug=slug).update(analysis={"format": "table", "rows": [], "tables": ["old_name"]})
    call_command("reanalyze", "--all", "--jobs", "1")
    stored, expected = stored_vector(slug)
    assert stored == expected and f"'salaries {created}'" in stored
    assert titles("salaries") == ["nightly export"]
    Explain.objects.filter(slug=slug).update(created_at=START)
    stored, expected = stored_vector(slug)
    assert stored == expected and f"'salaries {search.day(START)}'" in stored


@postgres
def test_words_longer_than_a_search_are_not_dated_and_long_texts_still_save(create):
    """A tsvector holds at most 1 MB of words: the first 65,536 characters are searched, so a
    query of a megabyte of distinct words saves (it failed before)."""
    long_word = "x" * 2001
    slug = create(query=f"SELECT {long_word} FROM t", visibility="public")["slug"]
    stored, expected = stored_vector(slug)
    assert stored == expected and f"'{long_word}'" in stored and f"'{long_word} " not in stored
    words = [f"w{n:031d}" for n in range(31_000)]  # 1,023,000 bytes: 1.1 MB of words in a tsvector
    slug = create(query=" ".join(words), title="huge", visibility="public")["slug"]
    stored, _ = stored_vector(slug)
    assert f"'{words[0]}'" in stored and f"'{words[1984]}'" in stored and f"'{words[1986]}'" not in stored
    assert titles(words[1]) == ["huge"]


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
@pytest.mark.parametrize(("recent_rows", "window"), [(0, 1000), (10**9, 1000), (10**9, 3)])
def test_every_way_finds_the_newest_matches(numbered, monkeypatch, recent_rows, window):
    """From the GIN index (few matches expected), from the newest explains (many expected, and
    found), or from the GIN index after all (many expected, too few found): the same answers."""
    monkeypatch.setattr(search, "RECENT_ROWS", recent_rows)
    monkeypatch.setattr(search, "WINDOW", window)
    assert titles("payroll", 3) == ["payroll monthly 7", "payroll 6", "payroll monthly 5"]
    assert titles("monthly", 3) == ["payroll monthly 7", "payroll monthly 5", "payroll monthly 3"]
    assert titles("payroll", 50)[-1] == "payroll 0"
    assert titles("monthly payroll", 50) == [f"payroll monthly {n}" for n in (7, 5, 3, 1)]
    assert titles("weekly", 3) == []


@postgres
@pytest.mark.parametrize("days", [31, 2])
def test_day_by_day_finds_the_newest_matches(create, monkeypatch, days):
    """Matches created over five days, looked for day by day, newest first: all of them within the
    days looked through, or the older ones beyond them (then found from the index after all)."""
    monkeypatch.setattr(search, "RECENT_ROWS", 0)
    monkeypatch.setattr(search, "DAYS_FROM", 0)
    monkeypatch.setattr(search, "MAX_DAYS", days)
    for number in range(10):
        with mock.patch("pastebin.clock.now", return_value=START + timedelta(hours=11 * number)):
            create(title=f"payroll {number}" + (" monthly" if number % 2 else ""), visibility="public")
    create(title="payroll monthly unlisted")
    now = START + timedelta(days=5)
    with mock.patch("pastebin.clock.now", return_value=now), CaptureQueriesContext(connection) as queries:
        assert titles("payroll", 3) == ["payroll 9 monthly", "payroll 8", "payroll 7 monthly"]
        assert titles("monthly", 4) == [f"payroll {n} monthly" for n in (9, 7, 5, 3)]
        assert titles("payroll", 50)[-1] == "payroll 0"
        assert titles("weekly", 3) == []
        assert titles("-monthly", 3) == ["payroll 8", "payroll 6", "payroll 4"]
    by_day = [query["sql"] for query in queries if "pastebin_search_day(" in query["sql"]]
    assert len(by_day) == 4  # not for a search requiring no word, which would read the whole index each day


@postgres
def test_the_days_start_at_the_newest_explains_day(numbered, monkeypatch):
    """Explains created later than the searching process's clock says (a clock behind another's)
    are looked for day by day all the same: the days start at the newest explain's."""
    monkeypatch.setattr(search, "RECENT_ROWS", 0)
    monkeypatch.setattr(search, "DAYS_FROM", 0)
    earlier = START - timedelta(days=40)
    with CaptureQueriesContext(connection) as queries:
        found = search.newest_matches("payroll", 3, earlier)
    assert found == search.newest_matches("payroll", 3, START)
    assert [e.title for e in found] == ["payroll monthly 7", "payroll 6", "payroll monthly 5"]
    assert "pastebin_search_day(" in queries.captured_queries[-1]["sql"]  # the days answered


@postgres
@pytest.mark.parametrize(
    ("recent_rows", "days_from"), [(0, 10**9), (10**9, 10**9), (0, 0)], ids=["index", "recent", "days"]
)
def test_every_way_pages_through_the_matches(create, monkeypatch, recent_rows, days_from):
    """Page after page (each after the last explain of the one before), every match once, newest
    first, whichever way they are found; with explains created at the same moment too (the
    cursor's slug orders them)."""
    monkeypatch.setattr(search, "RECENT_ROWS", recent_rows)
    monkeypatch.setattr(search, "DAYS_FROM", days_from)
    for number in range(30):
        moment = START + timedelta(hours=3 * min(number, 28))  # the last three at the same moment
        with mock.patch("pastebin.clock.now", return_value=moment):
            create(title=f"payroll {number:02d}" + (" monthly" if number % 3 else ""), visibility="public")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
    now = START + timedelta(days=4)
    for text, count in (("payroll", 30), ("monthly payroll", 20)):
        pages, before = [], None
        with mock.patch("pastebin.clock.now", return_value=now), CaptureQueriesContext(connection) as queries:
            while page := search_public(text, 7, before):
                pages.append(page)
                before = (page[-1].created_at, page[-1].slug)
        assert any("pastebin_search_day(" in query["sql"] for query in queries) == (days_from == 0)
        listed = [explain for page in pages for explain in page]
        assert len(listed) == count and len({explain.slug for explain in listed}) == count
        assert [(e.created_at, e.slug) for e in listed] == sorted(((e.created_at, e.slug) for e in listed), reverse=True)
        assert [len(page) for page in pages] == [7] * (count // 7) + [count % 7]


VOCABULARY = ["alpha", "beta", "gamma", "delta", "o'neil", "back\\slash", "naïve", "数据"]
QUERIES = [
    "alpha", "alpha beta", "alpha -beta", "alpha or gamma", '"alpha beta"', '"beta alpha"', "-alpha",
    "o'neil", "neil", "back\\slash", "naïve", "数据", "alpha (beta", "'' \\", "zeta", "gamma -gamma",
]  # fmt: skip


@postgres
def test_dated_words_find_exactly_what_the_words_find(create):
    """Over explains created on 12 days with titles from a small vocabulary: for each search, the
    matches found day by day over some days are those the words find among the explains created
    on those days, in the same order; so are all matches over every day."""
    rng = random.Random(5)
    for n in range(120):
        title = " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(1, 4)))
        with mock.patch("pastebin.clock.now", return_value=START + timedelta(hours=2.4 * n)):
            create(title=title, visibility="public", expires="never")
    now = START + timedelta(days=13)
    found_late = 0
    for text in QUERIES:
        every = slugs_of(*search.sql(search.gin_matches(text, now, 200)))
        created = dict(Explain.objects.filter(slug__in=every).values_list("slug", "created_at"))
        for first, last in ((13, 0), (13, 5), (11, 11), (7, 3)):
            first_day, last_day = search.day(START) + first, search.day(START) + last
            dated = slugs_of(*search.day_by_day(text, now, 200, first_day, last_day))
            on_those_days = [slug for slug in every if last_day <= search.day(created[slug]) <= first_day]
            assert dated == on_those_days, (text, first, last)
        found_late += bool(dated)
    assert found_late >= 8  # the searches are not all answered by nothing


def slugs_of(statement: str, params: list[object]) -> list[str]:
    with connection.cursor() as cursor:
        return [explain.slug for explain in search.listed(cursor, statement, params)]


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
def test_the_survey_tells_frequent_words_from_rare_ones(create):
    """The planner's estimates come from the statistics of public explains' words only; the newest
    day is that of the newest explain of any kind; a search requiring no word is no index's."""
    with connection.cursor() as cursor:
        assert search.survey(cursor, "common").newest_day is None
    for n in range(40):
        create(title=f"common {n}", visibility="public")
        with mock.patch("pastebin.clock.now", return_value=START):
            create(title=f"hidden common internal {n}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
        seen = search.survey(cursor, "common")
        assert seen.newest_day == search.day(START) and seen.expected > 30 and 30 < seen.public < 50
        assert seen.indexable and search.survey(cursor, "common -internal").indexable
        assert search.survey(cursor, "internal").expected < 5
        assert not search.survey(cursor, "-internal").indexable
        assert not search.survey(cursor, "common or -internal").indexable


@postgres
def test_the_index_steps_are_planned_with_bitmap_scans_only(create):
    """Never a walk down an index testing every row: bitmap scans only, the GIN index of public
    explains for words the statistics say are rare."""
    stored = Explain.objects.get(slug=create(title="needle", visibility="public")["slug"])
    fields = {field.attname: getattr(stored, field.attname) for field in Explain._meta.concrete_fields}
    Explain.objects.bulk_create(  # without save(), so the search text is set here
        Explain(**{**fields, "slug": f"copy{n:010d}", "title": f"hay {n}", "search_text": f"hay {n}"})
        for n in range(200)
    )
    now = clock.now()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE pastebin_explain")
        for statement, params in (
            search.sql(search.gin_matches("needle", now, 50)),
            search.day_by_day("needle", now, 50, search.day(now), search.day(now) - 30),
        ):
            plan = "\n".join(row[0] for row in search.bitmap_scans_only(cursor, f"EXPLAIN {statement}", params))
            for setting in ("enable_seqscan", "enable_indexscan", "max_parallel_workers_per_gather"):
                cursor.execute("SELECT current_setting(%s) = reset_val FROM pg_settings WHERE name = %s", [setting] * 2)
                assert cursor.fetchone()[0]  # the setting did not outlive the statement
            assert "Bitmap Index Scan on pastebin_explain_search_vector" in plan
            assert "Seq Scan" not in plan and "Index Scan using" not in plan and "Gather" not in plan


@postgres
def test_a_search_keeps_the_connections_prepared_statements(create):
    """psycopg forgets every prepared statement of a connection on a rollback, even of a savepoint:
    the search puts its planner settings back instead, so the hot reads stay planned."""
    create(title="payroll", visibility="public")
    prepared.rows("SELECT slug FROM pastebin_explain WHERE slug = %s", ["nothing"])
    assert titles("payroll") == ["payroll"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] >= 1
        cursor.execute("SHOW enable_indexscan")
        assert cursor.fetchone()[0] == "on"


def test_words_between_angle_brackets_are_found(create):
    """`total<price AND qty>0` is no markup tag: each of its words is searchable (PostgreSQL's
    parser dropped `<price AND qty>` whole), and so is the condition as written."""
    create(title="margins", query="SELECT * FROM orders WHERE total<price AND qty>0", visibility="public")
    create(title="other", query="SELECT * FROM orders", visibility="public")
    for text in ("price", "qty", "total<price", "orders qty>0", "margins"):
        assert titles(text) == ["margins"], text


@postgres
def test_the_migration_makes_the_words_of_texts_with_angle_brackets_again(create):
    migration = importlib.import_module("pastebin.migrations.0016_search_words_across_angle_brackets")
    create(title="margins", query="WHERE total<price AND qty>0", visibility="public")
    create(title="plain", query="WHERE total = price", visibility="public")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pastebin_explain SET search_vector = ''::tsvector")  # as stored before, wordless
    assert titles("price") == []
    with connection.schema_editor() as editor:
        migration.Migration.operations[0].code(None, editor)
    assert titles("price") == ["margins"]  # only the text holding a bracket was made again
    with connection.schema_editor() as editor:
        migration.Migration.operations[0].reverse_code(None, editor)
    assert titles("price") == []  # the function before it, and the words it made
    with connection.schema_editor() as editor:
        migration.Migration.operations[0].code(None, editor)
    assert titles("price") == ["margins"]


# Texts whose words are written in every way the text form of a vector can: quotes, backslashes,
# brackets, several places, no words, and words just within and past the length that is dated.
ODD_TEXTS = [
    "",
    "  \t\n",
    "it's a \\ back\\slash 'quoted' ''double'' \\'",
    "WHERE total<price AND qty>0 <> <<x>>",
    "slow slow slow query: slow",
    " ".join(["many"] * 300) + " places",
    "Zürich 東京 ✓ 🚀 naïve",
    "é" * 999 + "e" + " short",  # a word of 1,999 bytes
    "é" * 1000 + " short",  # 2,000 bytes: dated
    "é" * 1000 + "e short",  # 2,001 bytes: not dated
    "x" * 2047 + " and " + "y" * 2048,  # the longest word a vector holds, and one too long for it
    "word " * 14000,  # past 65,536 characters
]
# And texts drawn from the characters that the text form of a vector escapes or splits on.
_draw = random.Random(19)
ODD_TEXTS += ["".join(_draw.choices("ab'\\<> :,-.é東🚀\n", k=_draw.randrange(1, 60))) for _ in range(40)]


@postgres
@pytest.mark.parametrize("text", ODD_TEXTS)
def test_the_words_are_those_the_function_before_made(text):
    """`pastebin_search_words` of migration 0019 (one regular expression over the words' text)
    makes, word for word and place for place, the vector that of migration 0016 made."""
    before = importlib.import_module("pastebin.migrations.0019_search_words_in_one_pass").BACK
    with connection.cursor() as cursor:
        cursor.execute(before.replace("pastebin_search_words(", "pastebin_search_words_before("))
        for created in (START, None):
            cursor.execute(
                "SELECT pastebin_search_words(%s, %s)::text, pastebin_search_words_before(%s, %s)::text",
                [text, created, text, created],
            )
            now, then = cursor.fetchone()
            assert now == then
            assert (f" {search.day(START)}'" in now) == bool(created and now)


def stored_tables(slug: str) -> tuple[object, object]:
    """The `listed_tables` column of an explain and its analysis's tables, as stored."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT listed_tables, analysis -> 'tables' FROM pastebin_explain WHERE slug = %s", [slug])
        return cursor.fetchone()


@postgres
def test_the_listed_tables_follow_the_analysis_whatever_writes_it(create, client):
    """Saves, updates of the analysis (the ORM's, reanalysis's bulk ones) and a direct write of the
    column: it always holds the analysis's tables, which the lists show."""
    slug = create(explain_table(table="salaries"), title="payroll", visibility="public")["slug"]
    assert stored_tables(slug) == ('["salaries"]', '["salaries"]')
    Explain.objects.filter(slug=slug).update(analysis={"format": "table", "rows": [], "tables": ["old_name"]})
    assert stored_tables(slug) == ('["old_name"]', '["old_name"]')
    for path in ("/recent/", "/search/?q=payroll", "/api/v1/explains/"):
        assert "old_name" in client.get(path).content.decode(), path
    call_command("reanalyze", "--all", "--jobs", "1")
    assert stored_tables(slug) == ('["salaries"]', '["salaries"]')
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pastebin_explain SET listed_tables = '[\"forged\"]' WHERE slug = %s", [slug])
    assert stored_tables(slug) == ('["salaries"]', '["salaries"]')
    Explain.objects.filter(slug=slug).update(analysis={"format": "json"})
    assert stored_tables(slug) == (None, None)
    for path in ("/recent/", "/search/?q=payroll", "/api/v1/explains/"):
        assert client.get(path).status_code == 200


@postgres
def test_the_migration_fills_the_listed_tables_of_explains_stored_before(create):
    migration = importlib.import_module("pastebin.migrations.0018_explain_listed_tables")
    slugs = [create(explain_table(table=f"t{n}"), visibility="public")["slug"] for n in range(5)]
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE pastebin_explain DISABLE TRIGGER pastebin_explain_listed_tables")
        cursor.execute("UPDATE pastebin_explain SET listed_tables = NULL")
        cursor.execute("ALTER TABLE pastebin_explain ENABLE TRIGGER pastebin_explain_listed_tables")
    assert [stored_tables(slug)[0] for slug in slugs] == [None] * 5
    with connection.schema_editor() as editor:
        migration.fill(None, editor, batch=2)
    assert [stored_tables(slug)[0] for slug in slugs] == [f'["t{n}"]' for n in range(5)]
