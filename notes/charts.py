"""Server-side SVG charts for benchmark tables, in pure Python.

`render_chart(table, chart_id)` returns an `<svg>` string: a grouped bar chart for tables
with `"chart": "bar"` (driver comparisons) and a line chart for `"chart": "line"`, whose x
axis may be logarithmic (client counts that double). Each data point is exactly one element
with class `mark`; null values draw nothing. Text uses `currentColor` and series colours are
presentation attributes that `static/css/notes.css` overrides per theme through the
`series-N` classes, so no inline style is needed (the CSP forbids it).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from notes.formatting import format_number
from notes.schema import series_decimals, series_unit, x_text

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH = 720
PLOT_HEIGHT = 260
MARGIN_LEFT = 84
MARGIN_RIGHT = 24
TITLE_BAND = 30
LEGEND_ROW = 20
BOTTOM_BAND = 58
# Okabe–Ito colours, distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]


@dataclass(frozen=True)
class Scale:
    """Maps data values to pixels along one axis, linearly or logarithmically."""

    low: float
    high: float
    start: float
    end: float
    log: bool = False

    def __call__(self, value: float) -> float:
        if self.log:
            low, high, value = math.log10(self.low), math.log10(self.high), math.log10(value)
        else:
            low, high = self.low, self.high
        span = high - low or 1.0
        return self.start + (value - low) / span * (self.end - self.start)


def nice_step(span: float, target: int = 5) -> float:
    """A 1, 2 or 5 times a power of ten step giving about `target` intervals over `span`."""
    raw = span / target if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def step_decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9))


def linear_ticks(maximum: float) -> tuple[float, list[float], int]:
    """Ticks from zero to a round number at or above `maximum`; returns (top, ticks, decimals)."""
    step = nice_step(maximum if maximum > 0 else 1.0)
    count = max(1, math.ceil(maximum / step - 1e-9))
    ticks = [round(i * step, 10) for i in range(count + 1)]
    return ticks[-1], ticks, step_decimals(step)


def log_ticks(minimum: float, maximum: float) -> list[float]:
    """Powers of ten enclosing [minimum, maximum]."""
    low = math.floor(math.log10(minimum))
    high = max(math.ceil(math.log10(maximum)), low + 1)
    return [10.0**k for k in range(low, high + 1)]


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _px(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _plotted(table: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, s) for i, s in enumerate(table["series"]) if s.get("plot", True)]


def _y_caption(table: dict[str, Any]) -> str:
    y = table["y"]
    unit = f"{y['unit']}, " if y["unit"] else ""
    scale = ", log scale" if y.get("scale") == "log" else ""
    return f"{y['label']} ({unit}{y['better']} is better{scale})"


def _x_caption(table: dict[str, Any]) -> str:
    x = table["x"]
    parts = [x["unit"]] if x["unit"] else []
    if x["scale"] == "log":
        parts.append("log scale")
    return f"{x['label']} ({', '.join(parts)})" if parts else x["label"]


def _legend_rows(names: list[str]) -> list[list[tuple[int, str]]]:
    rows: list[list[tuple[int, str]]] = [[]]
    used = 0.0
    for index, name in enumerate(names):
        width = 26 + 7.2 * len(name)
        if rows[-1] and used + width > WIDTH - MARGIN_LEFT - MARGIN_RIGHT:
            rows.append([])
            used = 0.0
        rows[-1].append((index, name))
        used += width
    return rows


def _y_scale(table: dict[str, Any], top: float, bottom: float) -> tuple[Scale, list[float], int | None]:
    """The y scale, its ticks, and the decimals of the tick labels (None: per tick, for log axes)."""
    values = [v for _, s in _plotted(table) for v in s["values"] if v is not None]
    if table["y"].get("scale") == "log":
        ticks = log_ticks(min(values), max(values))
        return Scale(ticks[0], ticks[-1], bottom, top, log=True), ticks, None
    highest = max(
        value + (error or 0)
        for _, series in _plotted(table)
        for value, error in zip(series["values"], series.get("errors", [None] * len(series["values"])), strict=True)
        if value is not None
    )
    top_value, ticks, decimals = linear_ticks(highest)
    return Scale(0.0, top_value, bottom, top), ticks, decimals


def _mark_title(table: dict[str, Any], series: dict[str, Any], x_value: Any, value: float, error: float | None) -> str:
    decimals = series_decimals(table, series)
    text = f"{series['name']}, {x_text(x_value, True)}: {format_number(value, decimals, True)}"
    if error is not None:
        text += f" ± {format_number(error, decimals, True)}"
    unit = series_unit(table, series)
    return f"{text} {unit}" if unit else text


def render_chart(table: dict[str, Any], chart_id: str) -> str:
    """The SVG markup of one table's chart (the table must pass `schema.check_table`)."""
    plotted = _plotted(table)
    legend = _legend_rows([s["name"] for _, s in plotted])
    top = TITLE_BAND + LEGEND_ROW * len(legend) + 36
    bottom = top + PLOT_HEIGHT
    height = bottom + BOTTOM_BAND
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    kind = "bar" if table["chart"] == "bar" else "line"
    description = (
        f"{kind.capitalize()} chart. Horizontal axis: {_x_caption(table)}. Vertical axis: {_y_caption(table)}."
    )

    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": f"chart chart-{kind}",
            "id": chart_id,
            "viewBox": f"0 0 {WIDTH} {height}",
            "role": "img",
            "aria-label": table["title"],
            "aria-describedby": f"{chart_id}-desc",
            "font-family": "system-ui, sans-serif",
            "font-size": "12",
        },
    )
    _el(svg, "title", table["title"], id=f"{chart_id}-title")
    _el(svg, "desc", description, id=f"{chart_id}-desc")
    _el(svg, "text", table["title"], class_="chart-title", x=WIDTH / 2, y=20, text_anchor="middle",
        font_size=14, font_weight="bold", fill="currentColor")  # fmt: skip

    legend_group = _el(svg, "g", class_="legend")
    for row_number, row in enumerate(legend):
        x = left
        y = TITLE_BAND + LEGEND_ROW * row_number + 10
        for index, name in row:
            entry = _el(legend_group, "g", class_=f"legend-item series-{index}")
            _el(entry, "rect", class_="swatch", x=x, y=y - 10, width=14, height=12, fill=PALETTE[index % len(PALETTE)])
            _el(entry, "text", name, x=x + 20, y=y, fill="currentColor")
            x += 26 + 7.2 * len(name)

    y_scale, y_ticks, tick_decimals = _y_scale(table, top, bottom)
    y_axis = _el(svg, "g", class_="axis axis-y")
    for tick in y_ticks:
        y = _px(y_scale(tick))
        _el(y_axis, "line", class_="grid", x1=left, x2=right, y1=y, y2=y, stroke="currentColor", stroke_opacity="0.15")
        _el(y_axis, "text", format_number(tick, step_decimals(tick) if tick_decimals is None else tick_decimals, True), class_="tick-label", x=left - 6, y=y,
            text_anchor="end", dominant_baseline="middle", fill="currentColor")  # fmt: skip
    _el(svg, "text", _y_caption(table), class_="axis-label axis-label-y", x=8, y=top - 16, fill="currentColor")

    x_axis = _el(svg, "g", class_="axis axis-x")
    _el(x_axis, "line", class_="baseline", x1=left, x2=right, y1=bottom, y2=bottom, stroke="currentColor")
    _el(svg, "text", _x_caption(table), class_="axis-label axis-label-x", x=(left + right) / 2, y=height - 10,
        text_anchor="middle", fill="currentColor")  # fmt: skip

    marks = _el(svg, "g", class_="marks")
    if kind == "bar":
        _draw_bars(table, marks, x_axis, y_scale, left, right, bottom)
    else:
        _draw_lines(table, marks, x_axis, y_scale, left, right, bottom)
    return ET.tostring(svg, encoding="unicode")


def _error_bar(group: ET.Element, x: float, y_scale: Scale, value: float, error: float) -> None:
    low, high = y_scale(max(value - error, y_scale.low)), y_scale(min(value + error, y_scale.high))
    path = (
        f"M{_px(x)} {_px(low)}V{_px(high)}M{_px(x - 4)} {_px(low)}H{_px(x + 4)}M{_px(x - 4)} {_px(high)}H{_px(x + 4)}"
    )
    _el(group, "path", class_="error-bar", d=path, stroke="currentColor", fill="none")


def _draw_bars(table, marks, x_axis, y_scale: Scale, left: float, right: float, bottom: float) -> None:
    plotted = _plotted(table)
    categories = table["x"]["values"]
    band = (right - left) / len(categories)
    bar = band * 0.8 / len(plotted)
    for c, category in enumerate(categories):
        _el(x_axis, "text", x_text(category, True), class_="tick-label", x=_px(left + band * (c + 0.5)), y=bottom + 18,
            text_anchor="middle", fill="currentColor")  # fmt: skip
    for slot, (index, series) in enumerate(plotted):
        group = _el(marks, "g", class_=f"series series-{index}", data_series=series["name"])
        errors = series.get("errors", [None] * len(categories))
        for c, (value, error) in enumerate(zip(series["values"], errors, strict=True)):
            if value is None:
                continue
            x = left + band * c + band * 0.1 + bar * slot
            y = y_scale(value) if not y_scale.log else y_scale(max(value, y_scale.low))
            base = y_scale(y_scale.low) if y_scale.log else y_scale(0)
            rect = _el(group, "rect", class_="mark", x=_px(x), y=_px(y), width=_px(bar - 2), height=_px(max(base - y, 0.5)),
                       fill=PALETTE[index % len(PALETTE)], data_x=x_text(categories[c]), data_value=repr(value))  # fmt: skip
            _el(rect, "title", _mark_title(table, series, categories[c], value, error))
            if error is not None:
                _error_bar(group, x + (bar - 2) / 2, y_scale, value, error)


def _draw_lines(table, marks, x_axis, y_scale: Scale, left: float, right: float, bottom: float) -> None:
    x_values = table["x"]["values"]
    pad = 18
    x_scale = Scale(min(x_values), max(x_values), left + pad, right - pad, log=table["x"]["scale"] == "log")
    for value in x_values:
        x = _px(x_scale(value))
        _el(x_axis, "line", class_="tick", x1=x, x2=x, y1=bottom, y2=bottom + 5, stroke="currentColor")
        _el(x_axis, "text", x_text(value, True), class_="tick-label", x=x, y=bottom + 18, text_anchor="middle",
            fill="currentColor")  # fmt: skip
    for index, series in _plotted(table):
        colour = PALETTE[index % len(PALETTE)]
        group = _el(marks, "g", class_=f"series series-{index}", data_series=series["name"])
        segments: list[list[str]] = [[]]
        points = []
        for x_value, value in zip(x_values, series["values"], strict=True):
            if value is None:
                segments.append([])
                continue
            point = (x_scale(x_value), y_scale(value))
            segments[-1].append(f"{_px(point[0])},{_px(point[1])}")
            points.append((x_value, value, point))
        for segment in segments:
            if len(segment) > 1:
                _el(
                    group,
                    "polyline",
                    class_="line",
                    points=" ".join(segment),
                    fill="none",
                    stroke=colour,
                    stroke_width=2,
                )
        errors = dict(zip(x_values, series.get("errors", [None] * len(x_values)), strict=True))
        for x_value, value, (x, y) in points:
            circle = _el(group, "circle", class_="mark", cx=_px(x), cy=_px(y), r=4, fill=colour,
                         data_x=x_text(x_value), data_value=repr(value))  # fmt: skip
            _el(circle, "title", _mark_title(table, series, x_value, value, errors[x_value]))
