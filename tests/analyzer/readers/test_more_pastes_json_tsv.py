"""More real-world presentations of JSON plans and tab-separated results: values a test suite
masked with a bare word, set-operation results, and tab-separated lines that only look cut."""

from __future__ import annotations

import json

import pytest

from analyzer.pipeline import parse
from analyzer.readers.documents.json_plan import parse_json


def _analyze_doc(masks: dict[str, str], indent: int = 2) -> str:
    """A MariaDB ANALYZE FORMAT=JSON document of one table whose members named in `masks` are
    printed as the bare word given (as mysql-test's `--replace_regex` leaves them)."""
    table = {
        "table_name": "t1",
        "access_type": "ALL",
        "loops": 1,
        "r_loops": 1,
        "rows": 1000,
        "r_rows": 1000,
        "r_table_time_ms": 0.5,
        "r_engine_stats": {"pages_accessed": 4},
        "filtered": 100,
        "r_filtered": 10,
        "attached_condition": "t1.a < 100",
    }
    doc = {"query_block": {"select_id": 1, "r_loops": 1, "nested_loop": [{"table": table}]}}
    text = json.dumps(doc, indent=indent)
    for name, word in masks.items():
        printed = json.dumps(table[name], indent=indent).replace("\n", "\n" + " " * indent * 5)
        assert f'"{name}": {printed}' in text
        text = text.replace(f'"{name}": {printed}', f'"{name}": {word}')
    return text


@pytest.mark.parametrize("indent", [2, 4])
@pytest.mark.parametrize("word", ["REPLACED", "#", "X", "NNN"])
def test_a_masked_figure_is_read_as_unknown(word: str, indent: int) -> None:
    plan = parse(_analyze_doc({"r_rows": word, "r_engine_stats": word}, indent))

    assert plan.format == "json"
    assert not plan.truncated and not plan.uncertain
    assert plan.tables == ["t1"]
    node = next(node for node in plan.tree.walk() if node.table == "t1")
    assert node.r_rows is None
    assert node.rows_estimated == 1000
    assert node.r_filtered == 10
    assert plan.rows[0]["r_rows"] == word
    notice = next(n for n in plan.notices if "masked" in n)
    assert "2 masked values" in notice and word in notice


def test_the_notice_names_each_word_and_its_lines() -> None:
    text = _analyze_doc({"r_rows": "REPLACED", "r_table_time_ms": "#", "r_engine_stats": "REPLACED"})
    lines = text.split("\n")
    replaced = [n for n, line in enumerate(lines, 1) if "REPLACED" in line]
    hashed = [n for n, line in enumerate(lines, 1) if ": #" in line]

    plan = parse_json(text)

    assert plan is not None and not plan.truncated
    notice = next(n for n in plan.notices if "masked" in n)
    assert f"REPLACED (lines {replaced[0]} and {replaced[1]})" in notice
    assert f"# (line {hashed[0]})" in notice
    assert "3 masked values" in notice


def test_a_masked_text_keeps_its_word_and_masked_list_items_are_read() -> None:
    text = _analyze_doc({"attached_condition": "REPLACED"}).replace(
        '"access_type": "ALL",', '"access_type": "ALL",\n"possible_keys": [REPLACED, "b"],'
    )

    plan = parse(text)

    assert not plan.truncated
    assert plan.rows[0]["possible_keys"] == "REPLACED,b"
    node = next(node for node in plan.tree.walk() if node.table == "t1")
    assert node.condition == "REPLACED"


def test_masked_values_in_a_boxed_document_are_read() -> None:
    doc = _analyze_doc({"r_engine_stats": "REPLACED"})
    width = max(len(line) for line in doc.split("\n"))
    border = "+" + "-" * (width + 2) + "+"
    boxed = "\n".join([border, "| " + "EXPLAIN".ljust(width) + " |", border])
    boxed += "\n" + "\n".join("| " + line.ljust(width) + " |" for line in doc.split("\n")) + "\n" + border

    plan = parse(boxed)

    assert plan.format == "json" and not plan.truncated
    assert plan.tables == ["t1"]
    assert any("masked value" in notice for notice in plan.notices)


def test_a_cut_document_with_masked_values_keeps_what_precedes_the_cut() -> None:
    text = _analyze_doc({"r_engine_stats": "REPLACED"})
    cut = text[: text.index('"attached_condition"') + 25]

    plan = parse_json(cut)

    assert plan is not None and plan.truncated
    assert plan.tables == ["t1"]
    assert any("masked value" in notice for notice in plan.notices)
    assert any("truncated" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    "damaged",
    [
        '"r_engine_stats": two words,',  # text, not one word
        '"r_engine_stats": <REPLACED>,',  # no word
        '"r_engine_stats": REPLACED "x",',  # a word followed by more
    ],
)
def test_other_damage_is_not_taken_for_a_masked_value(damaged: str) -> None:
    text = _analyze_doc({"r_engine_stats": "REPLACED"}).replace('"r_engine_stats": REPLACED,', damaged)

    plan = parse_json(text)

    assert plan is not None and plan.truncated
    assert not any("masked" in notice for notice in plan.notices)


def test_words_inside_strings_and_after_the_document_are_left_alone() -> None:
    text = _analyze_doc({"r_engine_stats": "REPLACED"}).replace('"t1.a < 100"', '"t1.a: REPLACED, [b]"')

    plan = parse(text + "\nnote: done, ok\n")

    assert not plan.truncated
    assert plan.rows[0]["extra"] == "Using where"
    node = next(node for node in plan.tree.walk() if node.table == "t1")
    assert node.condition == "t1.a: REPLACED, [b]"
    notice = next(n for n in plan.notices if "masked" in n)
    assert notice.startswith("Read 1 masked value ")


def test_a_valid_document_with_json_words_has_no_masked_values() -> None:
    text = _analyze_doc({}).replace('"access_type": "ALL",', '"access_type": "ALL",\n"using_index": true, "x": null,')

    plan = parse(text)

    assert not plan.truncated
    assert not any("masked" in notice for notice in plan.notices)


@pytest.mark.parametrize(("operation", "kind"), [("EXCEPT", "except"), ("INTERSECT", "intersect")])
def test_mariadb_except_and_intersect_results_are_read(operation: str, kind: str) -> None:
    member = {
        "query_block": {
            "select_id": 2,
            "operation": operation,
            "r_loops": 1,
            "nested_loop": [{"table": {"table_name": "t2", "access_type": "ALL", "r_loops": 1, "rows": 2}}],
        }
    }
    first = {"query_block": {"select_id": 1, "nested_loop": [{"table": {"table_name": "t1", "access_type": "ALL"}}]}}
    result = {"table_name": f"<{kind}1,2>", "access_type": "ALL", "query_specifications": [first, member]}
    text = json.dumps({"query_block": {"union_result": result}}, indent=2).replace(
        '"rows": 2', '"rows": 2,\n"r_engine_stats": REPLACED'
    )

    plan = parse(text)

    assert not plan.truncated
    assert plan.tables == ["t1", "t2", f"<{kind}1,2>"]
    assert [row["select_type"] for row in plan.rows] == ["PRIMARY", operation, f"{operation} RESULT"]


HEADER = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tr_rows\tfiltered\tr_filtered\tExtra"


def _row(number: int, table: str, extra: str, select_type: str = "") -> str:
    select_type = select_type or ("PRIMARY" if number == 1 else "SUBQUERY")
    return f"{number}\t{select_type}\t{table}\tALL\tNULL\tNULL\tNULL\tNULL\t10\t10.00\t100.00\t20.00\t{extra}"


@pytest.mark.parametrize("after", ["SET debug_dbug=@old_debug;", "connection default;", "disconnect con1", "DROP TABLE t1, t2;"])
@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("extra", ["Using where", "Using index condition; Using where", "NULL"])
def test_a_line_after_the_last_whole_row_is_no_piece_of_it(after: str, count: int, extra: str) -> None:
    rows = [_row(k + 1, f"t{k}", extra, "SIMPLE" if count == 1 else "") for k in range(count)]
    text = "\n".join(["connection con1;", HEADER, *rows, after]) + "\n"

    plan = parse(text)

    assert plan.format == "tsv"
    assert not plan.truncated and not plan.uncertain, plan.notices
    assert plan.tables == [f"t{k}" for k in range(count)]
    assert all(row["extra"] == (None if extra == "NULL" else extra) for row in plan.rows)
    assert not any("Rejoined" in notice for notice in plan.notices)


@pytest.mark.parametrize(
    ("first", "rest", "whole"),
    [
        ("Using where; Using", "temporary; Using filesort", "Using where; Using temporary; Using filesort"),
        ("Using where", "with pushed condition", "Using where with pushed condition"),
        ("Using index condition; Using where; Using join", "buffer (flat, BNL join)",
         "Using index condition; Using where; Using join buffer (flat, BNL join)"),
    ],
)  # fmt: skip
def test_an_extra_value_a_mail_client_broke_is_still_rejoined(first: str, rest: str, whole: str) -> None:
    text = "\n".join([HEADER, _row(1, "a", first), rest, _row(2, "b", "Using where")]) + "\n"

    plan = parse(text)

    assert not plan.truncated
    assert [row["extra"] for row in plan.rows] == [whole, "Using where"]


@pytest.mark.parametrize("remark", [["my note on the plan"], ["see here:", "the second one is slow"]])
def test_a_remark_right_between_two_rows_is_skipped(remark: list[str]) -> None:
    text = "\n".join([HEADER, _row(1, "a", "Using where"), *remark, _row(2, "b", "Using where")]) + "\n"

    plan = parse(text)

    assert plan.tables == ["a", "b"]
    assert not plan.truncated and not plan.uncertain
    assert [row["extra"] for row in plan.rows] == ["Using where", "Using where"]
    assert any("other text inside the batch output" in notice for notice in plan.notices)


def test_a_line_after_a_whole_expanded_row_is_no_piece_of_it() -> None:
    rows = [_row(1, "a", "Using where"), _row(2, "b", "Using where")]
    text = "\n".join(line.expandtabs(8) for line in [HEADER, *rows]) + "\nSET debug_dbug=@old_debug;\n"

    plan = parse(text)

    assert plan.tables == ["a", "b"]
    assert not plan.truncated
    assert [row["extra"] for row in plan.rows] == ["Using where", "Using where"]


SPLIT = "id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra"
SPLIT_ROWS = [
    "1\tPRIMARY\tt1\tALL\tNULL\tNULL\tNULL\tNULL\t5\t",
    "1\tPRIMARY\t<derived2>\tref\tkey0\tkey0\t5\ttest.t1.b\t10\tUsing where",
    "2\t{kind}\tt10\tref\tgrp_id\tgrp_id\t5\ttest.t1.b\t100\t",
    "2\t{kind}\tt11\tALL\tNULL\tNULL\tNULL\tNULL\t10\tUsing where; Using join buffer (flat, BNL join)",
]


def _split_paste(kind: str = "LATERAL DERIVED", last: str = "") -> str:
    rows = [row.format(kind=kind) for row in SPLIT_ROWS]
    if last:
        rows[-1] = rows[-1].rsplit("\t", 1)[0] + "\t" + last
    return "\n".join([SPLIT, *rows]) + "\n"


@pytest.mark.parametrize("kind", ["LATERAL DERIVED", "DERIVED"])
@pytest.mark.parametrize("cut_at", ["Using join buffer ", "Using join buffer (flat, ", "Using join ", "Using where; Using "])
def test_a_line_alone_cut_in_a_space_is_flagged(kind: str, cut_at: str) -> None:
    whole = _split_paste(kind).replace("\tt11\t", "\ta_table_with_a_long_name\t")
    line = whole.split("\n")[-2]
    cut = whole.replace(line, line[: line.index(cut_at) + len(cut_at)])
    assert cut.split("\n")[-2].endswith(" ")

    plan = parse(cut)

    assert plan.truncated
    assert any("truncated at" in notice for notice in plan.notices)
    assert plan.tables == ["t1", "<derived2>", "t10", "a_table_with_a_long_name"]


@pytest.mark.parametrize("kind", ["LATERAL DERIVED", "MATERIALIZED", "DEPENDENT DERIVED"])
def test_a_bare_join_buffer_from_a_server_that_names_its_kind_is_a_cut(kind: str) -> None:
    plan = parse(_split_paste(kind, "Using where; Using join buffer"))

    assert plan.truncated
    assert plan.rows[-1]["extra"] == "Using where; Using join buffer…"


def test_a_bare_join_buffer_next_to_a_named_one_is_a_cut() -> None:
    text = _split_paste("DERIVED", "Using where; Using join buffer").replace(
        "10\tUsing where\n", "10\tUsing join buffer (BNL)\n"
    )
    plan = parse(text.replace("\tt11\t", "\ta_table_with_a_long_name\t"))

    assert plan.truncated
    assert plan.rows[1]["extra"] == "Using join buffer (BNL)"


@pytest.mark.parametrize("extra", ["Using where; Using join buffer", "Using join buffer"])
def test_an_old_servers_bare_join_buffer_is_whole(extra: str) -> None:
    plan = parse(_split_paste("DERIVED", extra))

    assert not plan.truncated, plan.notices
    assert plan.rows[-1]["extra"] == extra


def test_complete_split_pastes_are_not_flagged() -> None:
    for kind in ("LATERAL DERIVED", "DERIVED", "MATERIALIZED"):
        plan = parse(_split_paste(kind))
        assert not plan.truncated and not plan.uncertain, plan.notices
        assert plan.rows[-1]["extra"] == "Using where; Using join buffer (flat, BNL join)"


def test_lines_a_console_padded_with_spaces_are_no_cut() -> None:
    lines = _split_paste().rstrip("\n").split("\n")
    widest = max(len(line) for line in lines) + 3
    plan = parse("\n".join(line.ljust(widest) for line in lines) + "\n")

    assert not plan.truncated, plan.notices
    assert plan.tables == ["t1", "<derived2>", "t10", "t11"]
