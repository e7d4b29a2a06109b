"""Every figure of every benchmark table, read from the content files, is shown correctly in the
page (HTML table and chart), in the API and in the CSV downloads."""

from __future__ import annotations

import csv
import io
import math

import pytest

from notes.formatting import format_number, format_x
from tests.notes.helpers import SVG, charts, classes, data_tables, marks_by_series

pytestmark = pytest.mark.django_db


def benchmark_slugs(sources) -> list[str]:
    return [slug for slug, note in sources.items() if note.tables]


def expected_rows(table: dict, grouped: bool = False) -> list[list[str]]:
    """The cells of a table: grouped by thousands on the page, not in the CSV."""
    rows = []
    for i, x in enumerate(table["x"]["values"]):
        row = [x if isinstance(x, str) else format_x(x, grouped)]
        for series in table["series"]:
            decimals = series.get("decimals", table["y"]["decimals"])
            for key in ("values", "errors"):
                if key in series:
                    value = series[key][i]
                    row.append("" if value is None else format_number(value, decimals, grouped))
        rows.append(row)
    return rows


def test_every_benchmark_note_has_tables(sources):
    assert len(benchmark_slugs(sources)) == 4
    assert sum(len(sources[slug].tables) for slug in benchmark_slugs(sources)) == 16


def test_page_tables_show_every_figure(client, loaded_notes, sources):
    for slug in benchmark_slugs(sources):
        response = client.get(f"/notes/{slug}/")
        assert response.status_code == 200
        shown = data_tables(response.content.decode())
        tables = sources[slug].tables
        assert len(shown) == len(tables), slug
        for table, page_table in zip(tables, shown, strict=True):
            assert page_table["rows"] == expected_rows(table, grouped=True), (slug, table["title"])
            header = " ".join(page_table["header"])
            for series in table["series"]:
                assert series["name"] in header
            assert table["y"]["unit"] in header


def test_charts_have_one_mark_per_data_point(client, loaded_notes, sources):
    for slug in benchmark_slugs(sources):
        svgs = charts(client.get(f"/notes/{slug}/").content.decode())
        tables = sources[slug].tables
        assert len(svgs) == len(tables)
        for table, svg in zip(tables, svgs, strict=True):
            plotted = [s for s in table["series"] if s.get("plot", True)]
            marks = marks_by_series(svg)
            assert list(marks) == [s["name"] for s in plotted]
            for series in plotted:
                values = [v for v in series["values"] if v is not None]
                drawn = marks[series["name"]]
                assert len(drawn) == len(values), (slug, table["title"], series["name"])
                assert [float(mark.get("data-value")) for mark in drawn] == values
                assert all(mark.find(f"{SVG}title") is not None for mark in drawn)
            total_marks = sum(1 for el in svg.iter() if "mark" in classes(el))
            assert total_marks == sum(len([v for v in s["values"] if v is not None]) for s in plotted)


def test_charts_have_title_axis_labels_and_legend(client, loaded_notes, sources):
    for slug in benchmark_slugs(sources):
        svgs = charts(client.get(f"/notes/{slug}/").content.decode())
        for table, svg in zip(sources[slug].tables, svgs, strict=True):
            assert svg.find(f"{SVG}title").text == table["title"]
            assert svg.get("role") == "img" and svg.get("aria-label") == table["title"]
            texts = {tuple(sorted(classes(el))): el.text for el in svg.iter(f"{SVG}text")}
            y_label = texts[("axis-label", "axis-label-y")]
            assert table["y"]["label"] in y_label and table["y"]["unit"] in y_label
            assert table["y"]["better"] in y_label
            assert table["x"]["label"] in texts[("axis-label", "axis-label-x")]
            legend = [el for el in svg.iter(f"{SVG}g") if "legend-item" in classes(el)]
            assert [item.find(f"{SVG}text").text for item in legend] == [
                s["name"] for s in table["series"] if s.get("plot", True)
            ]


def test_log_x_axis_is_monotonic_and_log_spaced(client, loaded_notes, sources):
    checked = 0
    for slug in benchmark_slugs(sources):
        svgs = charts(client.get(f"/notes/{slug}/").content.decode())
        for table, svg in zip(sources[slug].tables, svgs, strict=True):
            if table["x"]["scale"] != "log":
                continue
            x_values = table["x"]["values"]
            for drawn in marks_by_series(svg).values():
                xs = [float(mark.get("cx")) for mark in drawn]
                assert xs == sorted(xs) and len(set(xs)) == len(xs)
                # pixels per decade must be the same between any two points
                per_decade = [
                    (xs[i + 1] - xs[i]) / math.log10(x_values[i + 1] / x_values[i]) for i in range(len(xs) - 1)
                ]
                assert max(per_decade) - min(per_decade) < 0.1
                checked += 1
    assert checked == 4  # two series in each of the two threadpool response-time charts


def test_api_detail_carries_every_series(client, loaded_notes, sources):
    for slug in benchmark_slugs(sources):
        data = client.get(f"/api/v1/notes/{slug}/").json()
        assert data["slug"] == slug
        assert len(data["tables"]) == len(sources[slug].tables)
        for number, (table, api_table) in enumerate(zip(sources[slug].tables, data["tables"], strict=True), start=1):
            assert api_table["number"] == number
            assert api_table["x"] == table["x"]
            assert api_table["y"]["unit"] == table["y"]["unit"]
            assert api_table["y"]["better"] == table["y"]["better"]
            assert api_table["series"] == table["series"]
            assert api_table["csv_url"].endswith(f"/notes/{slug}/tables/{number}.csv")


def test_api_list_carries_every_series(client, loaded_notes, sources):
    data = client.get("/api/v1/notes/").json()
    by_slug = {note["slug"]: note for note in data}
    assert set(by_slug) == set(sources)
    for slug in benchmark_slugs(sources):
        assert [t["series"] for t in by_slug[slug]["tables"]] == [t["series"] for t in sources[slug].tables]


def test_csv_downloads_match_the_data(client, loaded_notes, sources):
    for slug in benchmark_slugs(sources):
        for number, table in enumerate(sources[slug].tables, start=1):
            response = client.get(f"/notes/{slug}/tables/{number}.csv")
            assert response.status_code == 200
            assert response["Content-Type"].startswith("text/csv")
            assert f"{slug}-table-{number}.csv" in response["Content-Disposition"]
            rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
            header, body = rows[0], rows[1:]
            assert header[0].startswith(table["x"]["label"])
            assert body == expected_rows(table)
            # the numbers parse back to the stored values
            column = 1
            for series in table["series"]:
                parsed = [float(row[column]) if row[column] else None for row in body]
                assert parsed == [None if v is None else float(v) for v in series["values"]]
                column += 2 if "errors" in series else 1


def test_csv_for_a_missing_table_is_404(client, loaded_notes):
    assert client.get("/notes/jdbc-drivers-do-1-select-1/tables/5.csv").status_code == 404
    assert client.get("/notes/jdbc-drivers-do-1-select-1/tables/0.csv").status_code == 404
    assert client.get("/notes/no-such-note/tables/1.csv").status_code == 404
