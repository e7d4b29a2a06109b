"""Table definitions as people paste them: `SHOW CREATE TABLE` output (plain statements, the
client's table box, `\\G` output, several at once) and `SHOW INDEX FROM` output (table box, tabs or
`\\G`). The statements are read with sqlglot (MySQL dialect); `read_schema` returns what index
advice needs: each table's columns with their types, and its indexes.

A statement sqlglot cannot parse is reported in `Schema.problems`, never guessed at.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from analyzer.deadline import check_deadline
from analyzer.structs import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Bytes per character of the character sets an index's length depends on (the rest count 4).
CHARSET_BYTES = {"latin1": 1, "ascii": 1, "binary": 1, "utf8": 3, "utf8mb3": 3, "ucs2": 2, "utf16": 4, "utf8mb4": 4}
FIXED_BYTES = {
    "TINYINT": 1,
    "UTINYINT": 1,
    "BOOLEAN": 1,
    "SMALLINT": 2,
    "USMALLINT": 2,
    "MEDIUMINT": 3,
    "UMEDIUMINT": 3,
    "INT": 4,
    "UINT": 4,
    "BIGINT": 8,
    "UBIGINT": 8,
    "FLOAT": 4,
    "DOUBLE": 8,
    "DATE": 3,
    "TIME": 3,
    "YEAR": 1,
    "DATETIME": 5,
    "TIMESTAMP": 4,
    "TIMESTAMPTZ": 4,
    "ENUM": 2,
    "SET": 8,
    "BIT": 8,
}
STRING_TYPES = frozenset({"CHAR", "VARCHAR", "NCHAR", "NVARCHAR", "BINARY", "VARBINARY"})
# Types an index can hold only a prefix of.
LOB_TYPES = frozenset(
    {"TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"}
)
NUMBER_TYPES = frozenset(
    {name for name in FIXED_BYTES if "INT" in name or name in ("FLOAT", "DOUBLE", "BIT", "BOOLEAN")}
    | {"DECIMAL", "UDECIMAL"}
)

_CREATE_RE = re.compile(r"CREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?=[`\"\w])", re.IGNORECASE)
_TABLE_NAME_RE = re.compile(r"(?:(?:`(?:[^`]|``)+`|\w+)\.)?(?:`((?:[^`]|``)+)`|(\w+))")
_BOX_EDGE_RE = re.compile(r"^\s*\|\s?|\s?\|\s*$")
_PARENTHESES_RE = re.compile(r"[()'\"`\\]")


@dataclass
class Column:
    name: str
    type: str  # sqlglot's type name, upper case: INT, VARCHAR, TEXT …
    length: int | None = None  # characters of CHAR/VARCHAR, digits of DECIMAL
    nullable: bool = True
    charset: str | None = None

    @property
    def is_string(self) -> bool:
        return self.type in STRING_TYPES or self.type in LOB_TYPES or self.type in ("ENUM", "SET")

    @property
    def is_number(self) -> bool:
        return self.type in NUMBER_TYPES

    @property
    def needs_prefix(self) -> bool:
        return self.type in LOB_TYPES


@dataclass
class Index:
    name: str
    columns: list[str]  # lower-case column names in index order
    unique: bool = False
    primary: bool = False
    kind: str = "BTREE"  # FULLTEXT and SPATIAL indexes serve no lookups advice cares about
    prefixes: dict[str, int] = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        return self.kind not in ("FULLTEXT", "SPATIAL")


@dataclass
class Table:
    name: str
    database: str | None = None
    columns: dict[str, Column] = field(default_factory=dict)  # by lower-case name
    indexes: list[Index] = field(default_factory=list)
    charset: str | None = None
    row_format: str | None = None

    def column(self, name: str) -> Column | None:
        return self.columns.get(name.lower())


@dataclass
class Schema:
    tables: dict[str, Table] = field(default_factory=dict)  # by lower-case name
    problems: list[str] = field(default_factory=list)

    def table(self, name: str) -> Table | None:
        return self.tables.get(name.lower())


MAX_STATEMENT_CHARS = 64 * 1024


def read_schema(text: str, wanted: set[str] | None = None) -> Schema:
    """Every table definition and index list found in `text`; with `wanted` (lower-case table
    names), only theirs: the statements of other tables are not parsed, nor those of a table
    defined again later in the text (the last definition sqlglot can read is the one kept)."""
    schema = Schema()
    lines = [_BOX_EDGE_RE.sub("", line) if line.lstrip().startswith("|") else line for line in text.splitlines()]
    plain = "\n".join(lines)
    read: list[Table | str] = []
    for statement in reversed(_create_statements(plain)):
        check_deadline()
        name = _created_name(statement)
        if (wanted is None or name in wanted) and name not in schema.tables:
            found = _read_create(statement)
            if isinstance(found, Table):
                schema.tables[found.name.lower()] = found
            if found is not None:
                read.append(found)
    schema.tables = {}
    for found in reversed(read):
        if isinstance(found, Table):
            schema.tables[found.name.lower()] = found
        else:
            schema.problems.append(found)
    for row in _index_rows(text):
        if wanted is None or (row.get("table") or "").lower() in wanted:
            _add_index_row(schema, row)
    return schema


def _created_name(statement: str) -> str:
    """The lower-case name of the table a CREATE TABLE statement creates (without its database)."""
    head = _CREATE_RE.sub("", statement, count=1).lstrip()
    match = _TABLE_NAME_RE.match(head)
    return (match.group(1) or match.group(2) or "").replace("``", "`").lower() if match else ""


def _create_statements(text: str) -> list[str]:
    """Each `CREATE TABLE … ( … ) options` in the text, cut at its balanced closing parenthesis
    and the end of that line (where a table box or `;` ends it)."""
    statements = []
    closings = _Closings(text)
    for match in _CREATE_RE.finditer(text):
        close = closings.after(match.end())
        if close is None:
            continue
        end = text.find("\n", close)
        tail = text[close + 1 : end if end >= 0 else len(text)]
        tail = re.split(r";|\\G|\s\|", tail)[0]
        statements.append(text[match.start() : close + 1] + tail)
    return statements


class _Closings:
    """The index of the parenthesis closing the first one at or after a position, skipping quoted
    text, for positions asked in increasing order. A position that an earlier scan of the text
    went past outside quoted text needs no scan of its own: its parenthesis closes where that scan
    first comes back to the depth it had there."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.scans: list[_Scan] = []

    def after(self, start: int) -> int | None:
        for scan in reversed(self.scans):
            depth = scan.depth_at(start)
            if depth is not None:
                return scan.closing(depth, start)
        self.scans.append(_Scan(self.text, start))
        return self.scans[-1].closing(0, start)


class _Scan:
    """The parentheses and quotes from `start` to the end of `text`: after each of those signs,
    whether quoted text is open and the depth of the parentheses; where each `)` brings it."""

    def __init__(self, text: str, start: int) -> None:
        self.signs: list[int] = []  # where the signs outside an escape are
        self.depths: list[int | None] = []  # the depth after each, None inside quoted text
        self.closes: dict[int, list[int]] = {}  # depth -> where a `)` brings it there
        depth, quote, skip = 0, "", -1
        for match in _PARENTHESES_RE.finditer(text, start):
            check_deadline()
            i, char = match.start(), match[0]
            if i == skip:
                continue  # escaped
            if quote:
                if char == "\\" and quote != "`":
                    skip = i + 1
                elif char == quote:
                    quote = ""
            elif char in "'\"`":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                self.closes.setdefault(depth, []).append(i)
            self.signs.append(i)
            self.depths.append(None if quote else depth)

    def depth_at(self, start: int) -> int | None:
        """The depth of the parentheses before `start`; None inside quoted text (or an escape)."""
        at = bisect_left(self.signs, start)
        return self.depths[at - 1] if at else 0

    def closing(self, depth: int, start: int) -> int | None:
        """The first `)` from `start` on that brings the depth back to `depth`."""
        closes = self.closes.get(depth, [])
        at = bisect_left(closes, start)
        return closes[at] if at < len(closes) else None


def _read_create(statement: str) -> Table | str | None:
    """The table a CREATE TABLE statement defines, or the problem reading it; None for another statement."""
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    if len(statement) > MAX_STATEMENT_CHARS:  # sqlglot reads it in one call, which the deadline cannot stop
        return f"`{statement.splitlines()[0][:80]}` is longer than {MAX_STATEMENT_CHARS // 1024} KiB, too long to read in time"
    try:
        tree = sqlglot.parse_one(statement, read="mysql")
    except SqlglotError as exc:
        first = statement.splitlines()[0][:80]
        return f"could not read `{first}`: {str(exc).splitlines()[0][:120]}"
    if not isinstance(tree, exp.Create) or not isinstance(tree.this, exp.Schema):
        return None
    target = tree.this.this
    table = Table(name=target.name, database=target.text("db") or None)
    for prop in tree.find_all(exp.CharacterSetProperty):
        table.charset = prop.name.lower()
    for row_format in tree.find_all(exp.RowFormatProperty):
        table.row_format = row_format.name.upper()
    for item in tree.this.expressions:
        if isinstance(item, exp.ColumnDef):
            _add_column(table, item)
        else:
            _add_constraint(table, item)
    return table


def _add_column(table: Table, item: Any) -> None:
    from sqlglot import exp

    kind = item.args.get("kind")
    type_name = kind.this.name if kind is not None else "UNKNOWN"
    params = [p.this for p in kind.expressions] if kind is not None else []
    length = None
    if params and isinstance(params[0], exp.Literal) and not params[0].is_string:
        length = int(str(params[0].this)) if str(params[0].this).isdigit() else None
    column = Column(name=item.name, type=type_name, length=length)
    for constraint in item.args.get("constraints") or []:
        kind_node = constraint.args.get("kind")
        if isinstance(kind_node, exp.NotNullColumnConstraint) and not kind_node.args.get("allow_null"):
            column.nullable = False
        elif isinstance(kind_node, exp.PrimaryKeyColumnConstraint):
            column.nullable = False
            table.indexes.append(Index("PRIMARY", [item.name.lower()], unique=True, primary=True))
        elif isinstance(kind_node, exp.CharacterSetColumnConstraint):
            column.charset = kind_node.name.lower()
    table.columns[item.name.lower()] = column


def _add_constraint(table: Table, item: Any) -> None:
    from sqlglot import exp

    if isinstance(item, exp.PrimaryKey):
        columns, prefixes = _key_parts(item.expressions)
        table.indexes.append(Index("PRIMARY", columns, unique=True, primary=True, prefixes=prefixes))
    elif isinstance(item, exp.UniqueColumnConstraint) and isinstance(item.this, exp.Schema):
        columns, prefixes = _key_parts(item.this.expressions)
        table.indexes.append(Index(item.this.name or columns[0], columns, unique=True, prefixes=prefixes))
    elif isinstance(item, exp.IndexColumnConstraint):
        columns, prefixes = _key_parts(item.expressions)
        kind = str(item.args.get("kind") or "BTREE").upper()
        table.indexes.append(Index(item.name or columns[0], columns, kind=kind, prefixes=prefixes))


def _key_parts(parts: list[Any]) -> tuple[list[str], dict[str, int]]:
    from sqlglot import exp

    columns, prefixes = [], {}
    for part in parts:
        if isinstance(part, exp.Ordered):
            part = part.this
        name = part.name.lower()
        columns.append(name)
        if isinstance(part, exp.ColumnPrefix) and str(part.expression.this).isdigit():
            prefixes[name] = int(str(part.expression.this))
    return columns, prefixes


# SHOW INDEX FROM: the columns it prints that advice reads.
_INDEX_FIELDS = ("table", "non_unique", "key_name", "seq_in_index", "column_name", "sub_part", "index_type")


def _index_rows(text: str) -> list[dict[str, str]]:
    """The rows of `SHOW INDEX FROM` output: a table box, tab-separated, or `\\G` records."""
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    record: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        vertical = re.match(r"^([A-Za-z_]+):\s?(.*)$", stripped)
        if vertical and vertical.group(1).lower() in _INDEX_FIELDS:
            key = vertical.group(1).lower()
            if key == "table" and record:
                rows.append(record)
                record = {}
            record[key] = vertical.group(2).strip()
            continue
        cells = _cells(stripped)
        if cells is None:
            continue
        lowered = [cell.lower() for cell in cells]
        if "key_name" in lowered and "column_name" in lowered:
            header = lowered
        elif header is not None and len(cells) == len(header):
            rows.append(dict(zip(header, cells, strict=True)))
    if record:
        rows.append(record)
    return [row for row in rows if row.get("key_name") and row.get("column_name")]


def _cells(line: str) -> list[str] | None:
    if line.startswith("|") and line.endswith("|"):
        return [cell.strip() for cell in line[1:-1].split("|")]
    if "\t" in line:
        return [cell.strip() for cell in line.split("\t")]
    return None


def _add_index_row(schema: Schema, row: dict[str, str]) -> None:
    name = row.get("table") or ""
    if not name:
        return
    table = schema.tables.setdefault(name.lower(), Table(name=name))
    key = row["key_name"]
    index = next((i for i in table.indexes if i.name.lower() == key.lower()), None)
    if index is None:
        index = Index(
            key,
            [],
            unique=row.get("non_unique") == "0",
            primary=key.upper() == "PRIMARY",
            kind=(row.get("index_type") or "BTREE").upper(),
        )
        table.indexes.append(index)
    column = row["column_name"].lower()
    if column not in index.columns:
        position = int(row["seq_in_index"]) if (row.get("seq_in_index") or "").isdigit() else len(index.columns) + 1
        index.columns.insert(min(position - 1, len(index.columns)), column)
    if (row.get("sub_part") or "").isdigit():
        index.prefixes[column] = int(row["sub_part"])
