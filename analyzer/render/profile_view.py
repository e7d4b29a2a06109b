"""The time profile of an EXPLAIN ANALYZE as the page shows it: the plan tree with each step's
self time, share and heat, its rows, loops, cost and condition, and the marks of the slowest step.

No Django. `read_profile(analysis)` reads the analysis's `profile` (None for a plan without timings,
or for an analysis stored before profiles existed); `profile_tree_html()` writes the plan tree as
escaped HTML, in Python because a plan of 1,000 steps would cost the template engine most of the
page's time. Nodes are named by their `path` (child indexes from the `query` root), and each gets
the anchor `<prefix>node-<path>` (`node-0-2-1`), the target of the graph's and the findings' links.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from analyzer.insight import glossary
from analyzer.lazy import lazy_regex
from analyzer.render.plan_tree import TreeNode
from analyzer.structs import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Heat by share of the plan's total time: (lowest share, level, word); the word is the text
# equivalent of the colour, next to the share itself.
HEAT_LEVELS = ((0.40, 4, "hottest"), (0.15, 3, "hot"), (0.05, 2, "warm"), (0.01, 1, "mild"), (0.0, 0, "cool"))
FACTOR_SHOWN = 2.0  # a badge when actual rows are at least this many times over or under the estimate
COLLAPSE_DEPTH = 6  # steps under a node this deep are folded into a <details>
WIDE = 20  # and so are the steps under a node with more children than this
HOT_SHARE = 0.05  # a folded group opens when it holds a step this hot, the slowest, or a finding's step
_XML_INVALID = lazy_regex("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

Path = tuple[int, ...]


@dataclass(frozen=True)
class Timing:
    """One step's measured times (milliseconds over all its loops) and rows."""

    path: Path
    label: str
    total_ms: float
    self_ms: float
    share: float  # of the plan's total time, 0..1
    loops: int | None = None
    rows_estimated: float | None = None
    rows_actual: float | None = None
    estimate_factor: float | None = None

    @property
    def heat(self) -> tuple[int, str]:
        """(level 0..4, word) of its share."""
        return next((level, word) for low, level, word in HEAT_LEVELS if self.share >= low)


@dataclass
class Profile:
    """The analysis's `profile`: the plan's total time, each timed step by path, and the step that
    spent the most time itself (None when none spent any)."""

    total_ms: float
    timings: dict[Path, Timing]
    slowest: Timing | None


def clean_text(text: str) -> str:
    """`text` without the characters XML forbids (a label goes into SVG documents too)."""
    return _XML_INVALID.sub("\ufffd", text)


def esc(text: str) -> str:
    """Escaped for HTML and XML text and attributes."""
    return escape(clean_text(text), quote=True)


def node_id(prefix: str, path: Path) -> str:
    """The anchor of a tree node: `node-0-2-1`."""
    return f"{prefix}node-" + "-".join(map(str, path))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _timing(item: Any) -> Timing | None:
    """A stored profile entry, or None when it is not one."""
    if not isinstance(item, dict):
        return None
    path, total, own, share = item.get("path"), _number(item.get("total_ms")), item.get("self_ms"), item.get("share")
    if not isinstance(path, list) or not all(type(n) is int and n >= 0 for n in path) or total is None:
        return None
    loops = item.get("loops")
    return Timing(
        path=tuple(path),
        label=str(item.get("label") or ""),
        total_ms=total,
        self_ms=_number(own) or 0.0,
        share=min(1.0, max(0.0, _number(share) or 0.0)),
        loops=loops if type(loops) is int else None,
        rows_estimated=_number(item.get("rows_estimated")),
        rows_actual=_number(item.get("rows_actual")),
        estimate_factor=_number(item.get("estimate_factor")),
    )


def read_profile(analysis: dict[str, Any]) -> Profile | None:
    """The analysis's profile, or None without one (no timings, or stored before profiles)."""
    stored = analysis.get("profile")
    total = _number(stored.get("total_ms")) if isinstance(stored, dict) else None
    if not isinstance(stored, dict) or total is None or not isinstance(stored.get("nodes"), list):
        return None
    timings: dict[Path, Timing] = {}
    for item in stored["nodes"]:
        timing = _timing(item)
        if timing is not None:
            timings.setdefault(timing.path, timing)
    slowest = max(timings.values(), key=lambda t: t.self_ms, default=None)
    return Profile(total, timings, slowest if slowest is not None and slowest.self_ms > 0 else None)


def format_ms(value: float) -> str:
    """Milliseconds for people: "1,234 ms", "12.3 ms", "1.25 ms", "0.041 ms"."""
    if value >= 100:
        return f"{value:,.0f} ms"
    if value >= 10:
        return f"{value:.1f} ms"
    if value >= 1:
        return f"{value:.2f} ms"
    if value <= 0:
        return "0 ms"
    return "<0.001 ms" if value < 0.001 else f"{value:.2g} ms"


def format_share(share: float) -> str:
    """A share of the total time: 41.2%, <0.1%, 0%."""
    if share <= 0:
        return "0%"
    return "<0.1%" if share < 0.001 else f"{share * 100:.1f}%"


def format_count(value: float) -> str:
    """Rows and costs with thousands separators: 5603.0 -> "5,603", 0.5 -> "0.5"."""
    if value.is_integer() and abs(value) < 1e18:
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _grouped(text: str | None) -> str | None:
    """A figure printed as text, with thousands separators when it is a plain number."""
    try:
        return format_count(float(text)) if text is not None else None
    except ValueError:
        return text


def factor_badge(factor: float | None) -> tuple[str, str, str] | None:
    """(badge text, its meaning, severity) when actual rows are FACTOR_SHOWN times or more over
    or under the estimate: ("↑ 12x", "actual rows 12 times the estimate", "warning")."""
    if factor is None or factor <= 0:
        return None
    size = factor if factor >= 1 else 1 / factor
    if size < FACTOR_SHOWN:
        return None
    shown = f"{size:,.0f}" if size >= 10 else f"{size:.1f}".rstrip("0").rstrip(".")
    severity = "bad" if size >= 100 else "warning" if size >= 10 else "info"
    if factor >= 1:
        return f"\u2191 {shown}x", f"actual rows {shown} times the estimate", severity
    return f"\u2193 {shown}x", f"actual rows {shown} times fewer than the estimate", severity


def heat_legend() -> list[tuple[int, str, str]]:
    """(level, word, shares) of each heat level, hottest first: (4, "hottest", "40% or more of the time")."""
    legend = []
    for n, (low, level, word) in enumerate(HEAT_LEVELS):
        high = HEAT_LEVELS[n - 1][0] if n else None
        if high is None:
            shares = f"{low:.0%} or more of the time"
        elif low > 0:
            shares = f"{low:.0%}\u2013{high:.0%}"
        else:
            shares = f"under {high:.0%}"
        legend.append((level, word, shares))
    return legend


def open_paths(profile: Profile, targets: Iterable[Path]) -> set[Path]:
    """The nodes whose folded steps stay open: those above a hot step, the slowest or a target."""
    keep = {t.path for t in profile.timings.values() if t.share >= HOT_SHARE}
    keep.update(targets)
    if profile.slowest is not None:
        keep.add(profile.slowest.path)
    return {path[:n] for path in keep for n in range(len(path))}


@dataclass
class TreeWriter:
    """Writes the plan tree with the profile's figures as `<li>` items (`tree_html(roots)`): steps
    under a node deeper than COLLAPSE_DEPTH, or under one with more than WIDE children, are folded
    into a `<details>` that is open when `keep_open` holds the node."""

    profile: Profile
    prefix: str
    keep_open: set[Path]

    def tree_html(self, nodes: list[TreeNode], depth: int = 0) -> tuple[str, int, float]:
        """(the items of `nodes` and of every step under them, how many steps, their self time)."""
        parts: list[str] = []
        count, spent = 0, 0.0
        for node in nodes:
            below, below_count, below_ms = self.tree_html(node.children, depth + 1)
            timing = self.profile.timings.get(node.path)
            parts.append(self._item(node, timing, self._children(node, below, below_count, below_ms, depth)))
            count += 1 + below_count
            spent += (timing.self_ms if timing else 0.0) + below_ms
        return "".join(parts), count, spent

    def _children(self, node: TreeNode, items: str, count: int, spent: float, depth: int) -> str:
        if not items:
            return ""
        if depth + 1 < COLLAPSE_DEPTH and len(node.children) <= WIDE:
            return f"<ul>{items}</ul>"
        share = spent / self.profile.total_ms if self.profile.total_ms > 0 else 0.0
        summary = (
            f"{count:,} step{'' if count == 1 else 's'} below: {format_ms(spent)} self time, {format_share(share)}"
        )
        opened = " open" if node.path in self.keep_open else ""
        return f'<details class="subtree"{opened}><summary>{esc(summary)}</summary><ul>{items}</ul></details>'

    def _item(self, node: TreeNode, timing: Timing | None, children: str) -> str:
        classes = f"node node-{node.kind}"
        if timing is not None:
            classes += f" heat-{timing.heat[0]}"
        if self.profile.slowest is not None and timing is self.profile.slowest:
            classes += " slowest"
        return f'<li class="{classes}" id="{node_id(self.prefix, node.path)}">{self._line(node, timing)}{children}</li>'

    def _line(self, node: TreeNode, timing: Timing | None) -> str:
        parts = [self._time(node, timing), self._label(node)]
        if self.profile.slowest is not None and timing is self.profile.slowest:
            parts.append('<span class="badge slowest-mark">slowest step</span>')
        if node.access:
            severity = glossary.match("type", node.access)
            sev = f" sev-{severity.severity}" if severity is not None else ""
            parts.append(f'<span class="node-access{sev}">{esc(node.access)}</span>')
        badge = factor_badge(timing.estimate_factor if timing else None)
        if badge is not None:
            text, meaning, severity_name = badge
            parts.append(
                f'<span class="badge factor sev-{severity_name}" title="{meaning}">'
                f'<span aria-hidden="true">{text}</span><span class="visually-hidden">{meaning}</span></span>'
            )
        parts.extend(_metrics(node, timing))
        if node.condition and node.condition not in node.label:
            parts.append(f'<code class="node-cond">{esc(node.condition)}</code>')
        if node.detail:
            parts.append(f"<small>{esc(node.detail)}</small>")
        return f'<span class="node-line">{" ".join(part for part in parts if part)}</span>'

    def _time(self, node: TreeNode, timing: Timing | None) -> str:
        """The self-time bar, share and self time; or "never executed"; or nothing."""
        if timing is None:
            return '<span class="badge never">never executed</span>' if node.never_executed else ""
        level, word = timing.heat
        return (
            f'<span class="node-time"><svg class="share-bar" viewBox="0 0 100 1" preserveAspectRatio="none" '
            f'aria-hidden="true"><rect width="{timing.share * 100:.1f}" height="1"/></svg> '
            f'<span class="share">{esc(format_share(timing.share))}<span class="visually-hidden"> of the time, '
            f"{word}</span></span> "
            f'<span class="self-ms">{esc(format_ms(timing.self_ms))} self</span></span>'
        )

    def _label(self, node: TreeNode) -> str:
        label = esc(node.label)
        if node.row is not None:
            return f'<a class="node-label" href="#{esc(self.prefix)}row-{node.row}">{label}</a>'
        return f'<span class="node-label">{label}</span>'


def _metrics(node: TreeNode, timing: Timing | None) -> list[str]:
    """Rows (estimated, actual), loops, the time with the steps under it, and cost."""
    estimated = format_count(timing.rows_estimated) if timing and timing.rows_estimated is not None else None
    actual = format_count(timing.rows_actual) if timing and timing.rows_actual is not None else None
    loops = timing.loops if timing and timing.loops is not None else node.loops
    figures = [
        ("<small>", _counted("est.", estimated or _grouped(node.rows), "row")),
        ('<small class="actual">', _counted("actual", actual or _grouped(node.actual_rows), "row")),
        ("<small>", "" if node.never_executed else _counted("", _grouped(_text(loops)), "loop")),
        ('<small class="actual">', f"total {format_ms(timing.total_ms)}" if timing and node.children else ""),
        ("<small>", f"cost {format_count(node.cost)}" if node.cost is not None else ""),
    ]
    return [f"{tag}{esc(text)}</small>" for tag, text in figures if text]


def _text(value: int | str | None) -> str | None:
    return None if value is None else str(value)


def _counted(before: str, figure: str | None, noun: str) -> str:
    """A figure and its noun: est. 3,000 rows, 1 loop; empty without a figure."""
    if not figure:
        return ""
    return f"{before} {figure} {noun}{'' if figure == '1' else 's'}".lstrip()
