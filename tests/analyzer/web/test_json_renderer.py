"""The API's JSON renderer writes exactly the bytes of DRF's own `JSONRenderer`."""

from __future__ import annotations

import datetime
import decimal
import math
import random
import struct
import uuid
from pathlib import Path

import pytest
from rest_framework import renderers

from analyzer import ParseError, analyze
from analyzer.web.renderers import Joined, JSONRenderer

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _both(data, media_type="application/json", context=None):
    def render(renderer):
        try:
            return renderer.render(data, media_type, context or {})
        except (TypeError, ValueError) as exc:
            return type(exc)

    return render(renderers.JSONRenderer()), render(JSONRenderer())


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        [],
        {"a": 1, "b": [1.5, -0.0, 0.0, None, True, False], "c": {"d": "e"}},
        {"text": "é ü 中 😀 \u2028 \u2029 \x00 \x1f \x7f \" \\ / \n\t\r\b\f"},
        {"floats": [1e-05, 3e-06, 9.99e-05, 0.0001, 1e-09, 1e-10, 1e16, 1e15, 1.5e300, 5e-324, 0.1, 1 / 3]},
        {"negative": [-1e-05, -3e-06, -1e-07, -1e22]},
        {"big": 2**64},
        {"big": -(2**63) - 1},
        {1: "int key"},
        {"when": datetime.datetime(2026, 11, 25, 10, 0, 0, 123456, tzinfo=datetime.UTC)},
        {"day": datetime.date(2026, 11, 25), "amount": decimal.Decimal("1.25"), "id": uuid.UUID(int=7)},
        {"set": object()},
        {"string e-5,": "e-5,", "zeros": "0.00001"},
        ("tuple", 1),
    ],
)
def test_same_bytes_as_drf(data):
    old, new = _both(data)
    assert new == old


def test_nan_written_as_null():
    """DRF's strict encoder refuses NaN; orjson writes null (the analyzer keeps only finite numbers)."""
    assert _both({"nan": math.nan}) == (ValueError, b'{"nan":null}')


def test_indented_and_refusals_handed_to_drf():
    data = {"a": [1, {"b": 2.5e-06}]}
    assert _both(data, "application/json; indent=4")[1] == _both(data, "application/json; indent=4")[0]
    assert b"\n    " in JSONRenderer().render(data, "application/json; indent=4", {})
    assert _both(data, None, {"indent": 2})[1] == _both(data, None, {"indent": 2})[0]


def test_random_floats():
    rng = random.Random(11)
    values = []
    while len(values) < 20000:
        value = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        if math.isfinite(value):
            values.append(value)
    values += [round(rng.uniform(-1e6, 1e6), rng.randint(0, 8)) for _ in range(5000)]
    values += [rng.uniform(-1e-3, 1e-3) for _ in range(5000)]
    for start in range(0, len(values), 50):
        data = {"x": values[start : start + 50]}
        old, new = _both(data)
        assert new == old, data


def test_every_fixture_analysis():
    compared = 0
    for path in sorted(FIXTURES.rglob("*")):
        if not path.is_file():
            continue
        try:
            text = path.read_text("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        try:
            data = analyze(text, max_bytes=2_000_000).to_dict()
        except ParseError as exc:
            data = {"error": exc.message}
        old, new = _both(data)
        assert new == old, path
        compared += 1
    assert compared > 100


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ({"slug": "a", "when": None}, {"format": "table", "rows": [{"x": 1.5e-06, "y": "\u2028"}]}),
        ({}, {"rows": []}),
        ({"slug": "a"}, {}),
        ({}, {}),
    ],
)
@pytest.mark.parametrize("media_type", ["application/json", "application/json; indent=4", None])
def test_a_joined_object_is_written_as_its_members_merged(head, tail, media_type):
    """An object kept as JSON and joined to another is written as DRF writes the two merged,
    compact or indented."""
    joined = JSONRenderer().render(Joined(head, JSONRenderer().render(tail)), media_type, {})
    assert joined == renderers.JSONRenderer().render({**head, **tail}, media_type, {})
