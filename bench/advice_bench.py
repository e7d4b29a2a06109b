"""Index advice benchmark: `python bench/advice_bench.py` (part of `make bench`).

Analyzes a 20-table join whose every table is scanned (so every access gets advice), with its
query and the 20 tables' `SHOW CREATE TABLE` output, and prints the median CPU time of the whole
analysis against the same paste analyzed without query and schema (no advice), measured
interleaved in one run. Target: a 20-table advice under 50 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import analyze  # noqa: E402
from analyzer.model import Plan  # noqa: E402
from analyzer.render.text import format_table  # noqa: E402

TABLES = 20
COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]


def paste() -> tuple[str, str, str]:
    """The plan (client table), the query and the table definitions of a 20-table join."""
    rows = [
        {
            "id": "1",
            "select_type": "SIMPLE",
            "table": f"t{i}",
            "type": "ALL",
            "possible_keys": None,
            "key": None,
            "key_len": None,
            "ref": None,
            "rows": str(5_000 + 1_000 * i),
            "Extra": "Using where" if i == 0 else "Using where; Using join buffer (flat, BNL join)",
        }
        for i in range(TABLES)
    ]
    plan = format_table(Plan(format="table", columns=COLUMNS, rows=rows)) + "\n"
    joins = " ".join(f"JOIN table_{i} t{i} ON t{i}.parent_id = t{i - 1}.id" for i in range(1, TABLES))
    filters = " AND ".join(f"t{i}.status = 'open'" for i in range(TABLES))
    query = f"SELECT t0.id, t{TABLES - 1}.name FROM table_0 t0 {joins} WHERE {filters} AND t0.created > '2024-01-01'"
    schema = "\n".join(
        f"CREATE TABLE `table_{i}` (\n  `id` int NOT NULL,\n  `parent_id` int DEFAULT NULL,\n"
        f"  `status` varchar(20) NOT NULL,\n  `name` varchar(200) DEFAULT NULL,\n  `created` datetime NOT NULL,\n"
        f"  `note` text,\n  PRIMARY KEY (`id`),\n  KEY `idx_created` (`created`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;"
        for i in range(TABLES)
    )
    return plan, query, schema


def cpu_ms(run) -> float:
    start = time.process_time()
    run()
    return (time.process_time() - start) * 1000


def main() -> None:
    plan, query, schema = paste()
    analyze(plan, query=query, schema=schema)  # warm: imports sqlglot once, as a server has
    advice = len(analyze(plan, query=query, schema=schema).advice)
    with_advice, without = [], []
    for _ in range(30):
        with_advice.append(cpu_ms(lambda: analyze(plan, query=query, schema=schema)))
        without.append(cpu_ms(lambda: analyze(plan)))
    full, bare = statistics.median(with_advice), statistics.median(without)
    print(f"20-table join, {advice} pieces of advice: {full:.1f} ms CPU with query and schema (target < 50 ms)")
    print(f"the same paste without them: {bare:.1f} ms; advice costs {full - bare:.1f} ms")


if __name__ == "__main__":
    main()
