"""The structured data is validated in the content loader, in the model and in the admin."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.core.exceptions import ValidationError

from notes.formatting import format_number, format_x
from notes.models import Note
from notes.schema import DataError, check_facts, check_links, check_table

TABLE = {
    "title": "Response time",
    "chart": "line",
    "x": {"label": "Clients", "unit": "", "scale": "log", "values": [4, 8, 16]},
    "y": {"label": "Time", "unit": "ms", "better": "lower", "decimals": 2},
    "series": [{"name": "A", "values": [1.5, None, 3]}],
}


def broken(path: str, value) -> dict:
    table = copy.deepcopy(TABLE)
    *parents, last = path.split(".")
    target = table
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    return table


def test_valid_table_passes():
    check_table(TABLE)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("series.0.values", [1, 2], "must have 3 entries"),
        ("series.0.values", [1, True, 3], "must be a number or null"),
        ("series.0.values", [1, "2", 3], "must be a number or null"),
        ("series.0.values", [1, float("nan"), 3], "must be a number or null"),
        ("x.values", [4, 0, 16], "above zero"),
        ("x.values", [16, 8, 4], "increasing order"),
        ("x.scale", "category", "line chart needs"),
        ("y.better", "sideways", "lower or higher"),
        ("y.decimals", 9, "integer from 0 to 6"),
        ("chart", "pie", "bar or line"),
        ("series.0.plot", False, "at least one series"),
        ("series", [], "non-empty list"),
        ("title", "", "non-empty string"),
        ("colour", "red", "unknown key"),
    ],
)
def test_broken_tables_are_rejected(path, value, message):
    with pytest.raises(DataError, match=message):
        check_table(broken(path, value))


def test_log_y_axis_needs_positive_values():
    table = broken("y.scale", "log")
    table["series"][0]["values"] = [1, 0, 2]
    with pytest.raises(DataError, match="above zero on a log axis"):
        check_table(table)


def test_links_and_facts_are_checked():
    check_links([{"label": "MDEV-7324", "url": "https://jira.mariadb.org/browse/MDEV-7324"}])
    with pytest.raises(DataError, match="https://"):
        check_links([{"label": "x", "url": "javascript:alert(1)"}])
    check_facts([{"title": "Hardware", "facts": [{"name": "CPU", "value": "POWER8", "code": False}]}])
    with pytest.raises(DataError, match="missing value"):
        check_facts([{"title": "Hardware", "facts": [{"name": "CPU"}]}])


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (274.4, 2, "274.40"),
        (19543, 0, "19543"),
        (0.404, 3, "0.404"),
        (2.675, 2, "2.68"),
        (-0.001, 2, "0.00"),
        (1e-7, 3, "0.000"),
    ],
)
def test_format_number(value, decimals, text):
    assert format_number(value, decimals) == text


def test_format_x():
    assert format_x(4096) == "4096" and format_x(4096.0) == "4096" and format_x(0.5) == "0.5"
    assert format_x(4096, grouped=True) == "4,096" and format_x(1234.5, grouped=True) == "1,234.5"


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [(19543, 0, "19,543"), (1234567.891, 2, "1,234,567.89"), (999, 1, "999.0"), (-0.001, 2, "0.00"), (-12345, 0, "-12,345")],
)
def test_format_number_grouped_for_people(value, decimals, text):
    assert format_number(value, decimals, grouped=True) == text


@pytest.mark.django_db
def test_model_validation_rejects_bad_json():
    note = Note(kind="benchmark", title="t", slug="t", date=datetime.date(2020, 1, 1), summary="s")
    note.tables = [broken("series.0.values", [1])]
    with pytest.raises(ValidationError, match="must have 3 entries"):
        note.full_clean()
    note.tables = [TABLE]
    note.full_clean()


@pytest.mark.django_db
def test_release_needs_product_and_version():
    note = Note(kind="release", title="t", slug="t", date=datetime.date(2020, 1, 1), summary="s")
    with pytest.raises(ValidationError, match="product and a version"):
        note.full_clean()


@pytest.mark.django_db
def test_admin_edits_json_with_validation(admin_client, loaded_notes):
    note = Note.objects.get(slug="mariadb-10-1-million-qps-power8")
    url = f"/admin/notes/note/{note.pk}/change/"
    assert admin_client.get(url).status_code == 200
    assert admin_client.get("/admin/notes/note/").status_code == 200
    form = {
        "kind": note.kind, "title": note.title, "slug": note.slug, "date": note.date.isoformat(),
        "date_precision": note.date_precision, "summary": note.summary, "body": note.body,
        "product": "", "version": "", "links": json.dumps(note.links), "facts": json.dumps(note.facts),
    }  # fmt: skip
    bad = copy.deepcopy(note.tables)
    bad[0]["series"][0]["values"] = [1]
    response = admin_client.post(url, {**form, "tables": json.dumps(bad)})
    assert response.status_code == 200 and "must have 4 entries" in response.content.decode()
    good = copy.deepcopy(note.tables)
    good[0]["title"] = "Renamed by staff"
    response = admin_client.post(url, {**form, "tables": json.dumps(good)})
    assert response.status_code == 302
    note.refresh_from_db()
    assert note.tables[0]["title"] == "Renamed by staff"


@pytest.mark.django_db
def test_anonymous_users_cannot_reach_the_admin(client):
    assert client.get("/admin/notes/note/").status_code == 302
