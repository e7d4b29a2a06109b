"""Validation of a note's structured data: links, facts and benchmark tables.

Pure functions, no Django: each `check_*` raises `DataError` with a readable message
naming the offending place (``tables[1].series[0].values[3]``) or returns None.

A table looks like::

    {"title": "…", "caption": "…", "chart": "bar" | "line",
     "x": {"label": "Concurrent clients", "unit": "", "scale": "category" | "linear" | "log",
           "values": [4, 8, 16]},
     "y": {"label": "Response time, 95th percentile", "unit": "ms", "better": "lower",
           "decimals": 2, "scale": "linear" | "log"},
     "series": [{"name": "MariaDB 5.5", "values": [4.87, 6.81, null],
                 "errors": [...], "unit": "…", "decimals": 0, "better": "…", "plot": true}]}

`errors`, and the per-series `unit`, `decimals`, `better` and `plot` are optional; a series
with `"plot": false` (a derived column such as a percentage) is shown in the table only.
"""

from __future__ import annotations

import math
from typing import Any

from notes.formatting import format_x

CHARTS = {"bar", "line"}
X_SCALES = {"category", "linear", "log"}
Y_SCALES = {"linear", "log"}
BETTER = {"lower", "higher"}
MAX_DECIMALS = 6


class DataError(ValueError):
    """Structured note data that does not follow the schema."""


def _fail(where: str, message: str) -> None:
    raise DataError(f"{where}: {message}")


def _text(value: Any, where: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        _fail(where, "must be a non-empty string" if not allow_empty else "must be a string")
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _object(value: Any, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(where, "must be an object")
    missing = required - value.keys()
    if missing:
        _fail(where, f"missing {', '.join(sorted(missing))}")
    unknown = value.keys() - required - optional
    if unknown:
        _fail(where, f"unknown key {', '.join(sorted(unknown))}")
    return value


def _list(value: Any, where: str, *, non_empty: bool = True) -> list[Any]:
    if not isinstance(value, list) or (non_empty and not value):
        _fail(where, "must be a non-empty list" if non_empty else "must be a list")
    return value


def _decimals(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_DECIMALS:
        _fail(where, f"must be an integer from 0 to {MAX_DECIMALS}")
    return value


def check_links(links: Any) -> None:
    """`[{"label": "MDEV-7324", "url": "https://…"}]`, http(s) only."""
    for i, link in enumerate(_list(links, "links", non_empty=False)):
        where = f"links[{i}]"
        _object(link, where, {"label", "url"}, set())
        _text(link["label"], f"{where}.label")
        url = _text(link["url"], f"{where}.url")
        if not url.startswith(("https://", "http://")):
            _fail(f"{where}.url", "must start with https:// or http://")


def check_facts(groups: Any) -> None:
    """`[{"title": "Hardware", "facts": [{"name": "CPU", "value": "…", "code": false}]}]`."""
    for i, group in enumerate(_list(groups, "facts", non_empty=False)):
        where = f"facts[{i}]"
        _object(group, where, {"title", "facts"}, set())
        _text(group["title"], f"{where}.title")
        for j, fact in enumerate(_list(group["facts"], f"{where}.facts")):
            fact_where = f"{where}.facts[{j}]"
            _object(fact, fact_where, {"name", "value"}, {"code"})
            _text(fact["name"], f"{fact_where}.name")
            _text(fact["value"], f"{fact_where}.value")
            if not isinstance(fact.get("code", False), bool):
                _fail(f"{fact_where}.code", "must be true or false")


def _check_x(x: Any, where: str, chart: str) -> list[Any]:
    _object(x, where, {"label", "unit", "scale", "values"}, set())
    _text(x["label"], f"{where}.label")
    _text(x["unit"], f"{where}.unit", allow_empty=True)
    scale = x["scale"]
    if scale not in X_SCALES:
        _fail(f"{where}.scale", f"must be one of {', '.join(sorted(X_SCALES))}")
    if chart == "line" and scale == "category":
        _fail(f"{where}.scale", "a line chart needs a linear or log x axis")
    values = _list(x["values"], f"{where}.values")
    for k, value in enumerate(values):
        if scale == "category":
            if not (_is_number(value) or (isinstance(value, str) and value.strip())):
                _fail(f"{where}.values[{k}]", "must be a number or a non-empty string")
        elif not _is_number(value) or (scale == "log" and value <= 0):
            _fail(f"{where}.values[{k}]", "must be a number" + (" above zero" if scale == "log" else ""))
    if len({str(value) for value in values}) != len(values):
        _fail(f"{where}.values", "must not repeat a value")
    if scale != "category" and values != sorted(values):
        _fail(f"{where}.values", "must be in increasing order")
    return values


def _check_y(y: Any, where: str) -> None:
    _object(y, where, {"label", "unit", "better", "decimals"}, {"scale"})
    _text(y["label"], f"{where}.label")
    _text(y["unit"], f"{where}.unit", allow_empty=True)
    if y["better"] not in BETTER:
        _fail(f"{where}.better", "must be lower or higher")
    _decimals(y["decimals"], f"{where}.decimals")
    if y.get("scale", "linear") not in Y_SCALES:
        _fail(f"{where}.scale", "must be linear or log")


def _check_values(values: Any, where: str, count: int, *, positive: bool) -> None:
    _list(values, where)
    if len(values) != count:
        _fail(where, f"must have {count} entries, one per x value (has {len(values)})")
    for k, value in enumerate(values):
        if value is None:
            continue
        if not _is_number(value):
            _fail(f"{where}[{k}]", "must be a number or null")
        if positive and value <= 0:
            _fail(f"{where}[{k}]", "must be above zero on a log axis")


def _check_series(series: Any, where: str, count: int, y_log: bool) -> bool:
    """Check one series; return whether it is plotted."""
    _object(series, where, {"name", "values"}, {"errors", "unit", "decimals", "better", "plot"})
    _text(series["name"], f"{where}.name")
    plotted = series.get("plot", True)
    if not isinstance(plotted, bool):
        _fail(f"{where}.plot", "must be true or false")
    _check_values(series["values"], f"{where}.values", count, positive=plotted and y_log)
    if "errors" in series:
        _check_values(series["errors"], f"{where}.errors", count, positive=False)
    if "unit" in series:
        _text(series["unit"], f"{where}.unit", allow_empty=True)
    if "decimals" in series:
        _decimals(series["decimals"], f"{where}.decimals")
    if "better" in series and series["better"] not in BETTER:
        _fail(f"{where}.better", "must be lower or higher")
    return plotted


def check_table(table: Any, where: str = "table") -> None:
    _object(table, where, {"title", "chart", "x", "y", "series"}, {"caption"})
    _text(table["title"], f"{where}.title")
    if "caption" in table:
        _text(table["caption"], f"{where}.caption")
    if table["chart"] not in CHARTS:
        _fail(f"{where}.chart", "must be bar or line")
    values = _check_x(table["x"], f"{where}.x", table["chart"])
    _check_y(table["y"], f"{where}.y")
    y_log = table["y"].get("scale", "linear") == "log"
    series_list = _list(table["series"], f"{where}.series")
    plotted = [_check_series(s, f"{where}.series[{i}]", len(values), y_log) for i, s in enumerate(series_list)]
    if not any(plotted):
        _fail(f"{where}.series", "at least one series must be plotted")
    names = [s["name"] for s in series_list]
    if len(set(names)) != len(names):
        _fail(f"{where}.series", "series names must be unique")


def check_tables(tables: Any) -> None:
    for i, table in enumerate(_list(tables, "tables", non_empty=False)):
        check_table(table, f"tables[{i}]")


def series_decimals(table: dict[str, Any], series: dict[str, Any]) -> int:
    return series.get("decimals", table["y"]["decimals"])


def series_unit(table: dict[str, Any], series: dict[str, Any]) -> str:
    return series.get("unit", table["y"]["unit"])


def x_text(value: Any, grouped: bool = False) -> str:
    """An x value as shown in tables, charts and CSV: strings as they are, numbers formatted
    (grouped by thousands for people)."""
    return value if isinstance(value, str) else format_x(value, grouped)
