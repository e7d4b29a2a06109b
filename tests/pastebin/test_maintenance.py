"""Maintenance at scale: `purge_expired` in batches with what points at the explains it deletes,
`reanalyze` writing only what changed (and in parallel processes), and the migrations that add
the stored search vector, drop the duplicate indexes and bound the search index's pending list."""

from __future__ import annotations

import importlib
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

import analyzer
from pastebin import maintenance
from pastebin.misread import file_report
from pastebin.models import AbuseReport, DeletedSlug, Explain, IdempotencyRecord, MisreadReport
from pastebin.search import search_public
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def at(moment: datetime):
    return mock.patch("pastebin.clock.now", return_value=moment)


def create_keyed(client, paste: str, key: str, **params) -> str:
    """Save through the API with an Idempotency-Key (so an idempotency record points at it)."""
    response = client.post(
        "/api/v1/explains/",
        paste,
        content_type="text/plain",
        query_params=params,
        HTTP_ACCEPT="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert response.status_code == 201, response.content
    return response.json()["slug"]


@pytest.fixture
def expired_web(client, create):
    """Five explains expiring after an hour, one of them reported, marked misread and saved with
    an Idempotency-Key; one improving on another; and two live explains improving on expired ones."""
    with at(START):
        first = create_keyed(client, explain_table(table="first"), "key-first", expires="1h")
        others = [create(explain_table(table=f"t{n}"), expires="1h")["slug"] for n in range(3)]
        chained = create(expires="1h", improves_on=others[0])["slug"]
        live = [create(expires="never", improves_on=slug)["slug"] for slug in (first, others[1])]
        kept_record = create_keyed(client, explain_table(table="kept"), "key-kept", expires="never")
    explain = Explain.objects.get(slug=first)
    AbuseReport.objects.create(explain=explain, reason="spam", created_at=START)
    file_report(explain.raw_explain, comment="read wrong", explain=explain)
    return {"expired": [first, *others, chained], "live": [*live, kept_record], "first": first}


def test_purge_deletes_in_batches_with_what_points_at_the_explains(expired_web, capsys):
    batches = mock.patch("pastebin.maintenance.purge_expired", side_effect=maintenance.purge_expired)
    with at(START + timedelta(hours=2)), batches as batch:
        call_command("purge_expired", "--batch-size", "2", "--jobs", "1")
    assert batch.call_count == 4  # 2 + 2 + 1 explains, then none left
    assert set(Explain.objects.values_list("slug", flat=True)) == set(expired_web["live"])
    assert set(DeletedSlug.objects.values_list("slug", flat=True)) == set(expired_web["expired"])
    assert not AbuseReport.objects.exists()
    assert list(IdempotencyRecord.objects.values_list("explain_id", flat=True)) == [expired_web["live"][-1]]
    report = MisreadReport.objects.get()
    assert report.explain_id is None and report.comment == "read wrong" and report.text
    assert not Explain.objects.filter(improves_on__isnull=False).exists()
    assert "Deleted 5 expired explains." in capsys.readouterr().out


def test_purge_keeps_links_between_live_explains(create):
    with at(START):
        before = create(expires="never")["slug"]
        after = create(expires="never", improves_on=before)["slug"]
        create(expires="1h")
    with at(START + timedelta(hours=2)):
        call_command("purge_expired", "--jobs", "1")
    assert Explain.objects.get(slug=after).improves_on_id == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_purge_in_parallel_batches_deletes_each_explain_once(create, capsys):
    """Three connections side by side: chains of improvements across batches, reports on some."""
    with at(START):
        slugs = [create(explain_table(table=f"t{n}"), expires="1h")["slug"] for n in range(12)]
        for previous, slug in zip(slugs, slugs[1:], strict=False):
            Explain.objects.filter(slug=slug).update(improves_on_id=previous)
        live = create(expires="never", improves_on=slugs[-1])["slug"]
    for slug in slugs[::3]:
        AbuseReport.objects.create(explain_id=slug, reason="spam", created_at=START)
    with at(START + timedelta(hours=2)):
        call_command("purge_expired", "--batch-size", "2", "--jobs", "3")
    assert "Deleted 12 expired explains." in capsys.readouterr().out
    assert list(Explain.objects.values_list("slug", "improves_on_id")) == [(live, None)]
    assert sorted(DeletedSlug.objects.values_list("slug", flat=True)) == sorted(slugs)
    assert not AbuseReport.objects.exists()


def test_purge_deletes_old_idempotency_records_in_batches(client, paste):
    with at(START):
        for n in range(5):
            create_keyed(client, explain_table(table=f"t{n}"), f"key-{n}", expires="never")
    assert maintenance.delete_records(START - timedelta(seconds=1), 2) == 0
    assert maintenance.delete_records(START + timedelta(hours=1), 2) == 5
    assert not IdempotencyRecord.objects.exists()
    assert Explain.objects.count() == 5


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_deleting_old_records_never_waits_for_one_another_transaction_holds(client, paste):
    """A purge batch deleting an explain holds its record (the foreign key's cascade) until it
    commits; the records' deletion, beside the batches, leaves it rather than wait, which could
    close a cycle of waits with them (a deadlock that stopped the purge)."""
    with at(START):
        slugs = [create_keyed(client, explain_table(table=f"t{n}"), f"key-{n}", expires="never") for n in range(3)]
    held, release = threading.Event(), threading.Event()

    def hold_first_record() -> None:
        try:
            with transaction.atomic():
                list(IdempotencyRecord.objects.select_for_update().filter(explain_id=slugs[0]))
                held.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_first_record)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # a wait fails the test instead of hanging it
        assert maintenance.delete_records(START + timedelta(hours=1), 2) == 2
        assert list(IdempotencyRecord.objects.values_list("explain_id", flat=True)) == [slugs[0]]
    finally:
        release.set()
        holder.join()
    assert maintenance.delete_records(START + timedelta(hours=1), 2) == 1


def _report(slug: str) -> AbuseReport:
    return AbuseReport.objects.create(explain_id=slug, reason="spam", created_at=START)


@pytest.mark.postgres
def test_a_link_to_no_explain_is_refused(create, paste):
    """Reports, records and improvements are written only to an explain that exists (the check of
    migration 0015's triggers, where a foreign key checked before)."""
    slug = create(expires="never")["slug"]
    misread = MisreadReport.objects.create(
        text=paste, parser_version="1", read_format="table", read_rows=1, read_truncated=False, created_at=START
    )
    record = {"request_hash": "0" * 64, "created_at": START, "masked_delete_token": "00"}
    writes = [
        _report,
        lambda target: IdempotencyRecord.objects.create(key_hash=target.ljust(64, "0"), explain_id=target, **record),
        lambda target: MisreadReport.objects.filter(pk=misread.pk).update(explain_id=target),
        lambda target: Explain.objects.filter(slug=slug).update(improves_on_id=target),
    ]
    for write in writes:
        with pytest.raises(IntegrityError, match="violates its link to explains"), transaction.atomic():
            write("nosuchexplain0")
        other = create(expires="never")["slug"]
        write(other)  # an explain that exists
    assert AbuseReport.objects.count() == IdempotencyRecord.objects.count() == 1
    assert MisreadReport.objects.get().explain_id and Explain.objects.get(slug=slug).improves_on_id
    with pytest.raises(IntegrityError, match="slug never changes"), transaction.atomic():
        Explain.objects.filter(slug=slug).update(slug="anotherslug000")


@pytest.mark.postgres
def test_deleting_or_truncating_explains_acts_on_what_links_to_them(create, paste):
    """One DELETE statement of several explains deletes their reports and records and unlinks their
    misread reports and improvements, and nothing else; TRUNCATE does so for every link."""
    with at(START):
        gone = [create_keyed_direct(create, n) for n in range(3)]
        kept = create(expires="never")["slug"]
    improving = create(expires="never", improves_on=gone[0])["slug"]
    for slug in [*gone, kept]:
        _report(slug)
        file_report(paste, explain=Explain.objects.get(slug=slug))
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM pastebin_explain WHERE slug = ANY(%s)", [gone])
    assert list(AbuseReport.objects.values_list("explain_id", flat=True)) == [kept]
    assert sorted(MisreadReport.objects.values_list("explain_id", flat=True), key=str) == sorted([None] * 3 + [kept], key=str)
    assert Explain.objects.get(slug=improving).improves_on_id is None
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE pastebin_explain")
    assert not AbuseReport.objects.exists() and not IdempotencyRecord.objects.exists()
    assert MisreadReport.objects.count() == 4 and not MisreadReport.objects.filter(explain__isnull=False).exists()


def create_keyed_direct(create, number: int) -> str:
    """An explain with an idempotency record pointing at it (written directly)."""
    slug = create(explain_table(table=f"t{number}"), expires="never")["slug"]
    IdempotencyRecord.objects.create(
        key_hash=f"{number}".rjust(64, "0"), request_hash="0" * 64, explain_id=slug, created_at=START, masked_delete_token="00"
    )
    return slug


def _in_transaction(work, started: threading.Event, finish: threading.Event, outcome: list) -> threading.Thread:
    """A thread running `work()` in a transaction of its own connection, which signals `started` once
    `work` has run and commits when `finish` is set; what it raised, if anything, goes in `outcome`."""

    def run() -> None:
        try:
            with transaction.atomic():
                work()
                started.set()
                assert finish.wait(10)
        except Exception as exc:
            outcome.append(exc)
        finally:
            started.set()
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")
        return cursor.fetchone()[0]


def _until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first", ["deletion", "report"])
def test_a_link_written_while_its_explain_is_deleted_never_points_at_nothing(create, first):
    """Whichever commits first, the other waits for it: a report written while its explain is
    deleted is refused (the deletion came first) or deleted with it (the report came first)."""
    slug = create(expires="never")["slug"]
    delete = lambda: connection.cursor().execute("DELETE FROM pastebin_explain WHERE slug = %s", [slug])  # noqa: E731
    steps = {"deletion": delete, "report": lambda: _report(slug)}
    second = "report" if first == "deletion" else "deletion"
    finish, outcomes = threading.Event(), {first: [], second: []}
    started = threading.Event()
    holder = _in_transaction(steps[first], started, finish, outcomes[first])
    assert started.wait(10)
    done = threading.Event()
    waiter = _in_transaction(steps[second], threading.Event(), done, outcomes[second])
    assert _until(lambda: _waiting_for_a_lock() == 1)  # the second waits for the first
    finish.set()
    holder.join()
    done.set()
    waiter.join()
    assert outcomes["deletion"] == []
    assert [type(exc) for exc in outcomes["report"]] == ([IntegrityError] if first == "deletion" else [])
    assert not Explain.objects.filter(slug=slug).exists() and not AbuseReport.objects.exists()


@pytest.fixture
def three(create):
    """Three explains: one analyzed by an old parser, one whose stored analysis went stale, one current."""
    old, stale, current = (create(explain_table(table=name))["slug"] for name in ("old_one", "stale", "current"))
    Explain.objects.filter(slug=old).update(parser_version="0")
    stored = Explain.objects.get(slug=stale).analysis
    Explain.objects.filter(slug=stale).update(analysis={**stored, "tables": ["gone"]}, search_text="gone")
    return old, stale, current


def test_reanalyze_writes_only_the_changed_fields_of_the_changed_explains(three, capsys):
    old, stale, current = three
    real = maintenance._update
    with mock.patch.object(maintenance, "_update", side_effect=real) as update:
        call_command("reanalyze", "--all", "--jobs", "1", "--batch-size", "2")
    sent = sorted((fields, explain.slug) for (fields, explains), _ in update.call_args_list for explain in explains)
    # The analyses go to the database, which keeps those equal to the stored ones.
    assert sent == sorted([(("parser_version",), old), (("search_text",), stale), ((), current)])
    assert Explain.objects.get(slug=stale).analysis["tables"] == ["stale"]
    assert Explain.objects.get(slug=stale).search_text == "stale"
    assert set(Explain.objects.values_list("parser_version", flat=True)) == {analyzer.PARSER_VERSION}
    out = capsys.readouterr().out
    assert "Re-analyzed 3 explains" in out and "2 changed, 0 failed" in out


def test_reanalyze_stores_a_changed_analysis_whatever_else_changed(create):
    """A stale analysis is replaced whether the parser version and search text changed or not."""
    slugs = [create(explain_table(table=f"t{n}"))["slug"] for n in range(3)]
    fresh = Explain.objects.get(slug=slugs[0]).analysis
    Explain.objects.update(analysis={**fresh, "stale": True})
    Explain.objects.filter(slug=slugs[1]).update(parser_version="0")
    Explain.objects.filter(slug=slugs[2]).update(parser_version="0", search_text="gone")
    assert maintenance.reanalyze(slugs).changed == 3
    for n, slug in enumerate(slugs):
        explain = Explain.objects.get(slug=slug)
        assert "stale" not in explain.analysis and explain.analysis["tables"] == [f"t{n}"]
        assert (explain.parser_version, explain.search_text) == (analyzer.PARSER_VERSION, f"t{n}")
    assert maintenance.reanalyze(slugs).changed == 0


def stored_analyses() -> dict[str, tuple]:
    return {e.slug: (e.analysis, e.search_text, e.parser_version) for e in Explain.objects.all()}


def test_reanalyze_analyzes_a_repeated_paste_once_and_stores_what_analyzing_each_would(create):
    """Explains with the same paste, query and schema share one analysis (within a run); each
    keeps its own search text; a different query or schema is analyzed on its own."""
    pastes = [explain_table(table="shared")] * 3 + [explain_table(table="alone")]
    slugs = [create(paste, title=f"title {n}")["slug"] for n, paste in enumerate(pastes)]
    slugs.append(create(pastes[0], query="SELECT * FROM shared WHERE id = 1")["slug"])
    fresh = stored_analyses()
    stale = {"format": "table", "rows": []}
    Explain.objects.update(analysis=stale, parser_version="0", search_text="")
    with mock.patch.object(maintenance, "run_analysis", side_effect=maintenance.run_analysis) as analyze:
        outcome = maintenance.reanalyze(slugs[:2], readings := maintenance.Readings())
        outcome.add(maintenance.reanalyze(slugs[2:], readings))
    assert analyze.call_count == 3 and (outcome.analyzed, outcome.changed) == (5, 5)
    memoized = stored_analyses()
    Explain.objects.update(analysis=stale, parser_version="0", search_text="")
    for slug in slugs:
        maintenance.reanalyze([slug], maintenance.Readings(size=0))
    assert stored_analyses() == memoized == fresh
    assert {memoized[slug][1].split("\n")[0] for slug in slugs[:3]} == {"title 0", "title 1", "title 2"}


def test_an_analysis_is_sent_as_the_json_of_its_values_whatever_orjson_refuses(db):
    for analysis in ({"rows": [{"rows": 12, "cost": 0.00001}]}, {"rows": 2**70}, {1: "a key that is not a string"}):
        assert json.loads(maintenance._encode(analysis)) == json.loads(json.dumps(analysis))


def test_reanalyze_reports_each_explain_of_a_repeated_paste_that_no_longer_reads(create):
    slugs = [create()["slug"] for _ in range(3)]
    Explain.objects.filter(slug__in=slugs[:2]).update(raw_explain="no longer an explain", parser_version="0")
    outcome = maintenance.reanalyze(slugs, maintenance.Readings())
    assert sorted(failure.split(":")[0] for failure in outcome.failures) == sorted(slugs[:2])
    assert outcome.analyzed == 1
    assert Explain.objects.filter(parser_version="0").count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_reanalyze_in_parallel_processes(create, capsys):
    slugs = [create(explain_table(table=f"table_{n}"))["slug"] for n in range(7)]
    Explain.objects.update(parser_version="0", analysis={"format": "table", "rows": []})
    call_command("reanalyze", "--jobs", "2", "--batch-size", "2")
    assert "Re-analyzed 7 explains" in capsys.readouterr().out
    for n, slug in enumerate(slugs):
        explain = Explain.objects.get(slug=slug)
        assert explain.parser_version == analyzer.PARSER_VERSION
        assert explain.analysis["tables"] == [f"table_{n}"] and explain.search_text == f"table_{n}"


def test_only_postgresql_stores_a_search_vector(db):
    with connection.cursor() as cursor:
        columns = [column.name for column in connection.introspection.get_table_description(cursor, "pastebin_explain")]
    assert ("search_vector" in columns) == (connection.vendor == "postgresql")


@pytest.mark.postgres
def test_the_migration_fills_the_search_vector_of_rows_stored_before_it(create):
    migration = importlib.import_module("pastebin.migrations.0006_search_vector")
    slugs = [
        create(explain_table(table=f"table_{n}"), title=f"title {n}", visibility="public")["slug"] for n in range(5)
    ]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pastebin_explain SET search_vector = NULL")
        assert migration.fill_search_vectors(cursor, batch=2) == 5
        cursor.execute("SELECT count(*) FROM pastebin_explain WHERE search_vector = to_tsvector('simple', search_text)")
        assert cursor.fetchone()[0] == 5
        assert migration.fill_search_vectors(cursor, batch=2) == 0  # nothing left to fill
    assert sorted(explain.slug for explain in search_public("title", 50)) == sorted(slugs)


@pytest.mark.postgres
def test_indexes_after_the_migrations(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename LIKE 'pastebin%%'")
        indexes = dict(cursor.fetchall())
    assert not [name for name in indexes if name.endswith("_like")]
    assert "pastebin_explain_search_gin" not in indexes
    definition = indexes["pastebin_explain_search_vector"]
    assert "USING gin" in definition and "THEN search_vector" in definition and "'public'" in definition
    assert "pastebin_explain_pkey" in indexes and "pastebin_explain_improves_on_id_6ded4829" in indexes
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'pastebin_explain_search_vector'")
        assert cursor.fetchone()[0] == ["gin_pending_list_limit=256"]
        # The links to explains are kept by triggers (migration 0015), no longer by foreign keys.
        cursor.execute("SELECT count(*) FROM pg_constraint WHERE confrelid = 'pastebin_explain'::regclass")
        assert cursor.fetchone()[0] == 0
        cursor.execute(LINK_TRIGGERS)
        assert cursor.fetchone()[0] == 7


LINK_TRIGGERS = (
    "SELECT count(*) FROM pg_trigger WHERE tgname LIKE ANY (ARRAY['%%explain_check', 'pastebin_explain_unlink', "
    "'pastebin_explain_truncated', 'pastebin_explain_slug_kept', 'pastebin_explain_improves_on_check'])"
)
FOREIGN_KEYS = "SELECT string_agg(confdeltype::text, '' ORDER BY conname) FROM pg_constraint WHERE confrelid = %s::regclass"


@pytest.mark.postgres
def test_the_migrations_of_the_links_to_explains_are_reversible(db):
    """Back to the foreign keys of migration 0011 (their actions on delete, then none), and forward
    to the triggers again."""
    by_triggers = importlib.import_module("pastebin.migrations.0015_explain_links_by_statement")
    on_delete = importlib.import_module("pastebin.migrations.0011_explain_links_on_delete").on_delete
    with connection.schema_editor() as editor:
        by_triggers.by_foreign_keys(None, editor)
    with connection.cursor() as cursor:
        cursor.execute(FOREIGN_KEYS, ["pastebin_explain"])
        assert sorted(cursor.fetchone()[0]) == ["c", "c", "n", "n"]
        cursor.execute(LINK_TRIGGERS)
        assert cursor.fetchone()[0] == 0
    with connection.schema_editor() as editor:
        on_delete(False)(None, editor)
    with connection.cursor() as cursor:
        cursor.execute(FOREIGN_KEYS, ["pastebin_explain"])
        assert cursor.fetchone()[0] == "aaaa"
    with connection.schema_editor() as editor:
        on_delete(True)(None, editor)
        by_triggers.by_triggers(None, editor)
    with connection.cursor() as cursor:
        cursor.execute(FOREIGN_KEYS, ["pastebin_explain"])
        assert cursor.fetchone()[0] is None
        cursor.execute(LINK_TRIGGERS)
        assert cursor.fetchone()[0] == 7


@pytest.mark.postgres
def test_analyses_are_compressed_with_lz4_where_the_server_has_it(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        if not cursor.fetchone()[0]:
            pytest.skip("this PostgreSQL was built without lz4")
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = 'pastebin_explain'::regclass AND attname = 'analysis'"
        )
        assert cursor.fetchone()[0] == "l"
