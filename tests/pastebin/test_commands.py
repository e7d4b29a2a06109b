"""`manage.py reanalyze` (purge_expired is covered in test_expiry)."""

from __future__ import annotations

import importlib

import pytest
from django.core.management import call_command

import analyzer
from pastebin.models import Explain

pytestmark = pytest.mark.django_db


def test_reanalyze_updates_old_versions_only(create):
    old = create(title="old")
    current = create(title="current")
    Explain.objects.filter(slug=old["slug"]).update(parser_version="0", analysis={"format": "table", "rows": []})
    Explain.objects.filter(slug=current["slug"]).update(analysis={"format": "table", "rows": [], "marker": True})
    call_command("reanalyze", "--jobs", "1")
    refreshed = Explain.objects.get(slug=old["slug"])
    assert refreshed.parser_version == analyzer.PARSER_VERSION
    assert refreshed.analysis["rows"][0]["table"] == "employees"
    assert "employees" in refreshed.search_text
    assert Explain.objects.get(slug=current["slug"]).analysis.get("marker") is True


def test_reanalyze_all_and_by_slug(create):
    one, two = create(), create()
    Explain.objects.update(analysis={"format": "table", "rows": []})
    call_command("reanalyze", "--all", "--jobs", "1", one["slug"])
    assert Explain.objects.get(slug=one["slug"]).analysis["rows"]
    assert Explain.objects.get(slug=two["slug"]).analysis["rows"] == []


def test_reanalyze_keeps_the_old_analysis_when_the_paste_no_longer_parses(create, capsys):
    data = create()
    Explain.objects.filter(slug=data["slug"]).update(raw_explain="no longer an explain", parser_version="0")
    call_command("reanalyze", "--jobs", "1")
    assert Explain.objects.get(slug=data["slug"]).analysis["rows"]
    assert data["slug"] in capsys.readouterr().err


def test_migration_adds_the_plan_model_to_analyses_stored_without_it(create):
    from django.apps import apps

    migration = importlib.import_module("pastebin.migrations.0003_analysis_tree")
    data = create()
    stored = Explain.objects.get(slug=data["slug"]).analysis
    expected = stored.pop("tree")
    Explain.objects.filter(slug=data["slug"]).update(analysis=stored)
    migration.add_trees(apps, None)
    assert Explain.objects.get(slug=data["slug"]).analysis["tree"] == expected
    migration.remove_trees(apps, None)
    assert "tree" not in Explain.objects.get(slug=data["slug"]).analysis


def test_permalink_of_an_analysis_stored_without_the_model_still_shows_its_plan_tree(create, client):
    data = create()
    stored = Explain.objects.get(slug=data["slug"]).analysis
    del stored["tree"]
    Explain.objects.filter(slug=data["slug"]).update(analysis=stored, parser_version="1")
    page = client.get(f"/e/{data['slug']}/").content.decode()
    assert 'class="tree"' in page and "employees" in page
