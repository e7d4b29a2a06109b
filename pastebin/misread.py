"""Misread reports: a paste someone says the analyzer read wrong, filed for the maintainers."""

from __future__ import annotations

from typing import Any

import analyzer
from pastebin import clock
from pastebin.anonymize import AnonymizeError, anonymize
from pastebin.models import Explain, MisreadReport
from pastebin.saving import SaveError, check_storable, run_analysis


def file_report(
    text: str, *, comment: str = "", anonymize_names: bool = False, explain: Explain | None = None
) -> MisreadReport:
    """Store a report on `text`: the paste of the saved `explain`, whose stored analysis is what the
    reporter saw, or (without `explain`) a paste analyzed now.

    Raises `SaveError` when the paste holds no explain, is too large, or cannot be anonymized.
    """
    check_storable(comment)
    if explain is not None:
        analysis, version = explain.analysis, explain.parser_version
    else:
        analysis, version = run_analysis(text, None).to_dict(), analyzer.PARSER_VERSION
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


def _anonymized(text: str, analysis: dict[str, Any]) -> str:
    try:
        return anonymize(text, analysis).explain
    except AnonymizeError as exc:
        raise SaveError(f"This paste could not be anonymized: {exc} Send it as it is, or not at all.") from exc
