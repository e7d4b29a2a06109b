"""Slugs: random, URL-safe, at least 72 bits, unique with a retry on collision."""

from __future__ import annotations

import math
from itertools import chain, repeat

import pytest

from pastebin import slugs
from pastebin.models import DeletedSlug, Explain
from pastebin.saving import save_explain
from tests.pastebin.factories import explain_table


def test_shape_and_entropy():
    assert len(set(slugs.ALPHABET)) == len(slugs.ALPHABET)
    assert not set("0O1lI") & set(slugs.ALPHABET)
    assert slugs.LENGTH * math.log2(len(slugs.ALPHABET)) >= 72
    for _ in range(200):
        assert slugs.SLUG_RE.match(slugs.new_slug())


def test_slugs_do_not_repeat_and_use_the_whole_alphabet():
    made = [slugs.new_slug() for _ in range(5000)]
    assert len(set(made)) == len(made)
    assert set("".join(made)) == set(slugs.ALPHABET)


@pytest.mark.django_db
def test_collision_draws_again():
    first = save_explain(explain_table()).explain
    taken_then_free = chain([first.slug, first.slug], repeat("FreshSlug23456"))
    second = save_explain(explain_table(), make_slug=lambda: next(taken_then_free)).explain
    assert second.slug == "FreshSlug23456"
    assert Explain.objects.count() == 2


@pytest.mark.django_db
def test_slugs_of_deleted_explains_are_never_reused():
    DeletedSlug.objects.create(slug="GoneSlug234567", deleted_at="2030-01-01T00:00Z")
    candidates = iter(["GoneSlug234567", "NewSlug2345678"])
    saved = save_explain(explain_table(), make_slug=lambda: next(candidates)).explain
    assert saved.slug == "NewSlug2345678"


@pytest.mark.django_db
def test_gives_up_after_repeated_collisions():
    first = save_explain(explain_table()).explain
    with pytest.raises(RuntimeError):
        save_explain(explain_table(), make_slug=lambda: first.slug)
