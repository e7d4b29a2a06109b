"""Abuse reports are limited per client address, so nobody can flood the moderators' queue."""

from __future__ import annotations

import pytest

from pastebin.models import AbuseReport


@pytest.mark.django_db
def test_reports_over_the_rate_are_429_and_not_stored(client, settings, create_explain):
    settings.REPORT_RATE = "2/hour"
    slug = create_explain()["slug"]
    statuses = [client.post(f"/e/{slug}/report/", {"reason": f"spam {i}"}).status_code for i in range(3)]
    assert statuses == [302, 302, 429]
    refused = client.post(f"/e/{slug}/report/", {"reason": "more"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many reports" in refused.content.decode()
    assert AbuseReport.objects.count() == 2
    other = client.post(f"/e/{slug}/report/", {"reason": "from elsewhere"}, REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 302
    assert client.get(f"/e/{slug}/report/").status_code == 200  # reading the form is not counted
