"""Template helpers for the analysis partial.

`{% analysis_view %}` prepares the data; `{% plan_rows %}` writes the plan table's body and
`{% raw_lines %}` the marked raw paste in Python, because a 20-row plan has hundreds of cells and
the template engine would spend most of the page's time on them. Every value goes through
`html.escape`.
"""

from __future__ import annotations

import re
from html import escape as _esc
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from analyzer.insight import glossary
from analyzer.render.profile_view import format_count, format_ms
from analyzer.render.view import AnalysisView, Cell, RawPart, RowView, Segment, build_view

register = template.Library()

_BREAK_AFTER = re.compile(r"([,;])")


@register.simple_tag
def analysis_view(analysis: dict[str, Any], raw_explain: str | None = None, prefix: str = "") -> AnalysisView:
    """Everything `_analysis.html` shows; the highlighted HTML is built from escaped tokens."""
    view = build_view(analysis, raw_explain, prefix)
    view.query_html = mark_safe(view.query_html)  # noqa: S308 - every token escaped in analyzer.render.highlight
    view.raw_html = mark_safe(view.raw_html)  # noqa: S308 - same
    for note in view.warnings:
        note.sql_html = mark_safe(note.sql_html)  # noqa: S308 - same
    if view.profile is not None:  # built from escaped parts in analyzer.render.profile_view and icicle
        view.profile.tree_html = mark_safe(view.profile.tree_html)  # noqa: S308
        view.profile.graph_svg = mark_safe(view.profile.graph_svg)  # noqa: S308
    return view


@register.filter
def soft_breaks(value: str | None) -> SafeString:
    """Escape, then allow a line break after each comma and semicolon (long key lists, Extra)."""
    if value is None:
        return mark_safe("")
    parts = _BREAK_AFTER.split(str(value))
    # Split before escaping, so the semicolons of entities such as &amp; stay whole.
    return mark_safe("".join(escape(p) + ("<wbr>" if p in (",", ";") else "") for p in parts))  # noqa: S308


@register.filter
def counted(figure: object, noun: str) -> str:
    """A figure as printed and its noun: `1 row`, `3 rows`, `0.5 rows`."""
    text = str(figure)
    return f"{text} {noun}" if text == "1" else f"{text} {noun}s"


@register.filter
def times(count: int) -> range:
    """`{% for _ in n|times %}`: repeat n times (closing nested lists of the plan tree)."""
    try:
        return range(max(0, int(count)))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def access_severity(access_type: str | None) -> str:
    """The glossary severity of a join type such as `ALL` or `eq_ref`, for colouring tree nodes."""
    term = glossary.match("type", access_type) if access_type else None
    return term.severity if term is not None else ""


@register.filter
def web_url(url: str | None) -> str:
    """The URL when it is http(s) or site-relative, else "#": no javascript: links, whatever the data says."""
    text = str(url or "").strip()
    if text.startswith(("https://", "http://")) or (text.startswith("/") and not text.startswith("//")):
        return text
    return "#"


def _breaks(text: str) -> str:
    return "".join(_esc(p) + ("<wbr>" if p in (",", ";") else "") for p in _BREAK_AFTER.split(text))


def _segment(seg: Segment, breaks: bool) -> str:
    """A piece of cell text, with `<wbr>` after its commas and semicolons when it may wrap; a term
    is a link to its explanation in the page's list of terms, which also describes it (site.js
    shows a copy of the entry beside the term)."""
    text = _breaks(seg.text) if breaks else _esc(seg.text)
    if seg.note is None:
        return text
    target = _esc(seg.note.id)
    return f'<a class="term sev-{_esc(seg.note.severity)}" href="#{target}" aria-describedby="{target}">{text}</a>'


def _cell(cell: Cell) -> str:
    if cell.is_null:
        inner = '<span class="null">NULL</span>'
    else:
        inner = "".join(_segment(s, cell.wraps) for s in cell.segments)
    inner += "".join(" " + _segment(s, cell.wraps) for s in cell.chips)
    if cell.wraps:
        # The box caps the width; a wrapping table cell alone upsets Chrome's column widths. Extra's
        # box keeps its width when the table is short of room (site.css).
        kind = "wrap-box extra" if cell.column.lower() == "extra" else "wrap-box"
        inner = f'<div class="{kind}">{inner}</div>'
    return f'<td class="num">{inner}</td>' if cell.numeric else f"<td>{inner}</td>"


def _row(row: RowView, prefix: str) -> str:
    """A row of the plan table, headed by its number (styled as `.plan tbody th`)."""
    anchor = f"{_esc(prefix)}row-{row.index}"
    classes = " ".join(
        c for c in ("affected" if row.affected else "", f"row-{_esc(row.severity)}" if row.severity else "") if c
    )
    cut = (
        '<span class="cut" title="Affected by the truncated paste">✂<span class="visually-hidden"> affected by truncation</span></span>'
        if row.affected
        else ""
    )
    head = f'<th scope="row"><a href="#{anchor}">{row.number}</a>{cut}</th>'
    attributes = f'id="{anchor}" class="{classes}"' if classes else f'id="{anchor}"'
    return f"<tr {attributes}>{head}{''.join(_cell(c) for c in row.cells)}</tr>"


@register.simple_tag
def plan_rows(view: AnalysisView) -> SafeString:
    """The `<tr>` rows of the plan table, with its terms linked to their explanations."""
    return mark_safe("\n".join(_row(r, view.prefix) for r in view.rows))  # noqa: S308 - built from escaped parts


def _raw_part(part: RawPart) -> str:
    """Lines of the raw paste in one wrapper; with a role, a mark beside them that links to their
    reason in the legend, and shows it on hover, focus or tap like a term."""
    if not part.role:
        return f'<span class="lines">{part.html}</span>' if part.html else ""
    target = _esc(part.note_id)
    return (
        f'<span class="lines lines-{_esc(part.role)}">'
        f'<a class="term line-mark" href="#{target}" aria-describedby="{target}">{_esc(part.marker)}'
        f'<span class="visually-hidden">: {_esc(part.where)}</span></a>'
        f'<span class="lines-text">{part.html}</span></span>'
    )


@register.simple_tag
def raw_lines(view: AnalysisView) -> SafeString:
    """The raw paste, highlighted, its lines marked by what became of them."""
    return mark_safe("".join(_raw_part(part) for part in view.raw_parts))  # noqa: S308 - built from escaped parts


@register.filter
def row_count(value: float | int | None) -> str:
    """Estimated rows for people: 5603.0 -> "5,603", 0.5 -> "0.5", None -> "unknown"."""
    if value is None or isinstance(value, bool):
        return "unknown"
    return format_count(float(value))


@register.filter
def ratio_text(ratio: float | None) -> str:
    """How rows examined changed: "100× fewer", "2.5× more", "the same"."""
    if ratio is None or ratio < 0:
        return ""
    if ratio == 0:
        return "none examined now"
    if abs(ratio - 1) < 0.005:
        return "the same"
    factor = 1 / ratio if ratio < 1 else ratio
    shown = f"{factor:,.0f}" if factor >= 10 else f"{factor:.1f}".rstrip("0").rstrip(".")
    return f"{shown}× {'fewer' if ratio < 1 else 'more'}"


@register.filter
def milliseconds(value: float | int | None) -> str:
    """Measured time for people: 1234.5 -> "1,235 ms", 0.0412 -> "0.041 ms", None -> "unknown"."""
    if value is None or isinstance(value, bool):
        return "unknown"
    return format_ms(float(value))


@register.filter
def time_change(ratio: float | None) -> str:
    """How the measured time changed: "12× faster", "2.5× slower", "the same"."""
    if ratio is None or ratio < 0:
        return ""
    if ratio == 0:
        return "no time measured now"
    if abs(ratio - 1) < 0.005:
        return "the same"
    factor = 1 / ratio if ratio < 1 else ratio
    shown = f"{factor:,.0f}" if factor >= 10 else f"{factor:.1f}".rstrip("0").rstrip(".")
    return f"{shown}× {'faster' if ratio < 1 else 'slower'}"
