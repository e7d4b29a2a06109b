"""ExplainLexer: borders, headers, NULL, numbers and glossary terms as distinct tokens, per format."""

from __future__ import annotations

import pytest
from pygments.token import Token, _TokenType

from analyzer.render.highlight import PLAIN_CLASSES, ExplainLexer, css_class, highlight_explain, pygments_css
from tests.ui.conftest import read_fixture

T = Token


def tokens(text: str) -> list[tuple[_TokenType, str]]:
    return [(ttype, value) for _, ttype, value in ExplainLexer().get_tokens_unprocessed(text) if value.strip()]


def of_type(text: str, ttype) -> list[str]:
    return [value for tt, value in tokens(text) if tt in ttype]


@pytest.mark.parametrize(
    "name",
    ["analyze_table.txt", "vertical_prompt.txt", "tsv.txt", "union_table.txt", "mangled_email72.txt", "json_plan.txt"],
)
def test_tokens_cover_the_text_exactly(name):
    text = read_fixture(name)
    pieces = list(ExplainLexer().get_tokens_unprocessed(text))
    assert "".join(v for _, _, v in pieces) == text
    offsets = [i for i, _, _ in pieces]
    assert offsets == sorted(offsets) and offsets[0] == 0


def test_table_format():
    text = read_fixture("no_badge_table.txt")
    assert of_type(text, T.Generic.Heading) == [
        "id",
        "select_type",
        "table",
        "type",
        "possible_keys",
        "key",
        "key_len",
        "ref",
        "rows",
        "Extra",
    ]
    borders = of_type(text, T.Punctuation)
    assert borders[0].startswith("+------+") and "|" in borders
    assert of_type(text, T.Keyword.Constant) == ["NULL"] * 4
    assert of_type(text, T.Literal.Number) == ["1", "16", "868", "2", "5603"]
    assert ("ALL", T.Name.Builtin.Term.Bad) in [(v, t) for t, v in tokens(text)]
    assert ("Using index", T.Name.Builtin.Term.Good) in [(v, t) for t, v in tokens(text)]
    assert of_type(text, T.Name.Class) == ["e", "b"]


def test_table_cells_containing_pipes_stay_in_their_column():
    text = (
        "+----+-------------+-------+------------+---------+\n"
        "| id | select_type | table | type       | key_len |\n"
        "+----+-------------+-------+------------+---------+\n"
        "|  1 | SIMPLE      | t     | ref|filter | 4|1     |\n"
        "+----+-------------+-------+------------+---------+\n"
    )
    values = [v for t, v in tokens(text) if t not in T.Punctuation and t not in T.Generic.Heading]
    assert values == ["1", "SIMPLE", "t", "ref|filter", "4", "|", "1"]  # the pipes inside cells are no borders


def test_vertical_format():
    text = read_fixture("vertical_prompt.txt")
    assert of_type(text, T.Generic.Subheading)[0].startswith("*" * 10)
    assert of_type(text, T.Generic.Prompt)[0] == "MariaDB [hr]>"
    headings = of_type(text, T.Generic.Heading)
    assert headings[:3] == ["id", "select_type", "table"] and "Extra" in headings
    assert "NULL" in of_type(text, T.Keyword.Constant)
    assert "MATERIALIZED" in of_type(text, T.Name.Builtin.Term)
    assert of_type(text, T.Generic.Output) == ["2 rows in set (0.000 sec)"]
    assert "SELECT" in of_type(text, T.Keyword)  # the statement at the prompt, lexed as SQL


def test_tsv_format():
    text = read_fixture("tsv.txt")
    assert of_type(text, T.Generic.Heading)[:3] == ["id", "select_type", "table"]
    assert of_type(text, T.Keyword.Constant) == ["NULL"] * 7
    assert of_type(text, T.Name.Builtin.Term.Good) == ["Select tables optimized away"]


def test_tree_format():
    text = (
        "-> Nested loop inner join  (cost=4.70 rows=6) (actual time=0.065..0.112 rows=6 loops=1)\n"
        "    -> Table scan on t1  (cost=1.35 rows=6) (actual time=0.033..0.044 rows=6 loops=1)\n"
        "    -> Single-row index lookup on t2 using PRIMARY (id=t1.a)  (cost=0.42 rows=1) (never executed)\n"
    )
    assert of_type(text, T.Operator).count("->") == 3
    assert of_type(text, T.Name.Function) == ["Nested loop inner join"]
    assert of_type(text, T.Name.Builtin.Term.Bad) == ["Table scan"]
    assert of_type(text, T.Name.Builtin.Term.Good) == ["Single-row index lookup"]
    assert "0.065..0.112" in of_type(text, T.Literal.Number)
    assert "cost" in of_type(text, T.Name.Attribute) and "actual time" in of_type(text, T.Name.Attribute)
    assert of_type(text, T.Comment) == ["(never executed)"]


def test_tree_printed_as_vertical_output():
    text = (
        "*************************** 1. row ***************************\n"
        "EXPLAIN: -> Table scan on t1  (cost=1.35 rows=6)\n"
        "1 row in set (0.00 sec)\n"
    )
    assert of_type(text, T.Generic.Heading) == ["EXPLAIN"]
    assert of_type(text, T.Name.Builtin.Term.Bad) == ["Table scan"]
    assert "1.35" in of_type(text, T.Literal.Number)
    assert "".join(v for _, _, v in ExplainLexer().get_tokens_unprocessed(text)) == text


def test_term_classes_follow_html_formatter_naming():
    assert css_class(T.Name.Builtin.Term.Bad) == "nb-Term-Bad"
    assert css_class(T.Keyword.Constant) == "kc"
    html = highlight_explain("+----+------+\n| id | type |\n+----+------+\n| 1  | ALL  |\n")
    assert "style=" not in html
    assert html == (
        '+----+------+\n| <span class="gh">id</span> | <span class="gh">type</span> |\n'
        '+----+------+\n| <span class="m">1</span>  | <span class="nb-Term-Bad">ALL</span>  |\n'
    )  # borders and spaces take the text colour: no span of their own


def test_the_stylesheet_has_no_rules_for_classes_never_written():
    for plain in PLAIN_CLASSES:
        assert f".hl .{plain} " not in pygments_css()


def test_hostile_text_is_escaped():
    html = highlight_explain("| <script>alert(1)</script> | x |\n+--+\n")
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_a_huge_paste_is_not_highlighted_but_still_escaped(monkeypatch):
    monkeypatch.setattr("analyzer.render.highlight.MAX_HIGHLIGHT_CHARS", 10)
    assert highlight_explain("<b>+---+---+</b>") == "&lt;b&gt;+---+---+&lt;/b&gt;"
