"""The SVG chart builder on its own, with synthetic tables (no database)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from notes.charts import linear_ticks, log_ticks, nice_step, render_chart
from notes.schema import check_table
from tests.notes.helpers import SVG, classes, marks_by_series


def line_table(**changes) -> dict:
    table = {
        "title": "Latency",
        "chart": "line",
        "x": {"label": "Clients", "unit": "", "scale": "log", "values": [1, 10, 100, 1000]},
        "y": {"label": "Time", "unit": "ms", "better": "lower", "decimals": 1},
        "series": [
            {"name": "A", "values": [1.0, None, 3.0, 4.0]},
            {"name": "B", "values": [2.0, 2.5, 3.5, 9.0]},
            {"name": "Derived", "values": [1, 2, 3, 4], "plot": False, "unit": "%"},
        ],
    }
    table.update(changes)
    check_table(table)
    return table


def test_nice_steps_and_ticks():
    assert nice_step(100) == 20 and nice_step(7) == 2 and nice_step(0.9) == 0.2
    top, ticks, decimals = linear_ticks(25215.29)
    assert top >= 25215.29 and ticks[0] == 0 and decimals == 0
    assert linear_ticks(0.404)[2] == 1
    assert log_ticks(0.32, 2723.36) == [0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0]


def test_nulls_draw_nothing_and_break_the_line():
    svg = ET.fromstring(render_chart(line_table(), "c1"))
    marks = marks_by_series(svg)
    assert list(marks) == ["A", "B"]  # the unplotted series is not drawn
    assert [len(v) for v in marks.values()] == [3, 4]
    lines = [el for el in svg.iter(f"{SVG}polyline") if "line" in classes(el)]
    assert len(lines) == 2  # A: its lone first point starts no line, then one segment; B: one segment


def test_log_positions_are_evenly_spaced_per_decade():
    svg = ET.fromstring(render_chart(line_table(), "c1"))
    xs = [float(mark.get("cx")) for mark in marks_by_series(svg)["B"]]
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert max(gaps) - min(gaps) < 0.02


def test_linear_x_axis_spacing_follows_values():
    table = line_table(x={"label": "Clients", "unit": "", "scale": "linear", "values": [0, 10, 30, 40]})
    xs = [float(m.get("cx")) for m in marks_by_series(ET.fromstring(render_chart(table, "c")))["B"]]
    assert math.isclose((xs[2] - xs[1]) / (xs[1] - xs[0]), 2.0, rel_tol=1e-3)


def test_bars_have_error_bars_and_lower_values_are_shorter():
    table = {
        "title": "Drivers",
        "chart": "bar",
        "x": {"label": "Protocol", "unit": "", "scale": "category", "values": ["Text", "Binary"]},
        "y": {"label": "Time", "unit": "µs/op", "better": "lower", "decimals": 3},
        "series": [
            {"name": "A", "values": [62.715, None], "errors": [2.402, None]},
            {"name": "B", "values": [88.67, 73.789]},
        ],
    }
    svg = ET.fromstring(render_chart(table, "c"))
    marks = marks_by_series(svg)
    assert [len(v) for v in marks.values()] == [1, 2]
    assert float(marks["A"][0].get("height")) < float(marks["B"][0].get("height"))
    assert len([el for el in svg.iter(f"{SVG}path") if "error-bar" in classes(el)]) == 1
    assert marks["A"][0].find(f"{SVG}title").text == "A, Text: 62.715 ± 2.402 µs/op"


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", 'x" onload="alert(1)', "a & b"])
def test_hostile_names_are_escaped(name):
    table = line_table(title=name)
    table["series"][0]["name"] = name
    markup = render_chart(table, "c")
    assert "<script" not in markup
    svg = ET.fromstring(markup)
    assert not any(attribute.startswith("on") for el in svg.iter() for attribute in el.attrib)
    assert svg.find(f"{SVG}title").text == name
    assert name in marks_by_series(svg)


def test_no_inline_style_attributes():
    markup = render_chart(line_table(), "c")
    assert "style=" not in markup
    assert 'fill="currentColor"' in markup
