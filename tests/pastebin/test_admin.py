"""Moderation in the Django admin: hide or delete reported explains."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from pastebin.models import AbuseReport, DeletedSlug, Explain

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = User.objects.create_superuser("mod", "mod@example.org", "a-long-test-password")
    client.force_login(user)
    return client


def report(client, slug: str) -> AbuseReport:
    assert client.post(f"/e/{slug}/report/", {"reason": "personal data"}).status_code == 302
    return AbuseReport.objects.get(explain__slug=slug)


def test_admin_lists_reports_and_explains(staff_client, create):
    data = create(title="reported one")
    report(staff_client, data["slug"])
    assert "personal data" in staff_client.get("/admin/pastebin/abusereport/").content.decode()
    assert "reported one" in staff_client.get("/admin/pastebin/explain/").content.decode()
    change = staff_client.get(f"/admin/pastebin/explain/{data['slug']}/change/")
    assert change.status_code == 200


def test_hide_action_makes_the_permalink_410(staff_client, client, create):
    data = create(visibility="public")
    filed = report(staff_client, data["slug"])
    response = staff_client.post(
        "/admin/pastebin/abusereport/", {"action": "hide_explains", "_selected_action": [filed.pk]}
    )
    assert response.status_code == 302
    assert Explain.objects.get(slug=data["slug"]).hidden
    assert AbuseReport.objects.get(pk=filed.pk).resolved
    assert client.get(data["url"]).status_code == 410
    assert client.get(data["api_url"]).status_code == 410
    assert client.get("/api/v1/explains/").json()["results"] == []


def test_delete_action_removes_it_and_leaves_a_tombstone(staff_client, client, create):
    data = create()
    filed = report(staff_client, data["slug"])
    response = staff_client.post(
        "/admin/pastebin/abusereport/", {"action": "delete_explains", "_selected_action": [filed.pk]}
    )
    assert response.status_code == 302
    assert not Explain.objects.filter(slug=data["slug"]).exists()
    assert DeletedSlug.objects.get(slug=data["slug"]).reason == "moderated"
    assert client.get(data["url"]).status_code == 410


def test_admin_delete_selected_also_leaves_a_tombstone(staff_client, client, create):
    data = create()
    response = staff_client.post(
        "/admin/pastebin/explain/",
        {"action": "delete_selected", "_selected_action": [data["slug"]], "post": "yes"},
    )
    assert response.status_code == 302
    assert DeletedSlug.objects.filter(slug=data["slug"]).exists()
    assert client.get(data["url"]).status_code == 410
