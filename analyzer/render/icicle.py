"""The icicle graph of a timed plan, drawn as SVG on the server, and the SVG document to download.

No Django. The graph hangs the plan from its top step: each step is a box as wide as its time
(with the steps under it; one without timings of its own is as wide as the steps under it), its
children side by side below it, shrunk to fit should their times add up to more than its own.
Boxes narrower than MIN_WIDTH are left out with everything under them. A box holds its label when
there is room (clipped with "…"), the full label and times in its `<title>`, and links to its tree
node. Colours are presentation attributes (the light theme) that `site.css` overrides per theme
through the `heat-N` classes, so the same markup works in the page under the strict CSP and as a
file on its own; every text is escaped.

`icicle_svg()` is the graph in the page; `profile_document()` the file: the graph and the plan
tree (bars, shares, self times, labels), linked together, on a white background.
"""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.render.plan_tree import TreeNode, build_tree
from analyzer.render.profile_view import (
    Path,
    Profile,
    Timing,
    esc,
    format_ms,
    format_share,
    node_id,
    read_profile,
)
from analyzer.structs import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH = 1000.0
ROW_HEIGHT = 20
CHAR_WIDTH = 6.6  # of an 11-unit monospace character
MIN_WIDTH = 0.5  # narrower boxes are left out, with the steps under them
MIN_LABEL_CHARS = 3
# Light theme: box fill and outline per heat level; the page's stylesheet sets both per theme.
FILLS = ("#e4e8ee", "#fbe3a6", "#fcc79a", "#f8a39a", "#ef7f86")
STROKES = ("#7b8794", "#a86b00", "#c2410c", "#c81e1e", "#8b0a2a")
UNTIMED_FILL = "#f6f7f9"
TEXT_FILL = "#1a1f26"
FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
# The downloaded document: the tree's rows under the graph.
TREE_ROW = 18
TREE_INDENT = 14
TREE_LABEL_X = 196
TREE_LABEL_CHARS = 160


@dataclass(frozen=True)
class Box:
    """One step drawn in the graph."""

    node: TreeNode
    timing: Timing | None
    x: float
    width: float
    depth: int


def _times(nodes: list[TreeNode], profile: Profile, out: dict[Path, float]) -> float:
    """Fills `out` with each node's width in milliseconds; returns the sum over `nodes`."""
    total = 0.0
    for node in nodes:
        below = _times(node.children, profile, out)
        timing = profile.timings.get(node.path)
        out[node.path] = timing.total_ms if timing is not None else below
        total += out[node.path]
    return total


def layout(roots: list[TreeNode], profile: Profile) -> list[Box]:
    """The boxes of the graph, parents before their children."""
    times: dict[Path, float] = {}
    spent = _times(roots, profile, times)
    scale = WIDTH / max(profile.total_ms, spent) if max(profile.total_ms, spent) > 0 else 0.0
    boxes: list[Box] = []
    _place(roots, 0.0, WIDTH, 0, scale, times, profile, boxes)
    return boxes


def _place(
    nodes: list[TreeNode],
    x: float,
    room: float,
    depth: int,
    scale: float,
    times: dict[Path, float],
    profile: Profile,
    boxes: list[Box],
) -> None:
    wanted = [times[node.path] * scale for node in nodes]
    fit = min(1.0, room / sum(wanted)) if sum(wanted) > room else 1.0
    for node, width in zip(nodes, wanted, strict=True):
        width *= fit
        if width >= MIN_WIDTH:
            boxes.append(Box(node, profile.timings.get(node.path), x, width, depth))
            _place(node.children, x, width, depth + 1, scale, times, profile, boxes)
        x += width


def _clipped(label: str, width: float) -> str:
    """As much of `label` as fits in `width` (ending in "…" when cut), or "" when too little does."""
    room = int((width - 6) / CHAR_WIDTH)
    if room >= len(label):
        return label
    return label[: room - 1] + "\u2026" if room >= MIN_LABEL_CHARS else ""


def _describe(node: TreeNode, timing: Timing | None) -> str:
    """The full label and its times, for a `<title>`."""
    if timing is None:
        return f"{node.label}: no timings of its own"
    return (
        f"{node.label}: {format_ms(timing.self_ms)} self ({format_share(timing.share)} of the time, "
        f"{timing.heat[1]}), {format_ms(timing.total_ms)} with the steps under it"
    )


def _box(box: Box, prefix: str, slowest: Timing | None) -> str:
    level = box.timing.heat[0] if box.timing is not None else None
    classes = f"heat-{level}" if level is not None else "untimed"
    fill, stroke = (FILLS[level], STROKES[level]) if level is not None else (UNTIMED_FILL, STROKES[0])
    if box.timing is not None and box.timing is slowest:
        classes += " slowest"
    y = box.depth * ROW_HEIGHT
    text = _clipped(box.node.label, box.width)
    label = f'<text x="{box.x + 3:.2f}" y="{y + 14}" fill="{TEXT_FILL}">{esc(text)}</text>' if text else ""
    return (
        f'<a href="#{node_id(prefix, box.node.path)}" class="{classes}"><title>{esc(_describe(box.node, box.timing))}</title>'
        f'<rect x="{box.x:.2f}" y="{y}" width="{box.width:.2f}" height="{ROW_HEIGHT - 2}" rx="2" '
        f'fill="{fill}" stroke="{stroke}"/>{label}</a>'
    )


def _graph(roots: list[TreeNode], profile: Profile, prefix: str) -> tuple[str, int]:
    """The boxes as SVG elements, and the graph's height."""
    boxes = layout(roots, profile)
    height = (max((b.depth for b in boxes), default=0) + 1) * ROW_HEIGHT
    return "".join(_box(box, prefix, profile.slowest) for box in boxes), height


def icicle_svg(roots: list[TreeNode], profile: Profile, prefix: str, label_id: str) -> str:
    """The graph for the page, labelled by the element `label_id`; its boxes link to `#<prefix>node-…`.
    Empty when no step took long enough to be drawn."""
    boxes, height = _graph(roots, profile, prefix)
    if not boxes:
        return ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="icicle" viewBox="0 0 {WIDTH:.0f} {height}" '
        f'width="{WIDTH:.0f}" height="{height}" role="group" aria-labelledby="{esc(label_id)}" '
        f'font-family="{FONT}" font-size="11">{boxes}</svg>'
    )


def _walk(nodes: list[TreeNode], depth: int = 0) -> Iterator[tuple[TreeNode, int]]:
    for node in nodes:
        yield node, depth
        yield from _walk(node.children, depth + 1)


def _tree_row(node: TreeNode, depth: int, timing: Timing | None, y: int) -> str:
    """One step of the tree in the document: bar, share, self time, then the indented label."""
    label = node.label if len(node.label) <= TREE_LABEL_CHARS else node.label[: TREE_LABEL_CHARS - 1] + "\u2026"
    if timing is not None:
        level = timing.heat[0]
        figures = (
            f'<rect x="8" y="{y + 4}" width="60" height="10" fill="{FILLS[0]}"/>'
            f'<rect x="8" y="{y + 4}" width="{timing.share * 60:.2f}" height="10" fill="{STROKES[level]}"/>'
            f'<text x="74" y="{y + 13}">{esc(format_share(timing.share))}</text>'
            f'<text x="{TREE_LABEL_X - 12}" y="{y + 13}" text-anchor="end">{esc(format_ms(timing.self_ms))}</text>'
        )
    else:
        figures = f'<text x="74" y="{y + 13}">never executed</text>' if node.never_executed else ""
    return (
        f'<g id="{node_id("", node.path)}"><title>{esc(_describe(node, timing))}</title>{figures}'
        f'<text x="{TREE_LABEL_X + depth * TREE_INDENT}" y="{y + 13}">{esc(label)}</text></g>'
    )


def profile_document(analysis: dict[str, Any], title: str = "") -> str | None:
    """The SVG file of an analysis's profile (None without one): a heading, the graph, the tree."""
    profile = read_profile(analysis)
    if profile is None:
        return None
    roots = build_tree(analysis)
    boxes, graph_height = _graph(roots, profile, "")
    top = graph_height + 56
    steps = list(_walk(roots))
    rows = [
        _tree_row(node, depth, profile.timings.get(node.path), top + n * TREE_ROW)
        for n, (node, depth) in enumerate(steps)
    ]
    widest = max(
        (TREE_LABEL_X + d * TREE_INDENT + min(len(n.label), TREE_LABEL_CHARS) * CHAR_WIDTH for n, d in steps),
        default=0.0,
    )
    width = int(max(WIDTH + 16, widest + 16))
    height = top + len(rows) * TREE_ROW + 8
    heading = f"{title}: " if title else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONT}" font-size="11" fill="{TEXT_FILL}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
        f'<text x="8" y="20" font-size="14" font-weight="bold">{esc(heading + format_ms(profile.total_ms))} measured (EXPLAIN ANALYZE)</text>'
        f'<g transform="translate(8 32)">{boxes}</g>'
        f'<text x="8" y="{top - 6}" font-weight="bold">Plan tree: each step\'s share of the time and its own time</text>'
        f"{''.join(rows)}</svg>\n"
    )
