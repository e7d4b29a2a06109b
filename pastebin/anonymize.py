"""Anonymize an explain and its query: schema, table, alias, index and column names become
db1, t1, a1, idx1, col1 …, the same name getting the same replacement in the explain and the query.

Pure functions, no Django. Names are collected from the parsed analysis (the `table`, `key`,
`possible_keys` and `ref` cells, or the JSON plan's `table_name`, `key`, `used_columns` …) and
from the query's identifiers (keywords, functions, literals and numbers are kept). The new paste
is then rebuilt: tabular formats as a clean ASCII table of the renamed rows (so nothing else
from the original paste, such as a transcript's warnings, is kept), JSON as the renamed plan,
tree output by renaming identifiers inside the original text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from analyzer.model import Plan
from analyzer.render.text import format_table

PREFIXES = {"db": "db", "table": "t", "alias": "a", "index": "idx", "column": "col"}

# Words kept as they are: SQL keywords a query uses as keywords, and the values EXPLAIN prints
# in name-bearing cells without them being names.
_KEYWORD_WORDS = """
    accessible add all alter analyze and as asc asensitive before between bigint binary blob both by call cascade
    case change char character check collate column condition constraint continue convert create cross current_date
    current_time current_timestamp current_user cursor database databases day day_hour day_microsecond day_minute
    day_second dec decimal declare default delayed delete desc describe distinct distinctrow div double drop dual each
    else elseif enclosed escaped except exists exit explain false fetch float for force foreign from fulltext
    generated get grant group having high_priority hour hour_microsecond hour_minute hour_second if ignore in index
    infile inner inout insensitive insert int integer intersect interval into is iterate join key keys kill lateral
    leading leave left like limit linear lines load localtime localtimestamp lock long loop low_priority match
    maxvalue minute minute_microsecond minute_second mod modifies month natural not null numeric offset on optimize
    option optionally or order out outer outfile over partition precision primary procedure purge quarter range read
    reads real recursive references regexp release rename repeat replace require restrict return returning revoke
    right rlike rows schema schemas second second_microsecond select sensitive separator set show signal smallint
    spatial specific sql sql_big_result sql_calc_found_rows sql_small_result ssl starting stored straight_join table
    terminated then tinyint to trailing trigger true undo union unique unlock unsigned update usage use using
    utc_date utc_time utc_timestamp values varbinary varchar varying virtual week when where while window with write
    xor year year_month zerofill
    format json tree traditional extended partitions warnings date time datetime timestamp text signed boolean mode
    natural language query expansion share nowait skip locked first last next only unbounded preceding following
    rollup microsecond escape end begin commit rollback start transaction const func auto_key0
"""
KEYWORDS = frozenset(_KEYWORD_WORDS.split())

IDENTIFIER = r"[A-Za-z_$\u0080-\U0010ffff][\w$\u0080-\U0010ffff]*"
WORD_RE = re.compile(rf"`(?:[^`]|``)+`|{IDENTIFIER}")
# A query as tokens: comments, strings, quoted identifiers, words, numbers, any other character.
QUERY_TOKEN_RE = re.compile(
    r"""(?P<comment>--[^\n]*|\#[^\n]*|/\*.*?(?:\*/|$))
      |(?P<string>'(?:[^'\\]|\\.|'')*'?|"(?:[^"\\]|\\.|"")*"?)
      |(?P<quoted>`(?:[^`]|``)*`?)
      |(?P<number>\d+(?:\.\d+)?(?:e[+-]?\d+)?\b)
      |(?P<word>@{0,2}"""
    + IDENTIFIER
    + r""")
      |(?P<space>\s+)
      |(?P<other>.)""",
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)
# After these keywords a name is a table (then maybe its alias).
TABLE_INTRO = frozenset({"from", "join", "update", "into", "table", "straight_join"})
# These end a FROM list, where a comma introduces another table.
FROM_END = frozenset({"where", "on", "using", "group", "order", "having", "limit", "set", "union", "window", "values"})
NOT_NAMES = frozenset({"primary", "const", "func", "null", ""})


class AnonymizeError(ValueError):
    """The paste could not be rebuilt without its names."""


@dataclass
class Renamer:
    """One consistent mapping from original names to placeholders (case-insensitive, like MySQL columns)."""

    names: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

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


def collect_query(renamer: Renamer, query: str) -> None:
    """Find the names in a query: tables after FROM/JOIN/…, their aliases, qualified and bare columns.

    Two passes, so that tables and aliases are known as such before the SELECT list uses them.
    """
    tokens = [m for m in QUERY_TOKEN_RE.finditer(query) if m.lastgroup not in ("space", "comment")]
    _walk_query(renamer, tokens, tables_only=True)
    _walk_query(renamer, tokens, tables_only=False)


def _walk_query(renamer: Renamer, tokens: list[re.Match[str]], tables_only: bool) -> None:
    in_from = False
    expect = ""  # "table" after FROM/JOIN/a comma in FROM, "alias" after a table, "as-…" after AS
    for i, token in enumerate(tokens):
        kind, text = token.lastgroup, token.group(0)
        following = tokens[i + 1].group(0) if i + 1 < len(tokens) else ""
        lower = text.lower()
        if kind == "word" and lower in KEYWORDS and expect != "as-alias":
            if lower in TABLE_INTRO:
                in_from = in_from or lower in {"from", "join", "straight_join"}
                expect = "table"
            elif lower == "as":
                expect = "as-alias" if expect == "alias" else "as-column"
            else:
                in_from = in_from and lower not in FROM_END
                expect = ""
            continue
        if kind == "other":
            if text == "," and in_from:
                expect = "table"
            elif text != ".":
                expect = ""
            continue
        if kind not in ("word", "quoted") or text.startswith("@"):
            continue
        if following == "(" and kind == "word" and expect != "table":
            continue  # a function call
        if following == ".":
            # A qualifier: the db of db.table.column or of db.table in FROM, else a table or alias.
            after = tokens[i + 3].group(0) if i + 3 < len(tokens) else ""
            if expect == "table" or after == ".":
                renamer.add("db", text)
            elif not tables_only and renamer.known(text) is None:
                renamer.add("table", text)
            continue
        if expect == "table":
            renamer.add("table", text)
            expect = "alias"
        elif expect in ("alias", "as-alias"):
            renamer.add("alias", text)
            expect = ""
        elif not tables_only and renamer.known(text) is None:
            renamer.add("column", text)
            expect = ""


def collect_rows(renamer: Renamer, rows: Iterable[dict[str, Any]]) -> None:
    for row in rows:
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


def rename_query(renamer: Renamer, query: str) -> str:
    """The query with every collected name replaced; comments are renamed too, literals kept."""
    out = []
    for token in QUERY_TOKEN_RE.finditer(query):
        kind, text = token.lastgroup, token.group(0)
        if kind == "word" and not text.startswith("@"):
            out.append(renamer.known(text) or text)
        elif kind == "quoted":
            new = renamer.known(text)
            out.append(f"`{new}`" if new else text)
        elif kind == "comment":
            out.append(renamer.replace_words(text))
        else:
            out.append(text)
    return "".join(out)


NAME_CELLS = ("table", "possible_keys", "key", "ref")


def rename_row(renamer: Renamer, row: dict[str, str | None]) -> dict[str, str | None]:
    renamed: dict[str, str | None] = {}
    for column, value in row.items():
        if value is None:
            renamed[column] = None
        elif column in NAME_CELLS:
            renamed[column] = renamer.replace_words(value)
        else:  # only back-quoted names elsewhere (e.g. conditions in Extra)
            renamed[column] = re.sub(
                r"`(?:[^`]|``)+`", lambda m: f"`{renamer.known(m.group(0)) or unquote(m.group(0))}`", value
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
        return renamer.replace_words(node)
    return node


def collect_qualified(renamer: Renamer, text: str) -> None:
    """Columns written `alias.column` after a known table or alias, in conditions and tree lines."""
    for qualifier, name in re.findall(rf"({IDENTIFIER})\.({IDENTIFIER})", text):
        if renamer.known(qualifier):
            renamer.add("column", name)


def collect_tree(renamer: Renamer, text: str) -> None:
    """Columns in tree output: `alias.column` of a known alias, and `column=` in lookups."""
    collect_qualified(renamer, text)
    for name in re.findall(rf"[(\s,]({IDENTIFIER})\s*=", text):
        if name.lower() not in TREE_MEASURES and name.lower() not in KEYWORDS:
            renamer.add("column", name)


@dataclass
class Anonymized:
    explain: str
    query: str | None
    mapping: dict[str, str]


def anonymize(text: str, analysis: dict[str, Any], query: str | None = None) -> Anonymized:
    """Rename the names in `text` (a paste) whose analysis is `analysis` (`Analysis.to_dict()`).

    `query` defaults to the query the analysis found. The caller re-analyzes the result.
    """
    query = query or analysis.get("query") or None
    renamer = Renamer()
    if query:
        collect_query(renamer, query)
    collect_plan(renamer, analysis.get("plan"))
    collect_rows(renamer, analysis.get("rows") or [])
    for table in analysis.get("tables") or []:
        if isinstance(table, str) and renamer.known(table) is None:
            renamer.add("table", table)

    fmt = analysis.get("format")
    if fmt == "json" and isinstance(analysis.get("plan"), (dict, list)):
        new_text = json.dumps(rename_plan(renamer, analysis["plan"]), indent=2, ensure_ascii=False) + "\n"
    elif fmt == "tree":
        collect_tree(renamer, text)
        new_text = renamer.replace_words(text)
    else:
        plan = Plan(format="table", columns=list(analysis.get("columns") or []))
        plan.rows = [rename_row(renamer, row) for row in analysis.get("rows") or []]
        new_text = format_table(plan) + "\n"
        if not plan.columns:
            raise AnonymizeError("There are no rows to anonymize.")
    new_query = rename_query(renamer, query) if query else None
    return Anonymized(explain=new_text, query=new_query, mapping=dict(renamer.names))
