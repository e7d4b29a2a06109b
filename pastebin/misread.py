"""Misread reports: a paste someone says the analyzer read wrong, filed for the maintainers, and
written out as a draft case of the real-world corpus (tests/fixtures/real/) to triage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.urls import reverse

import analyzer
from pastebin import clock
from pastebin.anonymize import AnonymizeError, anonymize
from pastebin.models import Explain, MisreadReport
from pastebin.saving import SaveError, check_storable, run_analysis

CATEGORIES = "gui, framework, docs, json, tree, vertical, log, cli"


def file_report(
    text: str, *, comment: str = "", anonymize_names: bool = False, explain: Explain | None = None
) -> MisreadReport:
    """Store a report on `text`: the paste of the saved `explain`, whose stored analysis is what the
    reporter saw, or (without `explain`) a paste analyzed now.

    A paste the analyzer refused is reported too (what it read is then nothing): those are the
    pastes the maintainers most need to see. Raises `SaveError` when the paste is too large or too
    complex to analyze, or cannot be anonymized (a refused paste cannot: nothing in it was read).
    """
    check_storable(comment)
    if explain is not None:
        analysis, version = explain.analysis, explain.parser_version
    else:
        analysis, version = _analysis_or_nothing(text), analyzer.PARSER_VERSION
    if anonymize_names:
        text = _anonymized(text, analysis)
    return MisreadReport.objects.create(
        text=text,
        comment=comment,
        anonymized=anonymize_names,
        explain=explain,
        parser_version=version,
        read_format=str(analysis.get("format") or "")[:16],
        read_rows=len(analysis.get("rows") or []),
        read_truncated=bool(analysis.get("truncated")),
        created_at=clock.now(),
    )


def _analysis_or_nothing(text: str) -> dict[str, Any]:
    """The analysis of a paste, or an empty one when the analyzer found no EXPLAIN in it."""
    check_storable(text)
    try:
        return run_analysis(text, None).to_dict()
    except SaveError as exc:
        if exc.too_large or exc.too_complex:
            raise
        return {}


def _anonymized(text: str, analysis: dict[str, Any]) -> str:
    if not analysis:
        raise SaveError(
            "Nothing in this paste could be read, so what to hide in it is not known and it cannot be "
            "anonymized. Send it as it is, or not at all."
        )
    try:
        return anonymize(text, analysis).explain
    except AnonymizeError as exc:
        raise SaveError(f"This paste could not be anonymized: {exc} Send it as it is, or not at all.") from exc


def case_name(report: MisreadReport) -> str:
    return f"misread-{report.pk}"


def case_source(report: MisreadReport, site_url: str = "") -> str:
    """The permalink the report was sent from, when there is one and the site's address is known;
    else `report:<id>`, which names the report and nothing public."""
    if report.explain_id and site_url:
        return site_url.rstrip("/") + reverse("pastebin:detail", args=[report.explain_id])
    return f"report:{report.pk}"


def write_case(report: MisreadReport, directory: Path, site_url: str = "") -> str:
    """Write `<name>.txt` (the paste, byte for byte in UTF-8) and `<name>.toml` into `directory`;
    returns the name."""
    name = case_name(report)
    (directory / f"{name}.txt").write_bytes(report.text.encode("utf-8"))
    (directory / f"{name}.toml").write_bytes(case_toml(report, case_source(report, site_url)).encode("utf-8"))
    return name


def case_toml(report: MisreadReport, source: str) -> str:
    """The draft `<name>.toml` of a report, in the format of tests/fixtures/real/README.md.

    Only `source` and `note` (the reporter's comment) are set. A case's expectations are written by
    reading the paste, never by running the parser, and the reporter says the parser got this one
    wrong: what it read is there as comments to start from, and tests/analyzer/test_real_corpus.py
    refuses the case until a maintainer has written them.
    """
    lines = [
        f"# Misread report {report.pk}, sent {report.created_at:%Y-%m-%d %H:%M} UTC, status {report.status}.",
        "# A draft: read the .txt, write below what a careful reader sees in it (format, rows, tables,",
        "# types, partial, category), then move both files into tests/fixtures/real/<category>/.",
    ]
    lines += _source_lines(report, source)
    lines.append(f"note = {toml_string(report.comment)}" if report.comment.strip() else '# note = ""')
    if report.anonymized:
        lines.append("# Anonymized at the reporter's request: names replaced, table output rebuilt from what was read.")
    lines += [
        f"# What parser version {toml_string(report.parser_version)} read of the paste the reporter saw:",
        f"# format = {toml_string(report.read_format)}",
        f"# rows = {report.read_rows}",
        f"# partial = {'true' if report.read_truncated else 'false'}   # whether it was flagged as truncated",
        f'# category = ""   # {CATEGORIES}',
        "# tables = []",
        "# types = []",
        '# known_failure = ""   # only while the analyzer still reads it wrong',
    ]
    return "\n".join(lines) + "\n"


def _source_lines(report: MisreadReport, source: str) -> list[str]:
    """`source = …`, after a word on why it is not an http(s) address when it is not one (the
    corpus test requires one)."""
    line = f"source = {toml_string(source)}"
    if source.startswith(("https://", "http://")):
        return [line]
    if report.explain_id:
        why = [f"# Sent from the saved explain /e/{report.explain_id}/: export with --site-url to name its permalink."]
    else:
        why = [
            "# Sent from the site without saving the paste, so it has no public address: find where it was",
            "# posted, or keep it out of the corpus.",
        ]
    return ["# tests/analyzer/test_real_corpus.py wants an http(s) source."] + why + [line]


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(value: str) -> str:
    """`value` as a TOML basic string: quotes, backslashes and every control character escaped, so
    it stays on one line (and is safe inside a comment too)."""
    out = []
    for char in value:
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif char < " " or char == "\x7f":
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
