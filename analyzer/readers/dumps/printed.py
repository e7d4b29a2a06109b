"""EXPLAIN rows a program printed: the MariaDB slow query log's plans (`slow_log`), and rows dumped
as data: PHP dumps (`php_dump`), Go fmt dumps (`go_dump`), JSON, Python, Node and Ruby literals
(`literal_dump`).

`read_printed` runs those readers in that order, each on the lines the ones before it did not
read, and returns their result sets (a log's plan as format `table`; a dump as `json` for JSON,
`vertical` for the others: one record of `name: value` fields per row). A cheap look for the words
each reader needs comes first, so other pastes cost nothing more.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from analyzer.readers.dumps.records import Dump
    from analyzer.readers.resultset import ResultSet


# The readers are imported when a paste holds the words they need, so other pastes do not load them.
def _php_dumps(lines: list[str], numbers: list[int]) -> list[Dump]:
    from analyzer.readers.dumps.php_dump import read_php_dumps

    return read_php_dumps(lines, numbers)


def _go_dumps(lines: list[str], numbers: list[int]) -> list[Dump]:
    from analyzer.readers.dumps.go_dump import read_go_dumps

    return read_go_dumps(lines)


def _literal_dumps(lines: list[str], numbers: list[int]) -> list[Dump]:
    from analyzer.readers.dumps.literal_dump import read_literal_dumps

    return read_literal_dumps(lines)


# Each reader, after the words a paste must hold for it to find anything.
_READERS: tuple[tuple[tuple[str, ...], Callable[[list[str], list[int]], list[Dump]]], ...] = (
    (("select_type]", 'select_type"', "select_type'", "$select_type"), _php_dumps),
    (("SelectType:", "map["), _go_dumps),
    (("select_type'", 'select_type"', "select_type:", "select_type="), _literal_dumps),
)


def read_printed(lines: list[str], numbers: list[int], margins: list[int]) -> list[ResultSet]:
    """The result sets of every slow log plan and program dump of EXPLAIN rows in the cleaned
    lines (`margins`: the width the cleanup took off each), in order."""
    text = "\n".join(lines)
    if "select_type" not in text and "SelectType" not in text:
        return []
    found = _slow_log(lines, numbers, margins) if "explain:" in text or "<explain>" in text else []
    remaining = outside(lines, found)
    for needles, reader in _READERS:
        if any(needle in text for needle in needles):
            from analyzer.readers.dumps.records import dump_result

            results = [r for r in (dump_result(dump, numbers) for dump in reader(remaining, numbers)) if r is not None]
            found += results
            remaining = outside(remaining, results)
    return sorted(found, key=lambda result: result.start)


def _slow_log(lines: list[str], numbers: list[int], margins: list[int]) -> list[ResultSet]:
    from analyzer.readers.dumps.slow_log import read_slow_log

    return read_slow_log(lines, numbers, margins)


def outside(lines: list[str], found: list[ResultSet]) -> list[str]:
    """The lines with those of the result sets `found` made empty (for the readers after them)."""
    if not found:
        return lines
    remaining = list(lines)
    for result in found:
        remaining[result.start : result.end] = [""] * (result.end - result.start)
    return remaining
