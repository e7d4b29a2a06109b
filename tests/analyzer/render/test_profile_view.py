"""The time profile's view: reading the `profile` key, figures for people, the icicle graph's layout
and the SVG document, on hand-built profiles and on real EXPLAIN ANALYZE pastes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from analyzer import analyze
from analyzer.render.icicle import MIN_WIDTH, WIDTH, icicle_svg, layout, profile_document
from analyzer.render.plan_tree import TreeNode, build_tree
from analyzer.render.profile_view import (
    factor_badge,
    format_count,
    format_ms,
    format_share,
    heat_legend,
    open_paths,
    read_profile,
)

SVG = "{http://www.w3.org/2000/svg}"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEPENDENT = (FIXTURES / "tree" / "dependent_subquery_analyze.txt").read_text(encoding="utf-8")


def entry(path, total, own, share, **more):
    return {"path": list(path), "label": f"step {path}", "total_ms": total, "self_ms": own, "share": share, **more}


@pytest.mark.parametrize("analysis", [{}, {"profile": None}, {"profile": []}, {"profile": {"nodes": []}}])
def test_no_profile(analysis):
    assert read_profile(analysis) is None


def test_read_profile_keeps_good_entries_and_finds_the_slowest():
    nodes = [
        entry([0], 10.0, 2.0, 0.2),
        entry([0, 0], 8.0, 8.0, 0.8, loops=3, rows_estimated=10, rows_actual=1200.0, estimate_factor=120.0),
        {"path": "0/1", "total_ms": 1.0},
        {"path": [0, -1], "total_ms": 1.0},
        {"path": [0, 2]},
        "nonsense",
    ]
    profile = read_profile({"profile": {"total_ms": 10, "nodes": nodes}})
    assert profile is not None and profile.total_ms == 10.0
    assert set(profile.timings) == {(0,), (0, 0)}
    slowest = profile.slowest
    assert slowest is not None and slowest.path == (0, 0)
    assert (slowest.loops, slowest.rows_actual, slowest.estimate_factor, slowest.heat) == (
        3,
        1200.0,
        120.0,
        (4, "hottest"),
    )


@pytest.mark.parametrize(
    ("share", "level"),
    [(0.0, 0), (0.0099, 0), (0.01, 1), (0.049, 1), (0.05, 2), (0.15, 3), (0.399, 3), (0.4, 4), (1.0, 4)],
)
def test_heat_levels(share, level):
    profile = read_profile({"profile": {"total_ms": 1, "nodes": [entry([0], 1.0, share, share)]}})
    assert profile.timings[(0,)].heat[0] == level


def test_the_legend_names_every_level_hottest_first():
    assert heat_legend() == [
        (4, "hottest", "40% or more of the time"),
        (3, "hot", "15%\u201340%"),
        (2, "warm", "5%\u201315%"),
        (1, "mild", "1%\u20135%"),
        (0, "cool", "under 1%"),
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [(1234.5, "1,234 ms"), (160.0, "160 ms"), (12.34, "12.3 ms"), (1.254, "1.25 ms"), (0.412, "0.41 ms"),
     (0.0224, "0.022 ms"), (0.0004, "<0.001 ms"), (0.0, "0 ms")],
)  # fmt: skip
def test_format_ms(value, text):
    assert format_ms(value) == text


def test_format_share_and_count():
    assert [format_share(s) for s in (0.592, 0.0004, 0.0, 1.0)] == ["59.2%", "<0.1%", "0%", "100.0%"]
    assert [format_count(v) for v in (3000.0, 1234567.0, 0.5, 37.75)] == ["3,000", "1,234,567", "0.5", "37.75"]


@pytest.mark.parametrize(
    ("factor", "badge"),
    [
        (None, None),
        (0.0, None),
        (1.0, None),
        (1.9, None),
        (0.6, None),
        (2.0, ("\u2191 2x", "actual rows 2 times the estimate", "info")),
        (12.4, ("\u2191 12x", "actual rows 12 times the estimate", "warning")),
        (1500.0, ("\u2191 1,500x", "actual rows 1,500 times the estimate", "bad")),
        (0.4, ("\u2193 2.5x", "actual rows 2.5 times fewer than the estimate", "info")),
        (0.02, ("\u2193 50x", "actual rows 50 times fewer than the estimate", "warning")),
    ],
)
def test_factor_badge(factor, badge):
    assert factor_badge(factor) == badge


def test_folded_groups_open_on_the_way_to_hot_steps_the_slowest_and_targets():
    nodes = [entry([0], 10.0, 6.0, 0.6), entry([0, 1, 2], 1.0, 1.0, 0.1), entry([0, 3, 0, 0], 0.01, 0.01, 0.001)]
    profile = read_profile({"profile": {"total_ms": 10, "nodes": nodes}})
    assert open_paths(profile, []) == {(), (0,), (0, 1)}
    assert open_paths(profile, [(0, 3, 0, 0)]) >= {(0, 3), (0, 3, 0)}


def tree(*children: TreeNode) -> list[TreeNode]:
    """Fills in the paths of hand-built nodes."""

    def number(nodes: list[TreeNode], path: tuple[int, ...]) -> None:
        for n, node in enumerate(nodes):
            node.path = (*path, n)
            number(node.children, node.path)

    roots = list(children)
    number(roots, ())
    return roots


def node(label: str, *children: TreeNode) -> TreeNode:
    return TreeNode(label=label, children=list(children))


def test_layout_gives_each_step_the_width_of_its_time():
    roots = tree(node("root", node("a"), node("b", node("b1"))))
    profile = read_profile(
        {"profile": {"total_ms": 10, "nodes": [entry([0], 10, 2, 0.2), entry([0, 0], 5, 5, 0.5), entry([0, 1], 3, 1, 0.1), entry([0, 1, 0], 2, 2, 0.2)]}}
    )  # fmt: skip
    boxes = {b.node.label: b for b in layout(roots, profile)}
    assert (boxes["root"].x, boxes["root"].width, boxes["root"].depth) == (0.0, WIDTH, 0)
    assert (boxes["a"].x, boxes["a"].width, boxes["a"].depth) == (0.0, 500.0, 1)
    assert (boxes["b"].x, boxes["b"].width) == (500.0, 300.0)
    assert (boxes["b1"].x, boxes["b1"].width, boxes["b1"].depth) == (500.0, 200.0, 2)


def test_children_shrink_into_their_parent_and_untimed_steps_take_their_childrens_time():
    # MySQL's per-loop averages can make children add up to more than their parent.
    roots = tree(node("root", node("a"), node("select #2", node("c"))))
    nodes = [entry([0], 4, 0, 0), entry([0, 0], 3, 3, 0.5), entry([0, 1, 0], 3, 3, 0.5)]
    boxes = {b.node.label: b for b in layout(roots, read_profile({"profile": {"total_ms": 4, "nodes": nodes}}))}
    assert boxes["a"].width == pytest.approx(500.0) and boxes["select #2"].width == pytest.approx(500.0)
    assert boxes["select #2"].timing is None and boxes["c"].width == pytest.approx(500.0)
    assert boxes["c"].x == pytest.approx(500.0)


def test_boxes_too_narrow_to_see_are_left_out_with_their_steps():
    roots = tree(node("root", node("wide"), node("tiny", node("under tiny"))))
    nodes = [
        entry([0], 10_000, 0, 0),
        entry([0, 0], 9_999, 9_999, 1),
        entry([0, 1], 1, 0, 0),
        entry([0, 1, 0], 1, 1, 0),
    ]
    boxes = layout(roots, read_profile({"profile": {"total_ms": 10_000, "nodes": nodes}}))
    assert [b.node.label for b in boxes] == ["root", "wide"]
    assert WIDTH / 10_000 < MIN_WIDTH


def svg_elements(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def test_icicle_of_a_real_plan_is_well_formed_labelled_and_linked():
    analysis = analyze(DEPENDENT).to_dict()
    profile = read_profile(analysis)
    svg = svg_elements(icicle_svg(build_tree(analysis), profile, "a-", "a-icicle-title"))
    assert svg.get("aria-labelledby") == "a-icicle-title" and svg.get("role") == "group"
    links = svg.findall(f"{SVG}a")
    assert [a.get("href") for a in links] == [
        "#a-node-0",
        "#a-node-0-0",
        "#a-node-0-1",
        "#a-node-0-1-0",
        "#a-node-0-1-0-0",
    ]
    titles = [a.find(f"{SVG}title").text for a in links]
    assert titles[0].startswith(
        "Filter: ((s.city = 'Rome') and ((select #2) > 50)): 0.35 ms self (59.2% of the time, hottest)"
    )
    assert titles[2] == "Select #2 (subquery in condition; dependent): no timings of its own"
    classes = [a.get("class") for a in links]
    assert classes == ["heat-4 slowest", "heat-2", "untimed", "heat-2", "heat-3"]
    texts = {a.get("href"): a.find(f"{SVG}text") for a in links}
    clipped = texts["#a-node-0-0"].text  # "Table scan on s" in a box 57 units wide
    assert clipped.endswith("\u2026") and "Table scan on s".startswith(clipped[:-1])


def test_profile_document_is_an_svg_file_with_the_graph_and_the_tree():
    analysis = analyze(DEPENDENT).to_dict()
    document = profile_document(analysis, title="before <index>")
    assert document.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')
    root = ET.fromstring(document)
    heading = root.find(f"{SVG}text")
    assert heading.text == "before <index>: 0.6 ms measured (EXPLAIN ANALYZE)"
    ids = {g.get("id") for g in root.iter(f"{SVG}g") if g.get("id")}
    assert ids == {
        "node-0",
        "node-0-0",
        "node-0-1",
        "node-0-1-0",
        "node-0-2",
        "node-0-1-0-0",
        "node-0-2-0",
        "node-0-2-0-0",
    }
    assert {a.get("href")[1:] for a in root.iter(f"{SVG}a")} <= ids
    row_texts = ["".join(g.itertext()) for g in root.iter(f"{SVG}g") if g.get("id") == "node-0-2-0-0"]
    assert "never executed" in row_texts[0] and "Table scan on x" in row_texts[0]
    assert profile_document({"tree": analysis["tree"], "profile": None}) is None


def test_labels_with_markup_and_control_characters_stay_text_in_the_svg():
    hostile = "Filter: (t.name = '<script>alert(1)</script>\x07\"&')"
    paste = f"-> {hostile}  (cost=1.25 rows=10) (actual time=0.1..0.2 rows=1 loops=1)\n"
    analysis = analyze(paste).to_dict()
    root = ET.fromstring(profile_document(analysis))
    assert not list(root.iter(f"{SVG}script"))
    texts = "".join(root.itertext())
    assert '<script>alert(1)</script>\ufffd"&' in texts


def test_the_profile_matches_mysqls_per_loop_figures():
    profile = analyze(DEPENDENT).to_dict()["profile"]
    by_path = {tuple(e["path"]): e for e in profile["nodes"]}
    assert profile["total_ms"] == pytest.approx(0.598)
    assert by_path[(0, 1, 0)]["total_ms"] == pytest.approx(0.21)  # 0.105 per loop, 2 loops
    assert by_path[(0,)]["self_ms"] == pytest.approx(0.598 - 0.034 - 0.21)  # Select #2 passes its child up
    assert [e["path"] for e in profile["nodes"]] == [[0], [0, 1, 0, 0], [0, 0], [0, 1, 0]]
