"""Plain-text renderings of an analysis: aligned table, vertical form, time profile, findings report.

Used by the CLI and by the API's `Accept: text/plain` answers. Widths follow the
terminal display width, so CJK text lines up as the mysql client prints it.
"""

from __future__ import annotations

import unicodedata

from analyzer.insight.profile import format_factor, format_ms, short_label
from analyzer.model import Advice, Analysis, Plan, Profile

# Profile columns: the step, then figures right-aligned.
PROFILE_COLUMNS = ("step", "loops", "total ms", "self ms", "share", "rows actual/est.")
PROFILE_LABEL_WIDTH = 60


def display_width(text: str) -> int:
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * (width - display_width(text))
    return gap + text if right else text + gap


def _cell(value: str | None) -> str:
    return "NULL" if value is None else value


def _numeric(column: str, values: list[str | None]) -> bool:
    present = [v for v in values if v not in (None, "")]
    return bool(present) and all(v.replace(".", "", 1).isdigit() for v in present) and column != "key_len"


def format_table(plan: Plan) -> str:
    """The rows as the mysql client's ASCII box, numbers right-aligned."""
    columns = plan.columns
    if not columns:
        return ""
    matrix = [[_cell(row.get(c)) for c in columns] for row in plan.rows]
    widths = [max([display_width(c)] + [display_width(r[i]) for r in matrix]) for i, c in enumerate(columns)]
    right = [_numeric(c, [row.get(c) for row in plan.rows]) for c in columns]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    header = "| " + " | ".join(_pad(c, w, False) for c, w in zip(columns, widths, strict=True)) + " |"
    lines = [border, header, border]
    for r in matrix:
        cells = (_pad(v, w, ra) for v, w, ra in zip(r, widths, right, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append(border)
    return "\n".join(lines)


def format_vertical(plan: Plan) -> str:
    """The rows as `\\G` output: one block per row, names right-aligned."""
    if not plan.columns:
        return ""
    width = max(display_width(c) for c in plan.columns)
    blocks = []
    for number, row in enumerate(plan.rows, start=1):
        stars = "*" * 27
        lines = [f"{stars} {number}. row {stars}"]
        lines += [f"{_pad(c, width, True)}: {_cell(row.get(c))}" for c in plan.columns]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def format_profile(profile: Profile) -> str:
    """Where the time went: one line per timed step, the slowest (most self time) first, with its
    loops, its time with (total) and without (self) the steps under it, its share of the whole and
    how far the estimate of its rows was off."""
    matrix = [
        [
            short_label(node.label, PROFILE_LABEL_WIDTH),
            f"{node.loops:,}",
            format_ms(node.total_ms),
            format_ms(node.self_ms),
            f"{node.share:.1%}",
            format_factor(node.estimate_factor),
        ]
        for node in profile.nodes
    ]
    widths = [max(display_width(cell) for cell in column) for column in zip(PROFILE_COLUMNS, *matrix, strict=False)]
    lines = [f"profile: {format_ms(profile.total_ms)} ms in all, the slowest step first"]
    for cells in [list(PROFILE_COLUMNS), *matrix]:
        padded = [_pad(cell, width, index > 0) for index, (cell, width) in enumerate(zip(cells, widths, strict=True))]
        lines.append(("  " + "  ".join(padded)).rstrip())
    return "\n".join(lines)


def format_report(analysis: Analysis) -> str:
    """Table, then the time profile, query, notices and findings: what a terminal user wants to read."""
    plan = analysis.plan
    doubts = [word for word, flag in (("incomplete paste", plan.truncated), ("uncertain reading", plan.uncertain)) if flag]
    said = [plan.variant] if plan.variant else []
    parts = [f"format: {plan.format}" + (f" ({', '.join(said + doubts)})" if said or doubts else "")]
    table = format_table(plan)
    if table:
        parts.append(table)
    if analysis.profile is not None:
        parts.append(format_profile(analysis.profile))
    if plan.query:
        parts.append(f"query: {plan.query}")
    if plan.warnings:
        parts.append("server notes (SHOW WARNINGS):\n" + "\n".join(f"  - {w}" for w in plan.warnings))
    if plan.notices:
        parts.append("notices:\n" + "\n".join(f"  - {n}" for n in plan.notices))
    if analysis.findings:
        lines = []
        for f in analysis.findings:
            where = f" (rows {', '.join(str(r + 1) for r in f.rows)})" if f.rows else ""
            lines.append(f"  [{f.severity}] {f.message}{where}")
        parts.append("findings:\n" + "\n".join(lines))
    else:
        parts.append("findings: none")
    if analysis.advice:
        parts.append("index advice:\n" + "\n".join(_advice_lines(item) for item in analysis.advice))
    return "\n\n".join(parts) + "\n"


def _advice_lines(item: Advice) -> str:
    where = f" (rows {', '.join(str(r + 1) for r in item.rows)})" if item.rows else ""
    return f"  {item.statement};{where}\n    {item.reason}"
