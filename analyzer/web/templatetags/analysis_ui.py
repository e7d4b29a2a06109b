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
# The plan table's columns up to this position (the row number's is 1) are right-aligned by a
# class of the table when numeric (site.css has a rule for each); those after it by their cells'.
NUMBERED_COLUMNS = 16
# The severities of a row's worst term that mark the row (site.css draws a border beside it).
MARKED_ROWS = ("bad", "warning")


@register.simple_tag
def analysis_view(
    analysis: dict[str, Any], raw_explain: str | None = None, prefix: str = "", part_urls: object = None
) -> AnalysisView:
    """Everything `_analysis.html` shows; the highlighted HTML is built from escaped tokens. With
    `part_urls` (a saved explain's), the collapsed parts are left out: the page loads them from there."""
    view = build_view(analysis, raw_explain, prefix, parts=not part_urls)
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
def item(mapping: Any, key: str) -> Any:
    """`{{ urls|item:name }}`: the value under a key held in a variable."""
    return mapping.get(key, "") if isinstance(mapping, dict) else ""


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


def _cell(cell: Cell, position: int) -> str:
    """A cell of the plan table, the `position`th of its row, without its end tag (see `_row`); the
    first columns are right-aligned when numeric by a class of the table (`numeric_columns`), the
    others by a class of their own."""
    if cell.is_null and not cell.chips:
        return '<td class="null">NULL'
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
    return f'<td class="num">{inner}' if cell.numeric and position > NUMBERED_COLUMNS else f"<td>{inner}"


def _row(row: RowView, prefix: str) -> str:
    """A row of the plan table, headed by its number (styled as `.plan tbody th`), marked when it
    is affected by a truncated paste and when its worst term is bad or a warning. Its cells and
    itself leave out their end tags, which HTML makes optional (the next cell, row or `</tbody>`
    ends them): a sixth of the table's markup."""
    anchor = f"{_esc(prefix)}row-{row.index}"
    marked = row.severity in MARKED_ROWS
    classes = " ".join(c for c in ("affected" if row.affected else "", f"row-{row.severity}" if marked else "") if c)
    cut = (
        '<span class="cut" title="Affected by the truncated paste">✂<span class="visually-hidden"> affected by truncation</span></span>'
        if row.affected
        else ""
    )
    head = f'<th scope="row"><a href="#{anchor}">{row.number}</a>{cut}'
    attributes = f'id="{anchor}" class="{classes}"' if classes else f'id="{anchor}"'
    cells = "".join(_cell(c, position) for position, c in enumerate(row.cells, start=2))
    return f"<tr {attributes}>{head}{cells}"


@register.filter
def numeric_columns(view: AnalysisView) -> str:
    """Classes of the plan table saying which of its first columns are numeric (`num-2` for the
    first after the row number): site.css right-aligns their cells, which need no class each."""
    positions = enumerate((numeric for _, numeric in view.columns), start=2)
    return "".join(f" num-{p}" for p, numeric in positions if numeric and p <= NUMBERED_COLUMNS)


@register.simple_tag
def plan_rows(view: AnalysisView) -> SafeString:
    """The `<tr>` rows of the plan table, with its terms linked to their explanations."""
    return mark_safe("".join(_row(r, view.prefix) for r in view.rows))  # noqa: S308 - built from escaped parts


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
