"""`manage.py export_misread_reports`: write misread reports as draft cases of the real-world corpus."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from analyzer.wording import plural
from pastebin.misread import write_case
from pastebin.models import MisreadReport, MisreadStatus

SITE_URL_RE = re.compile(r"https?://[^\s/?#]+(/[^\s?#]*)?")


class Command(BaseCommand):
    help = (
        "Write misread reports (new ones by default) as cases to triage: <name>.txt, the paste byte for byte, "
        "and <name>.toml, a draft in the format of tests/fixtures/real/README.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--output", required=True, type=Path, help="Directory for the files (created if missing).")
        parser.add_argument(
            "--status", choices=MisreadStatus.values, default=MisreadStatus.NEW, help="Which reports (default: new)."
        )
        parser.add_argument(
            "--site-url",
            default="",
            help="The site's address (https://explain.example.org): a report sent from a saved explain then names "
            "its permalink as the source. Without it, every source is report:<id>.",
        )
        parser.add_argument("--mark-triaged", action="store_true", help="Mark the exported reports triaged.")

    def handle(self, *args, output: Path, status: str, site_url: str, mark_triaged: bool, **options) -> None:
        if site_url and not SITE_URL_RE.fullmatch(site_url):
            raise CommandError(f"--site-url must be an http(s) address such as https://explain.example.org: {site_url}")
        try:
            output.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"Cannot write to {output}: {exc}") from exc
        written = []
        for report in MisreadReport.objects.filter(status=status).order_by("created_at", "id").iterator():
            self.stdout.write(write_case(report, output, site_url))
            written.append(report.pk)
        if mark_triaged:
            MisreadReport.objects.filter(pk__in=written).update(status=MisreadStatus.TRIAGED)
        marked = " and marked them triaged" if mark_triaged and written else ""
        self.stdout.write(f"Wrote {plural(len(written), 'case')} to {output}{marked}.")
