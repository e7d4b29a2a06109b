"""The glossary covers every printed select_type, type and Extra term, each with exactly one entry,
and its loader rejects a glossary.toml with a mistake, naming the term."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from analyzer.insight import glossary
from analyzer.model import SEVERITIES

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "glossary" / "reference_terms.json").read_text())
PRINTED = [(row["column"], form) for row in REFERENCE["terms"] for form in row["printed"]]

# Printed forms named in the brief or seen in server output beyond the reference table.
EXTRA_FORMS = [
    ("type", "ref|filter"),
    ("type", "hash_ALL"),
    ("type", "all"),
    ("extra", "Using rowid filter"),
    ("extra", "Using index for group-by"),
    ("extra", "Using index for group-by (scanning)"),
    ("extra", "Using MRR"),
    ("extra", "Start temporary"),
    ("extra", "End temporary"),
    ("extra", "LooseScan"),
    ("extra", "FirstMatch(t1)"),
    ("extra", "FirstMatch(`orders`)"),
    ("extra", "Using where with pushed condition"),
    ("extra", "Impossible WHERE noticed after reading const tables"),
    ("extra", "no matching row in const table"),
    ("extra", "Zero limit"),
    ("extra", "Skip_open_table"),
    ("extra", "Open_frm_only"),
    ("extra", "Scanned 3 databases"),
    ("extra", "Backward index scan"),
    ("extra", "Using index for skip scan"),
    ("extra", "Using sort_union(idx_a,idx_b)"),
    ("extra", "Using union(idx_a,idx_b)"),
    ("extra", "Using intersect(a,b)"),
    ("extra", "Range checked for each record (index map: 0x3)"),
    ("extra", "Range checked for each record (index map: 0xFFFF)"),
    ("extra", "Using join buffer (flat, BNL join)"),
    ("extra", "Using join buffer (incremental, BKA join)"),
    ("extra", "Using join buffer (hash join)"),
    ("extra", "Using join buffer (Block Nested Loop)"),
    ("extra", "Using join buffer (Batched Key Access)"),
    ("extra", "Using index condition(BKA)"),
    ("extra", "Full scan on NULL key"),
    ("extra", "Distinct"),
    ("extra", "Not exists"),
    ("extra", "Materialize"),
    ("extra", "Scan"),
    ("extra", "Recursive"),
    ("extra", "Rematerialize (<derived2>)"),
    ("extra", "Table function: json_table"),
    ("extra", "Const row not found"),
    ("extra", "CONST ROW NOT FOUND"),
    ("extra", "Using  where"),  # a wrapped paste can leave doubled spaces
    ("extra", "Using\u00a0index"),  # NBSP
]

UNKNOWN = [
    ("extra", "Using magic"),
    ("extra", "Using index conditionX"),
    ("extra", "Using where; Using index"),  # a whole cell, not one item
    ("extra", "Using join buffer (flat, XYZ join)"),
    ("extra", "FirstMatch(t1"),
    ("extra", "Using intersect(a,(b))"),
    ("extra", "Range checked for each record"),
    ("extra", "Scanned some databases"),
    ("extra", "xUsing index"),
    ("type", "ALLX"),
    ("type", "lookup"),
    ("type", "filter|ref"),
    ("select_type", "SIMPLEST"),
    ("select_type", "SUB QUERY"),
    ("extra", ""),
    ("extra", "   "),
]

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def entries_matching(column: str, value: str) -> list[glossary.Term]:
    text = glossary.normalize(value)
    return [t for t in glossary.TERMS if t.column == column and t.pattern.match(text)]


@pytest.mark.parametrize(("column", "value"), PRINTED + EXTRA_FORMS)
def test_every_printed_term_matches_exactly_one_entry(column, value):
    matches = entries_matching(column, value)
    assert len(matches) == 1, [t.slug for t in matches]
    assert glossary.match(column, value) is matches[0]


def test_reference_covers_all_three_columns():
    columns = {row["column"] for row in REFERENCE["terms"]}
    assert columns == {"select_type", "type", "extra"}
    assert len(REFERENCE["terms"]) == 98


@pytest.mark.parametrize(("column", "value"), UNKNOWN)
def test_unknown_terms_do_not_match(column, value):
    assert entries_matching(column, value) == []
    assert glossary.match(column, value) is None


def test_match_accepts_column_in_any_case():
    assert glossary.match("Extra", "Using filesort").slug == "extra-using-filesort"
    assert glossary.match("EXTRA", "using FILESORT").slug == "extra-using-filesort"
    assert glossary.match("type", "ALL").slug == "type-all"
    assert glossary.match("type", "hash_all").slug == "type-hash-all"


def test_match_never_raises_on_odd_input():
    assert glossary.match("table", "Using index") is None
    assert glossary.match("extra", None) is None
    assert glossary.match("extra", 42) is None  # type: ignore[arg-type]
    assert glossary.match(None, "Using index") is None  # type: ignore[arg-type]


def test_a_term_is_not_matched_in_the_wrong_column():
    assert glossary.match("extra", "ALL") is None
    assert glossary.match("type", "Using index") is None
    assert glossary.match("select_type", "ref") is None


def test_slugs_are_unique_and_anchor_safe():
    slugs = [t.slug for t in glossary.TERMS]
    assert len(slugs) == len(set(slugs))
    for slug in slugs:
        assert SLUG.match(slug), slug
        assert glossary.BY_SLUG[slug].slug == slug
    prefixes = {"select_type": "select-", "type": "type-", "extra": "extra-"}
    for term in glossary.TERMS:
        assert term.slug.startswith(prefixes[term.column])


def test_terms_are_ordered_by_column():
    order = [glossary.COLUMNS.index(t.column) for t in glossary.TERMS]
    assert order == sorted(order)


def test_fields_are_filled_and_well_formed():
    for term in glossary.TERMS:
        assert term.column in glossary.COLUMNS
        assert term.severity in SEVERITIES
        assert term.term.strip()
        assert term.title.strip() and "\n" not in term.title
        assert term.url.startswith("https://"), term.url
        assert " " not in term.url
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", term.explanation.strip()) if s]
        assert 1 <= len(sentences) <= 4, term.slug
        assert term.pattern.flags & re.IGNORECASE


def test_explanations_are_not_the_reference_wording():
    meanings = {row["meaning"].strip().lower() for row in REFERENCE["terms"]}
    for term in glossary.TERMS:
        text = term.explanation.strip().lower()
        assert text not in meanings, term.slug
        assert term.title.strip().lower() not in meanings, term.slug
        for meaning in meanings:
            if len(meaning) > 40:
                assert meaning not in text, (term.slug, meaning)


def test_severities_follow_the_usual_reading():
    assert glossary.match("type", "ALL").severity == "bad"
    assert glossary.match("type", "index").severity == "warning"
    assert glossary.match("type", "eq_ref").severity == "good"
    assert glossary.match("extra", "Using filesort").severity == "warning"
    assert glossary.match("extra", "Using index").severity == "good"
    assert glossary.match("select_type", "DEPENDENT SUBQUERY").severity == "warning"
    assert glossary.match("select_type", "UNCACHEABLE SUBQUERY").severity == "bad"


def test_argument_patterns_handle_long_hostile_values():
    # Anchored patterns without nested quantifiers: these return at once instead of backtracking.
    long_args = "a," * 20_000
    assert glossary.match("extra", f"Using intersect({long_args})") is not None
    assert glossary.match("extra", f"Using intersect({long_args}") is None
    assert glossary.match("extra", "Range checked for each record (index map: 0x" + "f" * 50_000) is None
    assert glossary.match("extra", "Using pushed condition " + "(" * 50_000) is not None
    assert glossary.match("type", "ref" + "_" * 50_000 + "|filterx") is None


# --- the loader: glossary.toml is checked entry by entry ----------------------------------------

SMALL = """
[urls]
DOC = "https://mariadb.com/kb/en/explain"
MANUAL = "https://dev.mysql.com/doc/refman/{manual}/en/explain-output.html"

[[term]]
column = "extra"
slug = "extra-using-magic"
term = "Using magic"
severity = "info"
mariadb = "DOC"
title = "Magic"
explanation = "Sparkles."

[[term]]
column = "extra"
slug = "extra-using-spell"
term = "Using spell(…)"
severity = "warning"
pattern = 'Using spell{ARGS}'
mysql = "MANUAL"
mariadb = "DOC"
title = "A spell"
explanation = \"\"\"
Two \\
lines.\"\"\"
"""


def test_loader_reads_terms_in_order_with_patterns_and_joined_lines():
    small = glossary.load(SMALL)
    assert [t.slug for t in small.terms] == ["extra-using-magic", "extra-using-spell"]
    spell = small.by_slug["extra-using-spell"]
    assert spell.explanation == "Two lines."
    assert spell.url == "https://dev.mysql.com/doc/refman/8.4/en/explain-output.html"  # MySQL's LTS manual
    assert spell.url_for("mysql", "8.0") == "https://dev.mysql.com/doc/refman/8.0/en/explain-output.html"
    assert spell.url_for("mysql", "5.7") == spell.url_for("mysql", "8.0")
    assert spell.url_for("mysql", "9.1") == spell.url_for("mysql", None) == spell.url
    assert spell.url_for("mariadb", "10.11") == "https://mariadb.com/kb/en/explain"
    magic = small.by_slug["extra-using-magic"]  # MariaDB's page only: every server gets it
    assert magic.url == magic.url_for("mysql", "8.0") == "https://mariadb.com/kb/en/explain"
    assert [label for label, _ in spell.links()] == ["MySQL 8.4 manual", "MySQL 8.0 manual", "MariaDB documentation"]
    assert spell.pattern.pattern == r"\A(?:Using spell\([^()]*\))\Z"
    assert small.find("extra", "using SPELL(a,b)") is spell
    assert small.find("extra", "Using spell(a,(b))") is None
    assert small.find("extra", "USING MAGIC") is small.terms[0]
    assert small.find("type", "Using magic") is None


def test_loader_takes_parsed_data_too():
    assert glossary.load(tomllib.loads(SMALL)).terms == glossary.load(SMALL).terms


MISTAKES = [
    ('title = "Magic"', 'titel = "Magic"', "#1 (extra-using-magic): unknown key titel"),
    ('severity = "info"\n', "", "#1 (extra-using-magic): missing key severity"),
    ('mariadb = "DOC"\ntitle = "Magic"', 'mariadb = "DOCS"\ntitle = "Magic"', "#1 (extra-using-magic): unknown url id 'DOCS'"),
    ('mariadb = "DOC"\ntitle = "Magic"', 'title = "Magic"', "#1 (extra-using-magic): no documentation"),
    ('mariadb = "DOC"\ntitle = "Magic"', 'mysql = "DOC"\ntitle = "Magic"', "mysql url DOC is not in the mysql documentation"),
    ('mariadb = "DOC"\ntitle = "Magic"', 'mariadb = "MANUAL"\ntitle = "Magic"', "mariadb url MANUAL is not in the maria"),
    ("{manual}/en", "{version}/en", "url MANUAL has a placeholder other than {manual}"),
    ('severity = "warning"', 'severity = "critical"', "#2 (extra-using-spell): unknown severity 'critical'"),
    ('column = "extra"', 'column = "Extra"', "#1 (extra-using-magic): unknown column 'Extra'"),
    ('title = "Magic"', "title = 42", "#1 (extra-using-magic): title must be a non-empty string"),
    ('slug = "extra-using-spell"', 'slug = "extra-using-magic"', "#2 (extra-using-magic): slug already used"),
    ("{ARGS}'", "(['", "#2 (extra-using-spell): pattern does not compile"),
    ("{ARGS}", "{ARG}", "#2 (extra-using-spell): unknown placeholder {ARG}"),
    ("{ARGS}", "{ARGS", "#2 (extra-using-spell): unknown placeholder {ARGS"),
    (
        'term = "Using spell(…)"\nseverity = "warning"\npattern = \'Using spell{ARGS}\'\n',
        'term = "using MAGIC"\nseverity = "warning"\n',
        "#2 (extra-using-spell): extra term 'using MAGIC' already listed",
    ),
    ('"https://mariadb.com/kb/en/explain"', '"mariadb.com/kb/en/explain"', "url DOC is not an https:// address"),
    ("[urls]", '[url]\nDOC = "https://example.org/"\n\n[urls]', "unknown top-level key url"),
    ('title = "Magic"', 'title = "Magic', "not valid TOML"),
]


@pytest.mark.parametrize(("old", "new", "message"), MISTAKES, ids=[m[2].split(": ")[-1][:30] for m in MISTAKES])
def test_loader_names_the_term_at_fault(old, new, message):
    assert old in SMALL
    with pytest.raises(glossary.GlossaryError, match=re.escape(message)):
        glossary.load(SMALL.replace(old, new, 1))


def test_loader_needs_urls_and_terms():
    with pytest.raises(glossary.GlossaryError, match="no \\[\\[term\\]\\] entries"):
        glossary.load({"urls": {"DOC": "https://example.org/"}})
    with pytest.raises(glossary.GlossaryError, match="no \\[urls\\] table"):
        glossary.load({"term": [{"slug": "extra-x"}]})


def test_the_shipped_file_is_read_on_first_use_not_at_import():
    code = "import sys, analyzer.insight.glossary as g; print('TERMS' in vars(g), 'tomllib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.split() == ["False", "False"]
    assert glossary.TERMS is glossary._shipped().terms
    with pytest.raises(AttributeError):
        glossary.NO_SUCH_NAME  # noqa: B018


def _entries(terms):
    """Terms as plain values (a pattern read from the cache is compiled on first use, so it is
    another object than one compiled at once)."""
    return [(term.slug, term.term, term.pattern.pattern, term.title, term.explanation, term.url) for term in terms]


def test_the_parsed_file_is_cached_until_it_changes(tmp_path, monkeypatch):
    source, cache = tmp_path / "terms.toml", tmp_path / "__pycache__" / "terms.toml.marshal"
    source.write_text(SMALL)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = glossary.read_cached(str(source), str(cache))
    assert first.terms == glossary.load(SMALL).terms
    assert cache.exists()

    def not_parsed(text):
        raise AssertionError("parsed again")

    with monkeypatch.context() as patched:
        patched.setattr(glossary, "_parse_toml", not_parsed)
        again = glossary.read_cached(str(source), str(cache))
    assert _entries(again.terms) == _entries(first.terms)
    assert again.find("extra", "using SPELL(a,b)") is again.by_slug["extra-using-spell"]

    source.write_text(SMALL.replace("Sparkles.", "Sparkles, changed."))
    assert glossary.read_cached(str(source), str(cache)).terms[0].explanation == "Sparkles, changed."
    cache.write_bytes(b"not marshal data")
    assert glossary.read_cached(str(source), str(cache)).terms[0].explanation == "Sparkles, changed."


def test_nothing_is_cached_when_python_writes_no_bytecode(tmp_path, monkeypatch):
    source, cache = tmp_path / "terms.toml", tmp_path / "terms.toml.marshal"
    source.write_text(SMALL)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert glossary.read_cached(str(source), str(cache)).terms == glossary.load(SMALL).terms
    assert not cache.exists()


def test_a_mistake_in_the_file_is_never_cached(tmp_path, monkeypatch):
    source, cache = tmp_path / "terms.toml", tmp_path / "terms.toml.marshal"
    source.write_text(SMALL.replace("{ARGS}'", "(['", 1))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for _ in range(2):
        with pytest.raises(glossary.GlossaryError, match="pattern does not compile"):
            glossary.read_cached(str(source), str(cache))
    assert not cache.exists()


def test_the_cache_is_kept_beside_compiled_modules():
    path = glossary.cache_path(glossary.SOURCE)
    assert path.endswith(f"glossary.toml.{sys.implementation.cache_tag}.marshal")
    assert os.path.dirname(path) == os.path.dirname(importlib.util.cache_from_source(glossary.__file__))
