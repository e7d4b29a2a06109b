"""Reading, listing and deleting saved explains through the API."""

from __future__ import annotations

import pytest

from pastebin.models import Explain
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("trailing", ["/", ""])
def test_get_detail_has_paste_query_title_dates_and_analysis(client, create, trailing):
    data = create(title="Report", query="SELECT * FROM employees")
    response = client.get(f"/api/v1/explains/{data['slug']}{trailing}")
    assert response.status_code == 200
    detail = response.json()
    assert detail["explain"] == explain_table()
    assert detail["title"] == "Report"
    assert detail["query"] == "SELECT * FROM employees"
    assert detail["created_at"] == data["created_at"]
    assert detail["expires_at"] == data["expires_at"]
    assert detail["analysis"]["rows"] == data["rows"]
    assert detail["parser_version"]
    assert "delete_token" not in detail


def test_unknown_slug_is_404_json(client):
    response = client.get("/api/v1/explains/NoSuchSlug2345/")
    assert response.status_code == 404
    assert response.json()["error"]


def test_list_has_public_only_newest_first_with_cursor_pages(client, create):
    public = [create(explain_table(table=f"t_{i}"), visibility="public")["slug"] for i in range(25)]
    create(explain_table(table="hidden_one"))  # unlisted
    first = client.get("/api/v1/explains/").json()
    assert len(first["results"]) == 20
    assert first["next"] and "cursor=" in first["next"]
    second = client.get(first["next"]).json()
    slugs = [item["slug"] for item in first["results"] + second["results"]]
    assert slugs == list(reversed(public))
    assert second["next"] is None
    no_slash = client.get("/api/v1/explains").json()
    assert [i["slug"] for i in no_slash["results"]] == [i["slug"] for i in first["results"]]


def test_delete_with_token_is_204_then_gone(client, create):
    data = create()
    response = client.delete(f"/api/v1/explains/{data['slug']}/", HTTP_X_DELETE_TOKEN=data["delete_token"])
    assert response.status_code == 204
    assert not Explain.objects.filter(slug=data["slug"]).exists()
    assert client.get(data["api_url"]).status_code == 410
    assert client.get(data["raw_url"]).status_code == 410
    again = client.delete(f"/api/v1/explains/{data['slug']}", HTTP_X_DELETE_TOKEN=data["delete_token"])
    assert again.status_code == 410


@pytest.mark.parametrize("headers", [{}, {"HTTP_X_DELETE_TOKEN": "wrong"}, {"HTTP_X_DELETE_TOKEN": ""}])
def test_delete_without_the_right_token_is_403(client, create, headers):
    data = create()
    response = client.delete(f"/api/v1/explains/{data['slug']}/", **headers)
    assert response.status_code == 403
    assert response.json()["error"]
    assert Explain.objects.filter(slug=data["slug"]).exists()


def test_token_of_another_explain_does_not_delete(client, create):
    first, second = create(), create()
    response = client.delete(f"/api/v1/explains/{first['slug']}/", HTTP_X_DELETE_TOKEN=second["delete_token"])
    assert response.status_code == 403


def test_delete_unknown_is_404(client):
    response = client.delete("/api/v1/explains/NoSuchSlug2345/", HTTP_X_DELETE_TOKEN="x")
    assert response.status_code == 404


def test_token_is_stored_hashed_only(create):
    data = create()
    stored = Explain.objects.get(slug=data["slug"])
    assert data["delete_token"] not in str(stored.__dict__)
    assert len(stored.delete_token_hash) == 64
