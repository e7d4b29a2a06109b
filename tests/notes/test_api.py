from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/v1/notes/", "/api/v1/notes"])
def test_list_with_and_without_slash(client, loaded_notes, url):
    response = client.get(url)
    assert response.status_code == 200
    data = response.json()
    assert len(data) == 8
    dates = [note["date"] for note in data]
    assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize(
    "slug_url", ["/api/v1/notes/mariadb-java-client-1-1-2/", "/api/v1/notes/mariadb-java-client-1-1-2"]
)
def test_release_detail(client, loaded_notes, slug_url):
    data = client.get(slug_url).json()
    assert data["kind"] == "release"
    assert (data["product"], data["version"], data["date"]) == ("MariaDB Java Client", "1.1.2", "2013-05-02")
    assert data["url"] == "http://testserver/notes/mariadb-java-client-1-1-2/"
    for key in ("CONJ-21", "CONJ-28", "CONJ-30", "CONJ-31", "CONJ-32"):
        assert f"https://jira.mariadb.org/browse/{key}" in data["body_html"]
    assert data["tables"] == []


def test_kind_filter(client, loaded_notes):
    releases = client.get("/api/v1/notes/?kind=release").json()
    benchmarks = client.get("/api/v1/notes/?kind=benchmark").json()
    assert {n["kind"] for n in releases} == {"release"} and len(releases) == 4
    assert {n["kind"] for n in benchmarks} == {"benchmark"} and len(benchmarks) == 4


def test_errors_have_one_shape(client, loaded_notes):
    response = client.get("/api/v1/notes/?kind=<script>")
    assert response.status_code == 400
    assert set(response.json()) == {"error"}
    for url in ("/api/v1/notes/no-such-note/", "/api/v1/notes/no-such-note"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {"error": "No note has that slug."}


def test_api_is_read_only(client, loaded_notes):
    assert client.post("/api/v1/notes/", {}, content_type="application/json").status_code == 405
    response = client.delete("/api/v1/notes/mariadb-5-5-31/")
    assert response.status_code == 405 and set(response.json()) == {"error"}
