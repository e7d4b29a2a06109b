"""Start-up stays cheap: `import analyzer` loads nothing of the engine, and a plain client table,
analyzed through the API or `python -m analyzer`, loads only the readers, renderers and standard
modules it needs. Each case runs in a fresh interpreter and lists `sys.modules`, so an import
added at the top of a module that pulls in a reader, a renderer or a heavy standard module
(`dataclasses`, `typing`, `tomllib`…) fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = """\
mysql> EXPLAIN SELECT * FROM s JOIN t ON t.id = s.t_id WHERE s.a > 3;
+----+-------------+-------+--------+---------------+---------+---------+----------+-------+-------------+
| id | select_type | table | type   | possible_keys | key     | key_len | ref      | rows  | Extra       |
+----+-------------+-------+--------+---------------+---------+---------+----------+-------+-------------+
|  1 | SIMPLE      | s     | ALL    | NULL          | NULL    | NULL    | NULL     |   600 | Using where |
|  1 | SIMPLE      | t     | eq_ref | PRIMARY       | PRIMARY | 4       | db.s.t_id|     1 | NULL        |
+----+-------------+-------+--------+---------------+---------+---------+----------+-------+-------------+
2 rows in set (0.00 sec)
"""
# Readers a plain table paste must not load: documents, dumps, other layouts, the fallbacks.
OTHER_READERS = {
    f"analyzer.readers.{name}"
    for name in (
        "documents.json_plan",
        "documents.tree_plan",
        "documents.document_model",
        "dumps.php_dump",
        "dumps.go_dump",
        "dumps.literal_dump",
        "dumps.slow_log",
        "dumps.records",
        "tables.markup",
        "tables.vertical",
        "tables.tsv",
        "tables.csv_rows",
        "shapes.columns",
        "shapes.headerless",
        "shapes.by_value",
        "shapes.cell_shapes",
    )
} | {f"analyzer.repair.unwrap.{name}" for name in ("batch", "fields", "documents")}  # their un-wrapping
# Standard modules that cost more to import than analyzing a short paste.
HEAVY = {"dataclasses", "inspect", "typing", "tomllib", "argparse", "json", "html", "logging", "pathlib", "shutil"}
# The analysis's modules, for the web and the API only: the CLI prints text.
RENDER = {"analyzer.render.view", "analyzer.render.highlight", "analyzer.render.icicle", "analyzer.render.plan_tree"}


def _modules_after(code: str, *args: str) -> set[str]:
    """The modules loaded when `code` has run in a fresh interpreter (which prints them to stderr)."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    listing = "import atexit, sys; atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))"
    done = subprocess.run(
        [sys.executable, "-c", f"{listing}\n{code}", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=True,
    )
    return set(done.stderr.strip().splitlines()[-1].split())


def _engine(modules: set[str]) -> set[str]:
    return {name for name in modules if name.startswith("analyzer.")}


def test_importing_the_package_loads_nothing_of_the_engine():
    assert _engine(_modules_after("import analyzer")) == set()


def test_a_public_name_loads_its_module_on_first_use():
    code = "import analyzer, sys; assert 'analyzer.model' not in sys.modules; print(analyzer.ParseError)"
    modules = _modules_after(code)
    assert "analyzer.model" in modules
    assert "analyzer.pipeline" not in modules


def test_a_table_paste_loads_only_the_table_reader():
    code = "import sys; from analyzer import analyze; assert analyze(sys.argv[1]).plan.format == 'table'"
    modules = _modules_after(code, TABLE)
    assert "analyzer.readers.tables.table" in modules  # the check sees what was loaded
    assert not modules & OTHER_READERS
    assert not _engine(modules) & (RENDER | {"analyzer.render.text"})
    assert not modules & HEAVY


def test_the_command_line_on_a_table_paste_loads_only_what_it_prints(tmp_path):
    path = tmp_path / "plan.txt"
    path.write_text(TABLE)
    code = (
        "import runpy, sys; sys.argv = ['analyzer', sys.argv[1]]\n"
        "try:\n    runpy.run_module('analyzer', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exit:\n    assert not exit.code, exit.code"
    )
    modules = _modules_after(code, str(path))
    assert "analyzer.render.text" in modules
    assert not modules & OTHER_READERS
    assert not modules & RENDER
    assert not modules & HEAVY


def test_index_advice_loads_the_sql_parser_only_for_a_query_and_a_table_worth_an_index():
    code = "import sys; from analyzer import analyze; analyze(sys.argv[1])"
    assert "sqlglot" not in _modules_after(code, TABLE)  # a query, but 600 rows are not worth an index
    big = TABLE.replace("|   600 |", "| 60000 |")
    assert "sqlglot" in _modules_after(code, big)
    without_query = big.replace("mysql> EXPLAIN SELECT * FROM s JOIN t ON t.id = s.t_id WHERE s.a > 3;\n", "")
    assert "sqlglot" not in _modules_after(code, without_query)


def test_other_layouts_load_their_readers():
    code = "import sys; from analyzer import analyze; analyze(sys.argv[1])"
    tree = "-> Filter: (s.a > 3)  (cost=6.25 rows=20)\n    -> Table scan on s  (cost=6.25 rows=60)\n"
    assert "analyzer.readers.documents.tree_plan" in _modules_after(code, tree)
    vertical = "*************************** 1. row ***************************\n" + "".join(
        f"{name}: {value}\n"
        for name, value in [
            ("id", "1"),
            ("select_type", "SIMPLE"),
            ("table", "s"),
            ("type", "ALL"),
            ("possible_keys", "NULL"),
            ("key", "NULL"),
            ("key_len", "NULL"),
            ("ref", "NULL"),
            ("rows", "60000"),
            ("Extra", "Using where"),
        ]
    )
    assert "analyzer.readers.tables.vertical" in _modules_after(code, vertical)
