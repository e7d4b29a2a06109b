"""Saving reads an analysis of the same input back from the recent answers instead of running it again."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from pastebin import maintenance, saving
from pastebin.models import Explain
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def analyses(monkeypatch):
    """The inputs analyzed, in order."""
    seen = []
    real = saving.run_analysis

    def counting(text, query, schema=None):
        seen.append((text, query, schema))
        return real(text, query, schema)

    monkeypatch.setattr(saving, "run_analysis", counting)
    return seen


def test_the_same_paste_saved_twice_is_analyzed_once_and_stored_alike(analyses):
    first = saving.save_explain(explain_table(), query="SELECT 1").explain
    second = saving.save_explain(explain_table(), query="SELECT 1").explain
    assert len(analyses) == 1
    assert first.slug != second.slug
    stored = Explain.objects.filter(slug__in=[first.slug, second.slug]).values_list("analysis", flat=True)
    assert stored[0] == stored[1] == first.analysis
    second.analysis["rows"].clear()  # each save gets its own copy
    assert saving.save_explain(explain_table(), query="SELECT 1").explain.analysis["rows"]


def test_another_query_or_schema_is_another_analysis(analyses):
    saving.save_explain(explain_table(), query="SELECT 1")
    saving.save_explain(explain_table(), query="SELECT 2")
    saving.save_explain(explain_table(), query="SELECT 2", schema="CREATE TABLE t1 (a int)")
    assert len(analyses) == 3


def test_a_save_after_the_analyze_api_reuses_its_answer(client, analyses, monkeypatch):
    import analyzer.web.api as api

    api_runs = []
    real = api.analyze
    monkeypatch.setattr(api, "analyze", lambda *a, **k: api_runs.append(1) or real(*a, **k))
    answer = client.post("/api/v1/analyze/", explain_table(), content_type="text/plain")
    assert answer.status_code == 200
    explain = saving.save_explain(explain_table()).explain
    assert len(api_runs) == 1 and analyses == []
    assert explain.analysis == answer.json()


def test_a_paste_the_analyze_api_answered_is_still_checked_before_it_is_stored(client):
    paste = explain_table() + "\x00"
    assert client.post("/api/v1/analyze/", paste, content_type="text/plain").status_code == 200
    with pytest.raises(saving.SaveError, match="NUL"):
        saving.save_explain(paste)
    assert not Explain.objects.exists()


@pytest.mark.postgres
def test_an_improvement_of_an_explain_deleted_meanwhile_is_refused(client, paste):
    """What it improves on was checked, then deleted before the insert (by a purge, say): a 400
    for the client, no explain linked to nothing."""
    older = saving.save_explain(paste, expires="never").explain
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM pastebin_explain WHERE slug = %s", [older.slug])
    with pytest.raises(saving.SaveError, match="has just been deleted") as refused, transaction.atomic():
        saving.save_explain(paste, expires="never", improves_on=older)
    assert refused.value.status == 400
    assert not Explain.objects.exists()


def test_the_analysis_stored_is_the_one_returned_whatever_its_characters():
    """The analysis goes to the database as the JSON the API sends (on PostgreSQL): text beyond
    ASCII, U+2028 and quotes come back as they were, and a reanalysis finds nothing changed."""
    query = "SELECT 'naïve\u2028\"数据\"' FROM employees"
    saved = saving.save_explain(explain_table(), query=query).explain
    stored = Explain.objects.get(slug=saved.slug).analysis
    assert stored == saved.analysis and stored["query"] == query
    assert maintenance.reanalyze([saved.slug]).changed == 0


def test_a_paste_saved_again_is_neither_analyzed_nor_decoded_and_answered_alike(client, analyses, monkeypatch):
    """The second save reads the analysis's JSON and its tables' names back from the recent answers
    and sends that JSON on as it is: the answer is the first's, key for key and in the same order,
    but for what is the new explain's own."""
    post = lambda: client.post("/api/v1/explains/", explain_table(), content_type="text/plain")  # noqa: E731
    first = post().json()
    decoded = []
    real_loads = saving.orjson.loads
    monkeypatch.setattr(saving.orjson, "loads", lambda data: decoded.append(1) or real_loads(data))
    second = post().json()
    assert len(analyses) == 1
    assert decoded == [] or connection.vendor != "postgresql"
    own = {"slug", "url", "raw_url", "api_url", "delete_token", "created_at", "expires_at"}
    assert list(second) == list(first)
    assert {k: v for k, v in second.items() if k not in own} == {k: v for k, v in first.items() if k not in own}
    stored = Explain.objects.get(slug=second["slug"])
    assert stored.analysis == {key: second[key] for key in stored.analysis}
    assert stored.search_text == Explain.objects.get(slug=first["slug"]).search_text == "employees"


@pytest.mark.postgres
def test_an_analysis_saved_from_its_json_is_read_back_when_asked_for():
    saving.save_explain(explain_table(), query="SELECT 1")
    again = saving.save_explain(explain_table(), query="SELECT 1").explain
    assert again.get_deferred_fields() == {"analysis"}
    assert again.analysis == Explain.objects.get(slug=again.slug).analysis
    assert again.analysis["rows"][0]["table"] == "employees"
