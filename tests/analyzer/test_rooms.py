"""The analyzer's layout holds: only `analyzer.web` may import Django or DRF, and the engine's
rooms import along the pipeline (repair -> readers -> check -> model -> insight -> render), never back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "analyzer"
WEB_ONLY = ("django", "rest_framework", "drf_spectacular")
# Which rooms each room may import from (besides itself and the shared `wording`, `model`, `deadline`): only
# those before it in the pipeline, never one after it.
ALLOWED = {
    "repair": set(),
    "readers": {"repair"},
    "check": {"repair", "readers"},
    "insight": {"repair", "readers", "check"},
    "render": {"repair", "readers", "check", "insight"},
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _engine_files() -> list[Path]:
    return [p for p in sorted(ENGINE.rglob("*.py")) if "web" not in p.relative_to(ENGINE).parts]


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_does_not_import_django(path):
    offending = [name for name in _imports(path) if name.split(".")[0] in WEB_ONLY]
    assert not offending, f"{path.relative_to(ENGINE)} imports {offending}: only analyzer/web/ may"


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_rooms_import_along_the_pipeline(room):
    for path in sorted((ENGINE / room).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "analyzer" or len(parts) < 2 or parts[1] not in ALLOWED:
                continue
            assert parts[1] == room or parts[1] in ALLOWED[room], f"{path.relative_to(ENGINE)} imports {name}"


def test_the_checker_sees_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from django.conf import settings\nimport rest_framework\n")
    assert set(_imports(sample)) == {"django.conf", "rest_framework"}


MAX_FUNCTION_LINES = 60


def test_engine_functions_are_short():
    long = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ENGINE)}:{node.lineno} {node.name} ({length} lines)")
    assert not long, "split these into named steps: " + ", ".join(long)
