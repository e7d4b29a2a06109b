"""How many pastes of a corpus folder are read exactly: `python bench/corpus_score.py DIR [DIR ...]`.

Each case is a `.txt` paste and a `.toml` of what a careful reader sees in it (the format of
`tests/fixtures/real/README.md`). A case counts as read right when a complete paste is read exactly
(format, tables, access types, row count) and not flagged truncated, or a partial one is flagged
truncated. The others are counted by what went wrong: refused, flagged (`truncated` or
`uncertain`, so the user is warned) or silently wrong, the one outcome that must not happen.
With `--list`, each case that is not read right is named with what went wrong.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import ParseError, analyze  # noqa: E402


def outcome(paste: str, expect: dict) -> tuple[str, str]:
    """("right" | "refused" | "flagged" | "silent", what was read)."""
    try:
        plan = analyze(paste).plan
    except ParseError as exc:
        return "refused", exc.message[:120]
    tables = [row.get("table") for row in plan.rows if row.get("table")]
    types = [row.get("type") for row in plan.rows if row.get("table")]
    got = f"{plan.format} rows={len(plan.rows)} tables={tables} truncated={plan.truncated} uncertain={plan.uncertain}"
    if expect["partial"]:
        right = plan.truncated
    else:
        right = not plan.truncated and plan.format == expect["format"] and tables == expect["tables"]
        if expect["format"] not in ("json", "tree"):
            right = right and len(plan.rows) == expect["rows"]
            if "types" in expect:
                right = right and types == expect["types"]
    if right:
        return "right", got
    return ("flagged" if plan.truncated or plan.uncertain else "silent"), got


def main(argv: list[str]) -> int:
    listing = "--list" in argv
    folders = [Path(a) for a in argv if a != "--list"]
    counts = {"right": 0, "refused": 0, "flagged": 0, "silent": 0}
    for path in sorted(p for folder in folders for p in folder.rglob("*.toml")):
        expect = tomllib.loads(path.read_text(encoding="utf-8"))
        paste = path.with_suffix(".txt").read_bytes().decode("utf-8")
        kind, got = outcome(paste, expect)
        counts[kind] += 1
        if listing and kind != "right":
            print(f"{kind:8} {path.relative_to(path.parents[1])}: {got}")
    total = sum(counts.values())
    print(
        f"{total} pastes: {counts['right']} read right ({counts['right'] / max(total, 1):.1%}), "
        f"{counts['flagged']} wrong but flagged, {counts['refused']} refused, {counts['silent']} silently wrong"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
