"""What the templates, the CSV export and the API need from a note's tables, computed once.

Every number goes through `format_number`, the same function the charts use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notes.charts import render_chart
from notes.formatting import format_number
from notes.schema import series_decimals, series_unit, x_text


@dataclass(frozen=True)
class Column:
    heading: str
    unit: str
    is_error: bool = False


def _with_unit(name: str, unit: str) -> str:
    return f"{name} ({unit})" if unit else name


def table_columns(table: dict[str, Any]) -> list[Column]:
    """The x column, then one column per series, each followed by its ± column if it has errors."""
    columns = [Column(table["x"]["label"], table["x"]["unit"])]
    for series in table["series"]:
        unit = series_unit(table, series)
        columns.append(Column(series["name"], unit))
        if "errors" in series:
            columns.append(Column(f"{series['name']} ±", unit, is_error=True))
    return columns


def table_rows(table: dict[str, Any], grouped: bool = False) -> list[list[str]]:
    """Formatted cells, one row per x value (thousands grouped for the page, not for the CSV); a
    missing value is an empty string."""
    rows = []
    for i, x_value in enumerate(table["x"]["values"]):
        row = [x_text(x_value, grouped)]
        for series in table["series"]:
            decimals = series_decimals(table, series)
            cells = [series["values"][i]] + ([series["errors"][i]] if "errors" in series else [])
            row.extend("" if cell is None else format_number(cell, decimals, grouped) for cell in cells)
        rows.append(row)
    return rows


def csv_header(table: dict[str, Any]) -> list[str]:
    return [_with_unit(column.heading, column.unit) for column in table_columns(table)]


@dataclass(frozen=True)
class TableView:
    number: int
    table: dict[str, Any]
    columns: list[Column]
    rows: list[list[str]]
    svg: str
    csv_url: str

    @property
    def better(self) -> str:
        return self.table["y"]["better"]


def table_views(note) -> list[TableView]:
    return [
        TableView(
            number=number,
            table=table,
            columns=table_columns(table),
            rows=table_rows(table, grouped=True),
            svg=render_chart(table, f"chart-{number}"),
            csv_url=note.csv_url(number),
        )
        for number, table in enumerate(note.tables, start=1)
    ]
