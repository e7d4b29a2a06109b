"""Read EXPLAIN output out of a repaired paste and return a `Plan`.

`read(cleaned)` takes the paste as `analyzer.repair.cleanup.clean()` left it and looks for boxed tables,
vertical (`\\G`) records, batch (tab-separated) output and markup (`mysql --html`/`--xml`, wiki
tables; `analyzer.readers.tables.markup`), and offers the text to the JSON and tree readers; when none
of them holds an EXPLAIN, tables without borders, tabs or header (`analyzer.readers.shapes.columns`). Of
the result sets found, the EXPLAIN one is returned (recognised by its columns; the first complete
one when there are several, with a notice naming the others' lines); SHOW WARNINGS messages go
to `warnings`, and repeated copies of the same EXPLAIN are read once. Every repair and every
problem becomes a sentence in `notices`.

Cells are strings exactly as printed, `NULL` is None. A cell the paste cut short keeps its
visible start followed by `…` (`analyzer.readers.resultset.CUT`), a missing cell is `…` alone; such
rows are listed in `affected_rows` and `truncated` is set. The pipeline then checks the reading
(`analyzer.check`) and `readers.plan_model` builds its plan model (the JSON reader builds its own).

EXPLAIN rows that programs printed (the slow query log's plans; PHP, Python, Node, Go and JSON dumps
of the rows) are read first, by `analyzer.readers.dumps`; the other readers get the lines left.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.model import LineSpan, ParseError, Plan
from analyzer.readers.dumps.printed import outside, read_printed
from analyzer.readers.line_roles import PlanPlace, line_spans, query_line
from analyzer.readers.resultset import (
    ALWAYS_PRINTED,
    CUT,
    PLAN_COLUMNS,
    STANDARD_ORDER,
    ResultSet,
    is_elision,
    is_explain_header,
    missing_tail,
)
from analyzer.readers.tables.table import BOX_DRAWING, has_box_drawing, parse_table, spread_elisions, starts_table
from analyzer.repair.cleanup import Cleaned, statement_query
from analyzer.repair.scan import line_indexes, matching_lines, pattern, starting_lines
from analyzer.repair.textwidth import expand_tabs
from analyzer.repair.unwrap.boxed import Wrapped
from analyzer.structs import dataclass, replace
from analyzer.wording import describe_lines, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

# The other readers (markup, vertical, batch, comma-separated, JSON, tree, and tables without
# borders) are imported where a cheap look at the paste says they may find something: a plain
# table paste loads none of them (`tests/analyzer/test_lazy_imports.py`).

_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"))
_DASHED_BORDER_RE = lazy_regex(r"^\s*\+[-+\u2010-\u2015\u2212]*[\u2010-\u2015\u2212][-+\u2010-\u2015\u2212]*\s*$")
# A Markdown rule without spaces around its `|` signs, three cells or more, outer pipes or not:
# `|---|:-:|---|`, `-|-|-`.
_COMPACT_RULE = r"[^\S\n]*+\|?:?-++:?(?:\|:?-++:?){2,}+\|?[^\S\n]*+$"
_DOUBLE_RULE_RE = lazy_regex(r"^\s*\+=[=+]*\+\s*$")
# What may be a line of a plan after an empty line: an arrow, or JSON punctuation and keys.
_TREE_TEXT_RE = lazy_regex(r"->|^\s*[-+|│║*\u2022]")
# A list item: a tree plan may be retyped as a Markdown list, its bullets standing for the arrows.
_LIST_ITEM_RE = lazy_regex(r"^[ \t]*[-*+\u2022][ \t]+\S", re.MULTILINE)
_JSON_TEXT_RE = lazy_regex(r'^\s*[{}\[\]"+|│║*]|[{}\[\],:]\s*$')
# The column name the client prints over a plan (batch output: `EXPLAIN` alone on its line).
_HEADER_RE = lazy_regex(r"^\s*(?:(?:SHOW\s+)?EXPLAIN|ANALYZE)?\s*$", re.IGNORECASE)
EXPECTED = "expected the table, vertical (\\G), tab-separated, comma-separated, JSON or tree output of EXPLAIN"
# Words of EXPLAIN output that prose seldom holds: a line with some of them is where a plan was meant.
_EXPLAIN_WORDS_RE = lazy_regex(
    r"\b(select_type|possible_keys|key_len|Using where|Using index|Using filesort|Using temporary|eq_ref)\b",
    re.IGNORECASE,
)


def read(cleaned: Cleaned) -> Plan:
    """Read a repaired paste into a `Plan` (its plan model is built later, after the check stage).
    Raises `ParseError` when no EXPLAIN can be read."""
    if not cleaned.text.strip():
        raise _nothing_left(cleaned)
    lines, notices = _ascii_lines(cleaned)
    # EXPLAIN rows behind a log's prefix or dumped by a program; the other readers get the rest.
    printed = read_printed(lines, cleaned.numbers, cleaned.margins)
    check_deadline()
    found = result_sets(outside(lines, printed), cleaned.numbers, cleaned.margins, cleaned.terminal_width)
    found = join_stacked(sorted(found + printed, key=lambda result: result.start), lines)
    warnings = cleaned.warnings + _warning_messages(found)
    reading = _Reading(cleaned, lines, found, [r for r in found if r.is_explain], notices, warnings)
    check_deadline()
    plan = _document_plan(cleaned)
    if plan is not None:
        at = _document_start(plan, cleaned.text, lines)
        table = next((r for r in reading.explains if not r.truncated), None)
        if table is None or at is None or table.start > at:
            return _plan_result(reading, plan, at)
        reading.plan_at = at, plan.format
        notices.append(
            f"The paste also holds a {plan.format.upper()} plan (from line {cleaned.numbers[at]}); "
            "it was ignored: the tabular EXPLAIN comes first."
        )
    if not reading.explains:
        reading = _shaped(reading)
    _check_row_counts(reading.found, cleaned.row_counts, cleaned.numbers)
    return _table_result(reading)


# What the cleanup takes out of a paste (`Cleaned.taken`), as a refusal names it.
_TAKEN = {
    "prompt": "client prompts with the statements typed there",
    "statement": "statements typed without a prompt",
    "status": "client status lines ('N rows in set')",
    "note": "notes of SHOW WARNINGS",
    "fence": "code fences",
    "noise": "lines a web page put between the lines",
    "joined": "cells on lines of their own",
}


def _nothing_left(cleaned: Cleaned) -> ParseError:
    """The error for a paste (not empty: the pipeline said so of those) that the cleanup left nothing
    of, naming what was recognised and taken out (the lines), or the repairs that left nothing."""
    if cleaned.taken:
        kinds = list(dict.fromkeys(_TAKEN.get(kind, kind) for *_, kind in cleaned.taken))
        what = ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else kinds[0]
        numbers = [n for first, last, _ in cleaned.taken for n in range(first, last + 1)]
        holds = "an EXPLAIN statement but not its output" if cleaned.query else "no EXPLAIN output"
        return ParseError(
            f"Nothing is left to read once the {what} are removed "
            f"({describe_lines(numbers)}): the paste holds {holds}; {EXPECTED}."
        )
    done = "; ".join(notice.rstrip(".") for notice in cleaned.notices) or "only blanks were left"
    return ParseError(f"Nothing is left to read once the paste is cleaned up ({done}); {EXPECTED}.")


@dataclass
class _Reading:
    """A cleaned paste, the result sets found in it, and the notices and warnings so far."""

    cleaned: Cleaned
    lines: list[str]  # the cleaned lines, their borders and padding read as the client's ASCII
    found: list[ResultSet]
    explains: list[ResultSet]  # those of `found` that are EXPLAIN output
    notices: list[str]
    warnings: list[str]
    plan_at: tuple[int, str] | None = None  # the line and format of a JSON or tree plan left out


def _shaped(reading: _Reading) -> _Reading:
    """The fallback when no reader found an EXPLAIN: tables whose borders, alignment or header are
    gone (`readers.shapes.columns`), in place of the result sets read from the same lines. Raises the
    `ParseError` for the paste when there is none."""
    from analyzer.readers.shapes.columns import shaped_result_sets

    shaped = shaped_result_sets(reading.lines, reading.cleaned.numbers)
    if not shaped:
        raise _not_explain(reading.found, reading.lines, reading.cleaned.numbers)
    taken = _covered(reading.lines, shaped)
    others = [r for r in reading.found if not any(taken[r.start : r.end])]
    return replace(reading, found=sorted(others + shaped, key=lambda r: r.start), explains=shaped)


def _ascii_lines(cleaned: Cleaned) -> tuple[list[str], list[str]]:
    """The cleaned lines with box drawing, typographic dashes in borders, `+===+` header rules and
    tabs in table padding read back as the client's ASCII, and the notices so far."""
    lines = cleaned.lines
    notices = list(cleaned.notices)
    if has_box_drawing(lines):
        lines = [line.translate(BOX_DRAWING) for line in lines]
        notices.append("Read Unicode box-drawing borders as the client's ASCII table.")
    text = "\n".join(lines)
    # Dashes only in a border of `+` that starts the line (or after blanks), `=` rules only after a `+`.
    dashed = (
        []
        if text.isascii()
        else [
            i
            for i in starting_lines(lines, "[+ ].*[\u2010-\u2015\u2212]")
            if not lines[i].isascii() and _DASHED_BORDER_RE.match(lines[i])
        ]
    )
    if dashed:
        # An editor or a chat app turned the border's `--` into dashes (`—`, `–`).
        lines = list(lines)
        for i in dashed:
            lines[i] = lines[i].translate(_DASHES)
        notices.append(f"Read {plural(len(dashed), 'border line')} drawn with typographic dashes as '+---+'.")
    ruled = [i for i in matching_lines(lines, r"\+=.*") if _DOUBLE_RULE_RE.match(lines[i])] if "+=" in text else []
    if ruled:
        # A grid table's header rule (Python tabulate, prettytable, Go table writers): `+====+`.
        lines = _rewritten(lines, ruled, lambda line: line.replace("=", "-"))
        notices.append(f"Read {plural(len(ruled), 'header rule')} drawn with '=' as '+---+'.")
    if "+..." in text:
        lines, elided = spread_elisions(lines)
        if elided:
            notices.append(
                "Read the '...' between '+' signs of a table's borders as columns left out "
                f"({describe_lines([cleaned.numbers[i] for i in elided])})."
            )
    compact = _compact_markdown_lines(lines)
    if compact:
        # `|id|select_type|` (a GUI client's Markdown copy): spaced out the way tables are printed.
        lines = _rewritten(lines, compact, _spaced_pipes)
        notices.append(f"Spaced out {plural(len(compact), 'Markdown table line')} written without spaces around '|'.")
    tabbed = _tabbed_table_lines(lines) if "\t" in text else []
    if tabbed:
        # Table padding an editor turned into tabs (`unexpand`); batch output keeps its tabs.
        lines = _rewritten(lines, tabbed, expand_tabs)
        notices.append(f"Turned tabs back into spaces in {plural(len(tabbed), 'table line')}.")
    return lines, notices


def _warning_messages(found: list[ResultSet]) -> list[str]:
    """The messages of the SHOW WARNINGS result sets."""
    return [
        _message(message, r)
        for r in found
        if r.is_warnings
        for row in r.rows
        if (message := row.get("message")) is not None
    ]


def _plan_result(reading: _Reading, plan: Plan, at: int | None) -> Plan:
    """The JSON or tree `plan` (starting on line `at`) as the answer, with notices about the rest."""
    cleaned, found, notices = reading.cleaned, reading.found, reading.notices
    if reading.explains:
        plan.notices.append(
            f"The paste also holds a tabular EXPLAIN result ({_span(reading.explains[0], cleaned.numbers)}); "
            f"it was ignored: the {plan.format.upper()} plan comes first."
        )
    # The `*** 1. row ***` line of the vertical record the plan was printed in.
    notices += [n for r in found if r.start <= (at or 0) < r.end for n in r.notices if "row marker" in n]
    notices += _foreign_notices(found, cleaned.numbers, at)
    other = _text_around_plan(reading.lines, found, at, plan.format)
    if other:
        notices.append(_other_text_notice(other, cleaned.numbers))
    plan.notices = notices + plan.notices
    plan.warnings = reading.warnings + plan.warnings
    query_at = query_line(cleaned.queries, None) if plan.query is None else None
    plan.lines = _lines_read(reading, None, (at, plan.format) if at is not None else None, query_at)
    if plan.query is None:
        plan.query = cleaned.query
    return plan


def _not_explain(found: list[ResultSet], lines: list[str], numbers: list[int]) -> ParseError:
    """The error for a paste without EXPLAIN output, naming what its first result set holds, or
    the first line that speaks of EXPLAIN output in a layout no reader knows."""
    if not found:
        # Only a line holding such a word in the text, or long enough to be cut (`_explain_words`), can.
        text = "\n".join(lines)
        worded = line_indexes(text, _EXPLAIN_WORDS_RE) + line_indexes(text, pattern("^.{4001}"))
        seen = next(
            ((i, words) for i in sorted(set(worded)) if len(words := _explain_words(lines[i])) >= 2),
            None,
        )
        if seen is None:
            return ParseError(f"No EXPLAIN output found: {EXPECTED}.")
        at, words = seen
        return ParseError(
            f"Line {numbers[at]} holds words of EXPLAIN output ({', '.join(words[:4])}), but neither it nor the "
            f"lines around it are in a layout that could be read: {EXPECTED}.",
            line=numbers[at],
        )
    first = found[0]
    names = [name for name in first.columns if name.strip()]
    what = f"has the columns {', '.join(names[:6])}, which are not those of EXPLAIN" if names else "has no column names"
    return ParseError(f"The result set on line {first.first_line} {what}; {EXPECTED}.", line=first.first_line)


def _explain_words(line: str) -> list[str]:
    check_deadline()
    if len(line) > 4000:
        line = line[:4000]
    return list(dict.fromkeys(match.group(1) for match in _EXPLAIN_WORDS_RE.finditer(line)))


def _table_result(reading: _Reading) -> Plan:
    """The EXPLAIN result set chosen among those found as the answer, with notices about the rest."""
    cleaned, notices = reading.cleaned, reading.notices
    chosen, extra_notices = _choose(reading.explains, cleaned.numbers)
    query_at = None if chosen.query else query_line(cleaned.queries, chosen.start)
    lines = _lines_read(reading, chosen, reading.plan_at, query_at)
    notices += _foreign_notices(reading.found, cleaned.numbers)
    other = _other_text(reading.lines, reading.found)
    if other:
        notices.append(_other_text_notice(other, cleaned.numbers))
    _drop_elided_columns(chosen)
    if not chosen.whole:
        _mark_missing_columns(chosen)
    notices += chosen.notices + extra_notices
    if not chosen.rows:
        # EXPLAIN always prints at least one row: the rest of the result was lost.
        chosen.truncated = True
        notices.append("The EXPLAIN output has a header but no rows: the rows are missing.")
    return Plan(
        format=chosen.format,
        variant="MariaDB ANALYZE" if "r_rows" in chosen.columns else None,
        columns=chosen.columns,
        rows=chosen.rows,
        query=chosen.query or _query_for(chosen, cleaned.queries) or cleaned.query,
        warnings=reading.warnings,
        notices=notices,
        truncated=chosen.truncated,
        uncertain=chosen.uncertain,
        affected_rows=chosen.affected_rows,
        lines=lines,
    )


def _lines_read(
    reading: _Reading, chosen: ResultSet | None, plan_at: tuple[int, str] | None, query_at: int | None
) -> list[LineSpan]:
    """What became of each line of the paste (`Plan.lines`, see `readers.line_roles`): `chosen` is
    the result set shown, else the JSON or tree plan at `plan_at` (line, format) is; none is known
    for a plan whose place is not. `query_at` is the line of the statement the query comes from."""
    place = None
    if plan_at is not None:
        at, kind = plan_at
        text = _TREE_TEXT_RE if kind == "tree" else _JSON_TEXT_RE
        place = PlanPlace(at, _plan_end(reading.lines, at, kind), kind, text, _HEADER_RE, shown=chosen is None)
    elif chosen is None:
        return []
    return line_spans(reading.cleaned, reading.lines, reading.found, chosen=chosen, place=place, query_at=query_at)


def _other_text_notice(other: list[int], numbers: list[int]) -> str:
    """The notice about the lines of other text (indexes `other`) that were left out."""
    return f"Ignored {plural(len(other), 'line')} of other text ({describe_lines([numbers[i] for i in other])})."


def _rewritten(lines: list[str], indexes: list[int], rewrite: Callable[[str], str]) -> list[str]:
    """A copy of `lines` with the lines at `indexes` rewritten."""
    out = list(lines)
    for i in indexes:
        out[i] = rewrite(out[i])
    return out


def _compact_markdown_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines of Markdown tables written without spaces around their `|` signs: a
    header over a `|--|---|` rule, and the `|` rows under it. A table without outer pipes
    (`a|b|c` over `-|-|-`) needs a header of as many cells as its rule, and its rows hold a `|`."""
    found: list[int] = []
    # A header is followed by its rule: look from the lines before the rules.
    for i in sorted({rule - 1 for rule in starting_lines(lines, _COMPACT_RULE) if rule}):
        header = lines[i].strip()
        if (found and i <= found[-1]) or " | " in header:
            continue
        outer = header.startswith("|")
        if not (header.count("|") >= 4 if outer else _markdown_cells(header) == _markdown_cells(lines[i + 1]) >= 3):
            continue
        j = i + 2
        while j < len(lines) and _compact_row(lines[j], outer):
            j += 1
        found.extend(range(i, j))
    return found


def _markdown_cells(line: str) -> int:
    """How many cells a Markdown table line holds, its outer pipes left out (an escaped `\\|` is in a cell)."""
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return len(re.split(r"(?<!\\)\|", s))


def _compact_row(line: str, outer: bool) -> bool:
    """Whether `line` is a row of a Markdown table written without spaces around its `|` signs
    (starting with `|` when its header does)."""
    s = line.strip()
    return " | " not in s and (s.startswith("|") if outer else "|" in s)


def _spaced_pipes(line: str) -> str:
    """`|a|b|` as `| a | b |`; an escaped `\\|` inside a cell stays."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return " | ".join(cell.strip() for cell in cells).strip()


def _tabbed_table_lines(lines: list[str]) -> list[int]:
    """Indexes of the table lines holding tabs, and of the wrapped pieces right after them."""
    tabbed: list[int] = []
    for i, line in enumerate(lines):
        if "\t" in line and (line.lstrip()[:1] in ("|", "+") or (tabbed and tabbed[-1] == i - 1)):
            tabbed.append(i)
    return tabbed


def result_sets(
    lines: list[str], numbers: list[int], margins: list[int] | None = None, terminal_width: int | None = None
) -> list[ResultSet]:
    """Every table, vertical and batch result set in the cleaned lines, in order."""
    found: list[ResultSet] = []
    wrapped = Wrapped(lines)
    end = 0
    for i in _starts(lines):
        if i < end:
            continue
        check_deadline()
        line = lines[i]
        head = line.lstrip()[:1]
        result = None
        first, end = i, i + 1
        # (Of the lines starting with `|`, only a Jira header's `||` may open markup; of those starting
        # with `-`, only the border over a table's cells put one per line, `id |` first.)
        markup = head in ("<", "i") or (line.lstrip().startswith(("||", "-")) and _over_id_cell(lines, i))
        if head == "|" and not markup and wrapped.refused_again(i, len(line) - len(line.lstrip())):
            continue  # the table reader refuses it, as it did the header line it is a piece of
        if markup and _starts_markup(lines, i):
            from analyzer.readers.tables.markup import parse_markup

            result, end, statement = parse_markup(lines, numbers, i, margins or [0] * len(lines))
            if result is not None and statement:
                result.query = statement_query(statement)
        elif head not in "+|" and _starts_grid(lines, i):
            from analyzer.readers.tables.grid import parse_grid

            result, end = parse_grid(lines, numbers, i)
        elif (head in "+|" or " | " in line) and starts_table(lines, i):
            result, end = parse_table(lines, numbers, i, margins, wrapped)
        elif ("*****" in line and _starts_vertical(line)) or (":" in line and _starts_labelled(lines, i)):
            from analyzer.readers.tables.vertical import parse_vertical, tail_start

            first = tail_start(lines, i, found[-1].end if found else 0)
            result, end = parse_vertical(lines, numbers, i, terminal_width, first)
        elif _starts_tsv(line):
            from analyzer.readers.tables.tsv import parse_tsv

            result, end = parse_tsv(lines, numbers, i, terminal_width)
        elif "," in line and _starts_csv(line):
            from analyzer.readers.tables.csv_rows import parse_csv

            result, end = parse_csv(lines, numbers, i)
        if result is not None:
            result.start, result.end = first, end
            found.append(result)
    return found


def _over_id_cell(lines: list[str], i: int) -> bool:
    """Whether `lines[i]` (starting with `|` or `-`) opens markup: a Jira header (`||`), or a line
    over `id |` (the border over a table whose cells were put one per line)."""
    return lines[i].lstrip()[:1] == "|" or (i + 1 < len(lines) and lines[i + 1].replace(" ", "").lower() == "id|")


def _starts_markup(lines: list[str], i: int) -> bool:
    """Whether markup (an HTML, XML or Jira table, or a table copied one cell per line) opens on
    line `i`; the caller looks at its first characters before this imports the markup reader."""
    from analyzer.readers.tables.markup import starts_cell_column, starts_markup

    return starts_markup(lines[i]) or starts_cell_column(lines, i)


def _starts_grid(lines: list[str], i: int) -> bool:
    """Whether a grid without an outer border (`readers.tables.grid`) opens on line `i`: the next line
    starts with a dash and holds a `+`, a look taken before the grid reader is imported."""
    if i + 1 >= len(lines) or "|" not in lines[i]:
        return False
    rule = lines[i + 1].lstrip()
    if rule[:1] != "-" or "+" not in rule:
        return False
    from analyzer.readers.tables.grid import starts_grid

    return starts_grid(lines, i)


def _starts_vertical(line: str) -> bool:
    from analyzer.readers.tables.vertical import starts_vertical

    return starts_vertical(line)


def _starts_labelled(lines: list[str], i: int) -> bool:
    """Whether a vertical row without its `*** N. row ***` line starts on line `i`: a run of
    fields labelled with EXPLAIN's columns."""
    from analyzer.repair.labels import starts_run

    return starts_run(lines, i)


def _starts_tsv(line: str) -> bool:
    from analyzer.readers.tables.tsv import starts_tsv

    return starts_tsv(line)


def _starts_csv(line: str) -> bool:
    from analyzer.readers.tables.csv_rows import starts_csv

    return starts_csv(line)


def _document_plan(cleaned: Cleaned) -> Plan | None:
    """The JSON or tree plan in the paste, if any; each reader is imported only when the text
    holds what it starts with (`{`, `->` or a list item)."""
    if "{" in cleaned.text:
        from analyzer.readers.documents.json_plan import parse_json

        plan = parse_json(cleaned.text, cleaned.margins)
        if plan is not None:
            return plan
    if "->" in cleaned.text or _LIST_ITEM_RE.search(cleaned.text):
        from analyzer.readers.documents.tree_plan import parse_tree

        return parse_tree(cleaned.text, cleaned.numbers)
    return None


def _document_start(plan: Plan, text: str, lines: list[str]) -> int | None:
    """The index of the line where the JSON or tree `plan` starts."""
    if plan.format == "json":
        from analyzer.readers.documents.json_plan import document_line

        return document_line(text)
    from analyzer.readers.documents.tree_plan import plan_line

    return plan_line(lines)


def join_stacked(found: list[ResultSet], lines: list[str]) -> list[ResultSet]:
    """Tables printed one above the other that are parts of one wide EXPLAIN (Rails splits a plan
    wider than its limit into boxes of a few columns each), joined back into one result set."""
    out: list[ResultSet] = []
    for result in found:
        previous = out[-1] if out else None
        if previous is not None and _continues(previous, result, lines):
            out[-1] = _joined(previous, result)
        else:
            out.append(result)
    return out


def _continues(top: ResultSet, below: ResultSet, lines: list[str]) -> bool:
    """Whether `below` holds the next columns of the EXPLAIN in `top`, for the same rows."""
    if top.format != "table" or below.format != "table" or len(top.rows) != len(below.rows) or not top.rows:
        return False
    if any(line.strip() for line in lines[top.end : below.start]):
        return False
    order = [STANDARD_ORDER.index(c) if c in STANDARD_ORDER else -1 for c in top.columns + below.columns]
    return -1 not in order and order == sorted(set(order)) and is_explain_header(top.columns + below.columns)


def _joined(top: ResultSet, below: ResultSet) -> ResultSet:
    rows = [{**upper, **lower} for upper, lower in zip(top.rows, below.rows, strict=True)]
    result = ResultSet("table", top.columns + below.columns, rows, top.first_line, notices=top.notices + below.notices)
    result.start, result.end = top.start, below.end
    result.truncated = top.truncated or below.truncated
    result.affected_rows = sorted(set(top.affected_rows + below.affected_rows))
    result.closed = top.closed and below.closed
    result.skipped = top.skipped + below.skipped
    result.notices.append(
        f"Joined the tables on lines {top.first_line} and {below.first_line}, one above the other, into one plan: "
        "they hold the columns of one EXPLAIN for the same rows (a wide result printed in parts)."
    )
    return result


def _covered(lines: list[str], found: list[ResultSet]) -> bytearray:
    """Per line, 1 where a result set holds it."""
    covered = bytearray(len(lines))
    for result in found:
        covered[result.start : result.end] = b"\x01" * (result.end - result.start)
    return covered


def _other_text(lines: list[str], found: list[ResultSet]) -> list[int]:
    """Indexes of the non-empty lines that belong to no result set (chat, shell commands)."""
    covered = _covered(lines, found)
    return [i for i, line in enumerate(lines) if not covered[i] and line.strip()]


def _text_around_plan(lines: list[str], found: list[ResultSet], at: int | None, kind: str) -> list[int]:
    """Indexes of the chat lines around a JSON or tree plan that starts on line `at`: the
    non-empty lines before it, and those after its end (`_plan_end`) which cannot be part
    of a plan (a second copy is the reader's business). Lines of result sets (the client's box
    around the plan) and a lone column name (`EXPLAIN`) are not chat."""
    if at is None:
        return []
    covered = _covered(lines, found)
    end = _plan_end(lines, at, kind)
    plan_text = _TREE_TEXT_RE if kind == "tree" else _JSON_TEXT_RE
    return [
        i
        for i, line in enumerate(lines)
        if (i < at or i >= end)
        and not covered[i]
        and line.strip()
        and not _HEADER_RE.match(line)
        and not (i >= end and plan_text.search(line))
    ]


def _plan_end(lines: list[str], at: int, kind: str) -> int:
    """Index of the line after a plan starting on line `at`: an empty line ends it, and a JSON
    document also ends with its closing brace in the first column."""
    for i in range(at, len(lines)):
        if not lines[i].strip():
            return i
        if kind == "json" and lines[i].rstrip() == "}":
            return i + 1
    return len(lines)


def _foreign_notices(found: list[ResultSet], numbers: list[int], at: int | None = None) -> list[str]:
    """A notice naming the result sets that are neither EXPLAIN nor SHOW WARNINGS output (a
    `SELECT COUNT(*)` typed in the same session), which are left out; not the client's box or
    record around a JSON or tree plan (on line `at`, or under an `EXPLAIN` column)."""
    foreign = [
        r
        for r in found
        if not r.is_explain
        and not r.is_warnings
        and any(c.strip() for c in r.columns)
        and not (at is not None and r.start <= at < r.end)
        and not any(c.strip().lower() in PLAN_COLUMNS for c in r.columns)
    ]
    if not foreign:
        return []
    spans = ", ".join(_span(r, numbers) for r in foreign[:5]) + (" and more" if len(foreign) > 5 else "")
    return [f"Ignored {plural(len(foreign), 'other result set')}, not EXPLAIN output ({spans})."]


def _message(message: str, result: ResultSet) -> str:
    """A SHOW WARNINGS message; where its box was wrapped twice (by a terminal, then a mail
    client), the cell padding a break fell in is squeezed out (the server prints single spaces)."""
    if "  " in message and any("wrapped at word boundaries" in notice for notice in result.notices):
        return " ".join(message.split())
    return message


def _query_for(result: ResultSet, queries: list[tuple[int, str]]) -> str | None:
    """The EXPLAIN statement typed last before the result set, if any."""
    before = [query for at, query in queries if at < result.start]
    return before[-1] if before else None


def _starts(lines: list[str]) -> list[int]:
    """Indexes of the lines where a result set could start, found in one search (most lines of a
    big paste cannot): a line holding `|`, `+`, a tab, `<`, `*****`, `select_type` or `Warnings:`,
    a line of `id` alone, one labelled with an EXPLAIN column (`id: 1`), or one with four commas."""
    return matching_lines(
        lines,
        r"(?:[|+\t<]|\*{5}|select_type|Warnings:).*|^[^\S\n]*id[^\S\n]*$|^(?:[^,\n]*,){4}"
        r"|^[^\S\n]*(?:[-*][^\S\n]+)?(?i:id|select_type|table|partitions|type|possible_keys|key|key_len|ref|rows|r_rows|filtered|r_filtered|extra):",
    )


def _drop_elided_columns(result: ResultSet) -> None:
    """Take out the columns whose header is `...` (columns an author left out, with whatever their
    cells hold) and mark the result truncated, saying which columns are shown."""
    elided = [name for name in result.columns if is_elision(name)]
    if not elided:
        return
    result.columns = [name for name in result.columns if name not in elided]
    result.rows = [{name: row.get(name) for name in result.columns} for row in result.rows]
    result.truncated = True
    result.notices.append(
        f"The table on line {result.first_line} shows '...' in its header in place of columns left out of the "
        f"paste; read the columns shown ({', '.join(result.columns)})."
    )


def _mark_missing_columns(result: ResultSet) -> None:
    """Add the columns every EXPLAIN has that the header lacks, as missing (`…`): `rows`/`extra`
    after its last column (the lines were cut), others between present ones (a lost line of
    vertical output; a tab-separated header is one line, so a column missing there was left out
    by hand); or, in a box whose lines are complete, any of them (left out of the paste)."""
    tail = missing_tail(result.columns)
    inner = _missing_inner_columns(result.columns) if result.format != "tsv" else []
    if not (tail or inner) or not result.is_explain:
        return
    if result.closed:
        absent = [c for c in _always_printed(result.columns) if c not in result.columns]
        _add_missing(result, absent, [])
        result.notices.append(
            f"The table has no {', '.join(absent)} column{'s' if len(absent) > 1 else ''}, which every EXPLAIN has; "
            f"its lines are complete, so they were left out of the paste. Missing cells are shown as '{CUT}'."
        )
        return
    last = result.columns[-1]
    _add_missing(result, inner, tail)
    if inner:
        result.notices.append(
            f"The column{'s' if len(inner) > 1 else ''} {', '.join(inner)}, which every EXPLAIN has, "
            f"{'are' if len(inner) > 1 else 'is'} missing: a line was lost. Missing cells are shown as '{CUT}'."
        )
    if tail:
        result.notices.append(
            f"The columns stop at '{last}' and {' and '.join(tail)} are missing, "
            f"which every EXPLAIN has: the lines look truncated. Missing cells are shown as '{CUT}'."
        )


def _missing_inner_columns(columns: list[str]) -> list[str]:
    """The columns every EXPLAIN has that are missing before the header's last known column."""
    known = [STANDARD_ORDER.index(c) for c in columns if c in STANDARD_ORDER]
    if not known:
        return []
    return [c for c in _always_printed(columns) if c not in columns and STANDARD_ORDER.index(c) < max(known)]


def _always_printed(columns: list[str]) -> tuple[str, ...]:
    """The columns every EXPLAIN with this header has: MySQL before 4.1 printed no id and
    select_type, its columns start at `table`."""
    return ALWAYS_PRINTED[2:] if columns[:1] == ["table"] else ALWAYS_PRINTED


def _add_missing(result: ResultSet, inner: list[str], tail: list[str]) -> None:
    """Put the `inner` columns in their places and the `tail` ones at the end, every cell `…`."""
    order = {c: STANDARD_ORDER.index(c) for c in result.columns if c in STANDARD_ORDER}
    columns = list(result.columns)
    for name in inner:
        at = next((k for k, c in enumerate(columns) if order.get(c, -1) > STANDARD_ORDER.index(name)), len(columns))
        columns.insert(at, name)
        order[name] = STANDARD_ORDER.index(name)
    result.columns = columns + tail
    result.rows = [{c: row.get(c, CUT) for c in result.columns} for row in result.rows]
    result.truncated = True
    result.affected_rows = list(range(len(result.rows)))


def _check_row_counts(found: list[ResultSet], row_counts: list[tuple[int, int]], numbers: list[int]) -> None:
    """Compare each result set with the client's `N rows in set` line after it, if any."""
    starts = [r.start for r in found]
    for at, count in row_counts:
        index = bisect_right(starts, at) - 1
        if index < 0 or found[index].end > at or len(found[index].rows) == count:
            continue
        result = found[index]
        if len(result.rows) < count:
            result.truncated = True
            result.notices.append(
                f"The client reported {plural(count, 'row')} (line {numbers[at]}) but only {len(result.rows)} "
                f"{'is' if len(result.rows) == 1 else 'are'} in the paste: "
                "it looks truncated, rows are missing."
            )
        else:
            result.notices.append(
                f"The client reported {plural(count, 'row')} (line {numbers[at]}) but the paste holds {len(result.rows)}."
            )


def _span(result: ResultSet, numbers: list[int]) -> str:
    """`lines 10-14` (or `line 10`): where a result set is in the paste."""
    last = max(result.start, result.end - 1)
    return f"lines {numbers[result.start]}-{numbers[last]}" if last > result.start else f"line {numbers[result.start]}"


def _choose(explains: list[ResultSet], numbers: list[int]) -> tuple[ResultSet, list[str]]:
    """The EXPLAIN to return (the first complete one), and notices about copies and alternatives."""
    copies: dict[Hashable, list[ResultSet]] = {}
    for result in explains:
        copies.setdefault(result.key(), []).append(result)
    distinct = [group[0] for group in copies.values()]
    chosen = next((r for r in distinct if not r.truncated), distinct[0])
    notices = []
    for group in copies.values():
        if len(group) > 1:
            notices.append(
                f"The same EXPLAIN output appears {len(group)} times (starting on "
                f"{describe_lines([r.first_line for r in group])}); it was read once."
            )
    if len(distinct) > 1:
        ignored = ", ".join(_span(r, numbers) for group in copies.values() for r in group if r.key() != chosen.key())
        notices.append(
            f"The paste holds {len(distinct)} different EXPLAIN results (starting on "
            f"{describe_lines([r.first_line for r in distinct])}); showing the one on line {chosen.first_line} "
            f"and ignoring the other{'s' if len(distinct) > 2 else ''} ({ignored})."
        )
    return chosen, notices
