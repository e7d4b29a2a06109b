"""`manage.py purge_expired`: delete expired explains, leaving tombstones so their links say 410,
and the idempotency records older than 24 hours. Both go in batches by key (see
`pastebin.maintenance.purge_expired`), each batch in a transaction of its own."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand

from analyzer.wording import plural
from pastebin import clock, idempotency
from pastebin.maintenance import purge
from pastebin.models import Explain, IdempotencyRecord

BATCH = 2000


class Command(BaseCommand):
    help = (
        "Delete every explain whose expiry time has passed, and the idempotency records older than "
        "24 hours (run it from cron, e.g. hourly)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Only count what would be deleted.")
        parser.add_argument(
            "--batch-size", type=int, default=BATCH, help=f"Explains deleted per transaction (default {BATCH})."
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=os.cpu_count() or 1,
            help="Batches of explains deleted side by side, each on a connection of its own (PostgreSQL; default: cores).",
        )

    def handle(self, *args, dry_run: bool = False, batch_size: int = BATCH, jobs: int = 1, **options) -> None:
        now = clock.now()
        expired = Explain.objects.expired(now)
        records = IdempotencyRecord.objects.filter(created_at__lte=idempotency.cutoff(now))
        if dry_run:
            self.stdout.write(f"{plural(expired.count(), 'expired explain')} would be deleted.")
            self.stdout.write(f"{plural(records.count(), 'expired idempotency record')} would be deleted.")
            return
        explains, old_records = purge(now, batch_size, jobs)
        self.stdout.write(f"Deleted {plural(explains, 'expired explain')}.")
        self.stdout.write(f"Deleted {plural(old_records, 'expired idempotency record')}.")
