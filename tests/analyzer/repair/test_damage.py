"""Damaged pastes: each repairable kind of damage gives the same parse as the clean paste and a
notice; unrepairable damage is reported as truncated, never returned as if complete."""

from __future__ import annotations

import json
import quopri
import re
from pathlib import Path

import pytest

from analyzer.pipeline import parse
from analyzer.readers.resultset import CUT
from tests.analyzer.readers.test_formats import CJK_ROWS, CLASSIC, MYSQL8, MYSQL8_ROWS, ROWID_FILTER_ROWS
from tests.analyzer.repair import mangle

SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "samples"
WIDTHS = [60, 72, 80, 100, 132]


def _sample(name: str) -> dict:
    return json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def _clean_tables() -> dict[str, str]:
    tables = {
        "rowid-filter": mangle.box(CLASSIC, ROWID_FILTER_ROWS),
        "mysql8": mangle.box(MYSQL8, MYSQL8_ROWS),
        "cjk": mangle.box(CLASSIC, CJK_ROWS),
    }
    for path in sorted(SAMPLES.glob("*.table.clean.json")):
        sample = json.loads(path.read_text(encoding="utf-8"))
        if sample["expect"]["format"] == "table":
            tables[path.stem.removesuffix(".table.clean")] = sample["input"]
    return tables


TABLES = _clean_tables()
WRAPS = {
    "terminal": lambda text, w: mangle.terminal_wrap(text, w),
    "terminal-keeps-spaces": lambda text, w: mangle.terminal_wrap(text, w, strip=False),
    "mail": lambda text, w: mangle.mail_wrap(text, w),
    "mail-keeps-space": lambda text, w: mangle.mail_wrap(text, w, keep_space=True),
    "wrap-then-quote": lambda text, w: mangle.quote(mangle.terminal_wrap(text, w)),
    "quote-then-wrap": lambda text, w: mangle.terminal_wrap(mangle.quote(text), w),
    "mail-quoted-twice": lambda text, w: mangle.quote(mangle.mail_wrap(text, w), "> > "),
    "indented-wrap": lambda text, w: mangle.terminal_wrap(mangle.indent(text, 4), w),
}


def _same(plan, clean) -> None:
    assert plan.format == clean.format
    assert plan.columns == clean.columns
    assert plan.rows == clean.rows
    assert not plan.truncated


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("wrap", WRAPS)
@pytest.mark.parametrize("table", TABLES)
def test_wrapped_table_parses_like_the_clean_one(table, wrap, width):
    clean = parse(TABLES[table])
    wrapped = WRAPS[wrap](TABLES[table], width)
    plan = parse(wrapped)
    _same(plan, clean)
    if wrapped.count("\n") > TABLES[table].count("\n") and wrap.startswith("terminal"):
        assert any("hard-wrapped" in n for n in plan.notices)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("strip", [True, False], ids=["stripped", "kept-spaces"])
@pytest.mark.parametrize("table", ["rowid-filter", "mysql8", "cjk"])
def test_wrapped_table_without_border_lines(table, strip, width):
    clean = "\n".join(line for line in TABLES[table].split("\n") if not line.startswith("+"))
    _same(parse(mangle.terminal_wrap(clean, width, strip)), parse(TABLES[table]))


@pytest.mark.parametrize("width", [60, 72, 76, 100])
@pytest.mark.parametrize("keep", [False, True], ids=["space-dropped", "space-kept"])
@pytest.mark.parametrize("table", ["rowid-filter", "mysql8", "cjk"])
def test_mail_wrapped_table_without_border_lines(table, keep, width):
    clean = "\n".join(line for line in TABLES[table].split("\n") if not line.startswith("+"))
    _same(parse(mangle.mail_wrap(clean, width, keep)), parse(TABLES[table]))


LONG_KEYS = ",".join(f"index_on_a_rather_long_column_name_number_{n}_of_the_legacy_schema" for n in range(3))
WIDE_ROWS = [
    ["1", "SIMPLE", "h", "index_merge", LONG_KEYS, LONG_KEYS, "4,4,4", None, "18", "Using where"],
    ["1", "SIMPLE", "o", "eq_ref", "PRIMARY", "PRIMARY", "4", "shop.h.order_reference_id", "1", "Using index"],
]


@pytest.mark.parametrize("width", [72, 76])
def test_mail_wrapped_wide_table_without_border_lines_keeps_pieces_of_spaces(width):
    """Cells padded wider than the mail width: the client breaks the padding into lines of spaces."""
    boxed = mangle.box(CLASSIC, WIDE_ROWS)
    clean = "\n".join(line for line in boxed.split("\n") if not line.startswith("+"))
    wrapped = mangle.mail_wrap(clean, width)
    assert any(line and not line.strip() for line in wrapped.split("\n"))
    _same(parse(wrapped), parse(boxed))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("wrap", ["terminal", "mail"])
@pytest.mark.parametrize("rows", [ROWID_FILTER_ROWS, CJK_ROWS, MYSQL8_ROWS], ids=["rowid", "cjk", "mysql8"])
def test_wrapped_vertical_parses_like_the_clean_one(rows, wrap, width):
    columns = MYSQL8 if rows is MYSQL8_ROWS else CLASSIC
    text = mangle.vertical(columns, rows)
    wrapped = WRAPS[wrap](text, width if width < 72 else 50)
    _same(parse(wrapped), parse(text))


@pytest.mark.parametrize("width", [60, 72])
def test_mail_wrapped_tsv_rows_are_rejoined(width):
    text = mangle.batch(CLASSIC, ROWID_FILTER_ROWS)
    plan = parse(mangle.mail_wrap(text, width))
    _same(plan, parse(text))
    assert any("Rejoined" in n and "tab-separated" in n for n in plan.notices)


@pytest.mark.parametrize("width", [80, 100, 120, 132])
@pytest.mark.parametrize("rows", [ROWID_FILTER_ROWS, CJK_ROWS, MYSQL8_ROWS], ids=["rowid", "cjk", "mysql8"])
def test_terminal_cut_expanded_tsv_is_rejoined(rows, width):
    columns = MYSQL8 if rows is MYSQL8_ROWS else CLASSIC
    text = mangle.expand_tabs(mangle.batch(columns, rows))
    _same(parse(mangle.terminal_wrap(text, width, strip=False)), parse(text))


REPAIRS = {
    "crlf": (lambda t: t.replace("\n", "\r\n"), "CRLF"),
    "lone-cr": (lambda t: t.replace("\n", "\r"), "carriage return"),
    "fence": (lambda t: "```sql\n" + t + "```\n", "code fence"),
    "tilde-fence": (lambda t: "~~~\n" + t + "~~~\n", "code fence"),
    "quote": (mangle.quote, "quoting"),
    "nested-quote": (lambda t: mangle.quote(t, "> > "), "quoting"),
    "tight-quote": (lambda t: mangle.quote(t, ">> "), "quoting"),
    "indent": (lambda t: mangle.indent(t, 4), "indentation"),
    "numbers-pipe": (mangle.number_lines, "line numbers"),
    "numbers-colon": (lambda t: mangle.number_lines(t, "{n}: "), "line numbers"),
    "numbers-vim": (lambda t: mangle.number_lines(t, "{n:>3} "), "line numbers"),
    "numbers-cat": (lambda t: mangle.number_lines(t, "{n:>6}\t"), "line numbers"),
    "nbsp": (lambda t: t.replace(" ", "\u00a0"), "non-breaking"),
    "narrow-nbsp": (lambda t: t.replace("  ", " \u202f"), "non-breaking"),
    "zero-width": (lambda t: "\ufeff" + t.replace("|", "|\u200b", 3), "invisible"),
    "double-spaced": (lambda t: t.replace("\n", "\n\n"), "double-spaced"),
    "spaces-to-tabs": (mangle.unexpand, "tab"),
    "footer": (lambda t: t + "2 rows in set (0.00 sec)\n", "status line"),
    "duplicate": (lambda t: t + "\n" + t, "appears 2 times"),
    "duplicate-one-wrapped": (lambda t: t + "\n" + mangle.mail_wrap(t, 72), "appears 2 times"),
    "log-prefix": (lambda t: mangle.prefix_lines(t, "2024-05-01 10:00:00 [Note] "), "log prefix"),
    "mysql8-error-log": (
        lambda t: mangle.prefix_lines(t, "2024-05-01T10:00:00.123456Z 0 [Note] [MY-010000] [Server] "),
        "log prefix",
    ),
    "syslog": (lambda t: mangle.prefix_lines(t, "May  1 10:00:00 db1 mysqld[4242]: "), "log prefix"),
    "chat-log": (lambda t: mangle.prefix_lines(t, "[10:01:22] <dba> "), "log prefix"),
    "logger-quotes": (mangle.quote_lines, "quotes"),
    "logger-quotes-comma": (lambda t: mangle.quote_lines(t, "'", ","), "quotes"),
    "shell-continuation": (lambda t: mangle.prefix_lines(t, "").replace("\n", " \\\n"), "backslash"),
    "wrap-mark": (lambda t: mangle.marked_wrap(t, 40, "\u21b5"), "wrap mark"),
    "wrap-backslash": (lambda t: mangle.marked_wrap(t, 60, "\\"), "wrap mark"),
    "wrap-showbreak": (lambda t: mangle.showbreak_wrap(t, 60), "wrap mark"),
    "fence-opened-on-the-first-line": (lambda t: "```" + t + "```\n", "fence"),
}


@pytest.mark.parametrize("repair", REPAIRS)
@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
def test_line_level_damage_is_repaired_and_reported(render, repair):
    if render is mangle.batch and (repair.endswith("nbsp") or repair == "spaces-to-tabs"):
        pytest.skip("tab-separated output has no padding spaces to replace")
    if render is mangle.batch and repair.startswith("wrap-"):
        pytest.skip("a terminal wraps batch output at its tab stops, not at characters")
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    damage, word = REPAIRS[repair]
    plan = parse(damage(text))
    _same(plan, parse(text))
    assert any(word in notice for notice in plan.notices), plan.notices


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical], ids=["table", "vertical"])
def test_collapsed_spaces(render):
    # A chat or web page showing the paste as plain text collapses runs of spaces.
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    collapsed = re.sub(" {2,}", " ", text)
    plan = parse(collapsed)
    _same(plan, parse(text))
    if render is mangle.box:
        assert any("do not line up" in n for n in plan.notices)


@pytest.mark.parametrize("width", [60, 72, 76])
@pytest.mark.parametrize("table", ["rowid-filter", "mysql8", "cjk"])
def test_collapsed_spaces_then_mail_wrap(table, width):
    collapsed = re.sub(" {2,}", " ", TABLES[table])
    _same(parse(mangle.mail_wrap(collapsed, width)), parse(TABLES[table]))


def test_row_out_of_line_in_an_aligned_table_is_damage_not_data():
    lines = mangle.box(CLASSIC, ROWID_FILTER_ROWS).splitlines()
    lines[4] = lines[4].replace("| eq_ref ", "| ", 1)  # a cell emptied: the row no longer lines up
    plan = parse("\n".join(lines))
    assert plan.truncated
    assert plan.affected_rows == [1]


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
def test_fences_typed_on_the_paste_lines(render):
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    plan = parse("```mysql\n" + text.rstrip("\n") + "```\n")
    _same(plan, parse(text))


@pytest.mark.parametrize("render", [mangle.vertical, mangle.batch], ids=["vertical", "tsv"])
def test_chat_on_the_first_line_of_the_paste(render):
    text = render(CLASSIC, CJK_ROWS)
    _same(parse("explain output: " + text), parse(text))


@pytest.mark.parametrize("style", ["{n} | ", "{n}. "])
def test_numbered_then_quoted(style):
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    _same(parse(mangle.quote(mangle.number_lines(text, style))), parse(text))


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical], ids=["table", "vertical"])
def test_quoted_and_numbered_double_spaced(render):
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    doubled = text.replace("\n", "\n\n")
    _same(parse(mangle.quote(doubled)), parse(text))
    _same(parse(mangle.number_lines(doubled, "{n:03d} ")), parse(text))


def test_selection_starting_inside_the_first_border():
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    plan = parse(mangle.terminal_wrap(text, 100)[6:])
    _same(plan, parse(text))


def test_vertical_paste_cut_inside_a_row_marker():
    text = mangle.vertical(CLASSIC, CJK_ROWS)
    cut = text[: text.index("2. row") - 10]
    plan = parse(cut)
    assert plan.truncated
    assert len(plan.rows) == 1
    assert plan.rows[0]["extra"] == "Using where"
    assert any("truncated" in n for n in plan.notices)


def test_query_of_a_failed_statement_is_not_used():
    table = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    text = (
        "mysql> EXPLAN SELECT * FROM t;\nERROR 1064 (42000): You have an error in your SQL syntax\n"
        "mysql> EXPLAIN SELECT * FROM t WHERE a = 1;\n" + table
    )
    assert parse(text).query == "SELECT * FROM t WHERE a = 1"


def test_query_closest_before_the_chosen_result():
    table = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    text = "mysql> EXPLAIN SELECT 1;\nEmpty set (0.00 sec)\n\nmysql> EXPLAIN SELECT * FROM t;\n" + table
    assert parse(text).query == "SELECT * FROM t"


def test_prompt_wrapped_at_an_unusual_width():
    sql = "SELECT o.id, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total > 100"
    text = mangle.terminal_wrap("MariaDB [shop]> EXPLAIN " + sql + "\\G", 60)
    text += "\n" + mangle.terminal_wrap(mangle.vertical(CLASSIC, ROWID_FILTER_ROWS), 60)
    assert parse(text).query == sql


def test_chat_around_the_paste_is_ignored():
    text = "hi all, my query is slow | any idea?\n\n" + mangle.box(CLASSIC, CJK_ROWS) + "\nthanks!! +1\n"
    plan = parse(text)
    _same(plan, parse(mangle.box(CLASSIC, CJK_ROWS)))
    assert "Ignored 2 lines of other text (lines 1 and 10)." in plan.notices


def test_two_different_explains_return_the_first_and_say_so():
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS) + "\n" + mangle.box(CLASSIC, CJK_ROWS)
    plan = parse(text)
    assert plan.rows[0]["table"] == "t"
    assert any("2 different EXPLAIN results" in n for n in plan.notices)


class TestPrompts:
    table = mangle.box(CLASSIC, ROWID_FILTER_ROWS)

    @pytest.mark.parametrize(
        ("prompt", "statement", "query"),
        [
            ("mysql> ", "EXPLAIN SELECT * FROM t WHERE a = 1;", "SELECT * FROM t WHERE a = 1"),
            ("MariaDB [shop]> ", "EXPLAIN EXTENDED SELECT 1;", "SELECT 1"),
            ("MariaDB [(none)]> ", "EXPLAIN PARTITIONS SELECT * FROM p\\G", "SELECT * FROM p"),
            ("mysql> ", "explain format=traditional select * from t;", "select * from t"),
            ("MariaDB [db]> ", "ANALYZE SELECT * FROM t\\g", "SELECT * FROM t"),
            ("mysql> ", "DESCRIBE SELECT a FROM t;", "SELECT a FROM t"),
            (" MySQL  localhost:33060+ ssl  world  SQL > ", "EXPLAIN SELECT * FROM city;", "SELECT * FROM city"),
            ("root@localhost [test]> ", "EXPLAIN SELECT 2;", "SELECT 2"),
        ],
    )
    def test_prompt_statement_becomes_the_query(self, prompt, statement, query):
        plan = parse(prompt + statement + "\n" + self.table + "2 rows in set (0.01 sec)\n\n" + prompt + "\n")
        assert plan.query == query
        assert plan.rows == parse(self.table).rows

    def test_continuation_lines_only_after_a_prompt(self):
        text = "mysql> EXPLAIN SELECT *\n    -> FROM t\n    -> WHERE a = 1;\n" + self.table
        plan = parse(text)
        assert plan.query == "SELECT * FROM t WHERE a = 1"
        assert len(plan.rows) == 2

    def test_terminal_wrapped_prompt_without_wrapped_table(self):
        sql = "SELECT e.emp_no, e.last_name FROM employees e WHERE e.hire_date > '2019-06-01' AND e.dept_no = 'd005'"
        line = "MariaDB [hr]> EXPLAIN " + sql + ";"
        wrapped = mangle.terminal_wrap(line, 80)
        plan = parse(wrapped + "\n" + self.table)
        assert plan.query == sql

    def test_show_warnings_after_explain_extended(self):
        warnings = mangle.box(["Level", "Code", "Message"], [["Note", "1003", "select `t`.`a` AS `a` from `t`"]])
        text = (
            "mysql> EXPLAIN EXTENDED SELECT a FROM t;\n" + self.table + "2 rows in set, 1 warning (0.00 sec)\n\n"
            "mysql> SHOW WARNINGS;\n" + warnings + "1 row in set (0.00 sec)\n"
        )
        plan = parse(text)
        assert plan.rows == parse(self.table).rows
        assert plan.warnings == ["select `t`.`a` AS `a` from `t`"]
        assert plan.query == "SELECT a FROM t"

    def test_show_warnings_in_vertical_form(self):
        text = (
            mangle.vertical(CLASSIC, ROWID_FILTER_ROWS)
            + "2 rows in set, 1 warning (0.00 sec)\n\nmysql> SHOW WARNINGS\\G\n"
            + mangle.vertical(["Level", "Code", "Message"], [["Note", "1003", "select 1"]])
        )
        plan = parse(text)
        assert plan.format == "vertical"
        assert len(plan.rows) == 2
        assert plan.warnings == ["select 1"]

    def test_show_warnings_after_a_json_plan(self):
        sample = _sample("hr_dept_join.json.json_table.clean")
        warnings = mangle.box(["Level", "Code", "Message"], [["Note", "1003", "select 1"]])
        text = (
            "MariaDB [hr]> EXPLAIN FORMAT=JSON SELECT 1;\n" + sample["input"] + "1 row in set (0.00 sec)\n\n"
            "MariaDB [hr]> SHOW WARNINGS;\n" + warnings
        )
        plan = parse(text)
        assert plan.format == "json"
        assert plan.query == "SELECT 1"
        assert plan.warnings == ["select 1"]

    def test_warning_lines_of_the_client(self):
        text = self.table + "Note (Code 1003): select `t`.`a` from `t`\n"
        assert parse(text).warnings == ["select `t`.`a` from `t`"]

    def test_bare_explain_statement_line(self):
        plan = parse("EXPLAIN SELECT * FROM t;\n" + self.table)
        assert plan.query == "SELECT * FROM t"


def test_tree_arrows_are_not_taken_for_continuation_lines():
    text = "mysql> EXPLAIN FORMAT=TREE SELECT * FROM t;\n" + mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    text += "\n-> Table scan on t  (cost=1.25 rows=10)\n"
    assert parse(text).query == "SELECT * FROM t"


class TestTruncation:
    def test_every_line_cut_marks_the_open_column(self):
        text = mangle.truncate(mangle.box(MYSQL8, MYSQL8_ROWS), 120)
        plan = parse(text)
        assert plan.truncated
        assert plan.affected_rows == [0, 1, 2]
        assert any("truncated" in n for n in plan.notices)
        cut_column = plan.columns[-1]
        assert all(row[cut_column].endswith(CUT) for row in plan.rows)

    def test_cut_mid_value_keeps_visible_start(self):
        text = mangle.truncate(mangle.box(CLASSIC, ROWID_FILTER_ROWS), 140)
        plan = parse(text)
        extra = plan.rows[0]["extra"]
        assert extra.endswith(CUT)
        assert "Using index condition".startswith(extra[:-1].strip()) or extra[:-1] in ROWID_FILTER_ROWS[0][-1]

    def test_one_short_line_is_reported_with_its_line_number(self):
        lines = mangle.box(CLASSIC, ROWID_FILTER_ROWS).splitlines()
        lines[3] = lines[3][:70]
        plan = parse("\n".join(lines))
        assert plan.truncated
        assert plan.affected_rows == [0]
        assert any("line 4" in n for n in plan.notices)
        assert plan.rows[1] == parse(mangle.box(CLASSIC, ROWID_FILTER_ROWS)).rows[1]
        assert CUT in plan.rows[0]["possible_keys"] + plan.rows[0]["key"]

    def test_cell_deleted_inside_a_row(self):
        lines = mangle.box(CLASSIC, CJK_ROWS).splitlines()
        lines[4] = lines[4].replace("| PRIMARY ", "|", 1)
        plan = parse("\n".join(lines))
        assert plan.truncated
        assert plan.affected_rows == [1]
        assert plan.rows[1]["extra"] == CUT

    def test_missing_bottom_border(self):
        text = "\n".join(mangle.box(CLASSIC, CJK_ROWS).splitlines()[:-2])
        plan = parse(text)
        assert plan.truncated
        assert any("truncated" in n and "bottom border" in n for n in plan.notices)

    def test_fewer_rows_than_the_client_reported(self):
        text = mangle.box(CLASSIC, CJK_ROWS) + "3 rows in set (0.00 sec)\n"
        plan = parse(text)
        assert plan.truncated
        assert any("reported 3 rows" in n and "truncated" in n for n in plan.notices)

    def test_vertical_record_cut_short(self):
        text = "\n".join(mangle.vertical(CLASSIC, CJK_ROWS).splitlines()[:-3])
        plan = parse(text)
        assert plan.truncated
        assert plan.affected_rows == [1]
        assert plan.rows[1]["extra"] == CUT
        assert any("truncated" in n for n in plan.notices)

    def test_tsv_row_missing_fields(self):
        lines = mangle.batch(CLASSIC, ROWID_FILTER_ROWS).splitlines()
        lines[1] = "\t".join(lines[1].split("\t")[:6])
        plan = parse("\n".join(lines))
        assert plan.truncated
        assert plan.affected_rows == [0]
        assert plan.rows[0]["ref"] == CUT

    def test_truncated_copy_loses_to_a_complete_one(self):
        table = mangle.box(CLASSIC, CJK_ROWS)
        plan = parse(mangle.truncate(table, 60) + "\n" + table)
        assert not plan.truncated
        assert plan.rows == parse(table).rows

    def test_truncated_sample(self):
        sample = _sample("hr_pk_lookup.plain.table.truncated100")
        plan = parse(sample["input"])
        assert plan.truncated
        assert plan.rows[0]["extra"] == CUT


@pytest.mark.parametrize("nbsp", [False, True], ids=["entities", "entities-and-nbsp"])
@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
def test_html_escaped_paste_is_decoded_and_reported(render, nbsp):
    rows = [*MYSQL8_ROWS, ["4", "UNION", "t's", None, "ALL", None, None, None, None, "1", "100.00", 'a "&" b']]
    text = render(MYSQL8, rows)
    plan = parse(mangle.html_escape(text, nbsp=nbsp and render is not mangle.batch))
    _same(plan, parse(text))
    assert plan.rows[0]["table"] == "<derived2>"
    assert any("HTML-escaped" in notice for notice in plan.notices)


def test_entities_in_a_paste_that_also_holds_raw_markup_are_left_alone():
    rows = [[*row[:-1], "Using where &amp; more" if row[-1] == "Using where" else row[-1]] for row in MYSQL8_ROWS]
    plan = parse(mangle.box(MYSQL8, rows))
    assert plan.rows[1]["extra"] == "Using where &amp; more"
    assert not any("HTML" in notice for notice in plan.notices)


def test_a_log_prefix_wrapped_by_a_terminal_keeps_its_width_for_the_rejoin():
    text = mangle.prefix_lines(TABLES["rowid-filter"], "2024-05-01 10:00:00 [Note] ")
    plan = parse(mangle.terminal_wrap(text, 80))
    _same(plan, parse(TABLES["rowid-filter"]))


MARKUP_CASES = {
    "rowid": (CLASSIC, ROWID_FILTER_ROWS),
    "cjk": (CLASSIC, CJK_ROWS),
    "mysql8": (MYSQL8, MYSQL8_ROWS),
}


@pytest.mark.parametrize("wrap", [None, "terminal", "mail", "quote-then-wrap"])
@pytest.mark.parametrize("case", MARKUP_CASES)
def test_mysql_html_output_reads_as_a_table(case, wrap):
    columns, rows = MARKUP_CASES[case]
    text = mangle.html_table(columns, rows)
    if wrap:
        text = (WRAPS[wrap] if wrap in WRAPS else WRAPS["terminal"])(text, 80)
    plan = parse("mysql> EXPLAIN SELECT 1;\n" + text + f"\n{len(rows)} rows in set (0.00 sec)\n")
    _same(plan, parse(mangle.box(columns, rows)))
    assert any("--html" in notice for notice in plan.notices)


@pytest.mark.parametrize("case", MARKUP_CASES)
def test_mysql_xml_output_reads_as_a_table_with_its_statement(case):
    columns, rows = MARKUP_CASES[case]
    plan = parse(mangle.xml_resultset(columns, rows, "EXPLAIN SELECT * FROM t WHERE a < 3"))
    _same(plan, parse(mangle.box(columns, rows)))
    assert plan.query == "SELECT * FROM t WHERE a < 3"


@pytest.mark.parametrize("escaped", [True, False], ids=["pipes-escaped", "pipes-typed-as-is"])
@pytest.mark.parametrize("case", MARKUP_CASES)
def test_jira_wiki_table(case, escaped):
    columns, rows = MARKUP_CASES[case]
    text = mangle.jira_table(columns, rows)
    if not escaped:
        text = text.replace("\\|", "|")
    plan = parse("{code}\n" + text + "{code}\n")
    _same(plan, parse(mangle.box(columns, rows)))


@pytest.mark.parametrize("case", MARKUP_CASES)
def test_web_table_copied_with_one_cell_per_line(case):
    columns, rows = MARKUP_CASES[case]
    cells = [*columns, *("NULL" if c is None else c for row in rows for c in row)]
    plan = parse("Here it is\n\n" + "\n".join(cells) + "\n")
    _same(plan, parse(mangle.box(columns, rows)))


def test_the_same_row_twice_in_one_table_is_kept_twice():
    # A terminal that repeated a line while scrolling: rows are never merged inside one table.
    rows = [ROWID_FILTER_ROWS[0], ROWID_FILTER_ROWS[0], ROWID_FILTER_ROWS[1]]
    plan = parse(mangle.box(CLASSIC, rows))
    assert len(plan.rows) == 3
    assert plan.rows[0] == plan.rows[1]


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
@pytest.mark.parametrize("rows", [CJK_ROWS, ROWID_FILTER_ROWS], ids=["cjk", "rowid"])
def test_raw_quoted_printable_mail_is_decoded(render, rows):
    text = render(CLASSIC, rows).replace(" ", "\u00a0", 2)
    encoded = quopri.encodestring(text.encode("utf-8")).decode("ascii")
    plan = parse(encoded)
    _same(plan, parse(text))
    assert any("quoted-printable" in notice for notice in plan.notices)


def test_an_equals_sign_at_the_end_of_lines_is_not_taken_for_an_encoding():
    rows = [[*row[:-1], row[-1] + "; note: a="] for row in ROWID_FILTER_ROWS]
    text = mangle.batch(CLASSIC, rows)
    assert sum(line.endswith("=") for line in text.split("\n")) == 2
    plan = parse(text)
    assert [row["extra"] for row in plan.rows] == [row[-1] for row in rows]
    assert not any("quoted-printable" in notice for notice in plan.notices)


def test_figures_after_an_equals_sign_are_not_quoted_printable():
    text = "-> Filter: (t.a = 1)  (cost=20.1 rows=12)\n    -> Table scan on t  (cost=2.25 rows=5)\n"
    plan = parse(text)
    assert plan.plan[0]["rows"] == 12
    assert not any("quoted-printable" in notice for notice in plan.notices)


def test_a_mail_break_after_an_equals_sign_is_not_a_soft_line_break():
    statement = "MariaDB [shop]> EXPLAIN SELECT c.id FROM customers c JOIN orders o ON o.customer_id ="
    text = statement + "\nc.id WHERE o.status = 'returned';\n" + TABLES["rowid-filter"]
    plan = parse(text)
    assert (
        plan.query == "SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'returned'"
    )
    assert not any("quoted-printable" in notice for notice in plan.notices)


def test_unicode_box_quoted_and_mail_wrapped():
    sample = _sample("hr_pk_lookup.plain.table.unicode_box")
    plan = parse(mangle.mail_wrap(mangle.quote(sample["input"]), 72))
    assert plan.rows == sample["expect"]["rows"]
    assert not plan.truncated


@pytest.mark.parametrize("width", [80, 100])
def test_terminal_wrapped_table_whose_padding_became_tabs(width):
    text = mangle.unexpand(mangle.terminal_wrap(TABLES["rowid-filter"], width))
    assert "\t" in text
    _same(parse(text), parse(TABLES["rowid-filter"]))


@pytest.mark.parametrize("width", [60, 72, 76])
@pytest.mark.parametrize("quoted", [False, True], ids=["plain", "quoted"])
@pytest.mark.parametrize("rows", [ROWID_FILTER_ROWS, MYSQL8_ROWS], ids=["rowid", "mysql8"])
def test_mail_wrapped_batch_output_whose_tabs_were_expanded(rows, quoted, width):
    columns = MYSQL8 if rows is MYSQL8_ROWS else CLASSIC
    text = mangle.expand_tabs(mangle.batch(columns, rows))
    damaged = mangle.mail_wrap(mangle.quote(text) if quoted else text, width)
    _same(parse(damaged), parse(text))


@pytest.mark.parametrize("width", [40, 60, 80])
def test_expanded_batch_output_cut_short_never_merges_rows(width):
    text = mangle.expand_tabs(mangle.batch(MYSQL8, MYSQL8_ROWS))
    plan = parse(mangle.truncate(text, width))
    assert len(plan.rows) == len(MYSQL8_ROWS)
    assert plan.truncated


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
@pytest.mark.parametrize("how", ["json-log", "bare"])
def test_output_logged_as_one_string_with_escaped_line_breaks(render, how):
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    if how == "json-log":
        logged = "app started\n" + json.dumps({"level": "warn", "msg": "slow query", "plan": text}) + "\n"
    else:
        logged = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
    plan = parse(logged)
    _same(plan, parse(text))
    assert any("Unescaped the line breaks" in notice for notice in plan.notices)


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
@pytest.mark.parametrize("width", [80, 120])
def test_windows_console_copy_padded_to_the_console_width(render, width):
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    # (A console shows batch output's tabs as spaces; its lines are only padded here.)
    wrapped = text if render is mangle.batch else mangle.terminal_wrap(text, width, strip=False)
    padded = "\n".join(line.ljust(width) for line in wrapped.split("\n"))
    _same(parse(padded), parse(text))


def test_mailed_vertical_value_moved_whole_to_the_next_line_gets_no_leading_space():
    rows = [[*row[:4], LONG_KEYS, *row[5:]] for row in ROWID_FILTER_ROWS]
    text = mangle.vertical(CLASSIC, rows)
    plan = parse(mangle.mail_wrap(text, 72))
    _same(plan, parse(text))
    assert plan.rows[0]["possible_keys"] == LONG_KEYS


def test_quoted_batch_lines_moved_off_their_quote_by_the_mail_client():
    text = mangle.batch(CLASSIC, ROWID_FILTER_ROWS)
    # A batch line has almost no spaces: the mail client breaks right after the `> `.
    broken = "\n".join(">\n" + line if line else line for line in text.split("\n"))
    _same(parse(broken), parse(text))


def test_one_row_borderless_table_double_spaced():
    boxed = mangle.box(CLASSIC, ROWID_FILTER_ROWS[:1])
    borderless = "\n".join(line for line in boxed.split("\n") if not line.startswith("+"))
    plan = parse(borderless.replace("\n", "\n\n"))
    _same(plan, parse(boxed))
    assert any("empty line between the header and the first row" in notice for notice in plan.notices)


def test_batch_row_broken_after_an_extra_item_at_a_usual_terminal_width_gets_its_space_back():
    # The first piece is 100 columns wide once its tabs are expanded, yet ends with an Extra item's `;`.
    row = ["1", "SIMPLE", "c", "index", "PRIMARY", "idx_country_city", "170", "NULL", "4000", "Using index;"]
    first = "\t".join(row)
    assert len(first.expandtabs(8)) == 100
    text = "\t".join(CLASSIC) + "\n" + first + "\nUsing temporary; Using filesort\n"
    assert parse(text).rows[0]["extra"] == "Using index; Using temporary; Using filesort"


def test_statement_wrapped_by_a_wide_terminal_then_by_a_mail_client():
    sql = (
        "SELECT a.actor, o.id, c.email, oi.line_no, p.sku, s.carrier FROM audit_log a JOIN orders o ON "
        "o.id = a.ref_id JOIN customers c ON c.id = o.customer_id JOIN order_items oi ON oi.order_id = o.id "
        "JOIN products p ON p.id = oi.product_id LEFT JOIN shipments s ON s.order_id = o.id WHERE a.actor = 'x'"
    )
    session = f"MariaDB [shop]> EXPLAIN {sql};\n" + TABLES["rowid-filter"]
    plan = parse(mangle.mail_wrap(mangle.terminal_wrap(session, 250), 76))
    assert plan.query == sql


@pytest.mark.parametrize("table", ["rowid-filter", "mysql8", "cjk"])
def test_table_pasted_on_one_line_after_its_line_breaks_were_lost(table):
    # Posted without a code block, rendered as a paragraph, copied back: one line, spaces collapsed.
    flat = "Here it is: " + re.sub(" +", " ", TABLES[table].replace("\n", " ")) + " any idea?"
    plan = parse(flat)
    _same(plan, parse(TABLES[table]))
    assert any("pasted on one line" in notice for notice in plan.notices)


@pytest.mark.parametrize("dash", ["\u2014", "\u2013"], ids=["em-dash", "en-dash"])
@pytest.mark.parametrize("table", ["rowid-filter", "mysql8"])
def test_border_dashes_turned_typographic(table, dash):
    text = "\n".join(line.replace("--", dash) if line.startswith("+") else line for line in TABLES[table].split("\n"))
    plan = parse(text)
    _same(plan, parse(TABLES[table]))
    assert any("typographic dashes" in notice for notice in plan.notices)


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
def test_first_line_repeated_by_a_terminal_scroll_glitch(render):
    # The top border, the first row marker or the batch header twice: read once, with a notice.
    text = render(CLASSIC, ROWID_FILTER_ROWS)
    first, rest = text.split("\n", 1)
    plan = parse(f"{first}\n{first}\n{rest}")
    _same(plan, parse(text))
    assert any("repeat" in notice for notice in plan.notices)


def test_expanded_batch_header_repeated_is_not_taken_for_its_wrapped_rest():
    text = mangle.expand_tabs(mangle.batch(CLASSIC, ROWID_FILTER_ROWS))
    first, rest = text.split("\n", 1)
    _same(parse(f"{first}\n{first}\n{rest}"), parse(text))


def test_header_line_repeated_by_a_terminal_scroll_glitch():
    lines = TABLES["rowid-filter"].split("\n")
    plan = parse("\n".join([*lines[:2], lines[1], *lines[2:]]))
    _same(plan, parse(TABLES["rowid-filter"]))
    assert any("repeat of the header line" in notice for notice in plan.notices)


@pytest.mark.parametrize("lost", ["          key: PRIMARY", "  select_type: SIMPLE", "         rows: 1"])
def test_a_lost_line_of_a_one_record_vertical_output_is_reported(lost):
    text = mangle.vertical(CLASSIC, ROWID_FILTER_ROWS[1:])
    assert lost in text
    plan = parse(text.replace(lost + "\n", ""))
    assert plan.truncated
    assert plan.columns == [c.lower() for c in CLASSIC]
    name = lost.split(":")[0].strip()
    assert plan.rows[0][name] == CUT
    assert any("a line was lost" in notice for notice in plan.notices)


@pytest.mark.parametrize("render", [mangle.box, mangle.vertical, mangle.batch], ids=["table", "vertical", "tsv"])
@pytest.mark.parametrize("row", [1, 2], ids=["after-row-1", "after-row-2"])
def test_a_reply_comment_inside_the_quoted_paste_is_skipped(render, row):
    text = render(MYSQL8, MYSQL8_ROWS)
    after = row + (1 if render is mangle.batch else 3)  # lines before the first row: header, borders
    lines = mangle.quote(text).split("\n")
    commented = "\n".join([*lines[:after], "", "^ why is this one a full scan?", "", *lines[after:]])
    plan = parse(commented)
    _same(plan, parse(text))
    assert any("other text inside" in notice for notice in plan.notices)


def test_a_remark_after_a_rows_closing_border_is_dropped():
    lines = TABLES["rowid-filter"].split("\n")
    lines[3] += "   <-- this one is slow"
    plan = parse("\n".join(lines))
    _same(plan, parse(TABLES["rowid-filter"]))
    assert any("after the table's right border" in notice for notice in plan.notices)


def test_a_line_cut_just_after_a_border_column_is_no_remark():
    # MYSQL8_ROWS start with `<derived2>` in the third column: cut after the second, it must stay a cut.
    table = mangle.box(MYSQL8, MYSQL8_ROWS)
    cut = table.split("\n")[0].index("+", 2 + len("id")) + 1
    second = table.split("\n")[0].index("+", cut) + 1
    plan = parse(mangle.truncate(table, second + 2))
    assert plan.truncated
    assert not any("right border" in notice for notice in plan.notices)


def test_a_list_bullet_or_comment_marker_before_every_line_comes_off():
    table = mangle.box(CLASSIC, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "10", "Using where"]])
    plan = parse("\n".join("- " + line for line in table.splitlines()) + "\n")
    assert [row["table"] for row in plan.rows] == ["t"] and not plan.truncated
    assert any("a code comment or a list" in notice for notice in plan.notices)


def test_a_header_without_rows_is_flagged_as_missing_its_rows():
    table = mangle.box(CLASSIC, [])
    plan = parse(table)
    assert plan.rows == [] and plan.truncated
    assert any("no rows" in notice for notice in plan.notices)


@pytest.mark.parametrize("marker", ["\t// ", "# ", "     * ", "-- "])
def test_a_code_comment_around_the_paste_comes_off(marker):
    table = mangle.box(CLASSIC, [["1", "SIMPLE", "t", "ALL", None, None, None, None, "10", "Using where"]])
    commented = "/*\n" + "".join(marker + line + "\n" for line in table.splitlines()) + " */\n"
    plan = parse(commented)
    assert [row["table"] for row in plan.rows] == ["t"] and not plan.truncated


def test_report_rules_drawn_with_equals_signs_are_not_quoted_printable():
    report = (
        "# Attribute    pct   total     min     max     avg     95%  stddev  median\n"
        "# ============ === ======= ======= ======= ======= ======= ======= =======\n"
        "# Count          1       1\n"
        "# =====\n"
    )
    plan = parse(report + mangle.batch(CLASSIC, ROWID_FILTER_ROWS))
    assert not any("quoted-printable" in n for n in plan.notices)


def test_a_diff_plus_before_every_line_is_removed():
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    diffed = "".join("+" + line for line in text.splitlines(keepends=True))
    plan = parse(diffed)
    _same(plan, parse(text))
    assert any("a diff put before" in n for n in plan.notices)


def test_a_plus_at_the_start_of_lines_that_are_no_table_is_kept():
    text = "+1 for this\n+1 here too\n+| not a table\n+++ b/file\n" + mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    assert not any("a diff put before" in n for n in parse(text).notices)


def test_empty_cells_a_web_widget_added_to_every_line_are_removed():
    text = "mysql> EXPLAIN SELECT * FROM t;\n" + mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    widget = "".join(line + " | |\n" for line in text.splitlines())
    plan = parse(widget)
    _same(plan, parse(text))
    assert any("a web page put at the end" in n for n in plan.notices)


@pytest.mark.parametrize("escape", ["\x1b", "\\e", "\\033", "\\x1b", "\\u001b", "^["])
def test_terminal_colour_codes_real_or_written_out_are_removed(escape):
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    coloured = text.replace("| SIMPLE ", f"| {escape}[1m{escape}[31mSIMPLE{escape}[0m ")
    assert coloured != text
    plan = parse(coloured)
    _same(plan, parse(text))
    assert any("terminal colour code" in n for n in plan.notices)


def test_an_indentation_lost_to_question_marks_is_removed():
    text = mangle.box(CLASSIC, ROWID_FILTER_ROWS)
    lost = "".join("????" + line for line in text.splitlines(keepends=True))
    plan = parse(lost)
    _same(plan, parse(text))
    assert any("turned into question marks" in n for n in plan.notices)


def test_vertical_output_flattened_with_possible_keys_glued_to_the_type():
    text = mangle.vertical(CLASSIC, ROWID_FILTER_ROWS)
    flat = text.replace("\n", "").replace("possible_keys:", "possible_keys:")
    glued = flat.replace(" possible_keys:", "possible_keys:")
    plan = parse(glued + "1 row in set (0.00 sec)")
    clean = parse(text)
    assert [r["type"] for r in plan.rows] == [r["type"] for r in clean.rows]
    assert [r["possible_keys"] for r in plan.rows] == [r["possible_keys"] for r in clean.rows]


def test_cells_a_web_table_copy_put_on_their_own_lines_are_put_back():
    from analyzer.repair.cleanup import clean

    copied = "1\tSIMPLE\tt\tALL\t\n    NULL\n\t\n    NULL\n\t190671\tUsing where\t\n1\tSIMPLE\tu\tref\tk\tk\t4\t\n    NULL\n\t3\t\t\n"
    cleaned = clean(copied)
    assert cleaned.lines[:2] == ["1\tSIMPLE\tt\tALL\tNULL\tNULL\t190671\tUsing where\t", "1\tSIMPLE\tu\tref\tk\tk\t4\tNULL\t3\t\t"]
    assert cleaned.numbers[:2] == [1, 6]
    assert any("on a line of its own" in n for n in cleaned.notices)


def test_comment_marks_stuck_to_the_first_and_last_lines_are_removed():
    text = mangle.batch(CLASSIC, ROWID_FILTER_ROWS)
    commented = "/*" + text.rstrip("\n") + "*/\n"
    plan = parse(commented)
    _same(plan, parse(text))
    assert any("code comment ('/*', '*/')" in n for n in plan.notices)
