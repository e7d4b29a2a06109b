"""The compare page: two saved explains side by side, over HTTP."""

from __future__ import annotations

import re

import pytest

from tests.ui.conftest import read_fixture
from tests.ui.html import parse

pytestmark = pytest.mark.django_db

BEFORE = read_fixture("no_badge_table.txt")
# After adding an index on the subquery's table: b is read through it, a few rows per lookup.
AFTER = BEFORE.replace(
    "| ALL  | NULL          | NULL     | NULL    | NULL  | 5603 |",
    "| ref  | idx_emp       | idx_emp  | 4       | e.id  | 2    |",
)


def save(client, text: str, title: str) -> str:
    response = client.post("/", {"explain": text, "title": title, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302, response.content
    return re.fullmatch(r"/e/(\w+)/", response["Location"]).group(1)


def test_compare_shows_changed_tables_and_rows_examined(client):
    assert AFTER != BEFORE
    a, b = save(client, BEFORE, "before"), save(client, AFTER, "after <index>")
    response = client.get(f"/compare/{a}/{b}/")
    assert response.status_code == 200
    assert "noindex" in response["X-Robots-Tag"]
    doc = parse(response.content)
    rows = doc.find_all("table", cls="compare-table")[0].find_all("tbody")[0].find_all("tr")
    status = {r.find_all("th")[0].text: r.find_all("span", cls="status-badge")[0].text for r in rows}
    assert status == {"e": "same", "b": "changed"}
    changed = next(r for r in rows if "status-changed" in r.classes)
    changes = {
        d.find_all("dt")[0].text: (d.find_all("span", cls="before")[0].text, d.find_all("span", cls="after")[0].text)
        for d in changed.find_all("div")
    }
    assert (
        changes["type"] == ("ALL", "ref") and changes["key"] == ("NULL", "idx_emp") and changes["rows"] == ("5603", "2")
    )
    figures = doc.find_all("div", cls="examined-figures")[0].text
    # 868 + 5603 rows before (two SELECTs), 868 + 2 after.
    assert "6,471" in figures and "870" in figures and "7.4× fewer" in figures
    # Both analyses, with their own anchors; the table links to the after plan's row.
    assert doc.by_id("a-row-1") is not None and doc.by_id("b-row-1") is not None
    assert changed.find_all("a")[0].attrs["href"] == "#b-row-1"
    assert "after &lt;index&gt;" in response.content.decode()
    ids = [n.attrs["id"] for n in doc.iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids))


def test_compare_form_on_the_permalink_accepts_a_slug_or_a_link(client):
    a, b = save(client, BEFORE, "before"), save(client, AFTER, "after")
    page = parse(client.get(f"/e/{a}/").content)
    form = page.find_all("form", action="/compare/")[0]
    assert form.find_all("input", name="a")[0].attrs["value"] == a
    for other in (b, f"http://testserver/e/{b}/", f"/e/{b}/raw/"):
        response = client.get("/compare/", {"a": a, "b": other})
        assert response.status_code == 302 and response["Location"] == f"/compare/{a}/{b}/"
    assert client.get("/compare/", {"a": "<script>", "b": b}).status_code == 404


@pytest.mark.parametrize(
    ("other", "said"),
    [
        ("not a slug!", "neither a link to a saved explain"),
        ("abcdefghjkmnpq", "There is no saved explain abcdefghjkmnpq."),
        ("SELF", "That is this explain"),
        ("GONE", "deleted by its creator"),
    ],
)
def test_a_bad_other_explain_is_an_error_beside_the_field(client, other, said):
    a, gone = save(client, BEFORE, "before"), save(client, AFTER, "after")
    client.post(f"/e/{gone}/delete/")
    given = {"SELF": a, "GONE": gone}.get(other, other)
    page = client.get("/compare/", {"a": a, "b": given})
    assert page.status_code == 400
    doc = parse(page.content)
    form = doc.by_id("compare-form")
    field = doc.by_id("compare-other")
    assert field.attrs["value"] == given and field.attrs["aria-invalid"] == "true"
    error = form.find_all("p", cls="field-error")[0]
    assert error.attrs["id"] == field.attrs["aria-describedby"] and error.attrs["role"] == "alert"
    assert said in error.text
    assert not doc.find_all("ul", cls="messages")  # no banner far from the field
    # With htmx the form comes back alone, with its error, to replace the one on the page (a 2xx, which htmx swaps).
    fragment = client.get("/compare/", {"a": a, "b": given}, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert html.lstrip().startswith("<form") and 'id="compare-error"' in html and "<html" not in html


def test_with_htmx_a_good_other_explain_navigates_to_the_comparison(client):
    a, b = save(client, BEFORE, "before"), save(client, AFTER, "after")
    response = client.get("/compare/", {"a": a, "b": b}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response["HX-Redirect"] == f"/compare/{a}/{b}/"


def test_hostile_text_given_to_compare_is_escaped(client):
    a = save(client, BEFORE, "before")
    html = client.get("/compare/", {"a": a, "b": '"><script>alert(1)</script>'}).content.decode()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_compare_unknown_or_gone_explains(client):
    a = save(client, BEFORE, "before")
    assert client.get(f"/compare/{a}/NoSuchSlug234/").status_code == 404
    assert client.get(f"/compare/NoSuchSlug234/{a}/").status_code == 404
    b = save(client, AFTER, "after")
    assert client.post(f"/e/{b}/delete/").status_code == 302
    assert client.get(f"/compare/{a}/{b}/").status_code == 410


def test_side_by_side_sections_nest_under_before_and_after(client):
    a, b = save(client, BEFORE, "before"), save(client, AFTER, "after")
    doc = parse(client.get(f"/compare/{a}/{b}/").content)
    sides = doc.find_all("section", cls="side")
    assert [s.find_all("h2")[0].text for s in sides] == ["Before", "After"]
    for side, which in zip(sides, ("before", "after"), strict=True):
        # Each heading says, unseen, which side it is on: no two landmarks of the page share a name.
        assert len(side.find_all("h2")) == 1 and f"Plan ({which})" in [h.text for h in side.find_all("h3")]
        assert side.find_all("section", cls="analysis")[0].attrs["aria-label"] == f"Analysis ({which})"
