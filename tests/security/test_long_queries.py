"""Long queries are shown as escaped plain text: lexing one token per character is slow."""

from __future__ import annotations

import pytest

from analyzer.render.highlight import MAX_HIGHLIGHT_QUERY_CHARS
from tests.ui.html import parse


def query_block(client, paste: str, query: str):
    response = client.post("/preview/", {"explain": paste, "query": query})
    assert response.status_code == 200
    return parse(response.content).find_all("pre", cls="sql")[0]


@pytest.mark.django_db
def test_a_query_over_the_highlight_limit_is_plain_escaped_text(client, paste):
    query = "SELECT <b>" + "a." * (MAX_HIGHLIGHT_QUERY_CHARS // 2)
    assert len(query) > MAX_HIGHLIGHT_QUERY_CHARS
    block = query_block(client, paste, query)
    assert block.text == query
    assert not block.find_all("span") and not block.find_all("b")


@pytest.mark.django_db
def test_a_query_under_the_limit_is_highlighted(client, paste):
    query = "SELECT * FROM employees WHERE a IN (" + "1," * 1000 + "2)"
    block = query_block(client, paste, query)
    assert block.text == query
    assert block.find_all("span")
