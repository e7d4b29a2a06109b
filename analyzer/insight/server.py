"""Which server printed a paste: MySQL or MariaDB, and its version when the paste shows it.

`detect(text, plan)` reads, strongest first:

1. A version string in the paste: `Server version: 10.11.6-MariaDB…` (or any `N.N.N-MariaDB`, as in
   `mysql  Ver 15.1 Distrib 10.11.6-MariaDB`), `Server version: 8.0.36 MySQL Community Server`,
   the MySQL client's `mysql  Ver 8.0.36 for Linux` or `Ver 14.14 Distrib 5.7.44`.
2. What the plan itself says: its variant (`MariaDB ANALYZE FORMAT=JSON`, `MySQL EXPLAIN ANALYZE`),
   tree output (MySQL only), terms that only one server prints (MariaDB's `ref|filter`, `hash_ALL`,
   `Rowid-ordered scan`, `Using rowid filter`, `(flat, BNL join)`, `LATERAL DERIVED`, the `r_rows`
   column of ANALYZE; MySQL's `Using MRR`, `Using join buffer (hash join)`, `Backward index scan`,
   `Using index for skip scan`, `DEPENDENT DERIVED`, `<auto_key0>`, the `partitions` and
   `filtered` columns together, which only MySQL 5.7 and later print by default) and the JSON
   members only one server writes (MySQL's `cost_info`, `query_cost`).
3. A `MariaDB [db]>` prompt or `Welcome to the MariaDB monitor` (a `mysql>` prompt proves nothing:
   the MySQL client connects to both).

When the plan holds terms of both servers and nothing stronger decides, the flavour stays unknown.
The version is `major.minor` ("10.11", "8.0") and only ever read from a version string.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from analyzer.lazy import lazy_regex
from analyzer.model import Plan, PlanNode, Server

# Only the first part of a long paste is searched for version strings: banners come first.
_HEAD = 64 * 1024

_MARIADB_VERSION = lazy_regex(r"\b(\d{1,2})\.(\d{1,2})\.\d{1,3}-MariaDB", re.IGNORECASE)
# Read only when no MariaDB version is in the paste (a MariaDB server's own line says so).
_MYSQL_VERSION = (
    lazy_regex(r"Server version:\s*(\d{1,2})\.(\d{1,2})\.\d{1,3}\b(?!-\d)", re.IGNORECASE),
    lazy_regex(r"\bmysql\s+Ver\s+(?:\d+\.\d+\s+Distrib\s+)?(\d{1,2})\.(\d{1,2})\.\d{1,3}\b"),
)
# At a line's start, after any mail quoting ("> ").
_MARIADB_PROMPT = lazy_regex(r"^[ \t>]*MariaDB \[[^\]\n]*\]>|Welcome to the MariaDB monitor", re.MULTILINE)

_MARIADB_TYPES = lazy_regex(r"^hash_|\|\s*filter$", re.IGNORECASE)
_MARIADB_EXTRA = lazy_regex(
    r"^(rowid-ordered scan|key-ordered scan|key-ordered rowid-ordered scan|using rowid filter|"
    r"using index condition\(bka\)|using join buffer \((flat|incremental), \w+ join\)|using sort_intersect)",
    re.IGNORECASE,
)
_MYSQL_EXTRA = lazy_regex(
    r"^(using mrr|using join buffer \((block nested loop|batched key access|hash join)|backward index scan|"
    r"using index for skip scan|rematerialize)",
    re.IGNORECASE,
)
_MARIADB_SELECT_TYPES = {"LATERAL DERIVED", "PUSHED DERIVED", "PUSHED SELECT", "PUSHED UNION"}
_MYSQL_SELECT_TYPES = {"DEPENDENT DERIVED"}
_MARIADB_KEYS = lazy_regex(r"^(key0|distinct_key)$|^#hash#", re.IGNORECASE)
_MYSQL_KEYS = lazy_regex(r"^<auto_key\d*>$", re.IGNORECASE)
_MYSQL_JSON_KEYS = {"cost_info", "query_cost", "rows_examined_per_scan", "rows_produced_per_join"}
_MARIADB_JSON_KEYS = {"r_total_time_ms", "block-nl-join", "rowid_filter", "r_loops"}


def detect(text: str, plan: Plan) -> Server:
    """The server that printed `text`, read as `plan`: see the module's docstring."""
    head = text[:_HEAD]
    lowered = head.lower()  # the patterns are only tried on pastes holding their words
    found = _version(head, lowered)
    if found is not None:
        return found
    flavour = _from_plan(plan)
    if flavour is None and "mariadb" in lowered and _MARIADB_PROMPT.search(head):
        flavour = "mariadb"
    return Server(flavour=flavour, version=None)


def _version(text: str, lowered: str) -> Server | None:
    mariadb = _MARIADB_VERSION.search(text) if "-mariadb" in lowered else None
    if mariadb is not None:
        return Server(flavour="mariadb", version=f"{int(mariadb[1])}.{int(mariadb[2])}")
    for word, pattern in zip(("server version", "ver"), _MYSQL_VERSION, strict=True):
        mysql = pattern.search(text) if word in lowered else None
        # MariaDB servers before 10.0 printed 5.x versions too, always with "-MariaDB" (read above).
        if mysql is not None and 5 <= int(mysql[1]) < 10:
            return Server(flavour="mysql", version=f"{int(mysql[1])}.{int(mysql[2])}")
    return None


def _from_plan(plan: Plan) -> str | None:
    variant = (plan.variant or "").lower()
    if variant.startswith("mariadb"):
        return "mariadb"
    if (variant.startswith("mysql") and not variant.startswith("mysql/mariadb")) or plan.format == "tree":
        return "mysql"
    columns = set(plan.columns)
    votes = {"mysql": 0, "mariadb": 0}
    if "r_rows" in columns or "r_filtered" in columns:
        votes["mariadb"] += 1
    elif {"partitions", "filtered"} <= columns:
        votes["mysql"] += 1
    if plan.tree is not None:
        for node in _nodes(plan.tree):
            for flavour in _node_votes(node):
                votes[flavour] += 1
    if plan.format == "json":
        keys = set(_json_keys(plan.plan))
        votes["mysql"] += bool(keys & _MYSQL_JSON_KEYS)
        votes["mariadb"] += bool(keys & _MARIADB_JSON_KEYS)
    if votes["mysql"] == votes["mariadb"]:
        return None
    return "mysql" if votes["mysql"] > votes["mariadb"] else "mariadb"


def _nodes(root: PlanNode) -> Iterator[PlanNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _node_votes(node: PlanNode) -> Iterator[str]:
    select_type = (node.select_type or "").upper()
    if select_type in _MARIADB_SELECT_TYPES:
        yield "mariadb"
    elif select_type in _MYSQL_SELECT_TYPES:
        yield "mysql"
    if node.access_type and _MARIADB_TYPES.search(node.access_type.strip()):
        yield "mariadb"
    if node.key:
        first = node.key.split("|")[0].strip()
        if _MARIADB_KEYS.search(first):
            yield "mariadb"
        elif _MYSQL_KEYS.match(first):
            yield "mysql"
    for item in node.extra:
        if _MARIADB_EXTRA.match(item):
            yield "mariadb"
        elif _MYSQL_EXTRA.match(item):
            yield "mysql"


def _json_keys(document: object, budget: int = 10_000) -> Iterator[str]:
    """The member names of a JSON document, breadth first, at most `budget` values visited."""
    queue = [document]
    while queue and budget > 0:
        value = queue.pop()
        budget -= 1
        if isinstance(value, dict):
            yield from (str(key) for key in value)
            queue.extend(value.values())
        elif isinstance(value, list):
            queue.extend(value)
