"""`manage.py reanalyze`: analyze stored explains again with the current parser and annotator."""

from __future__ import annotations

from django.core.management.base import BaseCommand

import analyzer
from pastebin.models import Explain
from pastebin.saving import SaveError, run_analysis


class Command(BaseCommand):
    help = "Re-run the analysis of stored explains made by another parser version (or all, with --all)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--all", action="store_true", help="Also those already analyzed by this version.")
        parser.add_argument("slugs", nargs="*", help="Only these explains.")

    def handle(self, *args, all: bool = False, slugs: list[str] | None = None, **options) -> None:
        explains = Explain.objects.all()
        if slugs:
            explains = explains.filter(slug__in=slugs)
        if not all:
            explains = explains.exclude(parser_version=analyzer.PARSER_VERSION)
        updated = failed = 0
        for explain in explains.iterator(chunk_size=200):
            try:
                analysis = run_analysis(explain.raw_explain, explain.query or None)
            except SaveError as exc:
                failed += 1
                self.stderr.write(f"{explain.slug}: kept the old analysis: {exc.message}")
                continue
            explain.analysis = analysis.to_dict()
            explain.parser_version = analyzer.PARSER_VERSION
            explain.save(update_fields=["analysis", "parser_version", "search_text"])
            updated += 1
        self.stdout.write(
            f"Re-analyzed {updated} explain(s) with parser version {analyzer.PARSER_VERSION}; {failed} failed."
        )
