"""`Idempotency-Key` on `POST /api/v1/explains/`: replays, conflicts, key checks, expiry, atomicity."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import OperationalError

from pastebin import idempotency
from pastebin.models import Explain, IdempotencyRecord
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db

KEY = "0b6a4f0e-3c1d-4d8e-9a57-5c2f1e7d9b21"
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def post(client, body, key=KEY, content_type="text/plain", accept="application/json", **params):
    extra = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client.post(
        "/api/v1/explains/", body, content_type=content_type, query_params=params, HTTP_ACCEPT=accept, **extra
    )


def at(moment: datetime):
    return mock.patch("pastebin.clock.now", return_value=moment)


def assert_replay_of(first, again) -> None:
    assert again.status_code == first.status_code == 201
    assert again.content == first.content
    assert again["Location"] == first["Location"]
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")


def test_same_key_and_request_replays_the_first_answer_and_saves_once(client, paste):
    first = post(client, paste, title="nightly", expires="1w", visibility="public")
    again = post(client, paste, title="nightly", expires="1w", visibility="public")
    assert_replay_of(first, again)
    assert Explain.objects.count() == 1
    assert IdempotencyRecord.objects.count() == 1
    token = again.json()["delete_token"]
    assert token == first.json()["delete_token"]
    deleted = client.delete(first.json()["api_url"], HTTP_X_DELETE_TOKEN=token)
    assert deleted.status_code == 204


def test_json_body_replays_whatever_the_order_of_its_fields(client, paste):
    first = post(
        client, json.dumps({"explain": paste, "query": "SELECT 1", "expires": "1d"}), content_type="application/json"
    )
    again = post(
        client, json.dumps({"expires": "1d", "query": "SELECT 1", "explain": paste}), content_type="application/json"
    )
    assert_replay_of(first, again)
    assert Explain.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "content_type", "params"),
    [
        (explain_table(table="salaries"), "text/plain", {}),
        (explain_table(), "text/plain", {"title": "another title"}),
        (explain_table(), "text/plain", {"query": "SELECT 2"}),
        (explain_table(), "application/x-www-form-urlencoded", {}),
    ],
)
def test_same_key_with_another_request_is_409(client, paste, body, content_type, params):
    first = post(client, paste)
    response = post(client, body, content_type=content_type, **params)
    assert response.status_code == 409
    assert "different request" in response.json()["error"]
    assert Explain.objects.get().slug == first.json()["slug"]


@pytest.mark.parametrize("key", ["", "x" * 256, "clé", "tab\there", "new\x7fline"])
def test_a_bad_key_is_400_and_nothing_is_saved(client, paste, key):
    response = post(client, paste, key=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]
    assert "printable ASCII" in response.json()["error"]
    assert not Explain.objects.exists()


@pytest.mark.parametrize("key", ["k", "x" * 255, "a key with spaces ~!@#$%^&*()"])
def test_any_printable_ascii_key_up_to_255_characters_is_accepted(client, paste, key):
    first = post(client, paste, key=key)
    assert_replay_of(first, post(client, paste, key=key))


def test_without_a_key_every_request_saves(client, paste):
    post(client, paste, key=None)
    post(client, paste, key=None)
    assert Explain.objects.count() == 2
    assert not IdempotencyRecord.objects.exists()


def test_plain_text_answer_is_replayed_as_the_same_permalink(client, paste):
    first = post(client, paste, accept="text/plain")
    assert first.content.decode().startswith("http://testserver/e/")
    assert_replay_of(first, post(client, paste, accept="text/plain"))
    curl = post(client, paste, content_type="application/x-www-form-urlencoded", accept="*/*", key="curl-key")
    assert_replay_of(
        curl, post(client, paste, content_type="application/x-www-form-urlencoded", accept="*/*", key="curl-key")
    )
    assert Explain.objects.count() == 2


def test_a_plain_text_first_answer_replays_as_json_for_a_client_asking_for_it(client, paste):
    """The answer's form follows the Accept header; the request is the same, so is the explain."""
    first = post(client, paste, accept="text/plain")
    again = post(client, paste, accept="application/json")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["url"] + "\n" == first.content.decode()
    assert client.delete(again.json()["api_url"], HTTP_X_DELETE_TOKEN=again.json()["delete_token"]).status_code == 204


def test_a_record_lives_24_hours(client, paste):
    with at(START):
        first = post(client, paste, expires="1w")
    with at(START + timedelta(hours=23, minutes=59)):
        assert_replay_of(first, post(client, paste, expires="1w"))
    with at(START + timedelta(hours=24, seconds=1)):
        later = post(client, paste, expires="1w")
    assert later.status_code == 201
    assert not later.has_header("Idempotent-Replayed")
    assert later.json()["slug"] != first.json()["slug"]
    assert Explain.objects.count() == 2
    assert IdempotencyRecord.objects.get().explain_id == later.json()["slug"]  # the stale record made way


def test_purge_expired_deletes_records_older_than_24_hours(client, paste, capsys):
    with at(START):
        post(client, paste, key="old", expires="1w")
    with at(START + timedelta(hours=12)):
        post(client, paste, key="recent", expires="1w")
    with at(START + timedelta(hours=24, minutes=1)):
        call_command("purge_expired", "--dry-run")
        assert "1 expired idempotency record would be deleted" in capsys.readouterr().out
        assert IdempotencyRecord.objects.count() == 2
        call_command("purge_expired")
        assert "Deleted 1 expired idempotency record" in capsys.readouterr().out
    assert Explain.objects.count() == 2
    assert IdempotencyRecord.objects.get().explain.created_at == START + timedelta(hours=12)


def test_deleting_the_explain_deletes_its_record(client, paste):
    data = post(client, paste).json()
    client.delete(data["api_url"], HTTP_X_DELETE_TOKEN=data["delete_token"])
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize(("params", "status"), [({"expires": "2d"}, 400), ({"improves_on": "NoSuchSlug2345"}, 400)])
def test_a_refused_request_is_not_stored_and_is_judged_again(client, paste, params, status):
    assert post(client, paste, **params).status_code == status
    assert post(client, paste, **params).status_code == status
    assert not IdempotencyRecord.objects.exists()
    assert post(client, paste).status_code == 201


def test_a_too_large_paste_is_not_stored_and_is_judged_again(client, paste, settings):
    settings.EXPLAIN_MAX_BYTES = 100
    assert post(client, paste).status_code == 413
    assert not IdempotencyRecord.objects.exists()
    settings.EXPLAIN_MAX_BYTES = 64 * 1024
    assert post(client, paste).status_code == 201


def test_a_throttled_request_is_not_stored_and_is_judged_again(client, paste, settings):
    settings.API_CREATE_RATE = "1/minute"
    assert post(client, paste, key=None).status_code == 201
    assert post(client, paste).status_code == 429
    assert not IdempotencyRecord.objects.exists()
    caches["throttle"].clear()
    assert post(client, paste).status_code == 201


def test_replays_do_not_count_against_the_create_rate(client, paste, settings):
    settings.API_CREATE_RATE = "2/minute"
    first = post(client, paste)
    for _ in range(5):
        assert_replay_of(first, post(client, paste))
    assert post(client, explain_table(table="other"), key="a second key").status_code == 201
    assert post(client, paste, key=None).status_code == 429


def test_a_crash_before_commit_stores_neither_the_explain_nor_the_record(client, paste):
    remember = idempotency.Attempt.remember

    def remember_then_lose_the_connection(self, explain, token):
        remember(self, explain, token)
        raise OperationalError("server closed the connection unexpectedly")

    with mock.patch.object(idempotency.Attempt, "remember", remember_then_lose_the_connection):
        lost = post(client, paste)
    assert lost.status_code == 503 and lost["Retry-After"].isdigit()
    assert not Explain.objects.exists()
    assert not IdempotencyRecord.objects.exists()
    retry = post(client, paste)
    assert retry.status_code == 201
    assert not retry.has_header("Idempotent-Replayed")
    assert Explain.objects.count() == 1


def test_a_request_that_loses_the_race_for_its_key_replays_the_winner(client, paste):
    """The lookup before saving missed a concurrent request's record: the unique key refuses the
    second record, its explain is rolled back and the winner's answer is sent."""
    first = post(client, paste)
    find = idempotency.find
    with mock.patch.object(idempotency, "find", side_effect=[None, find(KEY)]):
        again = post(client, paste)
    assert_replay_of(first, again)
    assert Explain.objects.count() == 1


def test_a_key_taken_by_a_record_that_cannot_be_read_is_409_in_progress(client, paste):
    post(client, paste)
    with mock.patch.object(idempotency, "find", return_value=None):
        response = post(client, paste)
    assert response.status_code == 409
    assert "in progress" in response.json()["error"]
    assert Explain.objects.count() == 1


def test_the_record_keeps_neither_the_key_nor_the_delete_token_nor_the_paste_hash(client, paste):
    data = post(client, paste, query="SELECT 1").json()
    record = IdempotencyRecord.objects.get()
    stored = " ".join([record.key_hash, record.request_hash, record.masked_delete_token])
    assert KEY not in stored
    assert data["delete_token"] not in stored
    assert data["delete_token"].encode().hex() not in stored
    assert hashlib.sha256(KEY.encode()).hexdigest() != record.key_hash
    assert hashlib.sha256(paste.encode()).hexdigest() not in stored


def test_schema_documents_the_key_header_and_the_409(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    create = next(op for path, op in schema["paths"].items() if path.rstrip("/") == "/api/v1/explains")["post"]
    headers = {p["name"] for p in create["parameters"] if p["in"] == "header"}
    assert idempotency.KEY_HEADER in headers
    assert "409" in create["responses"]
    assert idempotency.REPLAYED_HEADER in create["responses"]["201"]["headers"]
