"""Read the notes shipped in `notes/content/`: one `<slug>.md` with front matter per note,
and an optional `<slug>.json` holding its links, facts and tables.

Front matter is a block of `key: value` lines between two `---` lines at the top of the file;
the rest of the file is the Markdown body. No Django here: `load_notes` saves what this returns.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notes.schema import DataError, check_facts, check_links, check_tables

CONTENT_DIR = Path(__file__).resolve().parent / "content"
KINDS = {"release", "benchmark"}
PRECISIONS = {"day", "month", "year"}
REQUIRED = {"title", "slug", "kind", "date", "summary"}
OPTIONAL = {"date_precision", "product", "version"}
DATA_KEYS = {"links", "facts", "tables"}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass
class NoteSource:
    """One note as read from disk, ready to be saved."""

    slug: str
    kind: str
    title: str
    date: datetime.date
    date_precision: str
    summary: str
    body: str
    product: str = ""
    version: str = ""
    links: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    digest: str = ""


def split_front_matter(text: str, where: str) -> tuple[dict[str, str], str]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise DataError(f"{where}: must start with a --- line opening the front matter")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise DataError(f"{where}: the front matter has no closing --- line") from None
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:end], start=2):
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or not key:
            raise DataError(f"{where}, line {number}: expected 'key: value'")
        if key in meta:
            raise DataError(f"{where}, line {number}: {key} is given twice")
        meta[key] = value.strip()
    body = "\n".join(lines[end + 1 :]).strip() + "\n"
    return meta, body


def parse_note(markdown_text: str, data_text: str | None, where: str) -> NoteSource:
    """Build a NoteSource from the text of a `.md` file and of its `.json` companion, if any."""
    meta, body = split_front_matter(markdown_text, where)
    missing = REQUIRED - meta.keys()
    if missing:
        raise DataError(f"{where}: front matter lacks {', '.join(sorted(missing))}")
    unknown = meta.keys() - REQUIRED - OPTIONAL
    if unknown:
        raise DataError(f"{where}: unknown front matter key {', '.join(sorted(unknown))}")
    if not SLUG.match(meta["slug"]):
        raise DataError(f"{where}: slug must be lowercase words joined by hyphens")
    if meta["kind"] not in KINDS:
        raise DataError(f"{where}: kind must be release or benchmark")
    precision = meta.get("date_precision", "day")
    if precision not in PRECISIONS:
        raise DataError(f"{where}: date_precision must be day, month or year")
    try:
        date = datetime.date.fromisoformat(meta["date"])
    except ValueError:
        raise DataError(f"{where}: date must be YYYY-MM-DD") from None
    data: dict[str, Any] = {}
    if data_text is not None:
        try:
            data = json.loads(data_text)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where} data: invalid JSON ({exc})") from None
        if not isinstance(data, dict) or data.keys() - DATA_KEYS:
            raise DataError(f"{where} data: must be an object with only {', '.join(sorted(DATA_KEYS))}")
    note = NoteSource(
        slug=meta["slug"],
        kind=meta["kind"],
        title=meta["title"],
        date=date,
        date_precision=precision,
        summary=meta["summary"],
        body=body,
        product=meta.get("product", ""),
        version=meta.get("version", ""),
        links=data.get("links", []),
        facts=data.get("facts", []),
        tables=data.get("tables", []),
        digest=hashlib.sha256((markdown_text + "\0" + (data_text or "")).encode()).hexdigest(),
    )
    try:
        check_links(note.links)
        check_facts(note.facts)
        check_tables(note.tables)
    except DataError as exc:
        raise DataError(f"{where} data: {exc}") from None
    if note.kind == "release" and not (note.product and note.version):
        raise DataError(f"{where}: a release note needs product and version")
    return note


def read_notes(directory: Path = CONTENT_DIR) -> list[NoteSource]:
    """Every note in `directory`, sorted by slug; the file name must be the slug."""
    notes = []
    for path in sorted(directory.glob("*.md")):
        data_path = path.with_suffix(".json")
        data_text = data_path.read_text(encoding="utf-8") if data_path.exists() else None
        note = parse_note(path.read_text(encoding="utf-8"), data_text, path.name)
        if note.slug != path.stem:
            raise DataError(f"{path.name}: the slug {note.slug!r} must match the file name")
        notes.append(note)
    orphans = {p.stem for p in directory.glob("*.json")} - {n.slug for n in notes}
    if orphans:
        raise DataError(f"data files without a note: {', '.join(sorted(orphans))}")
    return notes
