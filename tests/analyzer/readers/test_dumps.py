"""EXPLAIN rows a program printed as data: PHP, Python, Node, Go and JSON dumps read as a result,
cut dumps flagged, and dumps of other data left alone."""

from __future__ import annotations

import json
import pprint
import textwrap

import pytest

from analyzer.model import ParseError
from analyzer.pipeline import parse
from analyzer.readers.dumps.records import cell, column_name, is_explain_record
from analyzer.readers.resultset import CUT

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "extra"]
ROWS = [
    {
        "id": "1",
        "select_type": "PRIMARY",
        "table": "<derived2>",
        "type": "ALL",
        "possible_keys": None,
        "key": None,
        "key_len": None,
        "ref": None,
        "rows": "2",
        "extra": None,
    },
    {
        "id": "2",
        "select_type": "DEPENDENT SUBQUERY",
        "table": "orders",
        "type": "range",
        "possible_keys": "idx_created",
        "key": "idx_created",
        "key_len": "5",
        "ref": None,
        "rows": "1200",
        "extra": "Using where; Using index",
    },
]


def _dump(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def _php_value(value: str | None, style: str) -> str:
    """A cell as print_r, var_dump or Xdebug prints a string or NULL."""
    if style == "print_r":
        return "" if value is None else value
    if style == "var_dump":
        return "NULL" if value is None else f'string({len(value.encode())}) "{value}"'
    return "null" if value is None else f"string '{value}' (length={len(value.encode())})"


def print_r(rows: list[dict]) -> str:
    out = ["Array", "("]
    for n, row in enumerate(rows):
        out += [f"    [{n}] => Array", "        ("]
        out += [f"            [{'Extra' if k == 'extra' else k}] => {_php_value(v, 'print_r')}" for k, v in row.items()]
        out += ["        )", ""]
    return "\n".join([*out, ")"]) + "\n"


def var_dump(rows: list[dict]) -> str:
    out = [f"array({len(rows)}) {{"]
    for n, row in enumerate(rows):
        out += [f"  [{n}]=>", f"  array({len(row)}) {{"]
        for k, v in row.items():
            out += [f'    ["{"Extra" if k == "extra" else k}"]=>', f"    {_php_value(v, 'var_dump')}"]
        out.append("  }")
    return "\n".join([*out, "}"]) + "\n"


def xdebug(rows: list[dict]) -> str:
    out = [f"array (size={len(rows)})"]
    for n, row in enumerate(rows):
        out += [f"  {n} => ", f"    array (size={len(row)})"]
        out += [f"      '{'Extra' if k == 'extra' else k}' => {_php_value(v, 'xdebug')}" for k, v in row.items()]
    return "\n".join(out) + "\n"


def vardumper(rows: list[dict]) -> str:
    out = ["Illuminate\\Support\\Collection {#5344", f"  #items: array:{len(rows)} ["]
    for n, row in enumerate(rows):
        out.append(f"    {n} => {{#{15407 + n}")
        out += [f'      +"{"Extra" if k == "extra" else k}": {json.dumps(v)}' for k, v in row.items()]
        out.append("    }")
    return "\n".join([*out, "  ]", "}"]) + "\n"


def node(rows: list[dict]) -> str:
    out = ["["]
    for row in rows:
        out.append("  RowDataPacket {")
        fields = [f"    {'Extra' if k == 'extra' else k}: {'null' if v is None else repr(v)}" for k, v in row.items()]
        out.append(",\n".join(fields))
        out.append("  },")
    return "\n".join([*out, "]"]) + "\n"


@pytest.mark.parametrize(
    ("render", "source"),
    [
        (print_r, "a PHP print_r dump"),
        (var_dump, "a PHP var_dump"),
        (xdebug, "a PHP var_dump in Xdebug's layout"),
        (vardumper, "a PHP VarDumper or PsySH dump"),
        (node, "a Node.js console.log dump"),
        (lambda rows: repr(rows) + "\n", "a Python repr"),
        (lambda rows: pprint.pformat(rows, width=60) + "\n", "a Python repr"),
    ],
    ids=["print_r", "var_dump", "xdebug", "vardumper", "node", "python", "pprint"],
)
def test_each_dump_gives_the_rows_as_the_server_printed_them(render, source):
    plan = parse("Here is what it printed:\n" + render(ROWS) + "Any idea?\n")
    assert plan.format == "vertical"
    assert plan.columns == COLUMNS
    assert plan.rows == ROWS
    assert not plan.truncated and not plan.uncertain
    assert any(n.startswith(f"Read 2 EXPLAIN rows from {source} (line") for n in plan.notices), plan.notices
    assert any(n.startswith("Ignored 2 lines of other text") for n in plan.notices)


def test_print_r_reads_nothing_as_null_and_says_so():
    plan = parse(print_r(ROWS[:1]))
    assert plan.rows == ROWS[:1]
    assert "Read 5 empty values as NULL: print_r prints NULL, false and '' alike, as nothing." in plan.notices


def test_psysh_collection_with_prompt_and_commas():
    plan = parse(
        _dump("""
        >>> Webhook::where('event', 'users.registered')->explain()
        => Illuminate\\Support\\Collection {#15414
             all: [
               {#15407
                 +"id": 1,
                 +"select_type": "SIMPLE",
                 +"table": "webhooks",
                 +"partitions": null,
                 +"type": "ref",
                 +"possible_keys": "webhooks_event_index",
                 +"key": "webhooks_event_index",
                 +"key_len": "1022",
                 +"ref": "const",
                 +"rows": 1,
                 +"filtered": 10.0,
                 +"Extra": "Using where",
               },
             ],
           }
        """)
    )
    assert plan.rows[0]["table"] == "webhooks"
    assert plan.rows[0]["rows"] == "1"
    assert plan.rows[0]["filtered"] == "10.00"  # as the server prints a FLOAT(…, 2) column
    assert plan.rows[0]["partitions"] is None
    assert not plan.truncated


@pytest.mark.parametrize("render", [print_r, var_dump, vardumper, node, repr], ids=lambda r: r.__name__)
def test_a_dump_cut_short_is_flagged(render):
    text = render(ROWS)
    cut = text[: int(len(text) * 0.8)]
    plan = parse(cut)
    assert plan.truncated
    assert plan.rows[0] == ROWS[0]
    assert any("missing" in n for n in plan.notices), plan.notices


def test_a_row_cut_short_keeps_its_visible_cells_and_marks_the_rest():
    lines = var_dump(ROWS).splitlines()
    plan = parse("\n".join(lines[: lines.index('    ["table"]=>', 30) + 1]))
    assert plan.truncated
    assert plan.rows[1]["id"] == "2" and plan.rows[1]["select_type"] == "DEPENDENT SUBQUERY"
    assert plan.rows[1]["table"] == CUT and plan.rows[1]["extra"] == CUT
    assert plan.affected_rows == [1]
    assert any("stops before 2 closing brackets" in n for n in plan.notices)


def test_xdebug_counts_show_missing_rows_and_fields():
    text = xdebug(ROWS)
    plan = parse(text[: text.index("  1 => ")])
    assert plan.truncated
    assert "The dump declares 2 elements on line 1 but holds 1: rows are missing." in plan.notices
    short = "\n".join(line for line in xdebug(ROWS[:1]).splitlines() if "'key' =>" not in line)
    plan = parse(short)
    assert plan.truncated
    assert any("hold fewer fields than declared" in n for n in plan.notices)


def test_var_dump_string_shorter_than_its_length_is_cut():
    text = var_dump(ROWS[:1]).replace('string(10) "<derived2>"', 'string(10) "<deri..."')
    plan = parse(text)
    assert plan.rows[0]["table"] == "<deri" + CUT
    assert plan.truncated and plan.affected_rows == [0]


def test_vardumper_folded_row_is_flagged():
    text = vardumper(ROWS).replace("    1 => {#15408", "    1 => {#15408 ▶}\n    9 => {#9")
    plan = parse(text.split("    9 => ")[0] + "  ]\n}\n")
    assert plan.truncated
    assert any("leaves part of its content out" in n for n in plan.notices)


def test_inner_lines_of_a_print_r_without_containers():
    text = "".join(
        line.strip() + "\n"
        for line in print_r(ROWS).splitlines()
        if line.strip().startswith("[") and "Array" not in line
    )
    plan = parse(text)
    assert plan.rows == ROWS
    assert not plan.truncated


def test_python_tuples_after_their_column_names_and_decimals():
    header = tuple(COLUMNS[:-1] + ["Extra"])
    rows = [tuple(row.values()) for row in ROWS]
    text = f"{header!r}\n{rows!r}\n".replace("'1200'", "1200").replace("'2', 'PRIMARY'", "2, 'PRIMARY'")
    plan = parse(text)
    assert plan.rows == ROWS
    plan = parse("[{'id': 1, 'select_type': 'SIMPLE', 'table': 't', 'type': 'ALL', 'rows': 5, "
                 "'filtered': Decimal('33.33'), 'Extra': b'Using where'}]")  # fmt: skip
    assert plan.rows[0]["filtered"] == "33.33" and plan.rows[0]["extra"] == "Using where"


def test_python_named_tuples():
    plan = parse("[Row(id=1, select_type='SIMPLE', table='t', type='ALL', possible_keys=None, rows=9, Extra=None)]")
    assert plan.rows == [
        {
            "id": "1",
            "select_type": "SIMPLE",
            "table": "t",
            "type": "ALL",
            "possible_keys": None,
            "rows": "9",
            "extra": None,
        }
    ]


def test_node_elisions_are_flagged():
    text = node(ROWS).replace("]\n", "  ... 8 more items\n]\n")
    plan = parse(text)
    assert plan.truncated and len(plan.rows) == 2
    assert any("leaves rows or values out" in n for n in plan.notices)


def test_json_log_record_with_rows_and_its_statement():
    rows = [{"id": 1, "select_type": "SIMPLE", "table": "employees", "partitions": None, "type": "ALL",
             "possible_keys": None, "key": None, "key_len": None, "ref": None, "rows": 298936,
             "filtered": 100.0, "Extra": None}]  # fmt: skip
    record = {"sql": "SELECT * FROM employees", "explain": rows, "backtrace": ["a.rb:18"]}
    for text in (f"INFO\t2020-07-18 01:53:27\t{json.dumps(record)}", json.dumps(record, indent=4)):
        plan = parse(text)
        assert plan.format == "json"
        assert plan.plan is None
        assert plan.query == "SELECT * FROM employees"
        assert plan.rows[0]["rows"] == "298936" and plan.rows[0]["filtered"] == "100.00"
        assert not plan.truncated


def test_a_json_array_cut_short_keeps_its_complete_rows():
    rows = [dict(zip(COLUMNS, row.values(), strict=True)) for row in ROWS]
    text = json.dumps(rows)
    plan = parse(text[: text.index("orders") + 3])
    assert plan.truncated
    assert plan.rows == ROWS[:1]


def test_dumps_without_id_keep_their_own_columns():
    rows = [{"line": 1, "select_type": "SIMPLE", "table": "t", "type": "ALL", "key": None, "rows": 3, "Extra": None}]
    plan = parse(json.dumps({"explain": rows}))
    assert plan.columns == ["line", "select_type", "table", "type", "key", "rows", "extra"]
    assert not plan.truncated  # the dump is whole: nothing was lost, it has no id


@pytest.mark.parametrize(
    "text",
    [
        "Array\n(\n    [name] => Bob\n    [select_type] => admin\n    [age] => 42\n)\n",
        '{"users": [{"id": 1, "name": "Bob", "select_type": "x", "table": "t"}]}',
        "[{'select_type': 'a', 'colour': 'red'}]",
        "{Name:Bob SelectType:admin Age:42}",
        'array(2) {\n  ["select_type"]=>\n  string(1) "x"\n  ["name"]=>\n  string(3) "Bob"\n}\n',
        "select_type: SIMPLE\n",
    ],
    ids=["print_r", "json", "python", "go", "var_dump", "yaml"],
)
def test_a_dump_of_other_data_is_no_plan(text):
    with pytest.raises(ParseError):
        parse(text)


def test_go_struct_dump():
    text = (
        "{Err:<nil> Results:[{Id:1 SelectType:SIMPLE Table:explain_table Type:index PossibleKey: Key:PRIMARY "
        "KeyLen:4 Ref: Rows:1 Extra:Using where} {Id:2 SelectType:DEPENDENT SUBQUERY Table:t Type:ref "
        "PossibleKey:{String:a Valid:true} Key:{String:a Valid:true} KeyLen:5 Ref:func Rows:3 "
        "Extra:{String: Valid:false}}] SQL:SELECT * FROM explain_table WHERE a = 'b'}"
    )
    plan = parse(text)
    assert plan.format == "vertical"
    assert plan.query == "SELECT * FROM explain_table WHERE a = 'b'"
    assert plan.rows[0] == {
        "id": "1",
        "select_type": "SIMPLE",
        "table": "explain_table",
        "type": "index",
        "possible_keys": None,
        "key": "PRIMARY",
        "key_len": "4",
        "ref": None,
        "rows": "1",
        "extra": "Using where",
    }
    assert plan.rows[1]["select_type"] == "DEPENDENT SUBQUERY" and plan.rows[1]["key"] == "a"
    assert plan.rows[1]["extra"] is None
    assert "Read 2 empty values as NULL: Go prints a NULL scanned into a string as nothing." in plan.notices


def test_go_map_dump_puts_the_columns_in_the_server_order():
    plan = parse(
        "[map[Extra:Using where id:1 key:<nil> key_len:<nil> possible_keys:<nil> ref:<nil> rows:9 "
        "select_type:SIMPLE table:books type:ALL]]"
    )
    assert plan.columns == COLUMNS
    assert plan.rows[0]["table"] == "books" and plan.rows[0]["key"] is None


def test_go_dump_cut_short_and_pointers_are_flagged():
    text = "[{Id:1 SelectType:SIMPLE Table:a Type:ALL PossibleKeys:0xc000010238 Key: KeyLen: Ref: Rows:10 Extra:x}"
    plan = parse(text + " {Id:1 SelectType:SIMPLE Table:b Type:re")
    assert plan.truncated
    assert plan.rows[0]["possible_keys"] == CUT
    assert plan.rows[1]["type"] == "re" + CUT and plan.rows[1]["rows"] == CUT
    assert any("pointer" in n for n in plan.notices)


def test_column_names_and_cells():
    assert [column_name(k) for k in ("SelectType", "KeyLen", "ID", "PossibleKey", "RRows", "Extra", "line")] == [
        "select_type",
        "key_len",
        "id",
        "possible_keys",
        "r_rows",
        "extra",
        "line",
    ]
    assert [cell("filtered", 11.11111164093), cell("rows", 9.0), cell("r_rows", 3), cell("key", "NULL")] == [
        "11.11",
        "9",
        "3.00",
        None,
    ]
    assert is_explain_record(["Id", "SelectType", "Table", "Type", "Rows"])
    assert not is_explain_record(["id", "select_type", "name"])


def test_records_printed_one_by_one_are_one_result():
    records = [dict(zip(COLUMNS, row.values(), strict=True)) for row in ROWS]
    shell = "".join(json.dumps(record, indent=4) + "\n" for record in records) + "2 rows in set (0.0005 sec)\n"
    plan = parse(shell)  # MySQL Shell's --result-format=json
    assert plan.format == "json" and plan.rows == ROWS and not plan.truncated
    plan = parse("".join(f"{record!r}\n" for record in records))  # print(row) for each row
    assert plan.format == "vertical" and plan.rows == ROWS
    assert not any("different EXPLAIN results" in n for n in plan.notices)


def test_a_field_line_lost_from_a_php_dump_is_flagged():
    lines = print_r(ROWS).splitlines()
    lines.remove("            [key] => idx_created")  # the second row's
    plan = parse("\n".join(lines))
    assert plan.truncated and plan.rows[1]["key"] == CUT and plan.affected_rows == [1]
    assert any("lines of the dump are missing" in n for n in plan.notices)
    plan = parse("\n".join(line for line in print_r(ROWS[:1]).splitlines() if "[key] =>" not in line))
    assert plan.truncated and plan.rows[0]["key"] == CUT  # every EXPLAIN has `key`: its line was lost


def test_a_key_left_out_of_a_json_row_is_read_as_null_and_doubted():
    rows = [dict(zip(COLUMNS, row.values(), strict=True)) for row in ROWS]
    del rows[0]["key"]
    plan = parse(json.dumps(rows))
    assert plan.rows[0]["key"] is None
    assert plan.uncertain and not plan.truncated
    assert any("Row 1 of the dump lacks keys the other rows have; read as NULL" in n for n in plan.notices)


@pytest.mark.parametrize(
    "text",
    [
        '=> [{"id"=>1, "select_type"=>"SIMPLE", "table"=>"users", "type"=>"ALL", "key"=>nil, "rows"=>3, "Extra"=>nil}]',
        '[{"id" => 1,\n  "select_type" => "SIMPLE",\n  "table" => "users",\n  "type" => "ALL",\n  "key" => nil,\n'
        '  "rows" => 3,\n  "Extra" => nil}]',
        '[{:id=>1, :select_type=>"SIMPLE", :table=>"users", :type=>"ALL", :key=>nil, :rows=>3, :Extra=>nil}]',
    ],
    ids=["p", "pp", "symbols"],
)
def test_ruby_inspect_of_the_rows(text):
    plan = parse(text)
    assert plan.rows == [
        {"id": "1", "select_type": "SIMPLE", "table": "users", "type": "ALL", "key": None, "rows": "3", "extra": None}
    ]
    assert any("from a Ruby inspect (p, pp) dump" in n for n in plan.notices)


def test_rows_beside_a_part_that_cannot_be_read():
    text = node(ROWS).replace("\n]\n", "\n],\n[ ColumnDefinition { _buf: <Buffer 01 00 ... 52 more bytes> } ]\n")
    plan = parse("[\n" + text + "]\n")
    assert plan.rows == ROWS and not plan.truncated


def test_vardumper_class_with_caret():
    plan = parse(vardumper(ROWS).replace("Collection {#5344", "Collection^ {#5344"))
    assert plan.rows == ROWS and not plan.truncated
