"""The permalink's CSRF tokens (config/csrf.py): Django's own, drawn from the system's randomness."""

from __future__ import annotations

from collections import Counter

import pytest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, _unmask_cipher_token
from django.test import Client, RequestFactory

from config.csrf import get_token, random_chars
from pastebin.saving import save_explain
from tests.pastebin.factories import explain_table


def test_a_new_visitor_gets_a_secret_and_a_masked_token_of_it():
    request = RequestFactory().get("/")
    token = get_token(request)
    secret = request.META["CSRF_COOKIE"]
    assert len(secret) == 32 and len(token) == 64 and set(secret + token) <= set(CSRF_ALLOWED_CHARS)
    assert _unmask_cipher_token(token) == secret and request.META["CSRF_COOKIE_NEEDS_UPDATE"]
    again = get_token(request)
    assert again != token and _unmask_cipher_token(again) == secret  # a fresh mask, the same secret


def test_a_visitor_s_secret_is_kept():
    request = RequestFactory().get("/")
    request.META["CSRF_COOKIE"] = random_chars()
    assert _unmask_cipher_token(get_token(request)) == request.META["CSRF_COOKIE"]


def test_every_character_is_drawn_evenly():
    counts = Counter("".join(random_chars() for _ in range(2000)))
    assert set(counts) == set(CSRF_ALLOWED_CHARS)
    expected = 2000 * 32 / len(CSRF_ALLOWED_CHARS)
    assert all(abs(count - expected) < 0.25 * expected for count in counts.values())


@pytest.mark.django_db
def test_the_cached_page_s_token_passes_the_csrf_check():
    explain = save_explain(explain_table()).explain
    client = Client(enforce_csrf_checks=True)
    page = client.get(explain.get_absolute_url())
    token = page.content.split(b'name="csrfmiddlewaretoken" value="')[1].split(b'"')[0].decode()
    denied = client.post(f"/e/{explain.slug}/delete/", {"token": "wrong"})
    assert denied.status_code == 403 and b"delete token is wrong" not in denied.content  # no CSRF token: refused
    answer = client.post(f"/e/{explain.slug}/delete/", {"token": "wrong", "csrfmiddlewaretoken": token})
    assert answer.status_code == 403 and b"delete token is wrong" in answer.content  # past the CSRF check
