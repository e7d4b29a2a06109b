from __future__ import annotations

from pathlib import Path

import pytest

UI_FIXTURES = Path(__file__).parent.parent / "fixtures" / "ui"


def read_fixture(name: str) -> str:
    return (UI_FIXTURES / name).read_text(encoding="utf-8")


@pytest.fixture
def htmx_headers() -> dict[str, str]:
    return {"HX-Request": "true"}
