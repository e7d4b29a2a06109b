"""The `name: value` lines of vertical (`\\G`) EXPLAIN output, told by their labels alone.

The client prints each field of a `\\G` row as `name: value`, the names right-aligned; pasted
without the row's `*** N. row ***` line, indented, left-aligned or with its padding collapsed,
a row is still a run of lines labelled with the columns EXPLAIN prints. The repairs (a statement
typed without its terminator ends where such a run starts) and the vertical reader (which reads
such a run as a row) both look for it here.
"""

from __future__ import annotations

from analyzer.lazy import lazy_regex
from analyzer.model import EXPLAIN_COLUMN_ORDER

# A field line: its indentation (with the `- ` of a YAML or Markdown list item), name and value
# (`name:` alone when the value is empty); a page or a translation may have dropped the space
# after the colon (`Id:1`, the value then in the fourth group).
FIELD_RE = lazy_regex(r"^([ \t]*(?:[-*][ \t]+)?)([A-Za-z_][\w$#]{0,63}):(?: (.*)|$|(\S.*))")
# The labels that make a run: EXPLAIN's columns.
LABELS = frozenset(EXPLAIN_COLUMN_ORDER)
# How many distinct labels, one per line, make a run: fewer could be prose or a config file.
LEAST_LABELS = 4


def label(line: str) -> str | None:
    """The EXPLAIN column (lower-case) `line` is the field of, or None."""
    match = FIELD_RE.match(line)
    if match is None:
        return None
    name = match.group(2).lower()
    return name if name in LABELS else None


def starts_run(lines: list[str], i: int) -> bool:
    """Whether `lines[i]` starts a run of EXPLAIN fields: consecutive lines labelled with at least
    `LEAST_LABELS` distinct columns before a label repeats (which would start the next row)."""
    seen: set[str] = set()
    for line in lines[i : i + len(LABELS)]:
        name = label(line)
        if name is None or name in seen:
            break
        seen.add(name)
    return len(seen) >= LEAST_LABELS
