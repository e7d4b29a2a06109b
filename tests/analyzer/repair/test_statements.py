"""Lines that start with EXPLAIN without a prompt: typed statements versus chat about the plan."""

from __future__ import annotations

import pytest

from analyzer import parse

TREE = """\
-> Nested loop inner join  (cost=4.95 rows=9) (actual time=0.153..0.200 rows=9 loops=1)
    -> Filter: (t1.a is not null)  (cost=1.15 rows=9) (actual time=0.081..0.101 rows=9 loops=1)
        -> Table scan on t1  (cost=1.15 rows=9) (actual time=0.079..0.097 rows=9 loops=1)
    -> Index lookup on t2 using idx_a (a=t1.a)  (cost=0.26 rows=1) (actual time=0.009..0.010 rows=1 loops=9)
"""


@pytest.mark.parametrize("chat", ["EXPLAIN ANALYZE output:", "Explain analyze says", "EXPLAIN FORMAT=TREE result"])
def test_chat_line_starting_with_explain_keeps_the_tree(chat):
    plan = parse(f"{chat}\n{TREE}")
    assert plan.format == "tree"
    assert plan.tables == ["t1", "t2"]
    assert plan.query is None


def test_typed_statement_without_prompt_gives_the_query_and_keeps_the_tree():
    plan = parse("EXPLAIN ANALYZE SELECT * FROM t1 JOIN t2 USING (a);\n" + TREE)
    assert plan.format == "tree"
    assert plan.tables == ["t1", "t2"]
    assert plan.query == "SELECT * FROM t1 JOIN t2 USING (a)"


def test_unterminated_prompt_statement_stops_at_tree_output():
    plan = parse("mysql> EXPLAIN ANALYZE SELECT * FROM t1 JOIN t2 USING (a)\n" + TREE)
    assert plan.format == "tree"
    assert len(plan.rows) == 2
