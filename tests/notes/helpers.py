"""Small parsers for what the notes pages return: HTML data tables and inline SVG charts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SVG = "{http://www.w3.org/2000/svg}"


class DataTables(HTMLParser):
    """Collects every `<table class="data-table">`: header texts and body rows as cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list]] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._section = ""

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table" and "data-table" in (attributes.get("class") or ""):
            self.tables.append({"header": [], "rows": []})
        elif not self.tables:
            return
        elif tag in ("thead", "tbody"):
            self._section = tag
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            key = "header" if self._section == "thead" else "rows"
            if key == "header":
                self.tables[-1]["header"] = self._row
            else:
                self.tables[-1]["rows"].append(self._row)
            self._row = None
        elif tag == "table":
            self._section = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def data_tables(html: str) -> list[dict[str, list]]:
    parser = DataTables()
    parser.feed(html)
    return parser.tables


def charts(html: str) -> list[ET.Element]:
    """Every inline `<svg>` of a page, parsed as XML (fails if one is not well-formed)."""
    return [ET.fromstring(markup) for markup in re.findall(r"<svg\b.*?</svg>", html, flags=re.S)]


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def marks_by_series(svg: ET.Element) -> dict[str, list[ET.Element]]:
    return {
        group.get("data-series"): [el for el in group if "mark" in classes(el)]
        for group in svg.iter(f"{SVG}g")
        if "series" in classes(group)
    }
