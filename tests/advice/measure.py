"""The one measure the advice tests judge a plan by: the rows it examines, as MariaDB counts them.

`examined_rows(doc)` reads the document `ANALYZE FORMAT=JSON <query>` prints (MariaDB runs the
query and counts what every table access did) and adds up, over every access to a real table,

    r_loops × r_rows

how many times the access ran times the rows it read each time (on average): every row of a
scan, the index entries that passed the pushed index condition for an index access. A `const` or
`system` table, read once while planning, counts its `rows` (0 or 1). The work tables
`<derivedN>`, `<subqueryN>` and `<unionA,B>` are not counted, the tables read to fill them are.

Counted rather than estimated, it sees what the estimates of plain EXPLAIN miss: a LIMIT ending
an ordered index scan early, a join buffer scanning its table once per refill rather than once
per outer row, a subquery run once per outer row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

READ_WHILE_PLANNING = ("const", "system")


def table_accesses(doc: Any) -> Iterator[dict[str, Any]]:
    """Every table access (an object with a `table_name`) anywhere in a JSON plan, in order."""
    if isinstance(doc, dict):
        if "table_name" in doc:
            yield doc
        for value in doc.values():
            yield from table_accesses(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from table_accesses(value)


def access_rows(access: dict[str, Any]) -> float:
    """The rows one access to a table examined (0 for a work table)."""
    if str(access["table_name"]).startswith("<"):
        return 0.0
    if access.get("access_type") in READ_WHILE_PLANNING:
        return float(access.get("rows") or 0)
    return float(access.get("r_loops") or 0) * float(access.get("r_rows") or 0)


def examined_rows(doc: dict[str, Any]) -> int:
    """The rows a plan examined, from its `ANALYZE FORMAT=JSON` document (see the module's doc)."""
    if "query_block" not in doc:
        raise ValueError("not the document of ANALYZE FORMAT=JSON: no query_block")
    return round(sum(access_rows(access) for access in table_accesses(doc)))
