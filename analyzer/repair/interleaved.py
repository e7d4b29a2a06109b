"""Noise lines a web page put between the lines of a paste scraped as text.

A source viewer or a blame page copied as text puts the same line between every two lines of the
file: a lone `|` (or two), ` | ||` left of its gutter's markup, or a line of one shape, the blame's
date (`2002-09-26 23:08:22 +03:00`). Such lines hold no letter, and they stand at every second
position over a run: one line of the text, then the same block of noise lines, again and again.
A source viewer may also print its gutter (`| `) before every line of the text: it comes off.

`noise_lines(lines)` finds them: a run of at least `LEAST_LINES` lines of text, each alone between
two blocks of one to `_MOST_IN_BLOCK` noise lines (as many in each block; before the first line of
text and after the last a block may stand too), all of one kind: the same text, or, for lines with
digits, the same shape (every digit the same). A border of a table (`+----+`, `|---|`, `├──┼`)
is never noise: a table may print one after every row; nor are the ends of a table's rows a
terminal wrapped onto the next line (`|`, `|      |`, after lines holding two `|` or more that do
not end with one). Nor
is a line that holds a digit and a `|`, a tab, a quote or a separator (a row of a table of numbers,
the end of a JSON value a terminal wrapped: `.00",`), a number alone (a cell on a line of its own, a numbered empty
line), brackets alone (`}` of a document), an empty line, or one holding only the marks of a quote
or a comment (`>`, `#`, `*`: an empty line of the quoted text, which its own repairs take).
"""

from __future__ import annotations

from analyzer.deadline import check_deadline
from analyzer.lazy import lazy_regex
from analyzer.wording import describe_lines, plural

LEAST_LINES = 3  # lines of text a run of noise lines must part
_MOST_IN_BLOCK = 3  # noise lines between two lines of text
_LETTER_RE = lazy_regex(r"[^\W\d_]")
_DIGITS_RE = lazy_regex(r"\d")
# A source viewer's gutter before a line: a `|` and a blank.
_GUTTER_RE = lazy_regex(r"[ \t]*\|[ \t]")
# An empty line of quoted or commented text (`>`, `#`, `*`): the quoting's repairs take it.
_MARK_RE = lazy_regex(r"\s*[>#*]+\s*$")
# Part of a table's border or rule (`+----+`, `|---|`, `====`, `├───┼`), whatever is before it.
_BORDER_RE = lazy_regex(r"--|==|__|~~|[\u2500-\u257f]")
# A number alone (a cell on a line of its own, or the number of an empty line of numbered text).
_NUMBER_RE = lazy_regex(r"\s*[-+]?\d[\d.,]*\s*[.:)|\]]?\s*$")
# A quote or a separator of values: a piece of a document or row a terminal wrapped (`.00",`).
_QUOTED_RE = lazy_regex(r"[\"',;]")
# A line of brackets, parentheses and separators: the structure of a document or of code (JSON's `}`).
_BRACKETS_RE = lazy_regex(r"[\s{}\[\](),;]*$")


def _kind(line: str) -> str | None:
    """What a line is as a noise line (its text, or its shape when it holds digits), or None when
    it cannot be one."""
    if not line.strip() or _LETTER_RE.search(line) or _BORDER_RE.search(line):
        return None
    if _MARK_RE.match(line) or _BRACKETS_RE.match(line) or _NUMBER_RE.match(line):
        return None
    if not _DIGITS_RE.search(line):
        return line.strip()
    if "|" in line or "\t" in line or _QUOTED_RE.search(line):
        return None
    return _DIGITS_RE.sub("9", line.strip())


def noise_lines(lines: list[str]) -> list[tuple[list[int], list[int]]]:
    """The runs of noise lines put between the lines of the text, in order: each as the indexes of
    its noise lines and of the lines of text they part."""
    kinds = [_kind(line) for line in lines]
    runs: list[tuple[list[int], list[int]]] = []
    i = 0
    for start in [k for k, kind in enumerate(kinds) if kind is not None]:
        if start < i:
            continue
        check_deadline()
        noise, texts, i = _run(lines, kinds, start)
        if noise:
            runs.append((noise, texts))
    return runs


def _run(lines: list[str], kinds: list[str | None], start: int) -> tuple[list[int], list[int], int]:
    """The noise lines and the lines of text of the run whose first block starts at `start` (none
    when there is no such run there), and the index to go on from."""
    kind = kinds[start]
    size = _block(kinds, start, kind)
    if size > _MOST_IN_BLOCK:
        return [], [], start + size
    blocks = [start]
    texts = [start - 1] if start and _is_text(lines, kinds, start - 1, kind) else []
    j = start + size
    while j + 1 + size <= len(lines) and _is_text(lines, kinds, j, kind) and _block(kinds, j + 1, kind) == size:
        texts.append(j)
        blocks.append(j + 1)
        j += 1 + size
    if j < len(lines) and _is_text(lines, kinds, j, kind):
        texts.append(j)
    if len(texts) < LEAST_LINES or len(blocks) < LEAST_LINES - 1:
        return [], [], start + size
    if _wrapped(lines, texts, blocks):
        return [], [], j
    return [k for first in blocks for k in range(first, first + size)], texts, j


def _wrapped(lines: list[str], texts: list[int], blocks: list[int]) -> bool:
    """Whether the blocks, holding a `|`, follow rows of a table that do not end with theirs (lines
    holding two `|` or more): a terminal wrapped each row, and each block is the rest of its row
    (its last cells and border), not noise."""
    starts = set(blocks)
    return "|" in lines[blocks[0]] and any(
        lines[k].count("|") > 1 and not lines[k].rstrip().endswith("|") for k in texts if k + 1 in starts
    )


def _is_text(lines: list[str], kinds: list[str | None], at: int, kind: str | None) -> bool:
    """Whether `lines[at]` is a line of text beside noise lines of `kind`."""
    return bool(lines[at].strip()) and kinds[at] != kind


def _gutter(lines: list[str], texts: list[int]) -> str | None:
    """The gutter (`| `) a source viewer printed before every line of text between the noise
    lines, or None: the same `|` and blank before each, none of them a table's row (ending in `|`)."""
    gutters = {match.group() if (match := _GUTTER_RE.match(lines[k])) else None for k in texts}
    if len(gutters) != 1 or None in gutters or any(lines[k].rstrip().endswith("|") for k in texts):
        return None
    return gutters.pop()


def _block(kinds: list[str | None], at: int, kind: str | None) -> int:
    """How many lines from `at` on are of `kind`."""
    k = at
    while k < len(kinds) and kinds[k] == kind:
        k += 1
    return k - at


def drop_noise(
    lines: list[str], numbers: list[int], notices: list[str], taken: list[tuple[int, int, str]]
) -> tuple[list[str], list[int]]:
    """The lines without the noise lines put between them (added to `taken` as "noise") and
    without the gutter before the lines of text, with a notice for each."""
    runs = noise_lines(lines)
    if not runs:
        return lines, numbers
    out = list(lines)
    noise = [k for dropped, _ in runs for k in dropped]
    shown = min((lines[k].strip() for k in noise), key=len)
    notices.append(
        f"Removed {plural(len(noise), 'line')} like '{shown}' that stood between every two lines of the text "
        f"({describe_lines([numbers[k] for k in noise])}): a web page's scraping put them there."
    )
    for _, texts in runs:
        gutter = _gutter(lines, texts)
        if gutter is None:
            continue
        for k in texts:
            out[k] = lines[k][len(gutter) :]
        notices.append(
            f"Took the gutter '{gutter.strip()}' off {plural(len(texts), 'line')} between them "
            f"({describe_lines([numbers[k] for k in texts])})."
        )
    taken += [(numbers[k], numbers[k], "noise") for k in noise]
    dropped = set(noise)
    kept = [i for i in range(len(lines)) if i not in dropped]
    return [out[i] for i in kept], [numbers[i] for i in kept]
