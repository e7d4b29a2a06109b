"""Every captured sample through the HTTP API, checked the way the samples' contract states it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import FIXTURES

SAMPLES = sorted((FIXTURES / "samples").glob("*.json"))


def _as_text(value):
    return None if value is None else str(value)


def _mentions(value, name: str) -> bool:
    return name in json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_through_api(client, path):
    sample = json.loads(path.read_text(encoding="utf-8"))
    expect = sample["expect"]
    response = client.post("/api/v1/analyze/", sample["input"].encode(), content_type="text/plain; charset=utf-8")

    if expect.get("unrecoverable"):
        if response.status_code >= 400:
            assert response.status_code < 500
            return
        data = response.json()
        messages = " ".join(data["notices"]) + " " + " ".join(data["warnings"])
        assert "truncated" in messages.lower()
        assert data["truncated"] is True
        return

    assert response.status_code == 200, response.content
    data = response.json()
    assert data["format"] == expect["format"]
    if "tables" in expect:
        for name in expect["tables"]:
            assert _mentions(data["plan"], name) or _mentions(data["rows"], name)
        return
    assert data["columns"] == expect["columns"]
    got = [{k: _as_text(v) for k, v in row.items()} for row in data["rows"]]
    assert got == expect["rows"]


def test_there_are_samples():
    assert len(SAMPLES) >= 25
