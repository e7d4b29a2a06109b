"""Its creator changes an explain's title, visibility or expiry with the delete token: the pages'
form and `PATCH /api/v1/explains/<slug>/`, the caches, the listings, the rules of a new explain."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from pastebin import clock, permalink
from pastebin.models import Explain
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db

HOSTILE = '"><script>alert("t")</script>'


def save(client, **fields) -> str:
    data = {"explain": explain_table(), "expires": "1d", "visibility": "unlisted", "title": "first", **fields}
    response = client.post("/", data)
    assert response.status_code == 302, response.content
    return re.fullmatch(r"/e/(\w+)/", response["Location"]).group(1)


def edit_fields(**fields) -> dict:
    return {"title": "first", "visibility": "unlisted", "expires": "", **fields}


def test_the_creator_s_browser_edits_without_typing_the_token(client):
    slug = save(client)
    client.get(f"/e/{slug}/")  # the page that shows the token once
    form = client.get(f"/e/{slug}/edit/")
    assert form.status_code == 200 and "no-store" in form["Cache-Control"]
    html = form.content.decode()
    assert 'name="token"' not in html and 'value="first"' in html and "keep: " in html
    before = Explain.objects.get(slug=slug)
    response = client.post(f"/e/{slug}/edit/", edit_fields(title="  Second title ", visibility="public", expires="1w"))
    assert response.status_code == 302 and response["Location"] == f"/e/{slug}/"
    after = Explain.objects.get(slug=slug)
    assert after.title == "Second title" and after.visibility == "public"
    assert after.updated_at is not None and after.created_at == before.created_at
    assert abs(after.expires_at - (after.updated_at + timedelta(weeks=1))) < timedelta(seconds=1)
    page = client.get(f"/e/{slug}/").content.decode()
    assert "<h1>Second title</h1>" in page and "The changes were saved." in page


def test_another_browser_needs_the_token_and_a_wrong_one_is_said_beside_the_field(client, create):
    data = create(title="api one")
    other = Client()
    assert 'name="token"' in other.get(f"/e/{data['slug']}/edit/").content.decode()
    wrong = other.post(f"/e/{data['slug']}/edit/", edit_fields(title="hacked", token="wrong"))
    assert wrong.status_code == 403
    assert 'id="token-error"' in wrong.content.decode() and "The delete token is wrong." in wrong.content.decode()
    assert other.post(f"/e/{data['slug']}/edit/", edit_fields(title="hacked")).status_code == 403
    assert Explain.objects.get(slug=data["slug"]).title == "api one"
    right = other.post(f"/e/{data['slug']}/edit/", edit_fields(title="mine", token=data["delete_token"]))
    assert right.status_code == 302 and Explain.objects.get(slug=data["slug"]).title == "mine"


def test_never_expires_and_keep_as_it_is(client):
    slug = save(client)
    expires = Explain.objects.get(slug=slug).expires_at
    client.post(f"/e/{slug}/edit/", edit_fields(title="kept expiry"))
    assert Explain.objects.get(slug=slug).expires_at == expires
    client.post(f"/e/{slug}/edit/", edit_fields(expires="never"))
    assert Explain.objects.get(slug=slug).expires_at is None
    assert "keep: never" in client.get(f"/e/{slug}/edit/").content.decode()


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"title": "x" * 201}, "at most 200 characters"),
        ({"title": "nul\x00"}, "Null characters"),
        ({"visibility": "secret"}, "not a valid visibility"),
        ({"expires": "2y"}, "not a valid expiry"),
    ],
)
def test_the_rules_of_a_new_explain_hold(client, fields, said):
    slug = save(client)
    response = client.post(f"/e/{slug}/edit/", edit_fields(**fields))
    assert response.status_code == 400 and said in response.content.decode()
    assert Explain.objects.get(slug=slug).title == "first"


def test_a_title_with_a_lone_surrogate_is_refused_not_a_500(client):
    from pastebin.saving import SaveError, update_explain

    slug = save(client)
    with pytest.raises(SaveError):
        update_explain(Explain.objects.get(slug=slug), title="bad \ud800")


def test_gone_or_unknown_explains_cannot_be_edited(client):
    slug = save(client)
    Explain.objects.filter(slug=slug).update(expires_at=clock.now() - timedelta(seconds=1))
    assert client.get(f"/e/{slug}/edit/").status_code == 410
    assert client.post(f"/e/{slug}/edit/", edit_fields(title="late")).status_code == 410
    assert client.get("/e/abcdefghjkmnpq/edit/").status_code == 404


def test_edit_needs_csrf():
    client = Client(enforce_csrf_checks=True)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get("/").content.decode()).group(1)
    slug = save(client, csrfmiddlewaretoken=token)
    assert client.post(f"/e/{slug}/edit/", edit_fields(title="no csrf")).status_code == 403
    assert Explain.objects.get(slug=slug).title == "first"


def test_edit_and_delete_are_rate_limited_together(client, settings):
    settings.MANAGE_RATE = "3/minute"
    slug = save(client)
    assert client.post(f"/e/{slug}/edit/", edit_fields(token="wrong")).status_code == 403
    assert client.post(f"/e/{slug}/edit/", edit_fields(title="ok")).status_code == 302
    assert client.post(f"/e/{slug}/delete/", {"token": "wrong"}).status_code == 403
    limited = client.post(f"/e/{slug}/edit/", edit_fields(title="too many"))
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert client.post(f"/e/{slug}/delete/").status_code == 429
    assert Explain.objects.get(slug=slug).title == "ok"


def test_listings_and_search_follow_the_visibility(client):
    slug = save(client, title="findable zebra")
    assert slug not in client.get("/recent/").content.decode()
    client.post(f"/e/{slug}/edit/", edit_fields(title="findable zebra", visibility="public"))
    assert slug in client.get("/recent/").content.decode()
    assert slug in client.get("/search/", {"q": "zebra"}).content.decode()
    assert slug in str(client.get("/api/v1/explains/").json())
    client.post(f"/e/{slug}/edit/", edit_fields(title="renamed okapi", visibility="public"))
    assert slug not in client.get("/search/", {"q": "zebra"}).content.decode()
    assert slug in client.get("/search/", {"q": "okapi"}).content.decode()
    client.post(f"/e/{slug}/edit/", edit_fields(title="renamed okapi", visibility="unlisted"))
    assert slug not in client.get("/recent/").content.decode()
    assert slug not in client.get("/search/", {"q": "okapi"}).content.decode()


def test_an_edit_makes_every_cached_page_and_etag_stale(client, monkeypatch):
    slug = save(client)
    stranger = Client()
    first = stranger.get(f"/e/{slug}/")
    tag = first["ETag"]
    assert stranger.get(f"/e/{slug}/", headers={"If-None-Match": tag}).status_code == 304
    forgotten: list[str] = []
    original = permalink.forget
    monkeypatch.setattr(permalink, "forget", lambda *a: (forgotten.append(a[0]), original(*a)))
    client.post(f"/e/{slug}/edit/", edit_fields(title=HOSTILE, expires="1y"))
    assert forgotten == [slug]
    again = stranger.get(f"/e/{slug}/", headers={"If-None-Match": tag})
    assert again.status_code == 200 and again["ETag"] != tag
    html = again.content.decode()
    assert "<script>alert" not in html and "&lt;script&gt;alert(&quot;t&quot;)" in html
    updated = Explain.objects.get(slug=slug).updated_at
    assert again["Last-Modified"] and str(updated.year) in again["Last-Modified"]
    assert f"{Explain.objects.get(slug=slug).expires_at:%Y-%m-%d %H:%M}" in html


# The API


def patch(client, slug: str, body: object, token: str | None, **extra):
    headers = {"X-Delete-Token": token} if token is not None else {}
    return client.patch(f"/api/v1/explains/{slug}/", body, content_type="application/json", headers=headers, **extra)


def test_api_patch_changes_title_visibility_and_expiry(client, create):
    data = create(title="api")
    response = patch(client, data["slug"], {"title": "renamed", "visibility": "public", "expires": "never"}, data["delete_token"])
    assert response.status_code == 200
    body = response.json()
    assert (body["title"], body["visibility"], body["expires_at"]) == ("renamed", "public", None)
    assert body["slug"] == data["slug"] and "analysis" in body and "delete_token" not in body
    assert client.get(f"/api/v1/explains/{data['slug']}/").json()["title"] == "renamed"
    only_title = patch(client, data["slug"], {"title": "again"}, data["delete_token"]).json()
    assert (only_title["title"], only_title["visibility"]) == ("again", "public")


def test_api_patch_takes_a_form_body_too(client, create):
    data = create()
    response = client.patch(
        f"/api/v1/explains/{data['slug']}/", "expires=1h", content_type="application/x-www-form-urlencoded",
        headers={"X-Delete-Token": data["delete_token"]},
    )
    assert response.status_code == 200
    expires = Explain.objects.get(slug=data["slug"]).expires_at
    assert timedelta(minutes=59) < expires - clock.now() <= timedelta(hours=1)


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({}, 400, "at least one of title"),
        ({"titel": "typo"}, 400, "not titel"),
        ({"visibility": "secret"}, 400, "unlisted, public"),
        ({"expires": "2y"}, 400, "1h, 1d"),
        ({"title": "x" * 201}, 400, "200"),
        ({"title": "nul\x00"}, 400, "Null characters"),
        (["title"], 400, "at least one"),
        ("just text", 400, ""),
    ],
)
def test_api_patch_refuses_bad_input_with_400(client, create, body, status, said):
    data = create(title="kept")
    response = patch(client, data["slug"], body, data["delete_token"])
    assert response.status_code == status and said in response.json()["error"]
    assert Explain.objects.get(slug=data["slug"]).title == "kept"


def test_api_patch_refusals_mirror_delete(client, create):
    data = create(title="kept")
    assert patch(client, data["slug"], {"title": "x"}, None).status_code == 403
    assert "X-Delete-Token" in patch(client, data["slug"], {"title": "x"}, None).json()["error"]
    assert patch(client, data["slug"], {"title": "x"}, "wrong").json() == {"error": "The delete token is wrong."}
    assert patch(client, "abcdefghjkmnpq", {"title": "x"}, "wrong").status_code == 404
    Explain.objects.filter(slug=data["slug"]).update(hidden=True)
    assert patch(client, data["slug"], {"title": "x"}, data["delete_token"]).status_code == 410
    assert Explain.objects.get(slug=data["slug"]).title == "kept"
    other = create()
    client.delete(f"/api/v1/explains/{other['slug']}/", headers={"X-Delete-Token": other["delete_token"]})
    assert patch(client, other["slug"], {"title": "x"}, other["delete_token"]).status_code == 410


def test_api_patch_and_delete_share_the_rate_limit(client, create, settings):
    data = create()
    settings.MANAGE_RATE = "2/minute"
    assert patch(client, data["slug"], {"title": "a"}, data["delete_token"]).status_code == 200
    assert patch(client, data["slug"], {"title": "b"}, "wrong").status_code == 403
    limited = client.delete(f"/api/v1/explains/{data['slug']}/", headers={"X-Delete-Token": data["delete_token"]})
    assert limited.status_code == 429 and "Retry-After" in limited
    assert Explain.objects.filter(slug=data["slug"]).exists()
