"""Expiry with a controllable clock: `pastebin.clock.now` is the only thing patched."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command

from pastebin.models import DeletedSlug, Explain

pytestmark = pytest.mark.django_db

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
DURATIONS = {
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "1w": timedelta(weeks=1),
    "1m": timedelta(days=30),
    "1y": timedelta(days=365),
}


def at(moment: datetime):
    return mock.patch("pastebin.clock.now", return_value=moment)


@pytest.mark.parametrize("choice", DURATIONS)
def test_each_choice_sets_expires_at(create, choice):
    with at(START):
        data = create(expires=choice)
    assert datetime.fromisoformat(data["expires_at"]) == START + DURATIONS[choice]


def test_never_expires(client, create):
    with at(START):
        data = create(expires="never")
    assert data["expires_at"] is None
    with at(START + timedelta(days=3650)):
        assert client.get(data["raw_url"]).status_code == 200


def test_expired_explain_is_410_everywhere_and_left_out_of_lists(client, create):
    with at(START):
        data = create(expires="1h", visibility="public", title="soon gone")
    with at(START + timedelta(minutes=59)):
        assert client.get(data["url"]).status_code == 200
        assert client.get("/api/v1/explains/").json()["results"]
    with at(START + timedelta(hours=1, seconds=1)):
        page = client.get(data["url"])
        assert page.status_code == 410
        assert b"expired" in page.content
        assert client.get(data["raw_url"]).status_code == 410
        assert client.get(data["api_url"]).status_code == 410
        assert client.get("/api/v1/explains/").json()["results"] == []
        assert b"soon gone" not in client.get("/recent/").content
        assert b"soon gone" not in client.get("/search/?q=soon").content


def test_purge_deletes_only_expired_and_keeps_410(client, create):
    with at(START):
        short = create(expires="1h")
        long = create(expires="1w")
        forever = create(expires="never")
    with at(START + timedelta(days=2)):
        call_command("purge_expired")
    assert set(Explain.objects.values_list("slug", flat=True)) == {long["slug"], forever["slug"]}
    assert DeletedSlug.objects.get(slug=short["slug"]).reason == "expired"
    response = client.get(short["url"])
    assert response.status_code == 410


def test_purge_dry_run_deletes_nothing(create, capsys):
    with at(START):
        create(expires="1h")
    with at(START + timedelta(days=2)):
        call_command("purge_expired", "--dry-run")
    assert Explain.objects.count() == 1
    assert "1 expired" in capsys.readouterr().out
