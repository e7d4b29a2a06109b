"""The strict Content-Security-Policy, and pages that need nothing it forbids."""

from __future__ import annotations

import re

import pytest

from tests.ui.conftest import read_fixture
from tests.ui.html import parse


def directives(header: str) -> dict[str, list[str]]:
    parts = (p.strip().split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


@pytest.mark.parametrize("path", ["/preview/", "/terms/"])
def test_csp_header_has_no_unsafe_inline_scripts(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy.get("style-src", [])
    assert "'unsafe-eval'" not in policy["script-src"]


@pytest.mark.parametrize("path", ["/preview/", "/terms/"])
def test_pages_use_no_inline_script_style_or_handlers(client, path):
    if path == "/preview/":
        response = client.post(
            path, {"explain": read_fixture("no_badge_table.txt"), "query": "SELECT 1 FROM employees e"}
        )
    else:
        response = client.get(path)
    doc = parse(response.content)
    for node in doc.iter():
        assert "style" not in node.attrs, f"inline style on <{node.tag}>"
        assert not any(name.startswith("on") for name in node.attrs), f"inline handler on <{node.tag}>"
        assert not any(name.startswith("hx-on") for name in node.attrs), f"hx-on attribute on <{node.tag}>"
        if node.tag == "script":
            assert node.attrs.get("src") and not node.text.strip()
        assert node.tag != "style"


def test_htmx_is_vendored_and_configured_for_the_csp(client):
    doc = parse(client.get("/preview/").content)
    sources = [s.attrs["src"] for s in doc.find_all("script")]
    assert any(re.fullmatch(r"/static/vendor/htmx-\d+\.\d+\.\d+\.min\.js", s) for s in sources)
    config = doc.find_all("meta", name="htmx-config")[0].attrs["content"]
    assert '"allowEval": false' in config and '"includeIndicatorStyles": false' in config
    assert '"allowScriptTags": false' in config
    assert doc.find_all("a", cls="skip-link")[0].attrs["href"] == "#main"
    assert doc.by_id("main").tag == "main"
