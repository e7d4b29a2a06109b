"""What a query asks of each table, read with sqlglot (MySQL dialect) for index advice.

`query_shape(query, schema)` returns, per table alias: the columns compared with a constant (`=`,
`IS NULL`, `IN (…)`), the range columns (`<`, `BETWEEN`, `LIKE 'abc%'`), the join columns and the
tables they join to, the columns it reads, and the conditions no index can serve (a function on
the column, a leading-wildcard LIKE, OR across columns, a string column compared with a number),
each with the rewrite that would let an index help. Plus the ORDER BY and GROUP BY columns and
whether there is a LIMIT. A column without a table is given to the only table of its SELECT that
has it (by the schema, when given), or to the only table of its SELECT.
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_STATEMENTS = frozenset({"SELECT", "WITH", "UPDATE", "DELETE", "INSERT", "REPLACE"})


@dataclass
class Blocker:
    """A condition on a table that no index can serve, and how to write it so one can."""

    column: str
    condition: str
    why: str
    rewrite: str


@dataclass
class TableUse:
    alias: str
    table: str
    database: str | None = None
    equal: list[str] = field(default_factory=list)  # compared with one constant
    many: list[str] = field(default_factory=list)  # IN (…) or OR of equalities
    ranges: list[str] = field(default_factory=list)
    joins: dict[str, set[str]] = field(default_factory=dict)  # column -> aliases it is compared with
    read: list[str] = field(default_factory=list)  # every column referenced, in order
    all_columns: bool = False  # SELECT * (or alias.*): every column is read
    blockers: list[Blocker] = field(default_factory=list)

    def note(self, bucket: list[str], column: str) -> None:
        if column not in bucket:
            bucket.append(column)


@dataclass
class QueryShape:
    tables: dict[str, TableUse] = field(default_factory=dict)  # by lower-case alias
    order_by: list[tuple[str, str, bool]] = field(default_factory=list)  # (alias, column, descending)
    order_plain: bool = True  # every ORDER BY item is a bare column
    group_by: list[tuple[str, str]] = field(default_factory=list)
    group_plain: bool = True
    limit: bool = False
    schema: Any = None  # the table definitions it was read with (insight.schema.Schema), if any
    loose_scan: bool = False  # the select list aggregates with MIN() and MAX() only: an index can skip through groups

    def use(self, alias: str | None) -> TableUse | None:
        return self.tables.get(alias.lower()) if alias else None


def query_shape(query: str, schema: Any = None) -> QueryShape | None:
    """The shape of `query` (after any `EXPLAIN …` prefix), or None when sqlglot cannot parse it.
    `schema` is the tables' definitions, or a function giving them for the set of the query's
    table names (lower case), so that only those are read."""
    from sqlglot import exp
    from sqlglot.dialects.mysql import MySQL
    from sqlglot.errors import SqlglotError

    dialect = MySQL()
    try:
        tokens = dialect.tokenize(query)
        first = next((k for k, token in enumerate(tokens) if token.token_type.name in _STATEMENTS), None)
        if first is None:
            return None
        # The statement's own tokens, not those of the text from it on tokenized again.
        parsed = dialect.parser().parse(tokens[first:], query)
    except (SqlglotError, RecursionError):  # a query nested deeper than sqlglot's recursion reaches
        return None
    if not parsed or parsed[0] is None:
        return None
    tree = exp.Block(expressions=parsed) if len(parsed) > 1 else parsed[0]
    if tree is None or type(tree).__name__ == "Command":
        return None
    shape = QueryShape()
    for table in tree.find_all(exp.Table):
        if table.name:
            alias = table.alias_or_name
            shape.tables.setdefault(
                alias.lower(), TableUse(alias=alias, table=table.name, database=table.text("db") or None)
            )
    if callable(schema):
        schema = schema({use.table.lower() for use in shape.tables.values()})
    shape.schema = schema
    reader = _Reader(shape, schema, tree)
    for select in tree.find_all(exp.Select, exp.Update, exp.Delete):
        reader.read_scope(select)
    reader.read_order(tree)
    return shape


class _Reader:
    """Reads the conditions of a query's tree (or of a condition alone, without `tree`). The
    SELECT, UPDATE or DELETE closest above each node of `tree` and the tables directly in each are
    found once, so that a long condition costs no walk up or through the tree for each column."""

    def __init__(self, shape: QueryShape, schema: Any, tree: Any = None):
        self.shape = shape
        self.schema = schema
        self._scopes: dict[int, Any] = {}  # id(node) -> the scope closest above it (None at the top)
        self._aliases: dict[int, list[str]] = {}  # id(scope) -> aliases of the tables directly in it
        if tree is not None:
            self._find_scopes(tree)

    def _find_scopes(self, tree: Any) -> None:
        from sqlglot import exp

        stack: list[tuple[Any, Any]] = [(tree, None)]
        while stack:
            check_deadline()
            node, scope = stack.pop()
            self._scopes[id(node)] = scope
            inner = node if isinstance(node, (exp.Select, exp.Update, exp.Delete)) else scope
            stack.extend((child, inner) for child in node.iter_expressions())

    def _scope_of(self, node: Any) -> Any:
        """The SELECT, UPDATE or DELETE closest above `node`, or None."""
        from sqlglot import exp

        if id(node) in self._scopes:
            return self._scopes[id(node)]
        return node.find_ancestor(exp.Select, exp.Update, exp.Delete)

    def _direct_aliases(self, scope: Any) -> list[str]:
        """Aliases of the tables in the FROM and JOINs of `scope` (not of the scopes inside it)."""
        from sqlglot import exp

        if id(scope) not in self._aliases or not self._scopes:
            self._aliases[id(scope)] = [
                t.alias_or_name.lower() for t in scope.find_all(exp.Table) if t.name and self._scope_of(t) is scope
            ]
        return self._aliases[id(scope)]

    # Columns -----------------------------------------------------------------------------------

    def scope_aliases(self, node: Any) -> list[str]:
        """Aliases of the tables in the FROM and JOINs of the SELECT closest to `node`, then outward."""
        from sqlglot import exp

        aliases: list[str] = []
        scope = node if isinstance(node, (exp.Select, exp.Update, exp.Delete)) else self._scope_of(node)
        while scope is not None:
            aliases += [alias for alias in dict.fromkeys(self._direct_aliases(scope)) if alias not in aliases]
            scope = self._scope_of(scope)
        return aliases

    def owner(self, column: Any) -> TableUse | None:
        """The table use a column belongs to."""
        if column.table:
            return self.shape.use(column.table)
        aliases = self.scope_aliases(column)
        if self.schema is not None:
            having = [a for a in aliases if self._has_column(a, column.name)]
            if len(having) == 1:
                return self.shape.use(having[0])
        nearest = self._nearest_aliases(column)
        return self.shape.use(nearest[0]) if len(nearest) == 1 else None

    def _nearest_aliases(self, node: Any) -> list[str]:
        scope = self._scope_of(node)
        return [] if scope is None else list(self._direct_aliases(scope))

    def _has_column(self, alias: str, name: str) -> bool:
        use = self.shape.use(alias)
        table = self.schema.table(use.table) if use is not None else None
        return table is not None and table.column(name) is not None

    def column_type(self, use: TableUse, name: str) -> Any:
        table = self.schema.table(use.table) if self.schema is not None else None
        return table.column(name) if table is not None else None

    # Conditions --------------------------------------------------------------------------------

    def read_scope(self, scope: Any) -> None:
        from sqlglot import exp

        for column in scope.find_all(exp.Column):
            if self._scope_of(column) is scope:
                use = self.owner(column)
                if use is not None:
                    use.note(use.read, column.name.lower())
        for star in scope.expressions if isinstance(scope, exp.Select) else []:
            if isinstance(star, exp.Star):
                for alias in self._nearest_aliases(star) or self.scope_aliases(scope):
                    if (use := self.shape.use(alias)) is not None:
                        use.all_columns = True
            elif (
                isinstance(star, exp.Column)
                and isinstance(star.this, exp.Star)
                and (use := self.shape.use(star.table)) is not None
            ):
                use.all_columns = True
        conditions = []
        if (where := scope.args.get("where")) is not None:
            conditions.append(where.this)
        for join in scope.args.get("joins") or []:
            if (on := join.args.get("on")) is not None:
                conditions.append(on)
            for using in join.args.get("using") or []:
                self._join_using(join, using.name.lower(), scope)
        for condition in conditions:
            for part in _conjuncts(condition):
                self.read_condition(part)

    def _join_using(self, join: Any, column: str, scope: Any) -> None:
        aliases = self._nearest_aliases(join.this)
        joined = join.this.alias_or_name.lower() if hasattr(join.this, "alias_or_name") else None
        for alias in aliases:
            if joined and alias != joined and (use := self.shape.use(alias)) is not None:
                use.joins.setdefault(column, set()).add(joined)
                if (other := self.shape.use(joined)) is not None:
                    other.joins.setdefault(column, set()).add(alias)

    def read_condition(self, node: Any) -> None:
        from sqlglot import exp

        if isinstance(node, (exp.EQ, exp.NullSafeEQ)):
            self._comparison(node, "equal")
        elif isinstance(node, (exp.GT, exp.GTE, exp.LT, exp.LTE)):
            self._comparison(node, "range")
        elif isinstance(node, exp.Between):
            self._bare(node.this, node, "range")
        elif isinstance(node, exp.Is) and isinstance(node.expression, exp.Null):
            self._bare(node.this, node, "equal")
        elif isinstance(node, exp.In):
            self._in(node)
        elif isinstance(node, exp.Like):
            self._like(node)
        elif isinstance(node, exp.Or):
            self._or(node)

    def _comparison(self, node: Any, kind: str) -> None:
        from sqlglot import exp

        left, right = node.this, node.expression
        if isinstance(right, exp.Column) and not isinstance(left, exp.Column):
            left, right = right, left
        if isinstance(left, exp.Column) and isinstance(right, exp.Column):
            self._join(left, right, node)
        elif isinstance(left, exp.Column) and _constant(right):
            if not self._mismatch(left, right, node):
                self._bare(left, node, kind)
        elif _constant(right) and (inner := _wrapped_column(left)) is not None:
            self._blocked_function(left, inner, right, node)

    def _bare(self, column: Any, node: Any, kind: str) -> None:
        from sqlglot import exp

        if not isinstance(column, exp.Column):
            if (inner := _wrapped_column(column)) is not None:
                self._blocked_function(column, inner, None, node)
            return
        use = self.owner(column)
        if use is not None:
            use.note(use.ranges if kind == "range" else use.equal, column.name.lower())

    def _join(self, left: Any, right: Any, node: Any) -> None:
        first, second = self.owner(left), self.owner(right)
        if first is None or second is None or first is second:
            return
        first.joins.setdefault(left.name.lower(), set()).add(second.alias.lower())
        second.joins.setdefault(right.name.lower(), set()).add(first.alias.lower())
        a, b = self.column_type(first, left.name), self.column_type(second, right.name)
        if a is not None and b is not None and a.is_string != b.is_string and (a.is_number or b.is_number):
            why = (
                f"the join compares {_kinds(a)} `{first.alias}.{left.name}` with {_kinds(b)} "
                f"`{second.alias}.{right.name}`, so the server converts one side on every row"
            )
            rewrite = "give both columns the same type (ALTER TABLE … MODIFY), then index the join column"
            for use, col in ((first, left.name), (second, right.name)):
                use.blockers.append(Blocker(col.lower(), node.sql(dialect="mysql"), why, rewrite))

    def _mismatch(self, column: Any, value: Any, node: Any) -> bool:
        """A string column compared with a number: every row's value is converted, no index helps."""
        from sqlglot import exp

        use = self.owner(column)
        kind = self.column_type(use, column.name) if use is not None else None
        if kind is None or not kind.is_string or not (isinstance(value, exp.Literal) and not value.is_string):
            return False
        use.blockers.append(  # type: ignore[union-attr]
            Blocker(
                column.name.lower(),
                node.sql(dialect="mysql"),
                f"`{column.name}` is a string column compared with the number {value.sql()}: the server "
                "converts every row's value to a number",
                f"quote the value: {column.sql(dialect='mysql')} = '{value.this}'",
            )
        )
        return True

    def _in(self, node: Any) -> None:
        from sqlglot import exp

        column = node.this
        if not isinstance(column, exp.Column):
            if (inner := _wrapped_column(column)) is not None:
                self._blocked_function(column, inner, None, node)
            return
        use = self.owner(column)
        if use is None:
            return
        subquery = node.args.get("query")
        if subquery is not None:
            select = subquery.this if isinstance(subquery, exp.Subquery) else subquery
            picked = select.expressions[0] if isinstance(select, exp.Select) and select.expressions else None
            if isinstance(picked, exp.Column):
                self._join(column, picked, node)
            return
        if all(_constant(value) for value in node.expressions):
            use.note(use.many if len(node.expressions) > 1 else use.equal, column.name.lower())

    def _like(self, node: Any) -> None:
        from sqlglot import exp

        column, pattern = node.this, node.expression
        if not isinstance(column, exp.Column) or not (isinstance(pattern, exp.Literal) and pattern.is_string):
            return
        use = self.owner(column)
        if use is None:
            return
        text = str(pattern.this)
        if text[:1] in ("%", "_"):
            use.blockers.append(
                Blocker(
                    column.name.lower(),
                    node.sql(dialect="mysql"),
                    "the pattern starts with a wildcard, so an index (sorted by the value's start) cannot narrow it",
                    "search from the start of the value (LIKE 'abc%'), or use a FULLTEXT index with MATCH … AGAINST",
                )
            )
        else:
            use.note(use.ranges, column.name.lower())

    def _or(self, node: Any) -> None:
        """`a = 1 OR a = 2` is an IN list; OR across columns is a blocker."""
        from sqlglot import exp

        parts = list(_disjuncts(node))
        columns = set()
        for part in parts:
            if isinstance(part, (exp.EQ, exp.In)) and isinstance(part.this, exp.Column):
                columns.add((part.this.table.lower(), part.this.name.lower()))
            else:
                return
        if len(columns) == 1:
            column = parts[0].this
            if (use := self.owner(column)) is not None:
                use.note(use.many, column.name.lower())
            return
        owners = {use.alias for part in parts if (use := self.owner(part.this)) is not None}
        condition = node.sql(dialect="mysql")
        for part in parts:
            use = self.owner(part.this)
            if use is not None:
                use.blockers.append(
                    Blocker(
                        part.this.name.lower(),
                        condition,
                        "OR across different columns: no single index serves both sides",
                        "split it into a UNION of two SELECTs, one per condition, each served by its own index"
                        if len(owners) == 1
                        else "split it into a UNION of the two conditions, each served by its own index",
                    )
                )

    def _blocked_function(self, wrapper: Any, column: Any, value: Any, node: Any) -> None:
        use = self.owner(column)
        if use is None:
            return
        use.blockers.append(
            Blocker(
                column.name.lower(),
                node.sql(dialect="mysql"),
                f"the column is inside {wrapper.sql(dialect='mysql')}, so the server computes it for every row",
                _function_rewrite(wrapper, column, value),
            )
        )

    # ORDER BY, GROUP BY, LIMIT -----------------------------------------------------------------

    def read_order(self, tree: Any) -> None:
        from sqlglot import exp

        order = tree.args.get("order")
        if order is not None:
            for item in order.expressions:
                column = item.this if isinstance(item, exp.Ordered) else item
                use = self.owner(column) if isinstance(column, exp.Column) else None
                if use is None:
                    self.shape.order_plain = False
                    continue
                self.shape.order_by.append((use.alias.lower(), column.name.lower(), bool(item.args.get("desc"))))
        group = tree.args.get("group")
        if group is not None:
            for column in group.expressions:
                use = self.owner(column) if isinstance(column, exp.Column) else None
                if use is None:
                    self.shape.group_plain = False
                    continue
                self.shape.group_by.append((use.alias.lower(), column.name.lower()))
        self.shape.limit = tree.args.get("limit") is not None
        aggregates = [node for item in tree.expressions for node in item.find_all(exp.AggFunc)] if group else []
        self.shape.loose_scan = bool(aggregates) and all(isinstance(node, (exp.Min, exp.Max)) for node in aggregates)


class _ConditionReader(_Reader):
    """Reads a condition the plan prints for one table access (MariaDB's and MySQL's
    `attached_condition`): its columns belong to that table when unqualified or qualified with the
    table's alias or name."""

    def __init__(self, shape: QueryShape, schema: Any, use: TableUse):
        super().__init__(shape, schema)
        self.target = use

    def owner(self, column: Any) -> TableUse | None:
        """The target for its own columns; an unqualified column only when the table's definition
        shows it has that column (a plan's condition may name another table's without a qualifier)."""
        qualifier = (column.table or "").lower()
        if qualifier in (self.target.alias.lower(), self.target.table.lower()):
            return self.target
        if not qualifier and self.column_type(self.target, column.name) is not None:
            return self.target
        return None


def add_plan_condition(shape: QueryShape, use: TableUse, condition: str, schema: Any = None) -> None:
    """Add to `use` the equalities and ranges of a condition the plan shows on its table (one the
    optimizer pushed down, such as into a derived table, is only there). Server-made wrappers
    such as `<cache>(…)` or `trigcond(…)` that sqlglot cannot parse are skipped."""
    import sqlglot
    from sqlglot.errors import SqlglotError

    try:
        tree = sqlglot.parse_one(condition, read="mysql")
    except (SqlglotError, RecursionError):
        return
    reader = _ConditionReader(shape, schema, use)
    for part in _conjuncts(tree):
        reader.read_condition(part)


def _conjuncts(node: Any) -> list[Any]:
    from sqlglot import exp

    return _operands(node, exp.And)


def _disjuncts(node: Any) -> list[Any]:
    from sqlglot import exp

    return _operands(node, exp.Or)


def _operands(node: Any, operator: Any) -> list[Any]:
    """The operands of a chain of `operator` (And or Or) in `node`, parentheses dropped, left to right."""
    from sqlglot import exp

    parts, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, exp.Paren):
            stack.append(item.this)
        elif isinstance(item, operator):
            stack.extend([item.expression, item.this])
        else:
            parts.append(item)
    return parts


def _constant(node: Any) -> bool:
    """A value that is the same for every row: literals, NULL, placeholders, functions of those."""
    from sqlglot import exp

    if isinstance(node, (exp.Column, exp.Subquery, exp.Select)):
        return False
    return not any(isinstance(n, (exp.Column, exp.Subquery, exp.Select)) for n in node.walk())


def _wrapped_column(node: Any) -> Any:
    """The one column inside an expression over it (`YEAR(d)`, `LOWER(name)`, `price * 2`)."""
    from sqlglot import exp

    if isinstance(node, exp.Column):
        return None
    columns = list(node.find_all(exp.Column))
    return columns[0] if len(columns) == 1 else None


def _function_rewrite(wrapper: Any, column: Any, value: Any) -> str:
    from sqlglot import exp

    name = column.sql(dialect="mysql")
    if isinstance(wrapper, exp.Year) and isinstance(value, exp.Literal) and str(value.this).isdigit():
        year = int(str(value.this))
        return f"compare the column itself: {name} >= '{year}-01-01' AND {name} < '{year + 1}-01-01'"
    if type(wrapper).__name__ in ("Date", "TsOrDsToDate") and isinstance(value, exp.Literal):
        day = str(value.this)
        return f"compare the column itself: {name} >= '{day}' AND {name} < '{day}' + INTERVAL 1 DAY"
    if isinstance(wrapper, (exp.Lower, exp.Upper)):
        return f"compare {name} itself: with a case-insensitive collation (the default) it matches either case"
    return (
        f"compare {name} itself, or index the expression: a generated column with an index "
        "(MariaDB: a PERSISTENT or VIRTUAL column; MySQL 8.0.13+: a functional key part)"
    )


def _kinds(column: Any) -> str:
    return "the string column" if column.is_string else "the number column"
