"""Un-wrap JSON and tree plans: put back together the lines of a document or of a tree plan that a
terminal cut at its width or a mail client broke at a space. (The one-line batch JSON document is
rejoined by `pieces.rejoin`.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def rejoin_cut_lines(source: str) -> str | None:
    """Undo a terminal's hard wrap: lines cut at exactly the widest line's length continue on the
    next line. None when the text does not look wrapped (fewer than two lines at that width)."""
    lines = source.split("\n")
    width = max(len(line) for line in lines)
    if width < 20 or sum(1 for line in lines if len(line) == width) < 2:
        return None
    out: list[str] = []
    joining = False
    for line in lines:
        if joining:
            out[-1] += line
        else:
            out.append(line)
        joining = len(line) == width
    return "\n".join(out)


def mend_wrapped_strings(doc: Any) -> int:
    """Remove the raw line breaks a wrap left inside strings (servers escape real ones); returns
    how many strings were mended. Iterative, over an already depth-checked document."""
    mended = 0
    stack = [doc]
    while stack:
        item = stack.pop()
        entries = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        for key, value in entries:
            if isinstance(value, str) and "\n" in value:
                item[key] = value.replace("\r", "").replace("\n", "")
                mended += 1
            elif isinstance(value, dict | list):
                stack.append(value)
    return mended


def join_plan_pieces(pieces: list[str], mailed: bool) -> str:
    """A tree plan's line put back together from the `pieces` it was wrapped into: as they are
    where a terminal cut them (every wrapped line of the plan had one length), else (`mailed`)
    with the space a mail client broke at put back before each piece that does not start with one."""
    first, *rest = pieces
    glue = " " if mailed else ""
    body = first + "".join(glue + piece if glue and not piece[:1].isspace() else piece for piece in rest)
    return body.rstrip()
