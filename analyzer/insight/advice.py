"""Index advice: for each table access that scans, sorts or builds a temporary table without need,
the index that lets the server look its rows up, as a complete `ALTER TABLE … ADD INDEX` statement.

Read from the plan (which tables are scanned or sorted, in which join order), the query
(`query_shape`: equality, range, join, ORDER BY and GROUP BY columns) and, when given, the tables'
definitions (`insight.schema`: existing indexes, column types for key lengths and prefixes). The
columns go equality first (join columns of an inner table count as equalities), then either the
ORDER BY or GROUP BY columns when that removes the sort, or one range column; the columns the
query reads are appended when they are few, so the index covers it. An index that exists (the
same leading columns) or is a left prefix of one is never advised; existing indexes that are a
left prefix of the new one are named as made redundant. Conditions no index can serve become
findings saying why and how to rewrite them.
"""

from __future__ import annotations

from analyzer.model import Advice, Finding, Plan, PlanNode
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_QUERY_CHARS = 32 * 1024  # a longer query is not read for advice (parsing is not bounded by the deadline)
MIN_ROWS = 1_000  # a table access reading fewer rows than this is not worth an index
MAX_KEY_BYTES = 3072  # InnoDB's limit for a whole key (DYNAMIC and COMPRESSED row formats)
MAX_PART_BYTES_COMPACT = 767  # … and for one key part in the COMPACT and REDUNDANT row formats
LOB_PREFIX = 100  # characters of a TEXT or BLOB column an index keeps
MAX_COVERING_EXTRA = 3  # columns added only to make an index covering
MAX_NAME = 64
SCANS = frozenset({"ALL", "index", "hash_ALL", "hash_index"})
SORTS = ("Using filesort", "Using temporary")
LOOKUPS = frozenset({"ref", "range", "ref_or_null", "index_merge"})


@dataclass
class _Key:
    """An index being designed: its columns, and what each part is there for."""

    columns: list[str] = field(default_factory=list)
    lookup: list[str] = field(default_factory=list)
    range_column: str | None = None
    ordered: bool = False
    grouped: bool = False
    covering: bool = False
    joined_to: list[str] = field(default_factory=list)
    reverse: bool = False  # on the join columns of a table read first, so the join can start elsewhere
    starts_join: str | None = None  # on a partner's condition, so the join can start there instead of here


def advise(plan: Plan, query: str | None, schema_text: str | None = None) -> tuple[list[Advice], list[Finding]]:
    """Index advice for a parsed plan, and findings for conditions no index can serve."""
    if plan.tree is None:
        return [], []
    candidates = [node for node in plan.tree.walk() if _needs_help(node)]
    if not candidates or not query:
        return [], []
    from analyzer.insight.query_shape import add_plan_condition, query_shape
    from analyzer.insight.schema import read_schema

    if len(query) > MAX_QUERY_CHARS:
        plan.notices.append(f"No index advice: the query is longer than {MAX_QUERY_CHARS // 1024} KiB, too long to read in time.")
        return [], []
    shape = query_shape(query, (lambda names: read_schema(schema_text, names)) if schema_text else None)
    if shape is None:
        return [], []
    schema = shape.schema
    tables = [node for node in plan.tree.walk() if node.table and node.operation == "table"]
    context = _Context(shape, schema, [node.table.lower() for node in tables if node.table])
    context.nodes = {node.table.lower(): node for node in tables if node.table}
    advice: list[Advice] = []
    findings: list[Finding] = []
    for node in candidates:
        use = shape.use(node.table)
        if use is None:
            continue
        if node.condition:
            add_plan_condition(shape, use, node.condition, schema)
        items = _advise_access(node, use, context)
        advice += [
            item for item in items if not any(a.table == item.table and a.columns == item.columns for a in advice)
        ]
        if not items and use.blockers:
            findings.extend(_blocked(node, use))
    return advice, findings


@dataclass
class _Context:
    """What every table access's advice is designed against."""

    shape: Any
    schema: Any
    order: list[str]  # the aliases of the plan's table accesses, in join order
    nodes: dict[str, PlanNode] = field(default_factory=dict)

    def table(self, use: Any) -> Any:
        return self.schema.table(use.table) if self.schema is not None else None

    def before(self, alias: str) -> set[str]:
        alias = alias.lower()
        return set(self.order[: self.order.index(alias)]) if alias in self.order else set()


def _needs_help(node: PlanNode) -> bool:
    """A table access over MIN_ROWS that scans, sorts, or looks up by an index and then filters."""
    if node.operation != "table" or not node.table or node.table.startswith("<"):
        return False
    if (node.rows_estimated or 0) < MIN_ROWS:
        return False
    filtered_after = node.access_type in LOOKUPS and (bool(node.condition) or "Using where" in node.extra)
    return node.access_type in SCANS or _sorts(node) or filtered_after


def _sorts(node: PlanNode) -> bool:
    return any(item.startswith(SORTS) for item in node.extra)


def _advise_access(node: PlanNode, use: Any, context: _Context) -> list[Advice]:
    earlier = context.before(use.alias)
    table = context.table(use)
    key = _design(use, context.shape, earlier, table)
    if key is None:
        return _reverse(node, use, context, table) if not earlier and node.access_type in SCANS else []
    if node.access_type not in SCANS and not _sorts(node) and not _improves(node, key, table):
        return []
    item = _advice(node, use, key, table, context.schema is not None, context.shape.limit)
    return [item] if item is not None else []


def _improves(node: PlanNode, key: _Key, table: Any) -> bool:
    """Whether the new index narrows a lookup by more columns than the index it uses now (known
    only from the table's definition)."""
    used = next((i for i in table.indexes if node.key and i.name.lower() == node.key.lower()), None) if table else None
    if used is None:
        return False
    narrowing = set(key.lookup) | ({key.range_column} if key.range_column else set())
    served = 0
    for column in used.columns:
        if column not in narrowing:
            break
        served += 1
    return len(narrowing) > served


def _design(use: Any, shape: Any, earlier: set[str], table: Any) -> _Key | None:
    """The columns of the index that serves this access, or None when there are none to use.
    An ORDER BY or GROUP BY alone is worth an index only with a LIMIT, or with MIN()/MAX() only
    (the index then skips through the groups): otherwise every row is still read."""
    key = _Key()
    joins = [column for column, partners in use.joins.items() if partners & earlier]
    key.joined_to = sorted({partner for column in joins for partner in use.joins[column] & earlier})
    lookup = [c for c in use.equal + joins if c not in use.many] + [c for c in use.many if c not in use.equal]
    key.lookup = list(dict.fromkeys(lookup))
    alias = use.alias.lower()
    order = [column for owner, column, _ in shape.order_by]
    if (
        not earlier
        and shape.order_by
        and shape.order_plain
        and (key.lookup or shape.limit)
        and all(owner == alias for owner, _, _ in shape.order_by)
        and not use.many
        and (not use.ranges or use.ranges[0] == order[0])
    ):
        key.columns = key.lookup + [c for c in order if c not in key.lookup]
        key.ordered = True
    elif use.ranges:
        key.columns = key.lookup + [use.ranges[0]]
        key.range_column = use.ranges[0]
    elif _groups_here(shape, alias, earlier) and (key.lookup or shape.loose_scan):
        key.columns = key.lookup + [c for _, c in shape.group_by if c not in key.lookup]
        key.grouped = True
    else:
        key.columns = list(key.lookup)
    if not key.columns:
        return None
    key.columns = _existing_order_first(key, table)
    _make_covering(key, use, table)
    return key


def _groups_here(shape: Any, alias: str, earlier: set[str]) -> bool:
    return bool(not earlier and shape.group_by and shape.group_plain and all(a == alias for a, _ in shape.group_by))


def _reverse(node: PlanNode, use: Any, context: _Context, table: Any) -> list[Advice]:
    """A table read in full to drive a join, with nothing of its own to look up: when a table
    joined after it has a condition of its own, an index on the join columns here lets the server
    start from that table instead, and an index on that condition (when it has none) lets it find
    those rows directly."""
    alias = use.alias.lower()
    later = set(context.order) - context.before(alias) - {alias}
    partners = {
        partner
        for column, aliases in use.joins.items()
        for partner in aliases & later
        if _narrowed(context.shape.use(partner))
    }
    columns = [column for column, aliases in use.joins.items() if aliases & partners]
    if not columns:
        return []
    key = _Key(columns=list(columns), lookup=list(columns), joined_to=sorted(partners), reverse=True)
    found = _advice(node, use, key, table, context.schema is not None, False)
    items = [found] if found is not None else []
    for partner in sorted(partners):
        items += _partner_advice(context.shape.use(partner), context, alias)
    return items


def _narrowed(use: Any) -> bool:
    return use is not None and bool(use.equal or use.many or use.ranges)


def _partner_advice(use: Any, context: _Context, driver: str) -> list[Advice]:
    """The index on a join partner's own condition, so the join can start from it."""
    node = context.nodes.get(use.alias.lower())
    if node is None:
        return []
    lookup = list(dict.fromkeys(use.equal + use.many))
    key = _Key(lookup=lookup, columns=lookup + use.ranges[:1], range_column=use.ranges[0] if use.ranges else None)
    key.starts_join = driver
    found = _advice(node, use, key, context.table(use), context.schema is not None, False)
    return [found] if found is not None else []


def _existing_order_first(key: _Key, table: Any) -> list[str]:
    """Equality columns reordered so an existing index's leading columns come first (it then becomes
    redundant instead of half-duplicated); the order of equalities does not matter to a lookup."""
    if table is None or len(key.lookup) < 2:
        return key.columns
    lookup = set(key.lookup)
    best: list[str] = []
    for index in table.indexes:
        prefix = []
        for column in index.columns:
            if column not in lookup:
                break
            prefix.append(column)
        if len(prefix) > len(best):
            best = prefix
    if not best:
        return key.columns
    reordered = best + [c for c in key.lookup if c not in best]
    return reordered + key.columns[len(key.lookup) :]


def _make_covering(key: _Key, use: Any, table: Any) -> None:
    if use.all_columns:
        return
    primary: list[str] = next((i.columns for i in table.indexes if i.primary), []) if table is not None else []
    rest = [c for c in use.read if c not in key.columns and c not in primary]
    if (
        rest
        and len(rest) <= MAX_COVERING_EXTRA
        and not (table is not None and any(_needs_prefix(table, c) for c in rest))
    ):
        key.columns += rest
        key.covering = True
    elif not rest:
        key.covering = True


def _needs_prefix(table: Any, name: str) -> bool:
    column = table.column(name)
    return column is not None and column.needs_prefix


def _advice(node: PlanNode, use: Any, key: _Key, table: Any, checked: bool, limit: bool) -> Advice | None:
    if table is not None and table.columns and any(table.column(name) is None for name in key.columns):
        return None  # the query names a column the table's definition lacks: no statement that fails
    existing = table.indexes if table is not None else []
    parts = _key_parts(key, table)
    if not parts:
        return None
    for index in existing:
        if index.usable and index.columns[: len(key.columns)] == key.columns:
            return None  # it exists, or the new one would be a left prefix of it
        if index.usable and _same_lookup(index.columns, key):
            return None
        if (index.primary or index.unique) and key.lookup and set(index.columns) <= set(key.lookup):
            return None  # a lookup by these columns finds one row already
    redundant = [
        index.name
        for index in existing
        if index.usable
        and not index.unique
        and not index.primary
        and len(index.columns) < len(key.columns)
        and key.columns[: len(index.columns)] == index.columns
        and not index.prefixes
    ]
    name = _index_name(use.table, key.columns, {i.name.lower() for i in existing})
    target = f"{_quote(use.database)}.{_quote(use.table)}" if use.database else _quote(use.table)
    statement = f"ALTER TABLE {target} ADD INDEX {_quote(name)} ({', '.join(parts)})"
    return Advice(
        table=use.table,
        columns=list(key.columns),
        statement=statement,
        reason=_reason(node, use, key, redundant, checked, limit),
        rows=[node.row] if node.row is not None else [],
        redundant=redundant,
    )


def _same_lookup(columns: list[str], key: _Key) -> bool:
    """An existing index whose leading columns are the new one's equality columns in another order
    and then the same rest."""
    n = len(key.lookup)
    if n < 2 or len(columns) < len(key.columns):
        return False
    return set(columns[:n]) == set(key.lookup) and columns[n : len(key.columns)] == key.columns[n:]


def _key_parts(key: _Key, table: Any) -> list[str] | None:
    """Each column quoted, with a prefix length where the column is a TEXT/BLOB or the key would
    pass InnoDB's length limits. A prefixed part serves lookups and ranges but neither order nor
    covering: an ORDER BY, GROUP BY or covering column that would need one is left out with the
    columns after it. None when not even the lookup columns fit."""
    if table is None:
        return [_quote(c) for c in key.columns]
    part_limit = MAX_PART_BYTES_COMPACT if (table.row_format or "") in ("COMPACT", "REDUNDANT") else MAX_KEY_BYTES
    parts: list[str] = []
    total = 0
    for position, name in enumerate(key.columns):
        column = table.column(name)
        size, per_char = _column_bytes(column, table)
        prefix = None
        if column is not None and column.needs_prefix:
            prefix = LOB_PREFIX
        elif size > part_limit or total + size > MAX_KEY_BYTES:
            prefix = min(part_limit, MAX_KEY_BYTES - total) // per_char
        if prefix is not None:
            essential = position < len(key.lookup) or name == key.range_column
            if not essential or prefix < 1:
                if position == 0:
                    return None
                del key.columns[position:]
                del key.lookup[position:]
                key.ordered = key.grouped = key.covering = False
                key.range_column = key.range_column if key.range_column in key.columns else None
                break
            key.covering = False
            size = prefix * per_char
        parts.append(_quote(name) + (f"({prefix})" if prefix is not None else ""))
        total += size
    return parts


def _column_bytes(column: Any, table: Any) -> tuple[int, int]:
    """An index's bytes for a column, and its bytes per character (1 when not a string)."""
    from analyzer.insight.schema import CHARSET_BYTES, FIXED_BYTES, STRING_TYPES

    if column is None:
        return 8, 4
    per_char = CHARSET_BYTES.get(column.charset or table.charset or "utf8mb4", 4)
    if column.type in STRING_TYPES:
        binary = column.type in ("BINARY", "VARBINARY")
        width = (column.length or 1) * (1 if binary else per_char)
        return width + 2 + int(column.nullable), (1 if binary else per_char)
    if column.needs_prefix:
        return LOB_PREFIX * per_char, per_char
    if column.type in ("DECIMAL", "UDECIMAL"):
        return (column.length or 10) // 2 + 1, 1
    return FIXED_BYTES.get(column.type, 8) + int(column.nullable), 1


def _index_name(table: str, columns: list[str], taken: set[str]) -> str:
    name = "idx_" + "_".join(columns)
    if len(name) > MAX_NAME:
        import hashlib

        digest = hashlib.sha1(name.encode()).hexdigest()[:8]
        name = name[: MAX_NAME - 9] + "_" + digest
    base, number = name, 2
    while name.lower() in taken:
        suffix = f"_{number}"
        name = base[: MAX_NAME - len(suffix)] + suffix
        number += 1
    return name


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _reason(node: PlanNode, use: Any, key: _Key, redundant: list[str], checked: bool, limit: bool) -> str:
    label = f"`{use.alias}`" if use.alias == use.table else f"`{use.alias}` ({use.table})"
    columns = ", ".join(key.columns)
    if key.starts_join:
        text = (
            f"{label} is where the join should start: its own condition on {_names(key.columns)} narrows it. "
            f"An index on ({columns}) lets the server find those rows directly, then look up `{key.starts_join}`."
        )
    elif key.reverse:
        text = (
            f"{_problem(node, label)} to drive the join. An index on ({columns}) lets the server start from "
            f"{_names(key.joined_to)} instead, narrowed by its own condition, and look {label} rows up by "
            f"{_names(key.lookup)} for each of them."
        )
    else:
        text = f"{_problem(node, label)}. An index on ({columns}) lets the server {_join_words(_gains(key, limit))}."
    if redundant:
        text += f" It makes {_names(redundant)} redundant (a left prefix of it): drop after checking no index hint names it."
    if not checked:
        text += " Not checked against the table's existing indexes: add its SHOW CREATE TABLE to check."
    return text


def _problem(node: PlanNode, label: str) -> str:
    """What the access does now: `o` is read in full (about 60,000 rows), then sorted …"""
    count = int(node.rows_estimated or 0)
    rows = f"{count:,} {'row' if count == 1 else 'rows'}"
    if node.access_type == "index":
        problem = f"{label} is read through a whole index (about {rows})"
    elif node.access_type in SCANS:
        problem = f"{label} is read in full (about {rows})"
    elif node.key:
        problem = f"{label} is read through `{node.key}` (about {rows}), each row then checked against the rest of the condition"
    else:
        problem = f"{label} reads about {rows}"
    if any(item.startswith("Using filesort") for item in node.extra):
        problem += ", then sorted in an extra pass (Using filesort)"
    if any(item.startswith("Using temporary") for item in node.extra):
        problem += ", through a temporary table (Using temporary)"
    return problem


def _gains(key: _Key, limit: bool) -> list[str]:
    does = []
    if key.lookup:
        joined = f" for each row of {', '.join(f'`{p}`' for p in key.joined_to)}" if key.joined_to else ""
        does.append(f"look rows up by {_names(key.lookup)}{joined}")
    if key.range_column:
        does.append(f"read only the range of `{key.range_column}`")
    if key.ordered:
        does.append("read them already in the ORDER BY order (no sort" + (", and LIMIT stops early)" if limit else ")"))
    if key.grouped:
        does.append("group them in index order, without a temporary table")
    if key.covering:
        does.append("answer from the index alone (it holds every column the query reads of the table)")
    return does


def _names(items: list[str]) -> str:
    return _join_words([f"`{item}`" for item in items])


def _join_words(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _blocked(node: PlanNode, use: Any) -> list[Finding]:
    findings = []
    for blocker in use.blockers:
        findings.append(
            Finding(
                severity="warning",
                message=(
                    f"No index can help `{use.alias}` with {blocker.condition}: {blocker.why}. "
                    f"To let one help, {blocker.rewrite}."
                ),
                rows=[node.row] if node.row is not None else [],
                kind="no-index-helps",
            )
        )
    return findings
