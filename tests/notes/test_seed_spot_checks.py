"""Figures typed here straight from the source documents, independently of notes/content/,
to catch data-entry mistakes in the content files. Each is checked in the rendered HTML table
(the cell at the row of its x value and the column of its series) and in the API."""

from __future__ import annotations

import pytest

from tests.notes.helpers import data_tables

pytestmark = pytest.mark.django_db

JDBC = "jdbc-drivers-do-1-select-1"
WINDOWS = "mariadb-mysql-windows-threadpool"
POWER8 = "mariadb-10-1-million-qps-power8"
JMH = "java-drivers-jmh-mariadb-mysql-drizzle"

# (note, table number, series, x value as shown, figure as printed in the source)
SPOT_CHECKS = [
    (JDBC, 1, "MariaDB JDBC 1.1.2", "DO 1", "22104"),
    (JDBC, 1, "Drizzle JDBC 1.3-SNAPSHOT", "SELECT 1", "13410"),
    (JDBC, 2, "After the fix", "DO 1", "19968"),
    (JDBC, 2, "After the fix", "SELECT 1", "16824"),
    (JDBC, 3, "Prepared", "ConnectorJ 5.1.24", "20096"),
    (JDBC, 4, "ConnectorJ 5.1.24, prepared", "Named pipe", "29542"),
    (JDBC, 4, "C client library", "TCP", "24063"),
    (WINDOWS, 1, "MySQL 5.5", "4096", "413"),
    (WINDOWS, 2, "MySQL 5.5", "4096", "25215.29"),
    (WINDOWS, 2, "MariaDB 5.5", "1024", "619.05"),
    (WINDOWS, 3, "MariaDB 5.5", "2048", "274.40"),
    (WINDOWS, 3, "MySQL 5.5", "64", "7.62"),
    (POWER8, 1, "MariaDB-10.0.21", "160", "398124"),
    (POWER8, 1, "MariaDB-10.1.8", "320", "1142464"),
    (POWER8, 1, "Increase", "240", "181"),
    (JMH, 1, "Distant database", "Prepare, cache miss", "709.843"),
    (JMH, 3, "Local database", "Rewrite", "0.404"),
    (JMH, 4, "MySQL Connector/J 5.1.39", "Text, HA", "137.289"),
    (JMH, 5, "Drizzle JDBC 1.4", "select * from seq_1_to_1000", "406.877"),
    (JMH, 7, "Drizzle JDBC 1.4", "Text", "38.735"),
    (JMH, 8, "MySQL Connector/J 5.1.39", "{call inOutParam(?)}", "714.108"),
]

# (note, table number, series, x value, error margin as printed)
ERROR_CHECKS = [
    (JMH, 8, "MySQL Connector/J 5.1.39", "{call inOutParam(?)}", "44.390"),
    (JMH, 2, "Local database", "Prepare, cache hit", "1.940"),
]


def _cell(client, slug: str, number: int, column_heading: str, x: str) -> str:
    table = data_tables(client.get(f"/notes/{slug}/").content.decode())[number - 1]
    headings = [" ".join(h.split(" (")[0:1]) for h in table["header"]]
    column = headings.index(column_heading)
    row = next(row for row in table["rows"] if x in (row[0], row[0].replace(",", "")))
    return row[column]


def _ungrouped(shown: str) -> str:
    """A figure as the page shows it (`22,104`) without its thousands separators, as printed in the source."""
    whole, dot, decimals = shown.partition(".")
    assert whole.lstrip("-") == f"{int(whole.replace(',', '') or 0):,}".lstrip("-"), shown  # grouped by thousands
    return whole.replace(",", "") + dot + decimals


@pytest.mark.parametrize(("slug", "number", "series", "x", "figure"), SPOT_CHECKS)
def test_seed_figure_in_page_and_api(client, loaded_notes, slug, number, series, x, figure):
    assert _ungrouped(_cell(client, slug, number, series, x)) == figure
    api_table = client.get(f"/api/v1/notes/{slug}/").json()["tables"][number - 1]
    x_values = [str(value) for value in api_table["x"]["values"]]
    api_series = next(s for s in api_table["series"] if s["name"] == series)
    assert api_series["values"][x_values.index(x)] == float(figure)


@pytest.mark.parametrize(("slug", "number", "series", "x", "figure"), ERROR_CHECKS)
def test_seed_error_margin_in_page(client, loaded_notes, slug, number, series, x, figure):
    assert _ungrouped(_cell(client, slug, number, f"{series} ±", x)) == figure


def test_seed_setup_facts_in_pages(client, loaded_notes):
    windows = client.get(f"/notes/{WINDOWS}/").content.decode()
    for line in ("innodb_buffer_pool_size=1G", "max_connections=4096", "innodb_log_file_size=650M", "back_log=500"):
        assert line in windows
    power8 = client.get(f"/notes/{POWER8}/").content.decode()
    for text in (
        "innodb_adaptive_hash_index_partitions = 20",
        "--oltp-point-selects=1000",
        "--oltp-table-size=50000",
        "160 hardware threads",
        "Ubuntu 14.04.3 LTS (ppc64le)",
    ):
        assert text in power8
    jmh = client.get(f"/notes/{JMH}/").content.decode()
    for text in ("1.5.3", "5.1.39", "build 1.8.0_101-b13", "512 MB", "max_allowed_packet=40M"):
        assert text in jmh
    jdbc = client.get(f"/notes/{JDBC}/").content.decode()
    assert "Windows Server 2008 R2" in jdbc and "useConfigs=maxPerformance" in jdbc
