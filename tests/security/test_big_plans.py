"""A 1 MiB paste can hold tens of thousands of rows: pages show a bounded part of them, and say so."""

from __future__ import annotations

import re

import pytest

from analyzer.render.view import MAX_SHOWN_FINDINGS, MAX_SHOWN_ROWS
from tests.ui.html import parse

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]


def many_rows(count: int) -> str:
    """Batch output of a join of `count` full scans: one finding and several annotations per row."""
    lines = ["\t".join(COLUMNS)]
    lines += [
        f"1\tSIMPLE\tt{i}\tALL\tNULL\tNULL\tNULL\tNULL\t{1000 + i}\tUsing where; Using join buffer"
        for i in range(count)
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.django_db
def test_preview_and_permalink_of_a_huge_plan_are_bounded(client, create_explain):
    count = MAX_SHOWN_ROWS + 1500
    paste = many_rows(count)
    slug = create_explain(paste)["slug"]
    api = client.get(f"/api/v1/explains/{slug}/").json()
    assert len(api["analysis"]["rows"]) == count  # the data keeps every row
    # The permalink loads its clean copies when they are opened.
    table_part = client.get(f"/e/{slug}/parts/table/", headers={"HX-Request": "true"})
    for response, copy in (
        (client.post("/preview/", {"explain": paste}), None),
        (client.get(f"/e/{slug}/"), table_part),
    ):
        assert response.status_code == 200
        body = response.content.decode()
        doc = parse(body)
        plan = doc.find_all("table", cls="plan")[0]
        assert len(plan.find_all("tr")) == MAX_SHOWN_ROWS + 1  # the header row, then the rows shown
        # One entry per finding shown: a card of its own, or a line of a card grouping several.
        findings = [li for li in doc.find_all("section", cls="findings")[0].find_all("li") if "group" not in li.classes]
        assert len(findings) <= MAX_SHOWN_FINDINGS
        assert f"{count} rows" in doc.find_all("p", cls="summary")[0].text
        assert f"The first {MAX_SHOWN_ROWS} of {count} rows are shown" in body
        clean = (parse(copy.content) if copy else doc).by_id("clean-table").text
        assert "| t999 " in clean and "| t1000 " not in clean
        links = re.findall(r'href="#row-(\d+)"', body)
        assert links and max(int(n) for n in links) < MAX_SHOWN_ROWS  # no link to a row not on the page
        # Tooltips and cells grow with the rows shown, not with the rows pasted.
        assert len(body) < 40 * len(paste)


@pytest.mark.django_db
def test_compare_of_huge_plans_lists_the_changed_tables_first_and_is_bounded(client, create_explain):
    count = MAX_SHOWN_ROWS + 1500
    before = many_rows(count)
    after = before.replace("\tt2400\tALL\tNULL\tNULL\tNULL\tNULL\t", "\tt2400\tref\tidx\tidx\t4\tconst\t")
    assert after != before
    a, b = create_explain(before)["slug"], create_explain(after)["slug"]
    response = client.get(f"/compare/{a}/{b}/")
    assert response.status_code == 200
    body = response.content.decode()
    doc = parse(body)
    listed = doc.find_all("table", cls="compare-table")[0].find_all("tr")[1:]
    assert len(listed) == MAX_SHOWN_ROWS
    changed = [row for row in listed if "status-changed" in row.classes]
    assert [row.find_all("th")[0].text for row in changed] == ["t2400"]
    assert f"{MAX_SHOWN_ROWS} of {count} tables are listed" in body
    links = [int(n) for n in re.findall(r'href="#[ab]-row-(\d+)"', body)]
    assert links and max(links) < MAX_SHOWN_ROWS
