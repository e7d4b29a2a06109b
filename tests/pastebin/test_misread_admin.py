"""The misread reports' moderation queue in the Django admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from pastebin.models import MisreadReport, MisreadStatus
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'
QUEUE = "/admin/pastebin/misreadreport/"


@pytest.fixture
def staff_client(client):
    user = User.objects.create_superuser("mod", "mod@example.org", "a-long-test-password")
    client.force_login(user)
    return client


def file(client, url: str = "/misread/", **values) -> MisreadReport:
    data = {f"misread-{name}": value for name, value in values.items()}
    assert client.post(url, data).status_code == 302
    return MisreadReport.objects.latest("id")


def test_the_queue_lists_date_status_format_excerpt_comment_and_the_explain(staff_client, create):
    slug = create()["slug"]
    file(staff_client, f"/e/{slug}/misread/", comment="only the first row was read")
    file(staff_client, explain=explain_table(table="unsaved_one"), comment="the key is wrong")
    body = staff_client.get(QUEUE).content.decode()
    assert "only the first row was read" in body and "the key is wrong" in body
    assert "| id | select_type | table | type |" in body  # the start of each paste, without its borders
    assert f'<a href="/e/{slug}/">{slug}</a>' in body
    assert "New" in body and "table" in body
    assert "Added to the corpus" in body  # the status filter offers every status


def test_the_status_filter_and_the_actions(staff_client):
    first = file(staff_client, explain=explain_table(), comment="zzfirst")
    second = file(staff_client, explain=explain_table(), comment="zzsecond")
    for action, status in [("mark_triaged", "triaged"), ("mark_added", "added"), ("mark_dismissed", "dismissed")]:
        response = staff_client.post(QUEUE, {"action": action, "_selected_action": [first.pk]})
        assert response.status_code == 302
        assert MisreadReport.objects.get(pk=first.pk).status == status
    assert MisreadReport.objects.get(pk=second.pk).status == MisreadStatus.NEW
    shown = staff_client.get(QUEUE, {"status__exact": "new"}).content.decode()
    assert "zzsecond" in shown and "zzfirst" not in shown


def test_the_change_page_shows_the_whole_paste_and_edits_only_the_status(staff_client):
    paste = "chat before\n" + explain_table() + "\n" + "tail " * 100
    report = file(staff_client, explain=paste, comment="look")
    page = staff_client.get(f"{QUEUE}{report.pk}/change/")
    assert page.status_code == 200
    assert "tail " * 100 in page.content.decode()
    response = staff_client.post(f"{QUEUE}{report.pk}/change/", {"status": "dismissed", "comment": "changed"})
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == "dismissed" and report.comment == "look"


def test_reports_are_not_added_by_hand(staff_client):
    assert staff_client.get(f"{QUEUE}add/").status_code == 403


def test_the_paste_and_the_comment_are_escaped_in_the_list_and_the_change_page(staff_client):
    report = file(staff_client, explain=f"{HOSTILE}\n{explain_table()}", comment=f"{HOSTILE} <b>bold</b>")
    for url in (QUEUE, f"{QUEUE}{report.pk}/change/", f"{QUEUE}?q=script"):
        body = staff_client.get(url).content.decode()
        assert HOSTILE not in body and "<b>bold</b>" not in body, url
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body, url


def test_only_staff_see_the_queue(client, create):
    file(client, explain=explain_table())
    report = MisreadReport.objects.get()
    for url in (QUEUE, f"{QUEUE}{report.pk}/change/"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
