"""OpenAPI schema and the interactive docs, served without inline scripts or a CDN."""

from __future__ import annotations

import re
import warnings

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_schema_generates_without_warnings_or_errors(tmp_path, capsys):
    out = tmp_path / "schema.yaml"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/v1/explains/" in text
    assert "/api/v1/explains/{slug}" in text


@pytest.mark.parametrize("url", ["/api/v1/schema/", "/api/v1/schema"])
def test_schema_is_served(client, url):
    response = client.get(url, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert any(p.startswith("/api/v1/explains") for p in paths)
    create = next(op for p, op in paths.items() if p.rstrip("/") == "/api/v1/explains")["post"]
    assert "429" in create["responses"]


def test_docs_page_has_no_inline_script_and_loads_js_from_our_origin(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL)
    assert scripts
    for attributes, body in scripts:
        assert body.strip() == ""
        src = re.search(r'src="([^"]+)"', attributes).group(1)
        assert src.startswith("/"), src
        assert not src.startswith("//")
    assert "<style" not in html
    assert " style=" not in html
    assert "Content-Security-Policy" in response
    init = re.findall(r'<script src="([^"]*script[^"]*)"', html)[-1].replace("&amp;", "&")
    js = client.get(init)
    assert js.status_code == 200
    assert "javascript" in js["Content-Type"]
    assert "SwaggerUIBundle" in js.content.decode()


def test_docs_assets_are_our_static_files(client):
    """Swagger UI comes from the sidecar package through our static files (collectstatic), not a CDN."""
    html = client.get("/api/v1/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
    assert len(assets) >= 3
    for asset in assets:
        assert finders.find(asset), asset


def test_schema_describes_the_analyze_answer_and_its_plan_model(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = schema["components"]["schemas"]
    answer = schemas["AnalysisOutput"]["properties"]
    assert {"rows", "annotations", "findings", "notices", "lines", "tree"} <= set(answer)
    span = schemas["LineSpanOutput"]["properties"]
    assert set(span) == {"first", "last", "role", "reason"}
    assert ["plan", "warnings", "query", "ignored"] in [component.get("enum") for component in schemas.values()]
    node = schemas["PlanNodeOutput"]["properties"]
    assert {"operation", "join_algorithm", "rows_estimated", "loops", "time_last_ms", "row", "children"} <= set(node)
    enums = [component.get("enum") for component in schemas.values()]
    assert ["nested_loop", "block_nested_loop", "hash", "batched_key_access"] in enums
    analyze = schema["paths"]["/api/v1/analyze/"]["post"]["responses"]["200"]["content"]["application/json"]
    assert analyze["schema"]["$ref"].endswith("/AnalysisOutput")
