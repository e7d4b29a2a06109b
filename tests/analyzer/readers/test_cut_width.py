"""Tab-separated and vertical output cut at a fixed width is flagged, never read as complete.

A pager (`less -S`), a terminal without wrapping or a tool cutting lines at 40 to 120 columns
loses the end of every longer line. The generator takes every complete tab-separated and `\\G`
paste of the fixtures (the real-world corpus, the MariaDB samples, the golden pastes, the QA
captures), cuts every line at each width, once as the terminal shows it (tabs expanded to
8-column stops, the displayed line cut) and once as a string (tabs kept, cut after so many
characters), and checks that a paste whose lines lost something is refused, flagged
`truncated`, or read exactly as the uncut paste (a cut that only removed trailing blanks, or
spaces of padding, loses nothing).
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path

import pytest

from analyzer import ParseError, analyze
from analyzer.model import Analysis
from analyzer.repair.textwidth import cut, expand_tabs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
WIDTHS = (40, 60, 80, 100, 120)
FORMATS = ("tsv", "vertical")


def _real() -> list[tuple[str, str]]:
    pastes = []
    for path in sorted((FIXTURES / "real").rglob("*.toml")):
        expect = tomllib.loads(path.read_text(encoding="utf-8"))
        # Rows a program dumped are no client output a pager or terminal cuts at a width.
        if expect["format"] not in FORMATS or expect["partial"] or "known_failure" in expect:
            continue
        text = path.with_suffix(".txt").read_bytes().decode("utf-8")
        if not any(" dump " in notice for notice in analyze(text).plan.notices):
            pastes.append((f"real/{path.stem}", text))
    return pastes


def _samples() -> list[tuple[str, str]]:
    pastes = []
    for path in sorted((FIXTURES / "samples").glob("*.json")):
        sample = json.loads(path.read_text(encoding="utf-8"))
        if sample["variant"].split(":")[0] in FORMATS and not sample["expect"].get("unrecoverable"):
            pastes.append((f"samples/{path.stem}", sample["input"]))
    return pastes


def _golden() -> list[tuple[str, str]]:
    pastes = []
    for path in sorted((FIXTURES / "explain").glob("*.txt")):
        expect = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if expect.get("format") in FORMATS and not expect["truncated"]:
            pastes.append((f"explain/{path.stem}", path.read_bytes().decode("utf-8")))
    return pastes


def _qa() -> list[tuple[str, str]]:
    """The QA captures of `-B` and `-E` output as the client printed them (`*.clean` cases)."""
    pastes = []
    for path in sorted((FIXTURES / "qa" / "cases").glob("*.clean.json")):
        mode = path.stem.split(".")[-2]
        if mode.split("_")[0] in FORMATS:
            pastes.append((f"qa/{path.stem}", json.loads(path.read_text(encoding="utf-8"))["input"]))
    return pastes


PASTES = dict(_real() + _samples() + _golden() + _qa())


def _kept(line: str, width: int, how: str) -> int:
    """How many characters of `line` are left when it is cut at `width` (`how`: "display" or "string")."""
    if how == "string":
        return min(len(line), width)
    shown = cut(expand_tabs(line), width)[0].rstrip(" ")
    return next(k for k in range(len(line), -1, -1) if expand_tabs(line[:k]).rstrip(" ") == shown)


def cut_paste(text: str, width: int, how: str) -> tuple[str, bool] | None:
    """`text` with every line cut at `width` (`how`: "display" or "string"), or None when no line
    loses anything but trailing blanks; and whether the cut is invisible: one line alone lost its
    end, at a field or Extra item boundary (before a tab or `;`), so the cut paste reads as a
    complete one and nothing in it can tell (a longest line that ends at a usual terminal width
    with a whole value is as often complete)."""
    lines = text.split("\n")
    if how == "display":
        cut_lines = [cut(expand_tabs(line), width)[0] for line in lines]
    else:
        cut_lines = [line[:width] for line in lines]
    shortened = [line for line in lines if line[_kept(line, width, how) :].strip()]
    if not shortened:
        return None
    line = shortened[0]
    kept = _kept(line, width, how)
    invisible = len(shortened) == 1 and (line[:kept].endswith("\t") or line[kept:].startswith(("\t", ";")))
    return "\n".join(cut_lines), invisible


def _reading(analysis: Analysis) -> tuple[str, list[str], list[dict[str, str | None]]]:
    plan = analysis.plan
    return plan.format, plan.columns, plan.rows


@cache
def _uncut(name: str) -> Analysis:
    return analyze(PASTES[name])


def _variants(name: str) -> list[tuple[int, str, str, bool]]:
    """The cut variants of a paste that lose something: (width, how, text, invisible)."""
    return [
        (width, how, *variant)
        for width in WIDTHS
        for how in ("display", "string")
        if (variant := cut_paste(PASTES[name], width, how)) is not None
    ]


def _silently_wrong(name: str, text: str) -> bool:
    """True when the cut paste `text` is read as complete but differently from the uncut one."""
    try:
        analysis = analyze(text)
    except ParseError:
        return False
    if analysis.plan.truncated:
        assert any("truncat" in notice for notice in analysis.plan.notices), analysis.plan.notices
        return False
    return _reading(analysis) != _reading(_uncut(name))


def test_the_generator_has_pastes_of_both_formats():
    assert {_uncut(name).plan.format for name in PASTES} == {"tsv", "vertical"}
    assert len(PASTES) >= 150
    assert sum(len(_variants(name)) for name in PASTES) >= 1400


@pytest.mark.parametrize("name", sorted(PASTES))
def test_a_cut_paste_is_flagged_or_read_the_same(name):
    assert not _uncut(name).plan.truncated, _uncut(name).plan.notices
    wrong = [
        f"{how} cut at {width}"
        for width, how, text, invisible in _variants(name)
        if not invisible and _silently_wrong(name, text)
    ]
    assert not wrong, f"lines cut short read as complete: {', '.join(wrong)}"


def test_invisible_cuts_are_few():
    variants = [variant for name in PASTES for variant in _variants(name)]
    assert sum(invisible for *_, invisible in variants) < len(variants) // 20
