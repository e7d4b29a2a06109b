"""EXPLAIN rows a program printed as data: PHP dumps (`php_dump`), Go fmt dumps (`go_dump`), and
JSON, Python and Node literals (`literal_dump`).

`read_dumps` runs them in that order, each on the lines the ones before it did not read, and
returns a result set for each dump of EXPLAIN rows (format `json` for JSON, `vertical` for the
others: one record of `name: value` fields per row). A cheap look for the words a dump of EXPLAIN
rows must hold comes first, so other pastes cost nothing more.
"""

from __future__ import annotations

from collections.abc import Callable

from analyzer.readers.go_dump import read_go_dumps
from analyzer.readers.literal_dump import read_literal_dumps
from analyzer.readers.php_dump import read_php_dumps
from analyzer.readers.records import Dump, dump_result
from analyzer.readers.resultset import ResultSet

_READERS: tuple[Callable[[list[str], list[int]], list[Dump]], ...] = (
    read_php_dumps,
    read_go_dumps,
    read_literal_dumps,
)


def read_dumps(lines: list[str], numbers: list[int]) -> list[ResultSet]:
    """The result sets of every program dump of EXPLAIN rows in the cleaned lines, in order."""
    text = "\n".join(lines)
    if "select_type" not in text and "SelectType" not in text:
        return []
    found: list[ResultSet] = []
    remaining = lines
    for reader in _READERS:
        for dump in reader(remaining, numbers):
            result = dump_result(dump, numbers)
            if result is not None:
                found.append(result)
                remaining = remaining if remaining is not lines else list(lines)
                remaining[dump.start : dump.end] = [""] * (dump.end - dump.start)
    return sorted(found, key=lambda result: result.start)
