"""JSON and TREE reader benchmark: `python bench/json_tree_readers.py`.

Prints, for a typical MariaDB ANALYZE FORMAT=JSON document (4 tables, subqueries) and a typical
EXPLAIN ANALYZE tree, the median time of `json.loads` alone and of the reader, so the reader's
own overhead is visible (target: well under 1 ms); then the reader on documents made 1x, 4x and
16x larger (more tables, more tree lines) to show the time grows linearly; then a deeply nested
and a badly damaged document, which must be refused or salvaged quickly.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.readers.documents.json_plan import parse_json  # noqa: E402
from analyzer.readers.documents.tree_plan import parse_tree  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def median_ms(function: Callable[[], object], repeat: int = 50) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def widened_json(text: str, factor: int) -> str:
    """The document with its nested_loop repeated `factor` times."""
    doc = json.loads(text)
    block = doc["query_block"]
    block["nested_loop"] = block["nested_loop"] * factor
    return json.dumps(doc, indent=2)


def widened_tree(text: str, factor: int) -> str:
    lines = text.rstrip("\n").split("\n")
    return "\n".join([lines[0]] + lines[1:] * factor) + "\n"


def main() -> None:
    json_text = (FIXTURES / "json" / "mariadb" / "exists_subquery.analyze.json").read_text()
    tree_text = (FIXTURES / "tree" / "dependent_subquery_analyze.txt").read_text()
    loads = median_ms(lambda: json.loads(json_text), 500)
    reader = median_ms(lambda: parse_json(json_text), 500)
    print(
        f"json: {len(json_text)} bytes  json.loads {loads:.3f} ms  parse_json {reader:.3f} ms  overhead {reader - loads:.3f} ms"
    )
    print(f"tree: {len(tree_text)} bytes  parse_tree {median_ms(lambda: parse_tree(tree_text), 500):.3f} ms")
    for factor in (1, 4, 16, 64):
        big_json = widened_json(json_text, factor * 8)
        big_tree = widened_tree(tree_text, factor * 8)
        print(
            f"x{factor:<3} json {len(big_json):>8} bytes {median_ms(lambda t=big_json: parse_json(t), 20):8.2f} ms   "
            f"tree {len(big_tree):>8} bytes {median_ms(lambda t=big_tree: parse_tree(t), 20):8.2f} ms"
        )
    deep = '{"query_block": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001
    print(f"deep json ({len(deep)} bytes): {median_ms(lambda: parse_json(deep), 5):.2f} ms")
    damaged = widened_json(json_text, 512)
    damaged = damaged[: len(damaged) // 2] + "garbage" + damaged[len(damaged) // 2 :]
    print(f"damaged json ({len(damaged)} bytes): {median_ms(lambda: parse_json(damaged), 5):.2f} ms")


if __name__ == "__main__":
    main()
