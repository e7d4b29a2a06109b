from __future__ import annotations

import re

import pytest

from notes.models import Note
from notes.rendering import JIRA_PROJECTS

pytestmark = pytest.mark.django_db

PAGES = ["/notes/", "/notes/releases/", "/notes/benchmarks/"]


def titles_in(html: str) -> list[str]:
    return re.findall(r'<li class="note-item[^"]*">\s*<h2><a href="[^"]+">([^<]+)</a>', html)


def test_lists_are_newest_first_and_filtered(client, loaded_notes):
    everything = titles_in(client.get("/notes/").content.decode())
    assert everything == [note.title for note in Note.objects.order_by("-date")]
    releases = titles_in(client.get("/notes/releases/").content.decode())
    benchmarks = titles_in(client.get("/notes/benchmarks/").content.decode())
    assert releases == [t for t in everything if Note.objects.get(title=t).kind == "release"]
    assert benchmarks == [t for t in everything if Note.objects.get(title=t).kind == "benchmark"]
    assert len(releases) == len(benchmarks) == 4


def test_every_notes_page_links_nav_stylesheet_and_feed(client, loaded_notes):
    urls = PAGES + [f"/notes/{slug}/" for slug in loaded_notes]
    for url in urls:
        html = client.get(url).content.decode()
        assert 'href="/notes/"' in html, url
        assert 'href="/static/css/notes.css"' in html, url
        assert 'type="application/atom+xml"' in html, url
        assert " style=" not in html, url  # the CSP forbids inline styles


def test_release_page_shows_product_version_date_and_links(client, loaded_notes):
    html = client.get("/notes/mariadb-5-5-31/").content.decode()
    assert "<dd>MariaDB</dd>" in html and "<dd>5.5.31</dd>" in html and "23 May 2013" in html
    for name in (
        "8.04 LTS &quot;Hardy&quot;",
        "11.10 &quot;Oneiric&quot;",
        "9 LTS &quot;Isadora&quot;",
        "12 &quot;Lisa&quot;",
    ):
        assert name in html
    assert "MariaDB 5.3.12 and MySQL 5.5.31" in html
    assert 'href="https://mariadb.com/kb/en/mariadb-5531-release-notes/"' in html


def test_java_client_page_links_each_fixed_bug(client, loaded_notes):
    html = client.get("/notes/mariadb-java-client-1-1-2/").content.decode()
    for key in ("CONJ-21", "CONJ-28", "CONJ-30", "CONJ-31", "CONJ-32"):
        assert f'<a href="https://jira.mariadb.org/browse/{key}" rel="noopener noreferrer">{key}</a>' in html


def test_benchmark_page_has_setup_tables_charts_and_csv_links(client, loaded_notes):
    html = client.get("/notes/mariadb-mysql-windows-threadpool/").content.decode()
    assert '<h2 id="facts-heading">Setup</h2>' in html
    assert html.count('<table class="data-table">') == 3
    assert html.count("<svg") == 3
    for number in (1, 2, 3):
        assert f'href="/notes/mariadb-mysql-windows-threadpool/tables/{number}.csv"' in html


def test_approximate_dates_say_so(client, loaded_notes):
    html = client.get("/notes/mariadb-10-1-million-qps-power8/").content.decode()
    assert "October 2015" in html and "(date known to the month)" in html


def test_unknown_note_is_404(client, loaded_notes):
    assert client.get("/notes/no-such-note/").status_code == 404


def test_empty_database_shows_a_hint(client):
    assert "load_notes" in client.get("/notes/").content.decode()


STANDALONE_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")


def prose_without_code(body: str) -> str:
    body = re.sub(r"```.*?```", "", body, flags=re.S)
    body = re.sub(r"`[^`]*`", "", body)
    body = re.sub(r"\b(?:" + "|".join(JIRA_PROJECTS) + r")-\d+\b", "", body)
    body = re.sub(r"\b[A-Z]+#\d+\b", "", body)  # WL#7305, Bug#62518
    return re.sub(r"^\s*\d+\.\s", "", body, flags=re.M)  # ordered list markers


def test_no_figure_is_locked_in_prose(sources):
    """Figures live in the structured data; bodies and summaries only refer to them."""
    for slug, note in sources.items():
        for text in (note.body, note.summary):
            assert STANDALONE_NUMBER.findall(prose_without_code(text)) == [], slug
