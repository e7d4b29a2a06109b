"""Adversarial inputs for the analyzer: `python bench/adversarial.py [--limit SECONDS] [--growth]`.

Builds pathological pastes just under the 1 MiB limit (one huge line, walls of `|`, `{` nested
50k deep, 200k tree lines, border-only lines, mixed line endings, row markers, prompts, fences,
deep indentation, …, and the shapes once found to take seconds to minutes: headers of tables
without borders glued onto every later line, boxed JSON with a wide character in its borders,
a long line followed by short ones, wrapped rows of CJK text), times `analyze()` on each (the best
of a few runs, in CPU time of the process, since the machine is shared), then index advice on a
small plan with a pathological query (32 KiB, the most advice reads) or tables' definitions
(256 KiB of `SHOW CREATE TABLE` or `SHOW INDEX` output), the query and paste highlighters on text
just under their limits, the raw paste marked by its lines' spans (as many as a page marks) and
the anonymization of a paste with a long query, and prints them slowest first. Anything over the limit (default 1 s) is
flagged. A ParseError is a fine answer (one saying the paste is too complex is flagged, as the
time budget of `analyzer.deadline` cut it); any other exception is reported as a failure.
`--no-deadline` times the readers without their time budget, `--timeout` stops a run after that
many seconds of CPU time.

`--growth` times the shapes once found to grow faster than their size at 1/16, 1/8, 1/4, 1/2
and all of the limit (from 1/N with `--smallest N`), with the ratio of each time to the one
before (about 2 when linear), up to the first run that times out.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import ParseError, analyze  # noqa: E402
from analyzer.model import Plan  # noqa: E402
from analyzer.render.highlight import MAX_HIGHLIGHT_CHARS, MAX_HIGHLIGHT_QUERY_CHARS, highlight_explain, highlight_query  # noqa: E402
from analyzer.render.text import format_table  # noqa: E402
from analyzer.render.view import MAX_MARKED_SPANS, build_view  # noqa: E402
from analyzer.repair.textwidth import cut  # noqa: E402

LIMIT = 1024 * 1024
BUDGET = LIMIT - 64  # leave room so every input stays under the limit


def fill(unit: str, budget: int = BUDGET, head: str = "", tail: str = "") -> str:
    """`head`, then `unit` repeated to fill the budget (in UTF-8 bytes), then `tail`."""
    size = len(unit.encode("utf-8"))
    room = budget - len((head + tail).encode("utf-8"))
    return head + unit * max(0, room // size) + tail


HEADER = "| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |\n"
BORDER = "+----+-------------+-------+------+---------------+-----+---------+-----+------+-------+\n"
ROW = "|  1 | SIMPLE      | t1    | ALL  | NULL          | NULL| NULL    | NULL|   10 | NULL  |\n"
TABLE = BORDER + HEADER + BORDER + ROW + BORDER
VERTICAL_ROW = (
    "*************************** 1. row ***************************\n"
    "           id: 1\n  select_type: SIMPLE\n        table: t1\n         type: ALL\n"
    "possible_keys: NULL\n          key: NULL\n      key_len: NULL\n          ref: NULL\n"
    "         rows: 10\n        Extra: Using where\n"
)
TSV_HEAD = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n"
TSV_ROW = "1\tSIMPLE\tt1\tALL\tNULL\tNULL\tNULL\tNULL\t10\tUsing where\n"
PRINT_R_ROW = "".join(
    f"            [{name}] => {value}\n"
    for name, value in zip(TSV_HEAD.rstrip("\n").split("\t"), TSV_ROW.rstrip("\n").split("\t"), strict=True)
)
GO_ROW = "{Id:1 SelectType:SIMPLE Table:t1 Type:ALL PossibleKeys: Key: KeyLen: Ref: Rows:10 Extra:Using where} "
JSON_ROW = (
    '{"id":1,"select_type":"SIMPLE","table":"t1","type":"ALL","possible_keys":null,"key":null,'
    '"key_len":null,"ref":null,"rows":10,"Extra":"Using where"},'
)
SPACED_HEAD = "id select_type table type possible_keys key key_len ref rows Extra\n"
SPACED_ROW = "1 DEPENDENT SUBQUERY t1 eq_ref PRIMARY,idx PRIMARY 4 db.t.a 1 Using where; Using index\n"


COLUMNS = HEADER.strip("|\n").replace(" ", "").split("|")
CJK_VALUES = ["1", "SIMPLE", "订单表", "ALL", "索引一,索引二", "索引一", "4", "const", "10", "使用临时表; 使用文件排序"]
# Three rows of CJK text, padded by display width as the client pads them.
CJK_TABLE = format_table(Plan(format="table", columns=COLUMNS, rows=[dict(zip(COLUMNS, CJK_VALUES, strict=True))] * 3))
CJK_BORDER, CJK_HEADER, _, CJK_ROW = CJK_TABLE.splitlines(keepends=True)[:4]


def terminal_wrap(text: str, columns: int) -> str:
    """Every line of `text` cut at `columns` display columns, as a terminal wraps it."""
    out = []
    for line in text.splitlines():
        while line:
            piece, line = cut(line, columns)
            out.append(piece.rstrip())
    return "\n".join(out) + "\n"


def mail_wrap(text: str, columns: int) -> str:
    """Every line of `text` broken at the last space before `columns` characters, the space dropped."""
    out = []
    for line in text.splitlines():
        while len(line) > columns and " " in line[1:columns]:
            at = line.rindex(" ", 1, columns)
            out.append(line[:at])
            line = line[at + 1 :]
        out.append(line)
    return "\n".join(out) + "\n"


def json_plan_lines(tables: int) -> str:
    """The lines of a JSON plan joining `tables` tables, as the client prints it in a box cell."""
    loop = [{"table": {"table_name": f"t{i}", "access_type": "ALL", "rows": 10, "filtered": 100}} for i in range(tables)]
    return json.dumps({"query_block": {"select_id": 1, "nested_loop": loop}}, indent=2)


def boxed_json(budget: int, mark: str = "-") -> str:
    """A JSON plan in the client's one-cell box, filled to about `budget` bytes, with `mark` in
    the middle of each of its three borders (a `-` keeps them whole; an emoji breaks them)."""
    border = "+" + "-" * 40 + mark + "-" * 40 + "+\n"
    head = border + "| EXPLAIN" + " " * 73 + "|\n" + border
    per_table = len(json_plan_lines(2)) - len(json_plan_lines(1))
    document = json_plan_lines(max(1, (budget - 4 * len(border)) // (per_table + 4)))  # names grow longer
    return head + "| " + document + " |\n" + border


def long_piece_row(budget: int) -> str:
    """A table as wide as a long cell of non-ASCII text, whose row is cut into eight short pieces
    and that long one, and cannot be joined to the border's width: the search for the lost gaps
    tries every way of joining the short pieces, and measures the long one after each."""
    n = (budget - 400) // 10
    border = "+----+" + "-" * (2 * n + 35) + "+\n"
    header = "| id | Extra" + " " * (2 * n + 29) + "|\n"
    return border + header + border + "|  1 | a\n" + "a\n" * 8 + "é" * n + " x\n" + border


def scaled_cases() -> dict[str, Callable[[int], str]]:
    """Name -> builder of a paste of about `budget` bytes, for the shapes once found to take time
    growing with the square of their size (timed at several sizes by `--growth`)."""
    return {
        "header glued onto 1 MiB of JSON lines (é in the border)": lambda b: fill(
            '  "k": 1,\n', b, head="| EXPLAIN |\n+-\u00e9-+\n| {\n", tail="} |\n"
        ),
        "header glued onto 1 MiB of JSON lines (x in the border)": lambda b: fill(
            '  "k": 1,\n', b, head="| EXPLAIN |\n+-x-+\n| {\n", tail="} |\n"
        ),
        "boxed JSON plan, an emoji in each border": lambda b: boxed_json(b, "\U0001f600"),
        "boxed JSON plan, a CJK character in each border": lambda b: boxed_json(b, "表"),
        "a long '|' line then short lines": lambda b: "|" + "." * (b // 2) + "\n" + fill("x\n", b // 2 - 8),
        "a 4000-column '|' line then short lines": lambda b: fill("x\n", b, head="|" + "." * 4000 + "\n"),
        "open '|' header lines": lambda b: fill("|a\n", b),
        "'|a |' then a line without '|'": lambda b: fill("|a |\nx\n", b),
        "'|' lines and indented lines, 100 a block": lambda b: fill("|a\n x\n" * 100 + "\n", b),
        "'|' lines and indented lines, 10 a block": lambda b: fill("|a\n x\n" * 10 + "\n", b),
        "CJK table wrapped at 80 columns": lambda b: fill(terminal_wrap(CJK_TABLE, 80), b),
        "CJK table rows wrapped at 40 columns": lambda b: fill(
            terminal_wrap(CJK_ROW, 40), b, head=terminal_wrap(CJK_BORDER + CJK_HEADER + CJK_BORDER, 40)
        ),
        "CJK table mail-wrapped at 60 columns": lambda b: fill(mail_wrap(CJK_TABLE, 60), b),
        "wide CJK row wrapped at 80 (one row of 1 MiB)": lambda b: terminal_wrap(
            fill("订单 | ", b * 9 // 10, head=BORDER + HEADER + BORDER + "| 1 | ", tail=" |\n" + BORDER), 80
        ),
        "wrapped row with a long piece of é after short ones": long_piece_row,
        "JSON plan with one line of 1 MiB of é": lambda b: fill(
            "é", b, head='{"query_block": {"select_id": 1, "table": {"table_name": "t", "attached_condition": "', tail='"}}}'
        ),
        "boxed JSON plan with one line of 1 MiB of é": lambda b: fill(
            "é",
            b,
            head="+---------+\n| EXPLAIN |\n+---------+\n| {\n"
            + '  "query_block": {\n    "select_id": 1,\n    "table": {\n      "table_name": "t",\n'
            + '      "attached_condition": "',
            tail='"\n    }\n  }\n} |\n+---------+\n',
        ),
    }


def cases() -> dict[str, Callable[[], str]]:
    """Name -> builder of one adversarial paste (built lazily, one at a time)."""
    scaled = {name: (lambda build=build: build(BUDGET)) for name, build in scaled_cases().items()}
    return scaled | {
        "one 1 MiB line of letters": lambda: fill("a"),
        "one 1 MiB line of spaces": lambda: fill(" "),
        "100k '|' on one line": lambda: "|" * 100_000,
        "1 MiB of '|'": lambda: fill("|"),
        "1 MiB of '|' lines": lambda: fill("|\n"),
        "1 MiB of '| ' cells on one line": lambda: fill("| "),
        "header then 1 MiB of '|' cells": lambda: fill("| x ", head=BORDER + HEADER + BORDER),
        "50k nested '{'": lambda: "{" * 50_000,
        "1 MiB nested '{\"a\":'": lambda: fill('{"a":'),
        "1 MiB nested '['": lambda: fill("["),
        "EXPLAIN then 1 MiB '{'": lambda: fill("{", head="EXPLAIN\n"),
        "query_block then deep nesting": lambda: fill('{"nested_loop":[{"table":', head='{"query_block":'),
        "json one-cell table with 1 MiB string": lambda: fill("x", head='| {"query_block": {"table": {"table_name": "'),
        "200k lines of '->'": lambda: "->\n" * 200_000,
        "1 MiB of '-> ' lines": lambda: fill("-> Table scan on t  (cost=1 rows=1)\n"),
        "tree indented ever deeper": lambda: "".join(
            "  " * i + "-> Filter: (a)  (cost=1 rows=1)\n" for i in range(1000)
        ),
        "tree 1 MiB one deep line": lambda: fill(" ", tail="-> Table scan on t  (cost=1 rows=1)\n"),
        "lines of only '+'": lambda: fill("+" * 80 + "\n"),
        "1 MiB of '+' one line": lambda: fill("+"),
        "1 MiB of '+-' borders": lambda: fill("+-" * 40 + "+\n"),
        "alternating CRLF/CR": lambda: fill("|a|\r\n|b|\r"),
        "1 MiB of CR": lambda: fill("\r"),
        "1 MiB of LF": lambda: fill("\n"),
        "1 MiB of CRLF": lambda: fill("\r\n"),
        "many row markers": lambda: fill("*************************** 1. row ***************************\n"),
        "many vertical rows": lambda: fill(VERTICAL_ROW),
        "vertical keys only": lambda: fill("           id: 1\n"),
        "deep indentation then table": lambda: fill(" " * 4000 + "x\n", tail=TABLE),
        "one line of 1 MiB spaces then table": lambda: fill(" ", tail="\n" + TABLE),
        "many fences": lambda: fill("```\n"),
        "fences around tables": lambda: fill("```\n" + TABLE + "```\n"),
        "many prompts": lambda: fill("mysql> EXPLAIN SELECT 1;\n"),
        "many continuation prompts": lambda: fill("    -> "),
        "prompt continuation lines": lambda: fill("    -> a\n", head="mysql> EXPLAIN SELECT\n"),
        "many tables": lambda: fill(TABLE),
        "one table 1 MiB of rows": lambda: fill(ROW, head=BORDER + HEADER + BORDER, tail=BORDER),
        "one table, 1 MiB Extra cell": lambda: fill(
            "x", head=BORDER + HEADER + BORDER + "| 1 | SIMPLE | t | ALL | | | | | 1 | ", tail=" |\n" + BORDER
        ),
        "wide header 20k columns": lambda: (
            "+" + "---+" * 20_000 + "\n|" + " c |" * 20_000 + "\n+" + "---+" * 20_000 + "\n"
        ),
        "tsv 1 MiB of rows": lambda: fill(TSV_ROW, head=TSV_HEAD),
        "tsv 1 MiB of tabs": lambda: fill("\t", head=TSV_HEAD),
        "tsv 1 MiB of tab lines": lambda: fill("\t\t\n", head=TSV_HEAD),
        "collapsed header then 1 MiB of rows": lambda: fill(SPACED_ROW, head=SPACED_HEAD),
        "header-less rows 1 MiB": lambda: fill(TSV_ROW),
        "header-less rows with single spaces 1 MiB": lambda: fill(TSV_ROW.replace("\t", " ")),
        "spaced header then 1 MiB of wrapped cells": lambda: fill(
            "           b,\n", head="table type possible_keys key  rows\nt     ALL  a,            NULL 1\n"
        ),
        "quoted '> ' deeply": lambda: fill("> ", tail="\n" + TABLE),
        "1 MiB of '> ' lines": lambda: fill("> > > > > > > > x\n"),
        "line numbers": lambda: fill("12345 | x\n"),
        "numbered table lines": lambda: "".join(
            f"{i:6d}  {line}\n" for i, line in enumerate((TABLE * 2000).splitlines())
        ),
        "rows in set lines": lambda: fill("1 row in set (0.00 sec)\n"),
        "NBSP everywhere": lambda: fill("\u00a0"),
        "NBSP table": lambda: fill(TABLE.replace(" ", "\u00a0")),
        "wide characters": lambda: fill("表"),
        "combining marks": lambda: fill("a\u0301\u0301\u0301"),
        "box drawing soup": lambda: fill("┌─┬┐│├┼┤└┴┘"),
        "SHOW WARNINGS blocks": lambda: fill(
            "*************************** 1. row ***************************\n  Level: Note\n   Code: 1003\nMessage: select 1\n"
        ),
        "same table pasted 5000 times": lambda: (TABLE + "\n") * 5000,
        "wrapped at width 1": lambda: "\n".join(TABLE.replace("\n", "")),
        "table wrapped at 7": lambda: "\n".join(TABLE[i : i + 7] for i in range(0, len(TABLE), 7)) * 200,
        "markdown and chat": lambda: fill("Hi, see below: **bold** `code` [x](y)\n", tail=TABLE),
        "1 MiB of 'Using where; '": lambda: fill("Using where; "),
        "1 MiB of digits": lambda: fill("9"),
        "1 MiB of '(' ": lambda: fill("("),
        "tree with 1 MiB of '('": lambda: fill("(", head="-> Filter: "),
        "tree cost soup": lambda: fill("(cost=1 rows=1) ", head="-> "),
        "json with 1 MiB of small tables": lambda: fill(
            '{"table": {"table_name": "t", "access_type": "ALL", "rows": 1}},',
            head='{"query_block": {"select_id": 1, "nested_loop": [',
            tail='{"table": {"table_name": "z"}}]}}',
        ),
        "PHP print_r of 1 MiB of rows": lambda: fill(
            "    [0] => Array\n        (\n" + PRINT_R_ROW + "        )\n", head="Array\n(\n", tail=")\n"
        ),
        "PHP dump nested 1 MiB deep": lambda: fill("(\n", head="Array\n", tail="[select_type] => x\n"),
        "var_dump keys only": lambda: fill('["select_type"]=>\n'),
        "Go dump of 1 MiB of rows": lambda: fill(GO_ROW, head="[", tail="]"),
        "Go line of 1 MiB of braces": lambda: fill("{", head="SelectType:x "),
        "JSON array of 1 MiB of rows": lambda: fill(JSON_ROW, head="[", tail='{"id":1}]'),
        "literal nested 1 MiB deep after select_type": lambda: fill("[", head="{'select_type': 1, "),
        "quotes after select_type": lambda: fill("'", head="['select_type', "),
        "slow log of 1 MiB of explain rows": lambda: fill("# explain: " + TSV_ROW, head="# explain: " + TSV_HEAD),
        "1 MiB of escaped line breaks": lambda: fill("\\n", tail="x"),
        "1 MiB of escaped blank lines in quotes": lambda: fill(" \\n", head='"', tail='x"'),
        "1 MiB line of '*' then a row marker": lambda: fill("*", tail=" 1. row *****\n"),
        "header then a line of 1 MiB of '-' and a letter": lambda: fill("-", head=SPACED_HEAD, tail="x\n"),
        "json string of backslashes": lambda: fill(
            "\\\\", head='{"query_block": {"table": {"table_name": "', tail='"}}}'
        ),
    }


SCHEMA_BUDGET = 256 * 1024 - 64  # the schema's size limit (SCHEMA_MAX_BYTES)
QUERY_BUDGET = 32 * 1024 - 64  # the longest query advice reads (MAX_QUERY_CHARS)
# A plan reading 50,000 rows of `t1` in full, and its query: advice reads the query and the schema of `t1`.
SCANNED = TABLE.replace("|   10 | NULL  |", "|50000 | NULL  |")
QUERY = "SELECT * FROM t1 WHERE a = 1"
INDEX_HEAD = "| Table | Non_unique | Key_name | Seq_in_index | Column_name | Sub_part | Index_type |\n"
INDEX_ROW = "| t1    |          1 | k        |            1 | a           |     NULL | BTREE      |\n"


def insight_cases() -> dict[str, Callable[[], dict[str, str]]]:
    """Name -> builder of the arguments of one `analyze()` call (a small table, its query and its
    tables' definitions) whose query or schema is pathological: index advice parses both."""
    schemas = {
        "256 KiB of unclosed 'CREATE TABLE t1 ('": fill("CREATE TABLE t1 (", SCHEMA_BUDGET),
        "CREATE TABLE statements each in the quotes of the one before": fill("CREATE TABLE t1 ('", SCHEMA_BUDGET),
        "256 KiB of small CREATE TABLE statements": fill("CREATE TABLE t1 (a int);\n", SCHEMA_BUDGET),
        "one CREATE TABLE of 256 KiB of columns": fill(
            "  c int,\n", SCHEMA_BUDGET, head="CREATE TABLE t1 (\n", tail="  a int\n);\n"
        ),
        "CREATE TABLE then 256 KiB of '('": fill("(", SCHEMA_BUDGET, head="CREATE TABLE t1 "),
        "CREATE TABLE then 256 KiB of quotes": fill("'", SCHEMA_BUDGET, head="CREATE TABLE t1 ("),
        "SHOW INDEX box of 256 KiB of rows": fill(INDEX_ROW, SCHEMA_BUDGET, head=INDEX_HEAD),
        "SHOW INDEX \\G records of 256 KiB": fill("       Table: t1\n    Key_name: k\n Column_name: a\n", SCHEMA_BUDGET),
        "256 KiB of '|' and blanks": fill("|" + " " * 60 + "\n", SCHEMA_BUDGET),
        "256 KiB of 'Table:' and blanks": fill("Table:" + " " * 60, SCHEMA_BUDGET),
    }
    queries = {
        "32 KiB of AND": fill("a = 1 AND ", QUERY_BUDGET, head="SELECT * FROM t1 WHERE ", tail="b = 2"),
        "32 KiB of OR": fill("a = 1 OR ", QUERY_BUDGET, head="SELECT * FROM t1 WHERE ", tail="b = 2"),
        "32 KiB IN list": fill("1, ", QUERY_BUDGET, head="SELECT * FROM t1 WHERE a IN (", tail="2)"),
        "32 KiB of joins": fill("JOIN t1 AS b ON b.a = t1.a ", QUERY_BUDGET, head="SELECT * FROM t1 ", tail="WHERE t1.a = 1"),
        "32 KiB of nested parentheses": fill("(", QUERY_BUDGET // 2, head="SELECT * FROM t1 WHERE ", tail="a = 1")
        + ")" * (QUERY_BUDGET // 2 - 64),
    }
    found = {f"schema: {k}": (lambda v=v: {"text": SCANNED, "query": QUERY, "schema": v}) for k, v in schemas.items()}
    return found | {f"query: {k}": (lambda v=v: {"text": SCANNED, "query": v}) for k, v in queries.items()}


def anonymize_cases() -> dict[str, tuple[int, Callable[[], float]]]:
    """Name -> an anonymization (as saving a paste with its names hidden runs it) of a paste just
    under the limit with a long query: its size in bytes and a run returning seconds."""
    from pastebin.anonymize import AnonymizeError, anonymize

    tree = fill("-> Filter: (t1.a = 'x')  (cost=1 rows=1)\n    -> Table scan on t1  (cost=1 rows=1)\n")
    table = fill(ROW, head=BORDER + HEADER + BORDER, tail=BORDER)
    conditions = "a = 'x' AND "
    pastes = {
        "1 MiB of tree lines, 32 KiB query": (tree, fill(conditions, QUERY_BUDGET, head="SELECT * FROM t1 WHERE ", tail="1")),
        "1 MiB table, 1 MiB query": (table, fill(conditions, head="SELECT * FROM t1 WHERE ", tail="1")),
        "tree line with a word of 1 MiB": (fill("a", head="-> Filter: (t1.", tail=" = 1)  (cost=1 rows=1)\n"), QUERY),
    }

    def timed(text: str, query: str) -> tuple[int, Callable[[], float]]:
        analysis = analyze(text, query, deadline_ms=None).to_dict()

        def run() -> float:
            start = time.process_time()
            with contextlib.suppress(AnonymizeError, ParseError):
                anonymize(text, analysis, query)
            return time.process_time() - start

        return len((text + query).encode("utf-8")), run

    return {f"anonymize: {name}": timed(*pair) for name, pair in pastes.items()}


def highlight_cases() -> dict[str, tuple[int, Callable[[], float]]]:
    """Name -> a run of the query or raw-paste highlighter on text just under its size limit
    (the permalink highlights both on every view): its size in bytes and a run returning seconds."""
    q = MAX_HIGHLIGHT_QUERY_CHARS - 10
    e = MAX_HIGHLIGHT_CHARS - 10
    queries = {"dots": "a." * (q // 2), "parens": "(" * q, "backslashes": "\\" * q, "at signs": "@" * q,
               "words": "x " * (q // 2), "table names": "t " * (q // 2), "hash comments": "#\n" * (q // 2),
               "unterminated string": "'" + "a" * q}  # fmt: skip
    pastes = {"pipe lines": "|\n" * (e // 2), "pipes": "|" * e, "tree lines": "-> Filter: (a)  (cost=1 rows=1)\n" * (e // 32),
              "row markers": "*** 1. row ***\n" * (e // 15), "quotes": '"' * e}  # fmt: skip

    def timed(function, text) -> tuple[int, Callable[[], float]]:
        def run() -> float:
            start = time.process_time()
            function(text)
            return time.process_time() - start

        return len(text.encode("utf-8")), run

    found = {f"highlight query: {k}": timed(lambda t: highlight_query(t, {"t": 0}), v) for k, v in queries.items()}
    found |= {f"highlight paste: {k}": timed(highlight_explain, v) for k, v in pastes.items()}
    marked = {"pipe lines": "|\n" * (e // 2), "1 MiB of pipe lines": "|\n" * (BUDGET // 2)}
    found |= {f"marked paste: {k}": timed(_marked_view, v) for k, v in marked.items()}
    return found


def _marked_view(text: str) -> None:
    """The page's view of `text` with MAX_MARKED_SPANS one-line spans spread over its lines."""
    count = text.count("\n")
    step = max(1, count // MAX_MARKED_SPANS)
    lines = [{"first": n, "last": n, "role": "ignored", "reason": "other text"} for n in range(1, count, step)]
    build_view({"lines": lines[:MAX_MARKED_SPANS]}, text)


class _Timeout(BaseException):
    """A run went over `--timeout` seconds of CPU time (not an Exception, so the analyzer cannot catch it)."""


def _stop(signum: int, frame: object) -> None:
    raise _Timeout


def run_once(text: str, deadline: bool, timeout: float, **more: str) -> tuple[float, str]:
    """Seconds of CPU time `analyze(text, **more)` took, and what it answered."""
    signal.signal(signal.SIGPROF, _stop)
    signal.setitimer(signal.ITIMER_PROF, timeout)
    start = time.process_time()
    try:
        analysis = analyze(text, **more) if deadline else analyze(text, deadline_ms=None, **more)  # type: ignore[arg-type]
        outcome = f"{analysis.plan.format}, {len(analysis.plan.rows)} rows"
        if more:
            outcome += f", {len(analysis.advice)} advice"
    except ParseError as exc:
        outcome = f"{'TOO COMPLEX' if exc.too_complex else 'ParseError'}: {exc.message[:60]}"
    except _Timeout:
        outcome = f"TIMEOUT after {timeout:g} s"
    except Exception as exc:  # noqa: BLE001 - the point is to report anything that escapes
        outcome = f"FAILURE {type(exc).__name__}: {str(exc)[:60]}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return time.process_time() - start, outcome


def best_time(text: str, repeat: int, deadline: bool = True, timeout: float = 60, **more: str) -> tuple[float, str]:
    """The best of `repeat` runs (one only when it timed out)."""
    best, outcome = run_once(text, deadline, timeout, **more)
    for _ in range(repeat - 1):
        if outcome.startswith("TIMEOUT"):
            break
        seconds, outcome = run_once(text, deadline, timeout, **more)
        best = min(best, seconds)
    return best, outcome


def growth(args: argparse.Namespace) -> None:
    """Time the scaled shapes at growing sizes, with the ratio of each time to the one before."""
    for name, build in scaled_cases().items():
        if args.only and args.only not in name:
            continue
        figures = []
        previous = None
        share = args.smallest
        while share >= 1:
            seconds, outcome = best_time(build(BUDGET // share), args.repeat, not args.no_deadline, args.timeout)
            share //= 2
            ratio = f" (x{seconds / previous:.1f})" if previous and previous > 0.001 else ""
            figures.append(f"{seconds * 1000:.0f} ms{ratio}")
            previous = seconds
            if outcome.startswith(("TIMEOUT", "TOO COMPLEX")):
                figures.append(outcome.split(":")[0])
                break
        print(f"{name}: {', '.join(figures)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=1.0, help="flag inputs slower than this (seconds)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per input; the best is kept")
    parser.add_argument("--only", help="run only cases whose name contains this")
    parser.add_argument("--no-deadline", action="store_true", help="time the readers without their time budget")
    parser.add_argument("--timeout", type=float, default=60.0, help="stop a run after this many CPU seconds")
    parser.add_argument("--growth", action="store_true", help="time the scaled shapes at growing sizes")
    parser.add_argument("--smallest", type=int, default=16, help="with --growth, start at 1/N of the limit")
    args = parser.parse_args()
    if args.growth:
        growth(args)
        return
    results = []
    for name, build in cases().items():
        if args.only and args.only not in name:
            continue
        text = build()
        size = len(text.encode("utf-8"))
        if size > LIMIT:
            print(f"skipped {name}: {size} bytes is over the limit", file=sys.stderr)
            continue
        seconds, outcome = best_time(text, args.repeat, not args.no_deadline, args.timeout)
        results.append((seconds, name, size, outcome))
        print(f"{seconds * 1000:9.1f} ms  {name}", file=sys.stderr, flush=True)
    for name, build_arguments in insight_cases().items():
        if args.only and args.only not in name:
            continue
        arguments = build_arguments()
        size = sum(len(value.encode("utf-8")) for value in arguments.values())
        seconds, outcome = best_time(arguments.pop("text"), args.repeat, not args.no_deadline, args.timeout, **arguments)
        results.append((seconds, name, size, outcome))
        print(f"{seconds * 1000:9.1f} ms  {name}", file=sys.stderr, flush=True)
    for name, (size, run) in (highlight_cases() | anonymize_cases()).items():
        if args.only and args.only not in name:
            continue
        seconds = min(run() for _ in range(args.repeat))
        results.append((seconds, name, size, "anonymized" if name.startswith("anonymize") else "highlighted"))
    print(f"\n{'time':>10}  {'bytes':>8}  input  ->  outcome (slowest first)")
    for seconds, name, size, outcome in sorted(results, reverse=True):
        flag = "  <-- SLOW" if seconds > args.limit or outcome.startswith(("TIMEOUT", "TOO COMPLEX")) else ""
        print(f"{seconds * 1000:8.1f} ms  {size:8d}  {name}  ->  {outcome}{flag}")
    slow = [r for r in results if r[0] > args.limit or r[3].startswith(("TIMEOUT", "TOO COMPLEX"))]
    failed = [r for r in results if r[3].startswith("FAILURE")]
    print(f"\n{len(results)} inputs, {len(slow)} over {args.limit:g} s, {len(failed)} failures")


if __name__ == "__main__":
    main()
