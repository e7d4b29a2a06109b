"""Render benchmark for the analysis pages: `python bench/render_bench.py`.

Builds a 20-row EXPLAIN (joins, a derived table, subqueries, long key lists and Extra cells),
saves it in a throwaway test database, then prints the median server time (wall clock and
CPU), over repeated requests through Django's full middleware stack, of:
  - the permalink page `/e/<slug>/` of the saved explain (target: under 20 ms),
  - the permalink page of a saved EXPLAIN ANALYZE tree of 1,000 timed nodes, deep and wide
    (target: under 200 ms): its time profile, icicle graph and plan tree, and its SVG download,
  - the analyze page posted without htmx (parses and annotates on every request),
  - the htmx live-preview partial,
  - the analysis partial template alone, and parse + annotate alone, for comparison.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402
from django.urls import reverse  # noqa: E402

from analyzer import analyze  # noqa: E402
from bench.pastes import ROWS, explain_table  # noqa: E402
from pastebin.models import Explain  # noqa: E402
from pastebin.saving import save_explain  # noqa: E402

PROFILED_NODES = 1000


def analyze_tree(count: int = PROFILED_NODES) -> str:
    """A MySQL EXPLAIN ANALYZE tree of `count` timed nodes: under a sort, dozens of left-deep nested
    loop joins of 12 or 24 tables side by side (up to 28 levels deep), lookups behind filters."""
    lines: list[str] = []

    def emit(depth: int, text: str, rows: int, ms: float, loops: int = 1, estimate: int | None = None) -> None:
        figures = f"(cost={rows * 0.35 + 1:.2f} rows={rows if estimate is None else estimate})"
        timing = f"(actual time={ms / 3:.3f}..{ms:.3f} rows={rows} loops={loops})"
        lines.append(f"{'    ' * depth}-> {text}  {figures} {timing}")

    def join(depth: int, tables: int, k: int) -> None:
        if tables == 1:
            emit(depth, f"Table scan on t{k}_{depth}", 100 + k, 0.05 * (k % 7 + 1))
            return
        emit(depth, "Nested loop inner join", 10 * tables, 0.1 * tables + 0.2 * (k % 5))
        join(depth + 1, tables - 1, k)
        loops = 10 * tables
        if tables % 4:
            emit(depth + 1, f"Single-row index lookup on u{k}_{depth} using PRIMARY (id=t{k}.id)", 1, 0.004, loops)
            return
        emit(depth + 1, f"Filter: (t{k}_{depth}.flag = 'x')", 1, 0.01, loops, estimate=50)
        emit(depth + 2, f"Index lookup on t{k}_{depth} using idx_a (a=t{k}.id)", 3, 0.008 * (k % 3 + 1), loops, 1)

    emit(0, "Sort: t0.id", 500, 160.0)
    emit(1, "Stream results", 500, 150.0)
    k = 0
    while len(lines) < count - 40:
        join(2, 24 if k % 3 == 0 else 12, k)
        k += 1
    while len(lines) < count:
        emit(2, f"Table scan on extra{len(lines)}", 5, 0.01)
    return "\n".join(lines) + "\n"


QUERY = "SELECT t0.id, t1.name FROM t0 JOIN (SELECT id, name FROM t2 WHERE x > 5) AS t1 ON t1.id = t0.id " + " ".join(
    f"JOIN t{n} ON t{n}.id = t{n - 1}.id" for n in range(3, ROWS)
)


def median_ms(function: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds; CPU time stays honest on a busy machine."""
    function()  # warm caches (templates, glossary, lexers)
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def report(label: str, function: Callable[[], object], repeat: int) -> None:
    wall, cpu = median_ms(function, repeat)
    print(f"  {label:<32} {wall:7.2f} ms wall  {cpu:7.2f} ms CPU")


def main(repeat: int = 60) -> None:
    setup_test_environment()
    databases = setup_databases(verbosity=0, interactive=False)
    try:
        run(repeat)
    finally:
        teardown_databases(databases, verbosity=0)


def saved_profiled_explain() -> Explain:
    """The 1,000-node EXPLAIN ANALYZE, saved with its profile."""
    explain = save_explain(analyze_tree(), title="a thousand timed steps").explain
    profile = explain.analysis["profile"]
    assert profile is not None and len(profile["nodes"]) == PROFILED_NODES, profile and len(profile["nodes"])
    return explain


def run(repeat: int) -> None:
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    client = Client()
    paste = explain_table()
    data = {"explain": paste, "query": QUERY}
    analysis = analyze(paste, query=QUERY).to_dict()
    assert len(analysis["rows"]) == ROWS, len(analysis["rows"])
    permalink = save_explain(paste, query=QUERY, title="twenty rows").explain.get_absolute_url()

    def get(url: str) -> Callable[[], None]:
        def request() -> None:
            assert client.get(url).status_code == 200

        return request

    def post(headers: dict[str, str]) -> Callable[[], None]:
        def request() -> None:
            assert client.post("/preview/", data, headers=headers).status_code == 200

        return request

    print(
        f"{ROWS}-row explain, {len(analysis['annotations'])} annotations, {len(analysis['findings'])} findings; median of {repeat} runs"
    )
    report("permalink page /e/<slug>/", get(permalink), repeat)
    report("analyze page (full POST)", post({}), repeat)
    report("htmx live-preview partial", post({"HX-Request": "true"}), repeat)
    report(
        "analysis template only",
        lambda: render_to_string("analyzer/_analysis.html", {"analysis": analysis, "raw_explain": paste}),
        repeat,
    )
    report("parse + annotate only", lambda: analyze(paste, query=QUERY), repeat)
    print("  target: the permalink page under 20 ms of server time")
    profiled, runs = saved_profiled_explain(), max(5, repeat // 4)
    print(f"EXPLAIN ANALYZE of {PROFILED_NODES} timed nodes; median of {runs} runs")
    report("permalink page /e/<slug>/", get(profiled.get_absolute_url()), runs)
    report("profile SVG /e/<slug>/profile.svg", get(reverse("pastebin:profile-svg", args=[profiled.slug])), runs)
    print("  target: the permalink page under 200 ms of server time")


if __name__ == "__main__":
    main()
