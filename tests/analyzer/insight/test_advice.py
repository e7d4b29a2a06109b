"""Index advice from a plan, its query and the tables' definitions (the real-server proof is in
tests/advice/); and the table definitions read from the shapes people paste them in."""

from __future__ import annotations

import pytest

from analyzer import analyze
from analyzer.insight.schema import read_schema

ORDERS = """CREATE TABLE `orders` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `customer_id` int(11) NOT NULL,
  `status` varchar(20) DEFAULT NULL,
  `total` decimal(10,2) DEFAULT NULL,
  `created` datetime NOT NULL,
  `note` text,
  `code` varchar(1000) NOT NULL,
  `ref` varchar(40) NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_status` (`status`),
  FULLTEXT KEY `ft_note` (`note`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"""

CUSTOMERS = """CREATE TABLE `customers` (
  `id` int(11) NOT NULL,
  `country` char(2) NOT NULL,
  `name` varchar(100) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"""


def plan(*rows: tuple[str, str, str, str, int, str]) -> str:
    """A client table of (table, type, key, ref, rows, Extra) rows."""
    lines = ["| id | select_type | table | type | possible_keys | key | key_len | ref | rows | Extra |"]
    for table, access, key, ref, count, extra in rows:
        lines.append(f"| 1 | SIMPLE | {table} | {access} | {key} | {key} | NULL | {ref} | {count} | {extra} |")
    return "\n".join(lines) + "\n"


def advice_for(text: str, query: str, schema: str | None = ORDERS + "\n" + CUSTOMERS):
    return analyze(text, query=query, schema=schema)


def test_full_scan_with_equality_and_range_gets_equality_then_range():
    analysis = advice_for(
        plan(("o", "ALL", "NULL", "NULL", 60000, "Using where")),
        "SELECT * FROM orders o WHERE o.customer_id = 42 AND o.created > '2024-01-01'",
    )
    [item] = analysis.advice
    assert item.columns == ["customer_id", "created"]
    assert item.statement == "ALTER TABLE `orders` ADD INDEX `idx_customer_id_created` (`customer_id`, `created`)"
    assert item.rows == [0]
    assert "60,000 rows" in item.reason
    assert analysis.to_dict()["advice"][0]["statement"] == item.statement


def test_order_by_limit_on_a_filtered_scan_takes_the_order_columns_and_makes_the_old_index_redundant():
    analysis = advice_for(
        plan(("o", "ref", "idx_status", "const", 20000, "Using where; Using filesort")),
        "SELECT id, total FROM orders o WHERE status = 'paid' ORDER BY created DESC LIMIT 10",
    )
    [item] = analysis.advice
    assert item.columns[:2] == ["status", "created"]
    assert item.redundant == ["idx_status"]
    assert "no sort" in item.reason and "LIMIT stops early" in item.reason


def test_inner_table_of_a_join_gets_its_join_column():
    analysis = advice_for(
        plan(
            ("c", "ALL", "NULL", "NULL", 20000, "Using where"),
            ("o", "ALL", "NULL", "NULL", 60000, "Using where; Using join buffer (flat, BNL join)"),
        ),
        "SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.country = 'FR'",
    )
    by_table = {item.table: item for item in analysis.advice}
    assert by_table["orders"].columns[0] == "customer_id"
    assert "for each row of `c`" in by_table["orders"].reason
    assert by_table["customers"].columns[0] == "country"


def test_an_index_that_exists_or_extends_the_advice_is_never_advised():
    text = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    query = "SELECT * FROM orders o WHERE o.status = 'new'"
    assert advice_for(text, query).advice == []  # idx_status exists: the optimizer chose a scan anyway
    extended = ORDERS.replace("KEY `idx_status` (`status`)", "KEY `idx_sc` (`status`,`created`)")
    assert advice_for(text, query, extended).advice == []


def test_text_columns_get_a_prefix_and_long_varchar_composites_stay_under_the_key_limit():
    analysis = advice_for(
        plan(("o", "ALL", "NULL", "NULL", 60000, "Using where")),
        "SELECT * FROM orders o WHERE o.note = 'x' AND o.code = 'y' AND o.ref = 'z'",
    )
    [item] = analysis.advice
    statement = item.statement
    assert "`note`(100)" in statement
    assert "`code`(" in statement  # 1,000 utf8mb4 characters are 4,000 bytes, over InnoDB's 3,072
    prefix = int(statement.split("`code`(")[1].split(")")[0])
    assert prefix * 4 + 100 * 4 <= 3072
    assert item.columns == ["note", "code"]  # `ref` no longer fits: the lookup uses the first two


@pytest.mark.parametrize(
    ("condition", "words"),
    [
        ("YEAR(o.created) = 2024", "o.created >= '2024-01-01' AND o.created < '2025-01-01'"),
        ("o.ref LIKE '%abc'", "starts with a wildcard"),
        ("o.ref = 'a' OR o.customer_id = 3", "UNION"),
        ("o.ref = 42", "quote the value"),
    ],
)
def test_conditions_no_index_can_serve_are_explained_not_advised(condition, words):
    analysis = advice_for(
        plan(("o", "ALL", "NULL", "NULL", 60000, "Using where")), f"SELECT * FROM orders o WHERE {condition}"
    )
    assert analysis.advice == []
    blocked = [f for f in analysis.findings if f.kind == "no-index-helps"]
    assert blocked and any(words in f.message for f in blocked), [f.message for f in blocked]


def test_well_served_and_small_accesses_get_no_advice():
    served = plan(("o", "ref", "idx_status", "const", 12, ""), ("c", "eq_ref", "PRIMARY", "o.customer_id", 1, ""))
    query = "SELECT * FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'x'"
    assert advice_for(served, query).advice == []
    small = plan(("o", "ALL", "NULL", "NULL", 40, "Using where"))
    assert advice_for(small, "SELECT * FROM orders o WHERE o.customer_id = 1").advice == []


def test_without_a_schema_the_advice_says_it_was_not_checked():
    [item] = advice_for(
        plan(("o", "ALL", "NULL", "NULL", 60000, "Using where")),
        "SELECT * FROM shop.orders o WHERE o.customer_id = 42",
        schema=None,
    ).advice
    assert item.statement.startswith("ALTER TABLE `shop`.`orders` ADD INDEX")
    assert "Not checked against the table's existing indexes" in item.reason


def test_no_query_no_advice_and_an_unparsable_query_is_not_guessed_at():
    text = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    assert analyze(text).advice == []
    assert advice_for(text, "SELECT * FROM orders o WHERE (((").advice == []


BOX = """+--------+----------------------------+
| Table  | Create Table               |
+--------+----------------------------+
| orders | CREATE TABLE `orders` (
  `id` int(11) NOT NULL,
  `status` varchar(20) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_status` (`status`(10))
) ENGINE=InnoDB DEFAULT CHARSET=latin1 |
+--------+----------------------------+
"""
VERTICAL = """*************************** 1. row ***************************
       Table: customers
Create Table: CREATE TABLE `customers` (
  `id` int(11) NOT NULL,
  `country` char(2) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uq_country_id` (`country`,`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
"""
SHOW_INDEX = """+-------+------------+----------+--------------+-------------+-----------+-------------+----------+--------+------+------------+
| Table | Non_unique | Key_name | Seq_in_index | Column_name | Collation | Cardinality | Sub_part | Packed | Null | Index_type |
+-------+------------+----------+--------------+-------------+-----------+-------------+----------+--------+------+------------+
| items |          0 | PRIMARY  |            1 | id          | A         |        1000 |     NULL | NULL   |      | BTREE      |
| items |          1 | idx_ab   |            1 | a           | A         |          10 |     NULL | NULL   | YES  | BTREE      |
| items |          1 | idx_ab   |            2 | b           | A         |         100 |        5 | NULL   | YES  | BTREE      |
+-------+------------+----------+--------------+-------------+-----------+-------------+----------+--------+------+------------+
"""


def test_schema_reads_boxes_vertical_output_plain_statements_and_show_index_at_once():
    schema = read_schema(BOX + "\n" + VERTICAL + "\n" + SHOW_INDEX + "\n" + CUSTOMERS.replace("customers", "people"))
    assert sorted(schema.tables) == ["customers", "items", "orders", "people"]
    orders = schema.tables["orders"]
    assert orders.charset == "latin1"
    assert [(i.name, i.columns, i.prefixes) for i in orders.indexes] == [
        ("PRIMARY", ["id"], {}),
        ("idx_status", ["status"], {"status": 10}),
    ]
    unique = schema.tables["customers"].indexes[1]
    assert (unique.name, unique.columns, unique.unique) == ("uq_country_id", ["country", "id"], True)
    items = schema.tables["items"].indexes
    assert [(i.name, i.columns, i.primary) for i in items] == [("PRIMARY", ["id"], True), ("idx_ab", ["a", "b"], False)]
    assert items[1].prefixes == {"b": 5}
    assert schema.problems == []


def test_a_statement_sqlglot_cannot_read_is_reported():
    schema = read_schema("CREATE TABLE `t` (`id` int NOT NULL, PRIMARY KEY (`id`) ??? )")
    assert schema.tables == {}
    assert schema.problems and "could not read" in schema.problems[0]


def test_only_the_query_s_tables_are_read_from_the_schema_and_a_huge_query_is_not_parsed():
    schema = read_schema(ORDERS + "\n" + CUSTOMERS + "\nCREATE TABLE `broken` ( ??? )", {"orders"})
    assert list(schema.tables) == ["orders"] and schema.problems == []
    scan = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    huge = "SELECT * FROM orders o WHERE o.customer_id = 42 AND o.ref IN (" + ", ".join(["'x'"] * 20000) + ")"
    assert advice_for(scan, huge).advice == []
    assert advice_for(scan, "SELECT * FROM orders o WHERE o.customer_id = 42").advice


def test_a_table_defined_again_keeps_its_last_readable_definition():
    first, last = "CREATE TABLE t (a int, b int);", "CREATE TABLE t (c int);"
    assert list(read_schema(first + "\n" + last).tables["t"].columns) == ["c"]
    assert list(read_schema(first + "\n" + "CREATE TABLE t (c int ??? );").tables["t"].columns) == ["a", "b"]


@pytest.mark.parametrize(
    "noise",
    ["CREATE TABLE t (" * 5000, "CREATE TABLE t ('" * 5000, "CREATE TABLE t (`" * 2000 + "`"],
    ids=["unclosed", "each in the quotes of the one before", "in an open name"],
)
def test_statements_that_never_close_do_not_hide_a_later_one(noise):
    # Each statement's parenthesis is found from one scan of the text, not a scan of the rest for each.
    schema = read_schema(noise + "')\n" + "CREATE TABLE u (a int);", {"u"})
    assert list(schema.tables["u"].columns) == ["a"]


def test_a_long_condition_is_read_whole():
    # Each column finds its SELECT without walking up the condition: 1,400 of them cost no time squared.
    scan = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    query = "SELECT * FROM orders o WHERE " + " AND ".join(["o.customer_id = 42"] * 1400) + " AND o.status = 'x'"
    assert advice_for(scan, query).advice


def test_a_query_too_long_to_read_in_time_gets_no_advice_and_says_so():
    scan = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    query = "SELECT * FROM orders o WHERE " + " AND ".join(["o.customer_id = 42"] * 2000)
    analysis = advice_for(scan, query)
    assert analysis.advice == []
    assert any("longer than 32 KiB" in notice for notice in analysis.plan.notices)


def test_a_column_the_definition_lacks_is_never_put_in_a_statement():
    scan = plan(("o", "ALL", "NULL", "NULL", 60000, "Using where"))
    # `misspelt` is not a column of orders: the statement would fail, so there is none.
    assert advice_for(scan, "SELECT * FROM orders o WHERE o.misspelt = 42").advice == []
    assert advice_for(scan, "SELECT * FROM orders o WHERE o.misspelt = 42", schema=None).advice  # unchecked, said so


def test_a_query_nested_deeper_than_the_parser_reaches_has_no_shape():
    from analyzer.insight.query_shape import query_shape

    assert query_shape("SELECT a FROM t WHERE " + "(" * 20_000 + "a = 1" + ")" * 20_000) is None
