"""Anonymize an explain and its query: schema, table, alias, index and column names become
db1, t1, a1, idx1, col1 …, and data literals become 'str1', 'str2' … and 1, 2 …, each name and each
value getting the same replacement in the explain and the query.

Pure functions, no Django. The query is read with sqlglot (MySQL dialect): its syntax tree says
which identifiers are tables, databases, aliases and columns, its tokens where each name and
literal is; a query sqlglot tokenizes but cannot parse has every word that is not a keyword, a
function or a variable renamed. Names are also collected from the parsed analysis (the `table`,
`key`, `possible_keys` and `ref` cells, or the JSON plan's `table_name`, `key`, `used_columns` …).
Literals are replaced in the query and in the conditions the plan prints (a string always, a
number where it is compared, so the plan's own figures stay); LIMIT counts are kept. The new
paste is then rebuilt: tabular formats as a clean ASCII table of the renamed rows (so nothing
else from the original paste, such as a transcript's warnings, is kept), JSON as the renamed
plan, tree output by renaming inside the original text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from analyzer.deadline import DEFAULT_DEADLINE_MS, check_deadline, deadline
from analyzer.model import Plan
from analyzer.render.text import format_table

PREFIXES = {"db": "db", "table": "t", "alias": "a", "index": "idx", "column": "col"}

IDENTIFIER = r"[A-Za-z_$\u0080-\U0010ffff][\w$\u0080-\U0010ffff]*"
WORD_RE = re.compile(rf"`(?:[^`]|``)+`|{IDENTIFIER}")
# `alias.column`: each run of word characters is tried once, from its start (past the digits no
# name starts with), and taken whole (the `*+`): trying it from each of its characters, and each
# of its lengths, would cost time squared on a long word without a dot.
QUALIFIED_RE = re.compile(
    r"(?<![\w$\u0080-\U0010ffff])[0-9]*+([A-Za-z_$\u0080-\U0010ffff][\w$\u0080-\U0010ffff]*+)\.(" + IDENTIFIER + ")"
)
# A longer query is refused: sqlglot reads it in one call, which the time budget cannot stop.
MAX_QUERY_CHARS = 64 * 1024
# A single-quoted string, for text the SQL tokenizer cannot read.
QUOTED_STRING_RE = re.compile(r"'(?:[^'\\]|\\.|'')*'")
# Values EXPLAIN prints in name-bearing cells without them being names.
NOT_NAMES = frozenset({"primary", "const", "func", "null", ""})

# Token types of sqlglot's tokenizer, by name (compared as strings so sqlglot loads only when used).
NAME_TOKENS = frozenset({"VAR", "IDENTIFIER"})
STRING_TOKENS = frozenset({"STRING", "NATIONAL_STRING", "HEX_STRING", "BIT_STRING", "BYTE_STRING", "RAW_STRING"})
COMPARISONS = frozenset({"EQ", "NEQ", "GT", "GTE", "LT", "LTE", "NULLSAFE_EQ", "LIKE", "BETWEEN", "IN"})
SIGNS = frozenset({"DASH", "PLUS"})
VARIABLE_TOKENS = frozenset({"PARAMETER", "SESSION_PARAMETER"})
TABLE_INTRO_TOKENS = frozenset({"FROM", "JOIN", "INTO", "UPDATE", "TABLE", "STRAIGHT_JOIN"})
# Statements a query may start with after EXPLAIN and its options.
STATEMENT_TOKENS = frozenset({"SELECT", "WITH", "UPDATE", "DELETE", "INSERT", "REPLACE", "TABLE", "VALUES"})
# Number literals in these clauses are counts and positions, not data: kept.
COUNTING_PARENTS = ("Limit", "Offset", "Fetch", "Ordered", "Group")


class AnonymizeError(ValueError):
    """The paste could not be rebuilt without its names."""


@dataclass
class Renamer:
    """One consistent mapping from original names to placeholders (case-insensitive, like MySQL columns)."""

    names: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    literals: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, kind: str, name: str) -> str:
        name = unquote(name)
        key = name.lower()
        if key in NOT_NAMES or name.startswith(("<", "#")):  # <derived2>, <auto_key0>, #hash#$hj: made up by the server
            return name
        if key not in self.names:
            prefix = PREFIXES[kind]
            self.counts[prefix] = self.counts.get(prefix, 0) + 1
            self.names[key] = f"{prefix}{self.counts[prefix]}"
        return self.names[key]

    def literal_string(self, value: str, source: str) -> str:
        """The placeholder of a string literal (`source` as written, quotes included): `'str1'`, …"""
        quote = '"' if source.endswith('"') else "'"
        return f"{quote}{self._literal('str', value)}{quote}"

    def literal_number(self, value: str) -> str:
        """The placeholder of a number literal: 1, 2, … in the order the values are first seen."""
        return self._literal("", value)

    def _literal(self, prefix: str, value: str) -> str:
        key = (prefix, value)
        if key not in self.literals:
            self.counts[prefix] = self.counts.get(prefix, 0) + 1
            self.literals[key] = f"{prefix}{self.counts[prefix]}"
        return self.literals[key]

    def known(self, name: str) -> str | None:
        return self.names.get(unquote(name).lower())

    def replace_words(self, text: str) -> str:
        """Rename every known identifier (bare or back-quoted) inside free text."""

        def swap(match: re.Match[str]) -> str:
            word = match.group(0)
            new = self.known(word)
            if new is None:
                return word
            return f"`{new}`" if word.startswith("`") else new

        return WORD_RE.sub(swap, text)


def unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] == "`":
        return name[1:-1].replace("``", "`")
    return name


def _split_list(value: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,|]", value) if part.strip()]


def collect_ref(renamer: Renamer, ref: str) -> None:
    """`db.table.column`, `table.column` or a column; `const`, `func` and NULL are kept."""
    for part in ref.split(","):
        pieces = [p.strip() for p in part.strip().split(".")]
        if len(pieces) == 1:
            if pieces[0].lower() not in NOT_NAMES:
                renamer.add("column", pieces[0])
            continue
        if len(pieces) >= 3:
            renamer.add("db", pieces[-3])
        if renamer.known(pieces[-2]) is None:
            renamer.add("table", pieces[-2])
        renamer.add("column", pieces[-1])


@dataclass
class QueryText:
    """A query read by sqlglot (MySQL dialect): its tokens, and its syntax tree when it parses."""

    text: str
    tokens: list[Any]
    tree: Any = None  # sqlglot Expression, or None when the query does not parse
    offset: int = 0  # where the parsed statement starts in `text` (after EXPLAIN and its options)

    def identifiers(self) -> list[Any]:
        """The syntax tree's identifiers in the order they are written."""
        from sqlglot import exp

        if self.tree is None:
            return []
        found = list(self.tree.find_all(exp.Identifier))
        return sorted(found, key=lambda node: node.meta.get("start", len(self.text)))

    def start(self, node: Any) -> int | None:
        start = node.meta.get("start")
        return None if start is None else start + self.offset


def read_query(query: str) -> QueryText:
    """Tokenize the query and parse it from its first statement keyword (skipping `EXPLAIN …`)."""
    import sqlglot
    from sqlglot.dialects.mysql import MySQL
    from sqlglot.errors import SqlglotError

    try:
        tokens = MySQL().tokenize(query)
    except SqlglotError as exc:
        raise AnonymizeError(
            f"the query could not be read as SQL ({_first_line(exc)}); correct it or leave it out"
        ) from exc
    read = QueryText(query, tokens)
    first = next((t for t in tokens if t.token_type.name in STATEMENT_TOKENS), None)
    if first is None:
        return read
    try:
        tree = sqlglot.parse_one(query[first.start :], read="mysql")
    except SqlglotError:
        return read  # the tokens alone are used: every unknown word is taken as a name
    if type(tree).__name__ != "Command":  # sqlglot's stand-in for statements it does not parse
        read.tree, read.offset = tree, first.start
    return read


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__


def collect_query(renamer: Renamer, read: QueryText) -> None:
    """Name the query's tables, their databases and aliases, then its columns.

    Tables and aliases go first so that `alias.column` further on finds its alias known.
    """
    later = []
    for ident in read.identifiers():
        kind = _identifier_kind(ident)
        if kind in ("table", "db", "alias"):
            renamer.add(kind, ident.this)
        else:
            later.append((kind, ident.this))
    for kind, name in later:
        if renamer.known(name) is None:
            renamer.add("table" if kind == "qualifier" else kind, name)
    if read.tree is None:
        _collect_unparsed(renamer, read.tokens)


def _identifier_kind(ident: Any) -> str:
    parent, key = type(ident.parent).__name__, ident.arg_key
    if parent == "Table":
        return "table" if key == "this" else "db"
    if parent == "TableAlias":
        return "alias"
    if parent == "Column" and key != "this":
        return "db" if key in ("db", "catalog") else "qualifier"
    if "Index" in parent:
        return "index"
    return "column"


def _collect_unparsed(renamer: Renamer, tokens: list[Any]) -> None:
    """Names of a query sqlglot cannot parse: every word that is not a keyword, a function or a variable."""
    for index, token in enumerate(tokens):
        if not _is_name_token(tokens, index) or renamer.known(token.text) is not None:
            continue
        before = tokens[index - 1].token_type.name if index else ""
        renamer.add("table" if before in TABLE_INTRO_TOKENS else "column", token.text)


def _is_name_token(tokens: list[Any], index: int) -> bool:
    token = tokens[index]
    if token.token_type.name not in NAME_TOKENS:
        return False
    following = tokens[index + 1].token_type.name if index + 1 < len(tokens) else ""
    if following == "L_PAREN" and token.token_type.name == "VAR":
        return False  # a function call
    before = [t.token_type.name for t in tokens[max(0, index - 3) : index]]
    return not (before[-1:] and before[-1] in VARIABLE_TOKENS) and "SESSION_PARAMETER" not in before


def collect_rows(renamer: Renamer, rows: Iterable[dict[str, Any]]) -> None:
    for row in rows:
        check_deadline()
        table = row.get("table")
        if table and renamer.known(table) is None:
            renamer.add("table", table)
        for column in ("possible_keys", "key"):
            for name in _split_list(row.get(column) or ""):
                renamer.add("index", name)
        if row.get("ref"):
            collect_ref(renamer, row["ref"])


def collect_plan(renamer: Renamer, node: Any) -> None:
    """Walk a JSON plan for table, index and column names."""
    if isinstance(node, list):
        for item in node:
            collect_plan(renamer, item)
        return
    if not isinstance(node, dict):
        return
    check_deadline()
    for key, value in node.items():
        if key in ("table_name", "alias") and isinstance(value, str):
            if renamer.known(value) is None:
                renamer.add("table", value)
        elif key == "schema_name" and isinstance(value, str):
            renamer.add("db", value)
        elif key in ("key", "possible_keys", "index_name", "keys") and isinstance(value, (str, list)):
            for name in [value] if isinstance(value, str) else value:
                if isinstance(name, str):
                    renamer.add("index", name)
        elif key in ("used_key_parts", "used_columns", "key_columns", "filter_columns") and isinstance(value, list):
            for name in value:
                if isinstance(name, str):
                    renamer.add("column", name)
        elif key in ("ref", "lookup_references") and isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    collect_ref(renamer, item)
        elif isinstance(value, str):
            collect_qualified(renamer, value)
            for quoted in re.findall(r"`(?:[^`]|``)+`(?:\.`(?:[^`]|``)+`)*", value):
                parts = [unquote(p) for p in re.findall(r"`(?:[^`]|``)+`", quoted)]
                if len(parts) >= 3:
                    renamer.add("db", parts[-3])
                if len(parts) >= 2 and renamer.known(parts[-2]) is None:
                    renamer.add("table", parts[-2])
                renamer.add("column", parts[-1])
        else:
            collect_plan(renamer, value)


def rename_query(renamer: Renamer, read: QueryText) -> str:
    """The query with every collected name and every data literal replaced.

    Counts and positions (LIMIT, OFFSET, ORDER BY 1) keep their numbers; comments between tokens
    have their known names renamed.
    """
    text, tokens = read.text, read.tokens
    kept = _counting_numbers(read)
    out, position = [], 0
    for index, token in enumerate(tokens):
        out.append(renamer.replace_words(text[position : token.start]))
        source = text[token.start : token.end + 1]
        kind = token.token_type.name
        if kind in STRING_TOKENS:
            out.append(renamer.literal_string(token.text, source))
        elif kind == "NUMBER" and token.start not in kept:
            out.append(renamer.literal_number(token.text))
        elif _is_name_token(tokens, index) and (new := renamer.known(token.text)) is not None:
            out.append(f"`{new}`" if source.startswith("`") else new)
        else:
            out.append(source)
        position = token.end + 1
    out.append(renamer.replace_words(text[position:]))
    return "".join(out)


def _counting_numbers(read: QueryText) -> set[int]:
    if read.tree is None:
        return set()
    from sqlglot import exp

    starts = set()
    for literal in read.tree.find_all(exp.Literal):
        if type(literal.parent).__name__ in COUNTING_PARENTS and (start := read.start(literal)) is not None:
            starts.add(start)
    return starts


def mask_literals(renamer: Renamer, text: str) -> str:
    """The data literals of conditions printed in a plan (`= 'bob@example.com'`, `= 42`) replaced.

    Strings always; a number only where it is compared with something, so that the plan's own
    figures (`rows=10`, `cost=1.2`, `Limit: 10 row(s)`) stay. Read line by line with sqlglot's
    tokenizer; a line it cannot read has its complete quoted strings replaced. A line that comes
    again is masked as it was the first time (a value keeps its placeholder), without reading it.
    """
    masked: dict[str, str] = {}
    out = []
    for line in text.splitlines(keepends=True):
        check_deadline()
        if line not in masked:
            masked[line] = _mask_line(renamer, line)
        out.append(masked[line])
    return "".join(out)


def _mask_line(renamer: Renamer, line: str) -> str:
    if "'" not in line and '"' not in line and not any(c.isdigit() for c in line):
        return line
    from sqlglot.dialects.mysql import MySQL
    from sqlglot.errors import SqlglotError

    try:
        tokens = MySQL().tokenize(line)
    except SqlglotError:
        return QUOTED_STRING_RE.sub(lambda m: renamer.literal_string(m.group(0)[1:-1], m.group(0)), line)
    out, position = [], 0
    for index, token in enumerate(tokens):
        kind = token.token_type.name
        if kind in STRING_TOKENS or (kind == "NUMBER" and _compared(tokens, index)):
            source = line[token.start : token.end + 1]
            out.append(line[position : token.start])
            out.append(
                renamer.literal_string(token.text, source) if kind != "NUMBER" else renamer.literal_number(token.text)
            )
            position = token.end + 1
    out.append(line[position:])
    return "".join(out)


def _compared(tokens: list[Any], index: int) -> bool:
    """Whether the number at `index` is an operand of a comparison (not `rows=10` or `cost=1.5`)."""
    back = index - 1
    while back >= 0 and tokens[back].token_type.name in SIGNS:
        back -= 1
    if back < 0:
        return False
    before = tokens[back].token_type.name
    if before in ("COMMA", "L_PAREN", "AND"):
        return _in_list(tokens, back)
    if before not in COMPARISONS:
        return False
    subject = tokens[back - 1] if back else None
    return not (subject is not None and subject.text.lower() in TREE_MEASURES)


def _in_list(tokens: list[Any], index: int) -> bool:
    """Whether the token at `index` (a comma, an opening parenthesis or AND) sits in `IN (…)` or `BETWEEN … AND`."""
    depth = 0
    for back in range(index, max(-1, index - 200), -1):
        kind = tokens[back].token_type.name
        if kind == "R_PAREN":
            depth += 1
        elif kind == "L_PAREN":
            if depth == 0:
                return back > 0 and tokens[back - 1].token_type.name == "IN"
            depth -= 1
        elif depth == 0 and kind == "BETWEEN":
            return True
        elif depth == 0 and kind in COMPARISONS | {"WHERE", "ON", "AND", "OR"} and back != index:
            return False
    return False


NAME_CELLS = ("table", "possible_keys", "key", "ref")


def rename_row(renamer: Renamer, row: dict[str, str | None]) -> dict[str, str | None]:
    check_deadline()
    renamed: dict[str, str | None] = {}
    for column, value in row.items():
        if value is None:
            renamed[column] = None
        elif column in NAME_CELLS:
            renamed[column] = renamer.replace_words(value)
        else:  # only back-quoted names and literals elsewhere (e.g. conditions in Extra)
            renamed[column] = mask_literals(
                renamer,
                re.sub(r"`(?:[^`]|``)+`", lambda m: f"`{renamer.known(m.group(0)) or unquote(m.group(0))}`", value),
            )
    return renamed


# JSON plan values that are EXPLAIN's own words, never names.
PLAN_WORD_KEYS = frozenset({"access_type", "select_type", "message", "algorithm"})
# `name=` inside tree output that are measurements, not columns.
TREE_MEASURES = frozenset({"cost", "rows", "loops", "time", "actual", "filtered", "count"})


# Property names of EXPLAIN FORMAT=JSON (MySQL 5.7 to 9, MariaDB): never renamed as object keys.
# Any other key that is a known name is renamed (MariaDB's `r_keys.range` is keyed by index names).
_PLAN_KEY_WORDS = """
    access_type actual_first_row_ms actual_last_row_ms actual_loops actual_rows alias attached_condition
    attached_subqueries block-nl-join buffer_size buffer_type cacheable condition const_condition cost_info covering
    data_read_per_join delete dependent distinct duplicates_removal estimated_first_row_cost estimated_rows
    estimated_total_cost eval_cost expression_cache filesort filter_columns filtered first_match full_scan functions
    grouping_operation having_condition heading index_access_type index_condition index_merge index_name inputs
    join_algorithm join_type json_schema_version key key_columns key_length keys lookup_condition lookup_references
    loose_scan materialization materialized materialized_from_subquery message mrr_type nested_loop not_exists
    operation ordering_operation pages_accessed pages_updated possible_keys prefix_cost query query_block query_cost
    query_optimization query_plan query_specifications query_type r_buffer_size r_effective_rows r_engine_stats
    r_filling_time_ms r_filtered r_hit_ratio r_keys r_limit r_lookups r_loops r_other_time_ms r_output_rows r_rows
    r_selectivity_pct r_sort_mode r_strategy r_table_time_ms r_total_time_ms r_unpack_time_ms r_used_priority_queue
    range range-checked-for-each-record read_cost read_sorted_file recursive_union ref rowid_filter rows
    rows_examined_per_scan rows_produced_per_join schema_name select_id selectivity_pct sort_key sorts state
    subqueries subquery subquery_location table table_name temporary_table union union_result unique update
    used_columns used_key_parts using_filesort using_index using_index_for_group_by using_join_buffer
    using_temporary_table window_functions_computation windowing windows
"""
PLAN_KEYS = frozenset(_PLAN_KEY_WORDS.split())


def rename_plan(renamer: Renamer, node: Any, key: str = "") -> Any:
    """A copy of a JSON plan with every known name renamed inside its string values and, outside
    EXPLAIN's own property names, in its object keys."""
    if isinstance(node, dict):
        return {k if k in PLAN_KEYS else (renamer.known(k) or k): rename_plan(renamer, v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [rename_plan(renamer, item, key) for item in node]
    if isinstance(node, str) and key not in PLAN_WORD_KEYS:
        return mask_literals(renamer, renamer.replace_words(node))
    return node


def collect_qualified(renamer: Renamer, text: str) -> None:
    """Columns written `alias.column` after a known table or alias, in conditions and tree lines."""
    for qualifier, name in QUALIFIED_RE.findall(text):
        if renamer.known(qualifier):
            renamer.add("column", name)


def collect_tree(renamer: Renamer, text: str) -> None:
    """Columns in tree output: `alias.column` of a known alias, and `column=` in lookups."""
    collect_qualified(renamer, text)
    for name in re.findall(rf"[(\s,]({IDENTIFIER})\s*=", text):
        if name.lower() not in TREE_MEASURES and not _is_keyword(name):
            renamer.add("column", name)


def _is_keyword(word: str) -> bool:
    from sqlglot.dialects.mysql import MySQL

    return word.upper() in MySQL.Tokenizer.KEYWORDS


@dataclass
class Anonymized:
    explain: str
    query: str | None
    mapping: dict[str, str]


def anonymize(
    text: str, analysis: dict[str, Any], query: str | None = None, deadline_ms: int | None = DEFAULT_DEADLINE_MS
) -> Anonymized:
    """Rename the names in `text` (a paste) whose analysis is `analysis` (`Analysis.to_dict()`).

    `query` defaults to the query the analysis found. The caller re-analyzes the result. Raises
    `ParseError` (`too_complex`) past `deadline_ms` milliseconds of CPU time (see `analyzer.deadline`).
    """
    with deadline(deadline_ms):
        return _anonymize(text, analysis, query)


def _anonymize(text: str, analysis: dict[str, Any], query: str | None) -> Anonymized:
    query = query or analysis.get("query") or None
    if query and len(query) > MAX_QUERY_CHARS:
        raise AnonymizeError(
            f"the query is longer than {MAX_QUERY_CHARS // 1024} KiB, more than its names can be read in time "
            "(remove or shorten it)"
        )
    renamer = Renamer()
    read = read_query(query) if query else None
    if read is not None:
        collect_query(renamer, read)
    collect_plan(renamer, analysis.get("plan"))
    collect_rows(renamer, analysis.get("rows") or [])
    for table in analysis.get("tables") or []:
        if isinstance(table, str) and renamer.known(table) is None:
            renamer.add("table", table)

    fmt = analysis.get("format")
    if fmt == "tree":
        collect_tree(renamer, text)
    new_query = rename_query(renamer, read) if read is not None else None  # first, so its literals number first
    if fmt == "json" and isinstance(analysis.get("plan"), (dict, list)):
        new_text = json.dumps(rename_plan(renamer, analysis["plan"]), indent=2, ensure_ascii=False) + "\n"
    elif fmt == "tree":
        new_text = mask_literals(renamer, renamer.replace_words(text))
    else:
        plan = Plan(format="table", columns=list(analysis.get("columns") or []))
        plan.rows = [rename_row(renamer, row) for row in analysis.get("rows") or []]
        new_text = format_table(plan) + "\n"
        if not plan.columns:
            raise AnonymizeError("There are no rows to anonymize.")
    return Anonymized(explain=new_text, query=new_query, mapping=dict(renamer.names))
