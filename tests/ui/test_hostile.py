"""Hostile strings in cells, the query and the raw paste are shown as text, never as markup."""

from __future__ import annotations

import pytest

from tests.ui.html import parse

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '"><svg onload=alert(3)>',
    "javascript:alert(4)",
]


def hostile_table() -> str:
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
    rows = [
        ["1", "SIMPLE", PAYLOADS[0], "ALL", PAYLOADS[1], "NULL", "NULL", "NULL", "10", PAYLOADS[2]],
        ["1", "SIMPLE", PAYLOADS[3], "ref", "idx", "idx", "4", PAYLOADS[2], "1", "Using where; " + PAYLOADS[0]],
    ]
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([border, line(columns), border, *(line(r) for r in rows), border]) + "\n"


QUERY = "SELECT * FROM `<script>alert(5)</script>` WHERE a = '\"><svg onload=alert(6)>' AND b = 'javascript:alert(7)' -- <img src=x onerror=alert(8)>"


def assert_inert(markup: str) -> None:
    doc = parse(markup)
    assert not [n for n in doc.iter() if n.tag in {"script", "img", "svg"} and "src" not in n.attrs], (
        "an injected element was rendered"
    )
    for node in doc.iter():
        for name, value in node.attrs.items():
            assert not name.startswith("on"), f"event handler attribute {name} on <{node.tag}>"
            assert not (value or "").strip().lower().startswith("javascript:"), f"javascript: URL in {name}"
    scripts = [n for n in doc.iter() if n.tag == "script"]
    assert all(n.attrs.get("src", "").startswith("/static/") and not n.text.strip() for n in scripts)


@pytest.mark.parametrize("htmx", [True, False])
def test_hostile_cells_query_and_raw_are_escaped(client, htmx):
    paste = hostile_table()
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post("/preview/", {"explain": paste, "query": QUERY}, headers=headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert_inert(body)
    doc = parse(body)
    assert doc.find_all("table", cls="plan"), "the hostile paste still parses as a table"
    text = doc.find_all("section", cls="analysis")[0].text
    for payload in PAYLOADS:
        assert payload in text  # shown literally
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    raw = doc.find_all("pre", cls="raw")[0]
    assert raw.text_except("line-mark") == paste
    query = doc.find_all("pre", cls="sql")[0]
    assert query.text == QUERY


def test_hostile_text_that_is_no_explain_is_escaped_in_the_error(client):
    text = "<script>alert(1)</script> <img src=x onerror=alert(2)>"
    response = client.post("/preview/", {"explain": text, "query": text})
    assert response.status_code == 400
    assert_inert(response.content.decode())
    # A leading newline in a textarea is dropped by HTML parsers; Django writes one.
    assert parse(response.content).find_all("textarea", name="explain")[0].text.removeprefix("\n") == text
