"""What a shared link shows before it is opened: og: tags, the icon at /favicon.ico."""

from __future__ import annotations

import struct

import pytest
from django.test import Client

from pastebin.models import Explain
from tests.pastebin.test_edit import HOSTILE, save
from tests.ui.html import parse

pytestmark = pytest.mark.django_db


def meta(html: str) -> dict[str, str]:
    doc = parse(html)
    return {m.attrs.get("property") or m.attrs.get("name"): m.attrs.get("content") for m in doc.find_all("meta")}


def test_og_tags_give_the_title_and_the_findings_count_not_the_paste(client):
    slug = save(client, title="Slow report", query="SELECT secret_column FROM payroll")
    explain = Explain.objects.get(slug=slug)
    findings = explain.analysis["findings"]
    tags = meta(Client().get(f"/e/{slug}/").content.decode())
    assert tags["og:title"] == "Slow report"
    assert tags["og:url"] == f"http://testserver/e/{slug}/"
    assert tags["og:type"] == "website" and tags["og:site_name"] == "Explain Analyzer"
    description = tags["og:description"]
    assert description == tags["description"]
    assert f"{len(findings)} finding" in description and f"{len(explain.analysis['rows'])} row" in description
    for word in ("payroll", "secret_column", *(r["table"] for r in explain.analysis["rows"] if r.get("table"))):
        assert word not in description
    assert tags["robots"] == "noindex, nofollow"


def test_og_title_without_a_title_and_with_a_hostile_one(client):
    slug = save(client, title="")
    assert meta(Client().get(f"/e/{slug}/").content.decode())["og:title"] == f"Saved explain {slug}"
    hostile = save(client, title=HOSTILE)
    html = Client().get(f"/e/{hostile}/").content.decode()
    assert meta(html)["og:title"] == HOSTILE
    assert '<script>alert("t")' not in html and 'content="&quot;&gt;&lt;script&gt;' in html


def test_og_description_counts_by_severity():
    from pastebin.permalink import describe_analysis

    analysis = {
        "rows": [{}],
        "findings": [{"severity": "bad"}, {"severity": "warning"}, {"severity": "warning"}, {"severity": "info"}],
    }
    assert describe_analysis(analysis) == "EXPLAIN of 1 row: 4 findings (1 bad, 2 warnings, 1 info)."
    assert describe_analysis({"rows": [{}, {}], "findings": [{"severity": "good"}]}) == (
        "EXPLAIN of 2 rows: 1 finding (1 good)."
    )
    assert describe_analysis({}) == "EXPLAIN of 0 rows: 0 findings."


def test_favicon_ico_is_a_real_cacheable_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert "public" in response["Cache-Control"] and "max-age=604800" in response["Cache-Control"]
    data = response.content
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count == 3
    sizes = []
    for index in range(count):
        width, height, _, _, _, _, length, offset = struct.unpack("<BBBBHHII", data[6 + 16 * index : 22 + 16 * index])
        assert data[offset : offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(data)
        sizes.append((width, height))
    assert sizes == [(16, 16), (32, 32), (48, 48)]
    assert client.get("/favicon.ico", headers={"If-None-Match": response["ETag"]}).status_code == 304
    assert client.head("/favicon.ico").status_code == 200
    assert client.post("/favicon.ico").status_code == 405
    assert '<link rel="icon" href="/favicon.ico"' in client.get("/").content.decode()
