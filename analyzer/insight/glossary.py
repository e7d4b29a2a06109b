"""The EXPLAIN glossary: every select_type, join type and Extra item MySQL and MariaDB print.

Pure Python, no Django. The entries are data, in `glossary.toml` beside this module: a `[urls]`
table, then one `[[term]]` table per term in page order. To add or fix a term, edit that file;
the comment at its top lists the keys. It is read and checked on first use (`TERMS`, `BY_SLUG`
or `match()`), not at import, and a mistake in it raises `GlossaryError` naming the term.

Each `Term` carries an anchored, case-insensitive pattern; `match()` finds the entry for one
printed value (one Extra item at a time, not a whole "; "-joined cell). The web UI renders
`/terms/` from `TERMS` with anchors `#<slug>`.

Each term links to a page of the MySQL manual, of the MariaDB documentation, or both:
`Term.url_for(flavour, version)` gives the page of the server that printed the plan (for MySQL,
in the manual of its version), the other server's page when its own has none, and MySQL's first
when the server is not known. `{manual}` in a MySQL URL stands for the manual's version.

Wording is ours. Version facts and documentation URLs come from the project's EXPLAIN term
reference (MySQL 5.x-9.x, MariaDB 5.3-11.x); URLs prefer pages that were actually retrieved.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys

from analyzer.lazy import lazy_regex
from analyzer.model import SEVERITIES
from analyzer.structs import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

COLUMNS = ("select_type", "type", "extra")

# The MySQL manuals linked: {manual} in a MySQL URL becomes one of them (`mysql_manual()`).
MYSQL_MANUALS = ("8.0", "8.4")
_MANUAL = "{manual}"
# Where each server's documentation lives: a url id given as a term's `mysql` or `mariadb` must be there.
_HOSTS = {
    "mysql": ("https://dev.mysql.com/", "https://docs.oracle.com/"),
    "mariadb": ("https://mariadb.com/", "https://www.mariadb.com/"),
}


def mysql_manual(version: str | None) -> str:
    """The MySQL manual for a server's "major.minor" version: 8.0's for 8.0 and older (5.x), the
    8.4 LTS manual for 8.1 and newer, 9.x included, and when the version is not known."""
    try:
        major, minor = (int(part) for part in (version or "").split(".")[:2])
    except ValueError:
        return MYSQL_MANUALS[-1]
    return "8.0" if (major, minor) <= (8, 0) else "8.4"


@dataclass(frozen=True)
class Term:
    slug: str
    column: str
    term: str
    pattern: re.Pattern[str]
    severity: str
    title: str
    explanation: str
    # The term's page in the MySQL manual ({manual} for the manual's version) and in MariaDB's
    # documentation; at least one of them.
    mysql_url: str | None
    mariadb_url: str | None

    def url_for(self, flavour: str | None = None, version: str | None = None) -> str:
        """The documentation page for this term as printed by `flavour` ("mysql", "mariadb" or None)
        at `version` ("major.minor" or None): that server's page, else the other's."""
        if flavour == "mariadb" and self.mariadb_url:
            return self.mariadb_url
        if self.mysql_url:
            return self.mysql_url.replace(_MANUAL, mysql_manual(version if flavour == "mysql" else None))
        return self.mariadb_url or ""

    @property
    def url(self) -> str:
        """The page when the server is not known: MySQL's (the current LTS manual), else MariaDB's."""
        return self.url_for()

    def links(self) -> list[tuple[str, str]]:
        """Every page of the term, as (label, URL): MySQL's in each manual, newest first, then MariaDB's."""
        found = []
        if self.mysql_url:
            if _MANUAL in self.mysql_url:
                for manual in reversed(MYSQL_MANUALS):
                    found.append((f"MySQL {manual} manual", self.mysql_url.replace(_MANUAL, manual)))
            else:
                found.append(("MySQL manual", self.mysql_url))
        if self.mariadb_url:
            found.append(("MariaDB documentation", self.mariadb_url))
        return found


# Every term in file order, and the same by slug: read from glossary.toml on first access
# (see `__getattr__` at the end), so importing this module costs no file reading.
TERMS: tuple[Term, ...]
BY_SLUG: dict[str, Term]


class GlossaryError(ValueError):
    """The glossary data is not valid; the message names the entry at fault."""


@dataclass(frozen=True)
class Glossary:
    """Checked glossary entries, with the indexes `find()` uses."""

    terms: tuple[Term, ...]
    by_slug: dict[str, Term]
    # Exact terms by (column, lower-cased text); the terms with a pattern, per column, in order.
    literal: dict[tuple[str, str], Term]
    patterned: dict[str, tuple[Term, ...]]

    def find(self, column: str, text: str) -> Term | None:
        """The entry for `text`, already normalized, in `column` (one of COLUMNS)."""
        found = self.literal.get((column, text.lower()))
        if found is not None:
            return found
        for term in self.patterned[column]:
            if term.pattern.match(text):
                return term
        return None


# Argument lists such as "(a,b)" or "(<derived2>)": no nested parentheses, so no backtracking trouble.
# Patterns in glossary.toml write it as {ARGS}.
_ARGS = r"\([^()]*\)"
_PLACEHOLDER = "{ARGS}"
# A "{" left after that, unescaped and not opening a repetition such as {2,3}: a misspelt placeholder.
_STRAY_BRACE = r"(?<!\\)\{(?![0-9,])[^}]{0,20}\}?"

_REQUIRED_KEYS = ("column", "slug", "term", "severity", "title", "explanation")
_OPTIONAL_KEYS = ("pattern", "mysql", "mariadb")


def load(source: str | Mapping[str, Any], *, checked: bool = False) -> Glossary:
    """Check and index glossary data: TOML text, or the dict `tomllib` makes of it.

    Raises GlossaryError for invalid TOML, a malformed `[urls]` table, or an entry with an
    unknown or missing key (or neither `mysql` nor `mariadb`), an unknown column, severity or url
    id, a url id of the other server's documentation, a repeated slug or exact term, or a pattern
    that does not compile. Patterns are compiled on first use when the data was `checked` before
    (the shipped file's cached data), else now, to check them.
    """
    data = _parse_toml(source) if isinstance(source, str) else source
    unknown = sorted(set(data) - {"urls", "term"})
    if unknown:
        raise GlossaryError(f"glossary: unknown top-level {_keys(unknown)} (expected [urls] and [[term]])")
    urls = _check_urls(data.get("urls"))
    entries = data.get("term")
    if not isinstance(entries, list) or not entries:
        raise GlossaryError("glossary: no [[term]] entries")
    return _index([_make_term(number, entry, urls, checked) for number, entry in enumerate(entries, start=1)])


def _parse_toml(text: str) -> dict[str, Any]:
    import tomllib  # here, not at the top: it costs more to import than the rest of this module

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GlossaryError(f"glossary: not valid TOML: {exc}") from exc


def _check_urls(urls: object) -> dict[str, str]:
    if not isinstance(urls, dict) or not urls:
        raise GlossaryError("glossary: no [urls] table")
    for key, url in urls.items():
        plain = url.replace(_MANUAL, MYSQL_MANUALS[0]) if isinstance(url, str) else url
        if not isinstance(plain, str) or not plain.startswith("https://") or any(c.isspace() for c in plain):
            raise GlossaryError(f"glossary: url {key} is not an https:// address: {url!r}")
        if "{" in plain or "}" in plain:
            raise GlossaryError(f"glossary: url {key} has a placeholder other than {_MANUAL}: {url!r}")
    return urls


def _make_term(number: int, entry: object, urls: Mapping[str, str], checked: bool) -> tuple[Term, bool]:
    """One [[term]] entry, checked, and whether it is an exact term (it has no pattern)."""
    where = _describe(number, entry)
    if not isinstance(entry, dict):
        raise GlossaryError(f"{where}: not a table")
    unknown = sorted(set(entry) - set(_REQUIRED_KEYS) - set(_OPTIONAL_KEYS))
    if unknown:
        raise GlossaryError(f"{where}: unknown {_keys(unknown)}")
    missing = [key for key in _REQUIRED_KEYS if key not in entry]
    if missing:
        raise GlossaryError(f"{where}: missing {_keys(missing)}")
    for key, value in entry.items():
        if not isinstance(value, str) or not value.strip():
            raise GlossaryError(f"{where}: {key} must be a non-empty string, not {value!r}")
    if entry["column"] not in COLUMNS:
        raise GlossaryError(f"{where}: unknown column {entry['column']!r} (expected one of {', '.join(COLUMNS)})")
    if entry["severity"] not in SEVERITIES:
        raise GlossaryError(f"{where}: unknown severity {entry['severity']!r} (expected {', '.join(SEVERITIES)})")
    if "mysql" not in entry and "mariadb" not in entry:
        raise GlossaryError(f"{where}: no documentation: give mysql, mariadb or both")
    for server in ("mysql", "mariadb"):
        if server in entry:
            if entry[server] not in urls:
                raise GlossaryError(f"{where}: unknown url id {entry[server]!r} (not in [urls])")
            if not urls[entry[server]].startswith(_HOSTS[server]):
                raise GlossaryError(f"{where}: {server} url {entry[server]} is not in the {server} documentation")
            if server == "mariadb" and _MANUAL in urls[entry[server]]:
                raise GlossaryError(f"{where}: mariadb url {entry[server]} has {_MANUAL}")
    term = Term(
        slug=entry["slug"],
        column=entry["column"],
        term=entry["term"],
        pattern=_compile(where, entry["term"], entry.get("pattern"), checked),
        severity=entry["severity"],
        title=entry["title"],
        explanation=entry["explanation"],
        mysql_url=urls[entry["mysql"]] if "mysql" in entry else None,
        mariadb_url=urls[entry["mariadb"]] if "mariadb" in entry else None,
    )
    return term, "pattern" not in entry


def _describe(number: int, entry: object) -> str:
    slug = entry.get("slug") if isinstance(entry, dict) else None
    return f"glossary term #{number}" + (f" ({slug})" if isinstance(slug, str) else "")


def _compile(where: str, term: str, pattern: str | None, checked: bool) -> re.Pattern[str]:
    if pattern is None:
        # An exact term is looked up by its text; its pattern (always valid) is compiled if ever used.
        return lazy_regex(rf"\A(?:{re.escape(term)})\Z", re.IGNORECASE)
    regex = pattern.replace(_PLACEHOLDER, _ARGS)
    if checked:
        return lazy_regex(rf"\A(?:{regex})\Z", re.IGNORECASE)
    stray = re.search(_STRAY_BRACE, regex)
    if stray:
        raise GlossaryError(f"{where}: unknown placeholder {stray.group()} in pattern (only {_PLACEHOLDER})")
    try:
        return re.compile(rf"\A(?:{regex})\Z", re.IGNORECASE)
    except re.error as exc:
        raise GlossaryError(f"{where}: pattern does not compile: {exc}") from exc


def _index(made: list[tuple[Term, bool]]) -> Glossary:
    by_slug: dict[str, Term] = {}
    literal: dict[tuple[str, str], Term] = {}
    patterned: dict[str, list[Term]] = {column: [] for column in COLUMNS}
    for number, (term, exact) in enumerate(made, start=1):
        where = f"glossary term #{number} ({term.slug})"
        if term.slug in by_slug:
            raise GlossaryError(f"{where}: slug already used by an earlier term")
        by_slug[term.slug] = term
        if not exact:
            patterned[term.column].append(term)
        elif literal.setdefault((term.column, term.term.lower()), term) is not term:
            raise GlossaryError(f"{where}: {term.column} term {term.term!r} already listed")
    return Glossary(
        terms=tuple(term for term, _ in made),
        by_slug=by_slug,
        literal=literal,
        patterned={column: tuple(terms) for column, terms in patterned.items()},
    )


_SHIPPED: dict[str, Glossary] = {}
SOURCE = os.path.join(os.path.dirname(__file__), "glossary.toml")
# Bump when the cached data changes shape.
_CACHE_VERSION = 1


def _shipped() -> Glossary:
    """glossary.toml beside this module, read once. Threads racing here all get the first one stored."""
    found = _SHIPPED.get("glossary")
    if found is None:
        found = _SHIPPED.setdefault("glossary", read_cached(SOURCE, cache_path(SOURCE)))
    return found


def cache_path(source: str) -> str:
    """Where the parsed data of the glossary file `source` is cached: beside Python's compiled
    modules (`__pycache__`, or under `sys.pycache_prefix`)."""
    from importlib.util import cache_from_source

    folder = os.path.dirname(cache_from_source(source + ".py"))
    return os.path.join(folder, f"{os.path.basename(source)}.{sys.implementation.cache_tag}.marshal")


def read_cached(source: str, cache: str) -> Glossary:
    """The glossary file `source`, its parsed data read from `cache` when that was written from
    the same version of the file (its size and modification time), as Python does for modules:
    parsing the TOML costs more than a short paste's whole analysis. The data is checked when it
    is parsed, and cached only if it passes (unless Python is told not to write bytecode)."""
    import marshal

    stat = os.stat(source)
    key = (_CACHE_VERSION, stat.st_size, stat.st_mtime_ns)
    try:
        with open(cache, "rb") as handle:
            cached_key, data = marshal.loads(handle.read())  # `marshal.load` reads a file in small pieces
        if cached_key == key:
            return load(data, checked=True)
    except (OSError, ValueError, EOFError, TypeError):
        pass  # no cache yet, or one that is not ours: parse the file
    with open(source, encoding="utf-8") as handle:
        data = _parse_toml(handle.read())
    found = load(data)
    if not sys.dont_write_bytecode:
        _write_cache(cache, marshal.dumps((key, data)))
    return found


def _write_cache(cache: str, data: bytes) -> None:
    """Write `data` to `cache` whole (through a file of its own that replaces it), or not at all."""
    partial = f"{cache}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(data)
        os.replace(partial, cache)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(partial)


_SPACES = lazy_regex(r"\s+")
_COLUMN_ALIASES = {"extra": "extra", "select_type": "select_type", "type": "type", "access_type": "type"}


def normalize(value: str) -> str:
    """The value as matched: surrounding space removed, inner runs of whitespace (NBSP too) made single spaces."""
    return _SPACES.sub(" ", value).strip()


def match(column: str, value: str | None) -> Term | None:
    """The glossary entry for one printed value of `column` ("select_type", "type" or "extra", any case).

    Returns None for unknown columns, unknown values and anything that is not a string.
    """
    if not isinstance(column, str) or not isinstance(value, str):
        return None
    # Plans repeat the same few short values; long ones skip the cache so it stays small.
    return _cached_lookup(column, value) if len(value) <= 200 else _lookup(column, value)


def _lookup(column: str, value: str) -> Term | None:
    col = _COLUMN_ALIASES.get(column.strip().lower())
    if col is None:
        return None
    text = normalize(value)
    if not text:
        return None
    return _shipped().find(col, text)


_cached_lookup = functools.lru_cache(maxsize=2048)(_lookup)


def __getattr__(name: str) -> object:
    """`TERMS` and `BY_SLUG`, read from glossary.toml on first access (PEP 562), then kept as globals."""
    if name not in ("TERMS", "BY_SLUG"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    shipped = _shipped()
    globals().update(TERMS=shipped.terms, BY_SLUG=shipped.by_slug)
    return globals()[name]


def _keys(names: list[str]) -> str:
    """`key titel`, `keys a, b`."""
    return f"key {names[0]}" if len(names) == 1 else f"keys {', '.join(names)}"
